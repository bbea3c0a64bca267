// SPDX-License-Identifier: MIT
// Dense matmul_wt kernels, Armv8.0 NEON (dense/kernels.hpp has the
// accumulation order; docs/kernels/dense.md the tiling). Plain NEON has no
// f16 arithmetic, only conversion: 16-bit operands are widened to float
// exactly (F16: FCVTL / FCVTL2; BF16: USHLL by 16) and multiplied with FMLA.
// The same operations run for a (row, activation) pair whatever tile it sits
// in, so the split of the output rows does not change y.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "kernels/aarch64/dense/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

#include "kernels/aarch64/dense/body.inc"

// Eight elements as floats: elements 0..3 and 4..7.
struct V8 {
    float32x4_t lo, hi;
};

inline V8 f32x8(const uint8_t* p) {
    const float* f = reinterpret_cast<const float*>(p);
    return V8{vld1q_f32(f), vld1q_f32(f + 4)};
}
inline V8 f16x8(const uint8_t* p) {
    const float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(reinterpret_cast<const uint16_t*>(p)));
    return V8{vcvt_f32_f16(vget_low_f16(h)), vcvt_high_f32_f16(h)};
}
inline V8 bf16x8(const uint8_t* p) {
    const uint16x8_t h = vld1q_u16(reinterpret_cast<const uint16_t*>(p));
    return V8{vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16)), vreinterpretq_f32_u32(vshll_high_n_u16(h, 16))};
}

// The policies (dense/body.inc): chunks of 8, two accumulators per pair
// (elements 0..3 and 4..7), one FMLA each, added lane-wise at the end. 4 weight rows x 2 activation rows:
// 16 accumulators, 8 weight and 2 activation vectors in the 32 registers.
template <int kWB, V8 (*W)(const uint8_t*), int kXB, V8 (*X)(const uint8_t*)>
struct Pair {
    static constexpr int kChunk = 8, WB = kWB, XB = kXB, kRows = 4, kCols = 2;
    using Acc = V8;
    using WV = V8;
    using XV = V8;
    static V8 zero() { return V8{vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)}; }
    static V8 lw(const uint8_t* p) { return W(p); }
    static V8 lx(const uint8_t* p) { return X(p); }
    static V8 step(V8 acc, V8 w, V8 x) { return V8{vfmaq_f32(acc.lo, w.lo, x.lo), vfmaq_f32(acc.hi, w.hi, x.hi)}; }
    static float reduce(V8 acc) { return sum_lanes(vaddq_f32(acc.lo, acc.hi)); }
};
using Bf16Bf16 = Pair<2, bf16x8, 2, bf16x8>;
using F16F16 = Pair<2, f16x8, 2, f16x8>;
using Bf16F32 = Pair<2, bf16x8, 4, f32x8>;
using F16F32 = Pair<2, f16x8, 4, f32x8>;
using F32F32 = Pair<4, f32x8, 4, f32x8>;

}  // namespace

void dense_bf16_bf16_neon(const PackedArgs& a, int64_t ob, int64_t oe) { run<Bf16Bf16>(a, ob, oe); }
void dense_f16_f16_neon(const PackedArgs& a, int64_t ob, int64_t oe) { run<F16F16>(a, ob, oe); }
void dense_bf16_f32_neon(const PackedArgs& a, int64_t ob, int64_t oe) { run<Bf16F32>(a, ob, oe); }
void dense_f16_f32_neon(const PackedArgs& a, int64_t ob, int64_t oe) { run<F16F32>(a, ob, oe); }
void dense_f32_f32_neon(const PackedArgs& a, int64_t ob, int64_t oe) { run<F32F32>(a, ob, oe); }

}  // namespace skn_core::kernels::aarch64
