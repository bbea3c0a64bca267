// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision grid kernels (grid/kernels.hpp; body:
// grid/body.inc): one SDOT per 16 weights and activation row gives four
// int32 lanes of exact partial sums.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/aarch64/grid/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) { return vdotq_s32(acc, w, x); }

}  // namespace

#include "kernels/aarch64/grid/body.inc"

SKN_GRID_DEFINE(neondotprod)

}  // namespace skn_core::kernels::aarch64
