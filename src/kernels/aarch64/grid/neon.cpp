// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision grid kernels (grid/kernels.hpp; body:
// grid/body.inc): SMULL of 8 weights by 8 codes into exact int16 products,
// SADALP to add them pairwise into int32 lanes.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/aarch64/grid/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) {
    acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(w), vget_low_s8(x)));
    return vpadalq_s16(acc, vmull_high_s8(w, x));
}

}  // namespace

#include "kernels/aarch64/grid/body.inc"

SKN_GRID_DEFINE(neon)

}  // namespace skn_core::kernels::aarch64
