// SPDX-License-Identifier: MIT
// Armv8.2 dotprod fast-precision kernels for Q4_0_R8, Q8_0_R8, MXFP4_R8 and IQ4_NL_R4 (body:
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

template <int kMaxW, int kAdds>
struct LaneDot4 {
    int32x4_t s;
    void clear() { s = vdupq_n_s32(0); }
    template <int L>
    [[gnu::always_inline]] void add(int8x16_t w, int8x16_t x) {
        s = vdotq_laneq_s32(s, w, x, L);
    }
    template <int L, int M>
    [[gnu::always_inline]] void add2(int8x16_t w, int8x16_t x, int8x16_t v, int8x16_t z) {
        s = vdotq_laneq_s32(vdotq_laneq_s32(s, w, x, L), v, z, M);
    }
    int32x4_t sum() const { return s; }
};

}  // namespace

#include "kernels/aarch64/q32/r8_body.inc"

SKN_Q32_R8_DEFINE(neondotprod)

}  // namespace skn_core::kernels::aarch64
