// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision NVFP4 kernel (nvfp4/kernels.hpp; body:
// nvfp4/body.inc): two SDOT per half block, weight row and activation row
// give the four int32 lanes of the accumulation contract.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "formats/facts.hpp"
#include "kernels/aarch64/nvfp4/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

[[gnu::always_inline]] inline int32x4_t dot_lanes(int8x16_t wl, int8x16_t wh, int8x16_t xl, int8x16_t xh) {
    return vdotq_s32(vdotq_s32(vdupq_n_s32(0), wl, xl), wh, xh);
}

}  // namespace

#include "kernels/aarch64/nvfp4/body.inc"

SKN_NVFP4_DEFINE(nvfp4_q8_0_neondotprod)

}  // namespace skn_core::kernels::aarch64
