// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision kernels for the 32-element legacy formats
// (q32/kernels.hpp; body: q32/body.inc): two SDOT per weight block and
// activation row give four int32 lanes of exact partial sums.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "formats/facts.hpp"
#include "kernels/aarch64/q32/kernels.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline int32x4_t dot32(int8x16_t w0, int8x16_t w1, int8x16_t x0, int8x16_t x1) {
    return vdotq_s32(vdotq_s32(vdupq_n_s32(0), w0, x0), w1, x1);
}

}  // namespace

#include "kernels/aarch64/q32/body.inc"

SKN_Q32_DEFINE(q32_q4_0_q8_0_neondotprod, Q4_0F)
SKN_Q32_DEFINE(q32_q8_0_q8_0_neondotprod, Q8_0F)
SKN_Q32_DEFINE(q32_iq4_nl_q8_0_neondotprod, Iq4NlF)
SKN_Q32_DEFINE(q32_mxfp4_q8_0_neondotprod, Mxfp4F)
SKN_Q32_DEFINE(q32_q5_0_q8_0_neondotprod, Q5_0F)
SKN_Q32_DEFINE(q32_q4_1_q8_1_neondotprod, Q4_1F)
SKN_Q32_DEFINE(q32_q5_1_q8_1_neondotprod, Q5_1F)

}  // namespace skn_core::kernels::aarch64
