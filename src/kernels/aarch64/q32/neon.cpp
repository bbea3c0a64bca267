// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision kernels for the 32-element legacy formats
// (q32/kernels.hpp; body: q32/body.inc). Without SDOT, the integer dot is
// SMULL (int8 x int8 -> exact int16: |product| <= 128 * 128) and SADALP
// (pairs of products added into int32), so no sum ever saturates, whatever
// codes a foreign file or activation holds, and the result is the same exact
// integer as the dotprod tier's.
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
    int32x4_t s = vpaddlq_s16(vmull_s8(vget_low_s8(w0), vget_low_s8(x0)));
    s = vpadalq_s16(s, vmull_high_s8(w0, x0));
    s = vpadalq_s16(s, vmull_s8(vget_low_s8(w1), vget_low_s8(x1)));
    return vpadalq_s16(s, vmull_high_s8(w1, x1));
}

// n = 1 (q32/one_row.inc). With |w| <= kMaxW and |x| <= 128 a 16-bit lane
// holds 32767 / (128 * kMaxW) products exactly: for kMaxW <= 15 (Q4_0's raw
// nibbles, MXFP4) 16, so SMLAL chains a row's four product halves and three
// 16-bit ADDP fold the four rows before one SADDLP widens; for kMaxW <= 127
// (IQ4_NL) 2, so SMLAL2 pairs halves; else (Q8_0, whose -128 * -128 fills a
// lane) dot32's one product per lane.
struct RowDots4 {
    template <int kMaxW>
    [[gnu::always_inline]] inline int32x4_t next(const int8x16_t (&w)[4][2], int8x16_t x0, int8x16_t x1) {
        if constexpr (kMaxW * 128 * 16 <= 32767) {
            int16x8_t p[4];
            for (int r = 0; r < 4; ++r) {
                int16x8_t t = vmull_s8(vget_low_s8(w[r][0]), vget_low_s8(x0));
                t = vmlal_high_s8(t, w[r][0], x0);
                t = vmlal_s8(t, vget_low_s8(w[r][1]), vget_low_s8(x1));
                p[r] = vmlal_high_s8(t, w[r][1], x1);
            }
            return vpaddlq_s16(vpaddq_s16(vpaddq_s16(p[0], p[1]), vpaddq_s16(p[2], p[3])));
        } else {
            int32x4_t s[4];
            for (int r = 0; r < 4; ++r) {
                if constexpr (kMaxW * 128 * 2 <= 32767) {
                    const int16x8_t lo = vmlal_high_s8(vmull_s8(vget_low_s8(w[r][0]), vget_low_s8(x0)), w[r][0], x0);
                    const int16x8_t hi = vmlal_high_s8(vmull_s8(vget_low_s8(w[r][1]), vget_low_s8(x1)), w[r][1], x1);
                    s[r] = vpadalq_s16(vpaddlq_s16(lo), hi);
                } else {
                    s[r] = dot32(w[r][0], w[r][1], x0, x1);
                }
            }
            return vpaddq_s32(vpaddq_s32(s[0], s[1]), vpaddq_s32(s[2], s[3]));
        }
    }
};

}  // namespace

#include "kernels/aarch64/q32/body.inc"

SKN_Q32_DEFINE(q32_q4_0_q8_0_neon, Q4_0F)
SKN_Q32_DEFINE(q32_q8_0_q8_0_neon, Q8_0F)
SKN_Q32_DEFINE(q32_iq4_nl_q8_0_neon, Iq4NlF)
SKN_Q32_DEFINE(q32_mxfp4_q8_0_neon, Mxfp4F)
SKN_Q32_DEFINE(q32_q5_0_q8_0_neon, Q5_0F)
SKN_Q32_DEFINE(q32_q4_1_q8_1_neon, Q4_1F)
SKN_Q32_DEFINE(q32_q5_1_q8_1_neon, Q5_1F)

}  // namespace skn_core::kernels::aarch64
