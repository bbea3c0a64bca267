// SPDX-License-Identifier: MIT
// Armv8.0 NEON fast-precision kernels for Q4_0_R8, Q8_0_R8, MXFP4_R8 and IQ4_NL_R4 (body:
// q32/r8_body.inc). Without SDOT, a lane's four-product dot is SMULL of the
// weight chunk with the activation lane repeated (DUP), products of one row
// kept apart until the block ends: Q4_0_R8's raw nibbles (|w| <= 15) and
// MXFP4_R8's doubled grid (|w| <= 12) chain SMLAL in 16-bit lanes (8 adds of
// |product| <= 1920, then one pairwise fold: <= 30720, exact); IQ4_NL_R4's
// (|w| <= 127) pair two products per 16-bit lane before SADALP widens them
// into 32 bits, Q8_0_R8's (whose -128 * -128 fills a lane) one. The same exact integers as the
// neondotprod tier's, so the same y.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "formats/facts.hpp"
#include "kernels/aarch64/q32/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {


template <int L>
[[gnu::always_inline]] inline int8x16_t repeat_lane(int8x16_t x) {
    return vreinterpretq_s8_s32(vdupq_laneq_s32(vreinterpretq_s32_s8(x), L));
}

// Rows 0, 1 (the weight's low 8 bytes) accumulate in `lo`, rows 2, 3 in
// `hi`, each row's four product positions apart until sum() folds them.
template <int kMaxW, int kAdds, bool k16 = kMaxW * 128 * kAdds * 2 <= 32767>
struct LaneDot4 {
    int16x8_t lo, hi;
    void clear() { lo = hi = vdupq_n_s16(0); }
    template <int L>
    [[gnu::always_inline]] void add(int8x16_t w, int8x16_t x) {
        const int8x16_t xr = repeat_lane<L>(x);
        lo = vmlal_s8(lo, vget_low_s8(w), vget_low_s8(xr));
        hi = vmlal_high_s8(hi, w, xr);
    }
    template <int L, int M>
    [[gnu::always_inline]] void add2(int8x16_t w, int8x16_t x, int8x16_t v, int8x16_t z) {
        add<L>(w, x);
        add<M>(v, z);
    }
    int32x4_t sum() const { return vpaddlq_s16(vpaddq_s16(lo, hi)); }
};

template <int kMaxW, int kAdds>
struct LaneDot4<kMaxW, kAdds, false> {
    int32x4_t lo, hi;
    void clear() { lo = hi = vdupq_n_s32(0); }
    template <int L>
    [[gnu::always_inline]] void add(int8x16_t w, int8x16_t x) {
        const int8x16_t xr = repeat_lane<L>(x);
        lo = vpadalq_s16(lo, vmull_s8(vget_low_s8(w), vget_low_s8(xr)));
        hi = vpadalq_s16(hi, vmull_high_s8(w, xr));
    }
    // Two products share a 16-bit lane before SADALP where they fit
    // (|w| <= 127, IQ4_NL_R4: 2 * 127 * 128 <= 32767; not Q8_0_R8's -128).
    template <int L, int M>
    [[gnu::always_inline]] void add2(int8x16_t w, int8x16_t x, int8x16_t v, int8x16_t z) {
        if constexpr (kMaxW * 128 * 2 <= 32767) {
            const int8x16_t xr = repeat_lane<L>(x), zr = repeat_lane<M>(z);
            lo = vpadalq_s16(lo, vmlal_s8(vmull_s8(vget_low_s8(w), vget_low_s8(xr)), vget_low_s8(v), vget_low_s8(zr)));
            hi = vpadalq_s16(hi, vmlal_high_s8(vmull_high_s8(w, xr), v, zr));
        } else {
            add<L>(w, x);
            add<M>(v, z);
        }
    }
    int32x4_t sum() const { return vpaddq_s32(lo, hi); }
};

}  // namespace

#include "kernels/aarch64/q32/r8_body.inc"

SKN_Q32_R8_DEFINE(neon)

}  // namespace skn_core::kernels::aarch64
