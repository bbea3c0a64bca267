// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision kernel for IQ4_XS_R8 (superblock/kernels.hpp;
// body: superblock/xs_r8_body.inc): the lane dots are DUP + SMULL, two
// products per 16-bit lane, SADALP (common/lane_dot4.inc); the same exact
// integers as the neondotprod tier's, so the same y.
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

SKN_KQ_XS_R8_DEFINE(neon)

}  // namespace skn_core::kernels::aarch64
