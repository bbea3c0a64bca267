// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision ternary and low-bit kernels (low_bit/kernels.hpp;
// bodies: low_bit/body.inc, low_bit/body_low_bit.inc). Without SDOT, the products of byte positions 0..7 and
// 8..15 accumulate in two int16x8 vectors (SMLAL / SMLAL2: the body adds at
// most 8 vectors of values |v| <= 3 against |q| <= 128 to one accumulator,
// so a lane stays within 8 * 384 = 3072, exact); at the end of a unit
// SADDLP and one ADDP give the lanes SDOT gives (positions 4j..4j+3 in lane
// j), the same exact integers.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/aarch64/low_bit/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

struct Dot {
    struct Acc {
        int16x8_t lo, hi;  // byte positions 0..7 / 8..15
    };
    // TQ at n = 1 keeps the 1 x C tile: without SDOT the rows tile's S costs
    // two SMLAL per activation vector and its four accumulators do not fit
    // (scripts/count-arm64: more instructions per block, not fewer).
    static constexpr int kRowsAtN1 = 1;
    static Acc zero() { return Acc{vdupq_n_s16(0), vdupq_n_s16(0)}; }
    static Acc add(Acc s, int8x16_t w, int8x16_t x) {
        return Acc{vmlal_s8(s.lo, vget_low_s8(w), vget_low_s8(x)), vmlal_high_s8(s.hi, w, x)};
    }
    static int32x4_t lanes(Acc s) { return vpaddq_s32(vpaddlq_s16(s.lo), vpaddlq_s16(s.hi)); }
};

}  // namespace

#include "kernels/aarch64/low_bit/body.inc"
#include "kernels/aarch64/low_bit/body_low_bit.inc"

SKN_TERN_DEFINE(tern_tq2_0_q8_k_neon, Tq2)
SKN_TERN_DEFINE(tern_tq1_0_q8_k_neon, Tq1)
SKN_TERN_DEFINE(tern_i2_s_q8_0_neon, I2s)
SKN_LOW_BIT_DEFINE(tern_q1_0_q8_0_neon, Q1)
SKN_LOW_BIT_DEFINE(tern_q2_0_q8_0_neon, Q2)

// I2_S_G64 (its own body: low_bit/i2s_g64_body.inc).
#include "kernels/aarch64/low_bit/i2s_g64_body.inc"
SKN_TERN_DEFINE_I2S_G64(tern_i2_s_g64_q8_0_neon)

}  // namespace skn_core::kernels::aarch64
