// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision NVFP4 kernel (nvfp4/kernels.hpp; body:
// nvfp4/body.inc). Without SDOT, the products are SMULL / SMLAL into int16
// (element j of the low and the high nibble vector added: at most
// 2 * 12 * 128), one ADDP folds neighbours (at most 6144, no saturation) and
// SADDLP widens the next pairs into the int32 lanes, so lane k sums bytes
// 4k..4k+3 of both vectors: the same exact integers as the dotprod tier's.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "formats/facts.hpp"
#include "kernels/aarch64/nvfp4/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

[[gnu::always_inline]] inline int32x4_t dot_lanes(int8x16_t wl, int8x16_t wh, int8x16_t xl, int8x16_t xh) {
    const int16x8_t p0 = vmlal_s8(vmull_s8(vget_low_s8(wl), vget_low_s8(xl)), vget_low_s8(wh), vget_low_s8(xh));
    const int16x8_t p1 = vmlal_high_s8(vmull_high_s8(wl, xl), wh, xh);
    return vpaddlq_s16(vpaddq_s16(p0, p1));
}

}  // namespace

#include "kernels/aarch64/nvfp4/body.inc"

SKN_NVFP4_DEFINE(nvfp4_q8_0_neon)

}  // namespace skn_core::kernels::aarch64
