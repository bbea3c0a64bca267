// SPDX-License-Identifier: MIT
// Q8_0 and Q8_K activation quantizers, Armv8.0 NEON.
//
// Q8_0: byte-identical to the scalar codec
// (formats/legacy.cpp): the same float operations per element (amax, one
// division by 127, one multiply by the same inverse scale), roundf as
// FRINTA (round half away from zero, exact), and x86's conversion of
// out-of-range products (the codec's truncate_like_x86: INT32_MIN, whose low
// byte is 0) instead of FCVTZS's saturation. The fp16 scale is converted by
// FCVTN under the default rounding mode (to nearest even), as the codec's
// f32_to_fp16 rounds.
//
// Q8_K: byte-identical to the codec's quantize_row_q8_k (formats/k_quants.cpp):
// the signed value of the first element of largest magnitude, one division
// -127 / max, one multiply by it per element, the codec's magic-number
// rounding written out in vector form (add 1.5 * 2^23, keep the low 23 bits
// of the sum, subtract 2^22: to nearest even, and the same bytes as the
// codec for the infinite / NaN products of an overflowed inverse), then the
// clamp to 127 and the low byte. This file is built with -ffp-contract=off
// (as the codecs are) so the multiply and the add stay two roundings.
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

// round_to_int of formats/k_quants_search.hpp, four lanes.
inline int32x4_t round_like_codec(float32x4_t v) {
    const int32x4_t bits = vreinterpretq_s32_f32(vaddq_f32(v, vdupq_n_f32(12582912.0f)));
    return vsubq_s32(vandq_s32(bits, vdupq_n_s32(0x007fffff)), vdupq_n_s32(0x00400000));
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

void quantize_row_q8_k_neon(const float* src, int64_t n, uint8_t* dst) {
    constexpr int kQs = 4, kBsums = 260, kBytes = 292;
    for (int64_t b = 0; b < n / 256; ++b, src += 256, dst += kBytes) {
        float32x4_t amax_v = vdupq_n_f32(0.0f);
        for (int k = 0; k < 64; ++k) amax_v = vmaxq_f32(amax_v, vabsq_f32(vld1q_f32(src + 4 * k)));
        const float amax = vmaxvq_f32(amax_v);
        if (amax == 0.0f) {
            std::memset(dst, 0, kBytes);
            continue;
        }
        int first = 0;
        while (!(src[first] == amax || src[first] == -amax)) ++first;
        const float inv = -127.0f / src[first];
        for (int g = 0; g < 16; ++g) {  // 16 elements: 16 codes and one bsum
            int16x8_t h[2];
            for (int k = 0; k < 2; ++k) {
                const float* s = src + 16 * g + 8 * k;
                const int32x4_t lo = vminq_s32(round_like_codec(vmulq_n_f32(vld1q_f32(s), inv)), vdupq_n_s32(127));
                const int32x4_t hi = vminq_s32(round_like_codec(vmulq_n_f32(vld1q_f32(s + 4), inv)), vdupq_n_s32(127));
                h[k] = vcombine_s16(vmovn_s32(lo), vmovn_s32(hi));  // truncating narrows keep the low bits
            }
            const int8x16_t q = vcombine_s8(vmovn_s16(h[0]), vmovn_s16(h[1]));
            vst1q_s8(reinterpret_cast<int8_t*>(dst + kQs + 16 * g), q);
            const int16_t sum = vaddlvq_s8(q);
            std::memcpy(dst + kBsums + 2 * g, &sum, 2);
        }
        const float d = 1.0f / inv;
        std::memcpy(dst, &d, 4);
    }
}

}  // namespace skn_core::kernels::aarch64
