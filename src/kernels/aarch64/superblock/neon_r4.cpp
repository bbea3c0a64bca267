// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision kernels for the K-quant twins Q4_K_R4,
// Q5_K_R4, Q6_K_R4, Q2_K_R4, Q3_K_R4 (body: superblock/r4_body.inc).
// Without SDOT, a lane's four-product dot is SMLAL of the weight vector with
// the activation lane repeated (DUP), each product in its own 16-bit lane
// until the scale group ends (at most 8 products of |w| <= 31, or 4 of
// |w| <= 32, times 128: below 2^15, exact), then SADDLP and ADDP fold the
// four products of a row into its 32-bit lane. The same exact integers as
// the neondotprod tier's, so the same y.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

// Rows 0, 1 (the weight's low 8 bytes) accumulate in `lo`, rows 2, 3 in `hi`.
template <int kBound>
struct RowDot4 {
    static_assert(kBound <= 32767, "a scale group's products must fit 16-bit lanes");
    int16x8_t lo, hi;
    void clear() { lo = hi = vdupq_n_s16(0); }
    template <int L>
    [[gnu::always_inline]] void add(int8x16_t w, int8x16_t x) {
        const int8x16_t xr = vreinterpretq_s8_s32(vdupq_laneq_s32(vreinterpretq_s32_s8(x), L));
        lo = vmlal_s8(lo, vget_low_s8(w), vget_low_s8(xr));
        hi = vmlal_high_s8(hi, w, xr);
    }
    int32x4_t sum() const { return vpaddq_s32(vpaddlq_s16(lo), vpaddlq_s16(hi)); }
};

}  // namespace

#include "kernels/aarch64/superblock/r4_body.inc"

SKN_KQ_R4_DEFINE(neon)

}  // namespace skn_core::kernels::aarch64
