// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision kernel for IQ4_XS_R8 (superblock/kernels.hpp;
// body: superblock/xs_r8_body.inc): one by-element SDOT per nibble plane of
// a 16-byte load and activation row gives four rows' exact partial sums.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "formats/facts.hpp"
#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

#include "kernels/aarch64/common/lane_dot4.inc"

}  // namespace

#include "kernels/aarch64/superblock/xs_r8_body.inc"

SKN_KQ_XS_R8_DEFINE(neondotprod)

}  // namespace skn_core::kernels::aarch64
