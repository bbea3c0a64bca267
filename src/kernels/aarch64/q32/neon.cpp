// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision kernels for the 32-element legacy formats
// (q32/kernels.hpp; body: q32/body.inc). Without SDOT, the integer dot is
// SMULL (int8 x int8 -> exact int16: |product| <= 128 * 128) and SADALP
// (pairs of products added into int32), so no sum ever saturates, whatever
// codes a foreign file or activation holds, and the result is the same exact
// integer as the dotprod tier's.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "formats/facts.hpp"
#include "kernels/aarch64/q32/kernels.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline int32x4_t dot32(int8x16_t w0, int8x16_t w1, int8x16_t x0, int8x16_t x1) {
    int32x4_t s = vpaddlq_s16(vmull_s8(vget_low_s8(w0), vget_low_s8(x0)));
    s = vpadalq_s16(s, vmull_high_s8(w0, x0));
    s = vpadalq_s16(s, vmull_s8(vget_low_s8(w1), vget_low_s8(x1)));
    return vpadalq_s16(s, vmull_high_s8(w1, x1));
}

}  // namespace

#include "kernels/aarch64/q32/body.inc"

SKN_Q32_DEFINE(q32_q4_0_q8_0_neon, Q4_0F)
SKN_Q32_DEFINE(q32_q8_0_q8_0_neon, Q8_0F)
SKN_Q32_DEFINE(q32_iq4_nl_q8_0_neon, Iq4NlF)
SKN_Q32_DEFINE(q32_mxfp4_q8_0_neon, Mxfp4F)
SKN_Q32_DEFINE(q32_q5_0_q8_0_neon, Q5_0F)
SKN_Q32_DEFINE(q32_q4_1_q8_1_neon, Q4_1F)
SKN_Q32_DEFINE(q32_q5_1_q8_1_neon, Q5_1F)

}  // namespace skn_core::kernels::aarch64
