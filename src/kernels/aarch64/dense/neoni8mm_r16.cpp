// SPDX-License-Identifier: MIT
// BF16_R16 x BF16 with BFDOT (FEAT_BF16; registered at neoni8mm only when
// the CPU has bf16, as BF16's BFDOT kernel; walk: dense/r16_body.inc). The
// canonical BFDOT kernel's lane j takes pair j of every chunk of 8, so chain
// j here takes block j: a 16-byte load is 4 rows' pairs, one per 32-bit
// lane, and one BFDOT by element against activation pair j adds w[2k] x[2j]
// + w[2k+1] x[2j+1] to row k's lane with the instruction's own rounding,
// the operation the canonical kernel's lane performs. Then (c0 + c1) +
// (c2 + c3), vertically.
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

struct BfdotR16 {
    static constexpr int kChains = 4, kCols = 4;  // 16 chain vectors, 4 activation
    static constexpr bool kFloatX = false;
    static constexpr int XB = 2;
    using XV = bfloat16x8_t;
    static bfloat16x8_t lx(const uint8_t* p) { return vld1q_bf16(reinterpret_cast<const bfloat16_t*>(p)); }
    template <int J>
    [[gnu::always_inline]] static void step(float32x4_t (&acc)[4], uint32x4_t w, bfloat16x8_t x,
                                            std::integral_constant<int, J>) {
        acc[J] = vbfdotq_laneq_f32(acc[J], vreinterpretq_bf16_u32(w), x, J);
    }
    static float32x4_t reduce(const float32x4_t (&c)[4]) { return vaddq_f32(vaddq_f32(c[0], c[1]), vaddq_f32(c[2], c[3])); }
};

}  // namespace

void dense_bf16_r16_bf16_neonbf16(const PackedArgs& a, int64_t ob, int64_t oe) { r16_run<BfdotR16>(a, ob, oe); }

}  // namespace skn_core::kernels::aarch64
