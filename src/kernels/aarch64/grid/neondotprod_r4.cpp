// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision kernels for the grid twins IQ2_XXS_R4 ...
// IQ3_S_R4 (body: grid/r4_body.inc): one by-element SDOT per 16-byte weight
// vector and activation row gives four rows' exact partial sums.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/aarch64/grid/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

struct RowDot4 {
    int32x4_t s;
    template <int L, int J>
    [[gnu::always_inline]] void add(int8x16_t w, int8x16_t x) {
        s = vdotq_laneq_s32(J == 0 ? vdupq_n_s32(0) : s, w, x, L);
    }
    int32x4_t sum() const { return s; }
};

}  // namespace

#include "kernels/aarch64/grid/r4_body.inc"

SKN_GRID_R4_DEFINE(neondotprod)

}  // namespace skn_core::kernels::aarch64
