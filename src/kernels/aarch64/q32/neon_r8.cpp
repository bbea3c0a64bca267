// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision kernels for Q4_0_R8, Q8_0_R8, MXFP4_R8, IQ4_NL_R4 and Q5_0_R4 (body:
// q32/r8_body.inc). Without SDOT the lane dots are DUP + SMULL / SMLAL
// folds (common/lane_dot4.inc): Q4_0_R8's raw nibbles (|w| <= 15) and
// MXFP4_R8's doubled grid (|w| <= 12) chain SMLAL in 16-bit lanes (8 adds of
// |product| <= 1920, then one pairwise fold: <= 30720, exact); IQ4_NL_R4's
// (|w| <= 127) and Q5_0_R4's (-16..15) pair two products per 16-bit lane
// before SADALP widens them into 32 bits, Q8_0_R8's (whose -128 * -128 fills
// a lane) one. The same exact integers as the neondotprod tier's, so the
// same y.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "formats/facts.hpp"
#include "kernels/aarch64/q32/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

#include "kernels/aarch64/common/lane_dot4.inc"

}  // namespace

#include "kernels/aarch64/q32/r8_body.inc"

SKN_Q32_R8_DEFINE(neon)

}  // namespace skn_core::kernels::aarch64
