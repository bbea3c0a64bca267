// SPDX-License-Identifier: MIT
// What every row-interleaved codec shares (formats/interleaved*.cpp): the
// decoder that splits a block into its R canonical blocks and runs the
// canonical decoder on each, and the macro that defines a codec from its
// two byte movers. Internal to src/formats.
#pragma once

#include <cstdint>

#include "formats/codecs.hpp"
#include "formats/interleaved.hpp"

namespace skn_core::codec {

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
