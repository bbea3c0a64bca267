// SPDX-License-Identifier: MIT
// What every row-interleaved codec shares (formats/interleaved*.cpp): two
// bit movers, the decoder that splits a block into its R canonical blocks
// and runs the canonical decoder on each, and the macro that defines a codec
// from its two byte movers. Internal to src/formats.
#pragma once

#include <cstdint>

#include "formats/codecs.hpp"
#include "formats/interleaved.hpp"

namespace skn_core::codec {

// spread4: bits 0..3 of x to bit 0 of bytes 0..3; gather4 the inverse
// (bit 0 of bytes 0..3 to bits 0..3). One multiply each: the multiplier's
// four shifts put every partial product on a bit of its own (no carries),
// and the wanted ones on bits 0, 8, 16, 24 (spread4) or 24..27 (gather4).
inline uint32_t spread4(uint32_t x) { return ((x & 0xFu) * 0x00204081u) & 0x01010101u; }
inline uint32_t gather4(uint32_t w) { return (((w & 0x01010101u) * 0x01020408u) >> 24) & 0xFu; }

// Decoding: each block's R rows through the canonical decoder, into R rows
// of Elems floats, the rows of one block consecutive ([R][Elems]). One row's
// share of a block may be several canonical blocks (BF16_R16: two BF16
// values, CanonBlocks = 2), which the canonical decoder takes in a row.
template <int R, int RowBytes, int Elems, int CanonBlocks, DeinterleaveFn Split, DecodeBlocksFn Canonical>
void decode_interleaved(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst) {
    uint8_t canon[R][RowBytes];
    uint8_t* rows[R];
    for (int k = 0; k < R; ++k) rows[k] = canon[k];
    for (int64_t b = 0; b < nblocks; ++b) {
        Split(src + size_t(b) * R * RowBytes, rows);
        for (int k = 0; k < R; ++k) Canonical(canon[k], CanonBlocks, tensor_scale, dst + (b * R + k) * Elems);
    }
}

#define SKN_INTERLEAVED(name, R, row_bytes, elems, canon_blocks, inter, deinter, canonical)                      \
    void decode_##name(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst) {                   \
        decode_interleaved<R, row_bytes, elems, canon_blocks, deinter, decode_##canonical>(src, nblocks,           \
                                                                                           tensor_scale, dst);    \
    }                                                                                                           \
    const InterleavedCodec kInterleaved_##name{R, inter, deinter, decode_##name};

}  // namespace skn_core::codec
