// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision K-quant kernels (superblock/kernels.hpp;
// body: superblock/body.inc): one SDOT per 16 weight values and activation row
// gives four int32 lanes of exact partial sums.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "formats/facts.hpp"
#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) { return vdotq_s32(acc, w, x); }

}  // namespace

#include "kernels/aarch64/superblock/body.inc"

SKN_KQ_DEFINE(kq_q2_k_q8_k_neondotprod, Q2K)
SKN_KQ_DEFINE(kq_q3_k_q8_k_neondotprod, Q3K)
SKN_KQ_DEFINE(kq_q4_k_q8_k_neondotprod, Q4K)
SKN_KQ_DEFINE(kq_q5_k_q8_k_neondotprod, Q5K)
SKN_KQ_DEFINE(kq_q6_k_q8_k_neondotprod, Q6K)
SKN_KQ_DEFINE(kq_iq4_xs_q8_k_neondotprod, Iq4Xs)

}  // namespace skn_core::kernels::aarch64
