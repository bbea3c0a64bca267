// SPDX-License-Identifier: MIT
// Q8_0 activation quantizer, Armv8.0 NEON. Byte-identical to the scalar codec
// (formats/legacy.cpp): the same float operations per element (amax, one
// division by 127, one multiply by the same inverse scale), roundf as
// FRINTA (round half away from zero, exact), and x86's conversion of
// out-of-range products (the codec's truncate_like_x86: INT32_MIN, whose low
// byte is 0) instead of FCVTZS's saturation. The fp16 scale is converted by
// FCVTN under the default rounding mode (to nearest even), as the codec's
// f32_to_fp16 rounds.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/aarch64/activation/kernels.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

inline void store_fp16(uint8_t* dst, float v) {
    const uint16x4_t h = vreinterpret_u16_f16(vcvt_f16_f32(vdupq_n_f32(v)));
    const uint16_t bits = vget_lane_u16(h, 0);
    std::memcpy(dst, &bits, 2);
}

// The low byte of truncate_like_x86(v) for integral v: the value where it
// lies in int32, else 0 (NaN and +-inf included: comparisons are false).
inline int32x4_t convert_like_x86(float32x4_t v) {
    const uint32x4_t in_range =
        vandq_u32(vcgeq_f32(v, vdupq_n_f32(-2147483648.0f)), vcltq_f32(v, vdupq_n_f32(2147483648.0f)));
    return vandq_s32(vcvtq_s32_f32(v), vreinterpretq_s32_u32(in_range));
}

}  // namespace

void quantize_row_q8_0_neon(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / 32; ++b, src += 32, dst += 34) {
        float32x4_t x[8];
        float32x4_t amax = vdupq_n_f32(0.0f);
        for (int k = 0; k < 8; ++k) {
            x[k] = vld1q_f32(src + 4 * k);
            amax = vmaxq_f32(amax, vabsq_f32(x[k]));
        }
        const float d = vmaxvq_f32(amax) / 127.0f;
        const float inv = d != 0.0f ? 1.0f / d : 0.0f;
        store_fp16(dst, d);
        int16x8_t h[4];
        for (int k = 0; k < 4; ++k) {
            const int32x4_t lo = convert_like_x86(vrndaq_f32(vmulq_n_f32(x[2 * k], inv)));
            const int32x4_t hi = convert_like_x86(vrndaq_f32(vmulq_n_f32(x[2 * k + 1], inv)));
            h[k] = vcombine_s16(vmovn_s32(lo), vmovn_s32(hi));  // truncating narrows keep the low bits
        }
        vst1q_s8(reinterpret_cast<int8_t*>(dst + 2), vcombine_s8(vmovn_s16(h[0]), vmovn_s16(h[1])));
        vst1q_s8(reinterpret_cast<int8_t*>(dst + 18), vcombine_s8(vmovn_s16(h[2]), vmovn_s16(h[3])));
    }
}

}  // namespace skn_core::kernels::aarch64
