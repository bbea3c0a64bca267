// SPDX-License-Identifier: MIT
// Dense BF16 x BF16 with BFDOT (FEAT_BF16), registered at the neoni8mm tier
// only when the CPU has bf16 (no tier implies it; dense/register.cpp checks
// cpu_features().neon_bf16). Built with the tier's flags plus +bf16.
//
// Order: each (weight row, activation row) pair owns one 4-lane accumulator;
// chunks of 8 elements in index order (a ragged last chunk zero-padded on
// both sides), one BFDOT each: lane j adds w[2j] x[2j] + w[2j+1] x[2j+1];
// then (s0 + s1) + (s2 + s3). BFDOT rounds as the architecture defines it
// (without FEAT_EBF16: subnormal inputs and results flushed, the pair's sum
// rounded to odd, whatever FPCR says), so its bits are not the neon tier's
// FMA chain; they are within the float accumulation bound of docs/kernels.md
// and do not depend on the split of the output rows.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "kernels/aarch64/dense/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

#include "kernels/aarch64/dense/body.inc"

// 4 weight rows x 4 activation rows: 16 accumulators, 4 weight and 1
// activation vectors.
struct Bf16Dot {
    static constexpr int kChunk = 8, WB = 2, XB = 2, kRows = 4, kCols = 4;
    using Acc = float32x4_t;
    using WV = bfloat16x8_t;
    using XV = bfloat16x8_t;
    static float32x4_t zero() { return vdupq_n_f32(0.0f); }
    static bfloat16x8_t lw(const uint8_t* p) { return vld1q_bf16(reinterpret_cast<const bfloat16_t*>(p)); }
    static bfloat16x8_t lx(const uint8_t* p) { return vld1q_bf16(reinterpret_cast<const bfloat16_t*>(p)); }
    static float32x4_t step(float32x4_t acc, bfloat16x8_t w, bfloat16x8_t x) { return vbfdotq_f32(acc, w, x); }
    static float reduce(float32x4_t acc) { return sum_lanes(acc); }
};

}  // namespace

void dense_bf16_bf16_neonbf16(const PackedArgs& a, int64_t ob, int64_t oe) { run<Bf16Dot>(a, ob, oe); }

}  // namespace skn_core::kernels::aarch64
