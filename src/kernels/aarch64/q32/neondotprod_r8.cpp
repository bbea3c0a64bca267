// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision kernels for Q4_0_R8, Q8_0_R8, MXFP4_R8, IQ4_NL_R4 and Q5_0_R4 (body:
// q32/r8_body.inc): one by-element SDOT per 16-byte weight load and
// activation row gives four rows' exact partial sums. Also registered at
// neoni8mm (q32/register.cpp).
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

SKN_Q32_R8_DEFINE(neondotprod)

}  // namespace skn_core::kernels::aarch64
