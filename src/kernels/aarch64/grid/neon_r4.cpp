// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision kernels for the grid twins IQ2_XXS_R4 ...
// IQ3_S_R4 (body: grid/r4_body.inc). Without SDOT a lane's four-product dot
// is SMLAL of the weight vector with the activation lane repeated (DUP), each
// product in its own 16-bit lane for at most four weight vectors (4 * 62 *
// 128 < 2^15, exact), then SADDLP / SADALP into 32-bit pairs and one ADDP
// for the four rows. The same exact integers as the neondotprod tier's, so
// the same y.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/aarch64/grid/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

// Rows 0, 1 (the weight's low 8 bytes) in `lo`, rows 2, 3 in `hi`.
struct RowDot4 {
    int16x8_t lo, hi;
    int32x4_t lo32, hi32;
    template <int L, int J>
    [[gnu::always_inline]] void add(int8x16_t w, int8x16_t x) {
        const int8x16_t xr = vreinterpretq_s8_s32(vdupq_laneq_s32(vreinterpretq_s32_s8(x), L));
        if constexpr (J % 4 == 0) {
            lo = vmull_s8(vget_low_s8(w), vget_low_s8(xr));
            hi = vmull_high_s8(w, xr);
        } else {
            lo = vmlal_s8(lo, vget_low_s8(w), vget_low_s8(xr));
            hi = vmlal_high_s8(hi, w, xr);
        }
        if constexpr (J == 3) {
            lo32 = vpaddlq_s16(lo);
            hi32 = vpaddlq_s16(hi);
        } else if constexpr (J % 4 == 3) {
            lo32 = vpadalq_s16(lo32, lo);
            hi32 = vpadalq_s16(hi32, hi);
        }
    }
    int32x4_t sum() const { return vpaddq_s32(lo32, hi32); }
};

}  // namespace

#include "kernels/aarch64/grid/r4_body.inc"

SKN_GRID_R4_DEFINE(neon)

}  // namespace skn_core::kernels::aarch64
