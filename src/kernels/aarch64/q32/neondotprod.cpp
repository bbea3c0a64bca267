// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision kernels for the 32-element legacy formats
// (q32/kernels.hpp; body: q32/body.inc): two SDOT per weight block and
// activation row give four int32 lanes of exact partial sums.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "formats/facts.hpp"
#include "kernels/aarch64/q32/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline int32x4_t dot32(int8x16_t w0, int8x16_t w1, int8x16_t x0, int8x16_t x1) {
    return vdotq_s32(vdotq_s32(vdupq_n_s32(0), w0, x0), w1, x1);
}

// n = 1 (q32/one_row.inc): each row's SDOTs run on through the tile without
// clearing, and a block's dots are the difference of the folded running sums
// (exact: int32 wraps, and each block's dot fits), one SUB where clearing
// four accumulators took four MOVs.
struct RowDots4 {
    int32x4_t a0 = vdupq_n_s32(0), a1 = vdupq_n_s32(0), a2 = vdupq_n_s32(0), a3 = vdupq_n_s32(0);
    int32x4_t prev = vdupq_n_s32(0);
    template <int kMaxW>
    [[gnu::always_inline]] inline int32x4_t next(const int8x16_t (&w)[4][2], int8x16_t x0, int8x16_t x1) {
        a0 = vdotq_s32(vdotq_s32(a0, w[0][0], x0), w[0][1], x1);
        a1 = vdotq_s32(vdotq_s32(a1, w[1][0], x0), w[1][1], x1);
        a2 = vdotq_s32(vdotq_s32(a2, w[2][0], x0), w[2][1], x1);
        a3 = vdotq_s32(vdotq_s32(a3, w[3][0], x0), w[3][1], x1);
        const int32x4_t s = vpaddq_s32(vpaddq_s32(a0, a1), vpaddq_s32(a2, a3));
        const int32x4_t d = vsubq_s32(s, prev);
        prev = s;
        return d;
    }
};

}  // namespace

#include "kernels/aarch64/q32/body.inc"

SKN_Q32_DEFINE(q32_q4_0_q8_0_neondotprod, Q4_0F)
SKN_Q32_DEFINE(q32_q8_0_q8_0_neondotprod, Q8_0F)
SKN_Q32_DEFINE(q32_iq4_nl_q8_0_neondotprod, Iq4NlF)
SKN_Q32_DEFINE(q32_mxfp4_q8_0_neondotprod, Mxfp4F)
SKN_Q32_DEFINE(q32_q5_0_q8_0_neondotprod, Q5_0F)
SKN_Q32_DEFINE(q32_q4_1_q8_1_neondotprod, Q4_1F)
SKN_Q32_DEFINE(q32_q5_1_q8_1_neondotprod, Q5_1F)

}  // namespace skn_core::kernels::aarch64
