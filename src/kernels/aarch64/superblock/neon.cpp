// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision K-quant kernels (superblock/kernels.hpp; body:
// superblock/body.inc). Without SDOT, the integer dot is SMULL (int8 x int8 ->
// exact int16: |product| <= 128 * 128) and SADALP (pairs of products added
// into int32), so no sum saturates whatever codes a foreign file or
// activation holds, and the result is the same exact integer as the dotprod
// tier's.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "formats/facts.hpp"
#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) {
    acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(w), vget_low_s8(x)));
    return vpadalq_s16(acc, vmull_high_s8(w, x));
}

}  // namespace

#include "kernels/aarch64/superblock/body.inc"

SKN_KQ_DEFINE(kq_q2_k_q8_k_neon, Q2K)
SKN_KQ_DEFINE(kq_q3_k_q8_k_neon, Q3K)
SKN_KQ_DEFINE(kq_q4_k_q8_k_neon, Q4K)
SKN_KQ_DEFINE(kq_q5_k_q8_k_neon, Q5K)
SKN_KQ_DEFINE(kq_q6_k_q8_k_neon, Q6K)
SKN_KQ_DEFINE(kq_iq4_xs_q8_k_neon, Iq4Xs)

}  // namespace skn_core::kernels::aarch64
