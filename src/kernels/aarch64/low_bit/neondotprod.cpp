// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision ternary and low-bit kernels
// (low_bit/kernels.hpp; bodies: low_bit/body.inc, low_bit/body_low_bit.inc):
// one SDOT per 16 values and activation row adds the products of each 4
// consecutive bytes into one int32 lane, the grouping of the contract's
// lanes.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/aarch64/low_bit/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

struct Dot {
    using Acc = int32x4_t;
    static constexpr int kRowsAtN1 = 4;  // TQ, n = 1: output rows per tile (3: TQ1_0 worse; 2: both)
    static Acc zero() { return vdupq_n_s32(0); }
    static Acc add(Acc s, int8x16_t w, int8x16_t x) { return vdotq_s32(s, w, x); }
    static int32x4_t lanes(Acc s) { return s; }
};

}  // namespace

#include "kernels/aarch64/low_bit/body.inc"
#include "kernels/aarch64/low_bit/body_low_bit.inc"

SKN_TERN_DEFINE(tern_tq2_0_q8_k_neondotprod, Tq2)
SKN_TERN_DEFINE(tern_tq1_0_q8_k_neondotprod, Tq1)
SKN_TERN_DEFINE(tern_i2_s_q8_0_neondotprod, I2s)
SKN_LOW_BIT_DEFINE(tern_q1_0_q8_0_neondotprod, Q1)
SKN_LOW_BIT_DEFINE(tern_q2_0_q8_0_neondotprod, Q2)

// I2_S_G64 (its own body: low_bit/i2s_g64_body.inc).
#include "kernels/aarch64/low_bit/i2s_g64_body.inc"
SKN_TERN_DEFINE_I2S_G64(tern_i2_s_g64_q8_0_neondotprod)

}  // namespace skn_core::kernels::aarch64
