// SPDX-License-Identifier: MIT
// The exact-precision matmul driver, Armv8.0 NEON (exact/kernels.hpp has the
// accumulation order). Kernel functions only; registered by exact/register.cpp.
//
// Scheme: for a group of up to kGroup activation rows and each output row,
// the row's blocks are decoded kChunkFloats at a time into a float buffer
// (NEON decoder, or the format's scalar decoder), and each tile of up to
// four activation rows runs through the chunk with four 4-lane accumulators
// per row, one FMLA per 4 inputs; between chunks the accumulators wait in a
// stack buffer (stored and reloaded exactly). A weight block is decoded once
// per group of activation rows. The operations of an (i, o) pair do not
// depend on the block order (blocks are addressed through byte strides),
// the group, the tile or the split of the output rows.
#include <arm_neon.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/aarch64/exact/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

#include "kernels/aarch64/exact/decode.inc"

constexpr int kAccs = 4;                // accumulators per (i, o): 16 inputs per step
constexpr int kTile = 4;                // activation rows per tile
constexpr int kGroup = 64;              // activation rows per decoded chunk
constexpr int64_t kChunkFloats = 1024;  // decoded inputs per chunk: whole blocks of any format

// The most floats one tile of a served row-interleaved twin decodes to (R
// rows of a block: IQ4_XS_R8's 8 x 256).
constexpr int64_t max_twin_tile_floats() {
    int64_t m = 0;
    for (const FormatFacts& f : kFormatFacts)
        if (f.block_rows > 1 && exact_driver_serves(f.block_quantized, true, f.block_elems))
            m = std::max<int64_t>(m, int64_t(f.block_rows) * f.block_elems);
    return m;
}
constexpr int64_t kTwinTileFloats = max_twin_tile_floats();

struct Acc {
    float32x4_t a[kAccs];
};

// The C activation rows' accumulators (in `state`) run through `len` decoded
// weights; x[c] points at row c's activation for the chunk's first input.
template <int C>
void tile(const float* w, int64_t len, const float* const (&x)[C], float* state) {
    Acc acc[C];
    for (int c = 0; c < C; ++c)
        for (int q = 0; q < kAccs; ++q) acc[c].a[q] = vld1q_f32(state + (c * kAccs + q) * 4);
    for (int64_t k = 0; k < len; k += 4 * kAccs) {
        float32x4_t wv[kAccs];
#pragma GCC unroll 4
        for (int q = 0; q < kAccs; ++q) wv[q] = vld1q_f32(w + k + 4 * q);
#pragma GCC unroll 4
        for (int c = 0; c < C; ++c)
#pragma GCC unroll 4
            for (int q = 0; q < kAccs; ++q) acc[c].a[q] = vfmaq_f32(acc[c].a[q], wv[q], vld1q_f32(x[c] + k + 4 * q));
    }
    for (int c = 0; c < C; ++c)
        for (int q = 0; q < kAccs; ++q) vst1q_f32(state + (c * kAccs + q) * 4, acc[c].a[q]);
}

// s = (A0 + A1) + (A2 + A3), then (s0 + s1) + (s2 + s3): two explicit FADDP steps.
inline float reduce(const float* state) {
    const float32x4_t s = vaddq_f32(vaddq_f32(vld1q_f32(state), vld1q_f32(state + 4)),
                                    vaddq_f32(vld1q_f32(state + 8), vld1q_f32(state + 12)));
    return vpadds_f32(vget_low_f32(vpaddq_f32(s, s)));
}

// Blocks b0 .. b0 + nb - 1 of output row o into dst.
void decode_chunk(const PackedArgs& a, ExactDecodeFn dec, int64_t o, int64_t b0, int64_t nb, float* dst) {
    if (a.block_rows > 1) {
        // A row-interleaved twin: its decoder gives each tile's R rows
        // through the canonical decoder ([R][block_elems]); row o % R is
        // the canonical row's floats.
        alignas(16) float tile[kTwinTileFloats];
        const int64_t r = a.block_rows, k = o % r;
        const uint8_t* src = a.w + o / r * a.so + b0 * a.sb;
        for (int64_t b = 0; b < nb; ++b) {
            a.scalar_decode(src + b * a.sb, 1, a.tensor_scale, tile);
            std::memcpy(dst + b * a.block_elems, tile + k * a.block_elems, sizeof(float) * size_t(a.block_elems));
        }
        return;
    }
    const uint8_t* src = a.w + o * a.so + b0 * a.sb;
    if (dec != nullptr) {
        dec(src, a.sb, nb, a.tensor_scale, dst);
    } else if (a.sb == a.block_bytes) {
        a.scalar_decode(src, nb, a.tensor_scale, dst);
    } else {
        for (int64_t b = 0; b < nb; ++b) a.scalar_decode(src + b * a.sb, 1, a.tensor_scale, dst + b * a.block_elems);
    }
}

void run_group(const PackedArgs& a, ExactDecodeFn dec, int64_t o0, int64_t o1, int64_t i0, int g) {
    alignas(16) float w[kChunkFloats];
    alignas(16) float state[kGroup * kAccs * 4];
    const int64_t per_chunk = kChunkFloats / a.block_elems;
    for (int64_t o = o0; o < o1; ++o) {
        std::memset(state, 0, sizeof(float) * size_t(g * kAccs * 4));
        for (int64_t b0 = 0; b0 < a.bpr; b0 += per_chunk) {
            const int64_t nb = a.bpr - b0 < per_chunk ? a.bpr - b0 : per_chunk;
            decode_chunk(a, dec, o, b0, nb, w);
            const int64_t k0 = b0 * a.block_elems, len = nb * a.block_elems;
            for_each_row_tile_up_to<kTile>(g, [&](auto C, int64_t t) SKN_TILE_INLINE {
                const float* x[C];
                for (int c = 0; c < C; ++c) x[c] = a.xf + (i0 + t + c) * a.xf_stride + k0;
                tile<C>(w, len, x, state + t * kAccs * 4);
            });
        }
        for (int c = 0; c < g; ++c) {
            const float v = reduce(state + c * kAccs * 4);
            a.y[(i0 + c) * a.y_stride + o] = a.bias != nullptr ? v + a.bias[o] : v;
        }
    }
}

// The NEON decoder of `format`, or null: the formats of facts.hpp's table
// walked at compile time, each with a Dec<FormatId> specialization served.
template <size_t I>
ExactDecodeFn decoder_from(FormatId format) {
    if constexpr (I == std::size(kFormatFacts)) {
        return nullptr;
    } else {
        constexpr FormatId id = kFormatFacts[I].id;
        if constexpr (kHasNeonDecoder<id>) {
            static_assert(Dec<id>::kElems == kFormatFacts[I].block_elems,
                          "a NEON decoder's block size differs from formats/facts.hpp");
            if (format == id) return decode_span<Dec<id>>;
        }
        return decoder_from<I + 1>(format);
    }
}

}  // namespace

ExactDecodeFn exact_decoder_neon(FormatId format) { return decoder_from<0>(format); }

void exact_matmul_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end) {
    const ExactDecodeFn dec = a.block_rows > 1 ? nullptr : exact_decoder_neon(a.format);
    for (int64_t i0 = 0; i0 < a.n; i0 += kGroup)
        run_group(a, dec, out_begin, out_end, i0, a.n - i0 < kGroup ? int(a.n - i0) : kGroup);
}

}  // namespace skn_core::kernels::aarch64
