// SPDX-License-Identifier: MIT
// BF16_R16 x BF16 and BF16_R16 x F32 with FMLA, Armv8.0 (walk:
// dense/r16_body.inc): the canonical neon order's eight lane accumulators
// (elements 0..3 of a chunk in a, 4..7 in b: chain l takes element l of
// every chunk) become eight chain vectors of 4 rows. Block J of a chunk is
// elements 2J, 2J + 1: its 16-byte load holds 4 rows' pairs, whose even
// element widens exactly by a 16-bit left shift (SHL) and whose odd one by
// clearing the low half (AND), each then one FMLA by element with the
// chain's activation. Then s = a + b and (s0 + s1) + (s2 + s3), vertically.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/aarch64/dense/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

#include "kernels/aarch64/common/lane_dot4.inc"
#include "kernels/aarch64/dense/r16_body.inc"

struct X8 {
    float32x4_t lo, hi;  // elements 0..3, 4..7
};

template <bool kF32>
struct FmaR16 {
    static constexpr int kChains = 8, kCols = 2;  // 16 chain vectors, 4 activation, 2 weight: in 32 registers
    static constexpr bool kFloatX = kF32;
    static constexpr int XB = kF32 ? 4 : 2;
    using XV = X8;
    static X8 lx(const uint8_t* p) {
        if constexpr (kF32) {
            const float* f = reinterpret_cast<const float*>(p);
            return X8{vld1q_f32(f), vld1q_f32(f + 4)};
        } else {
            const uint16x8_t h = vld1q_u16(reinterpret_cast<const uint16_t*>(p));
            return X8{vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16)),
                      vreinterpretq_f32_u32(vshll_high_n_u16(h, 16))};
        }
    }
    template <int J>
    [[gnu::always_inline]] static void step(float32x4_t (&acc)[8], uint32x4_t w, const X8& x,
                                            std::integral_constant<int, J>) {
        const float32x4_t even = vreinterpretq_f32_u32(vshlq_n_u32(w, 16));
        const float32x4_t odd = vreinterpretq_f32_u32(vandq_u32(w, vdupq_n_u32(0xFFFF0000u)));
        const float32x4_t xs = J < 2 ? x.lo : x.hi;  // elements 2J, 2J + 1 of the chunk
        acc[2 * J] = vfmaq_laneq_f32(acc[2 * J], even, xs, (2 * J) % 4);
        acc[2 * J + 1] = vfmaq_laneq_f32(acc[2 * J + 1], odd, xs, (2 * J + 1) % 4);
    }
    static float32x4_t reduce(const float32x4_t (&c)[8]) {
        const float32x4_t s0 = vaddq_f32(c[0], c[4]), s1 = vaddq_f32(c[1], c[5]);
        const float32x4_t s2 = vaddq_f32(c[2], c[6]), s3 = vaddq_f32(c[3], c[7]);
        return vaddq_f32(vaddq_f32(s0, s1), vaddq_f32(s2, s3));
    }
};

}  // namespace

void dense_bf16_r16_bf16_neon(const PackedArgs& a, int64_t ob, int64_t oe) { r16_run<FmaR16<false>>(a, ob, oe); }
void dense_bf16_r16_f32_neon(const PackedArgs& a, int64_t ob, int64_t oe) { r16_run<FmaR16<true>>(a, ob, oe); }

}  // namespace skn_core::kernels::aarch64
