// SPDX-License-Identifier: MIT
// Q8_0 and Q8_K activation quantizers, AVX2. Byte-identical to the scalar
// codecs: the same float operations per element (one multiply by the same
// inverse scale), roundf emulated exactly (truncate, then step away from zero
// when the exact remainder is at least one half), the same x86 conversion of
// out-of-range values, and fp16 / f32 scales stored as the codecs store them.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/x86_64/activation/kernels.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

inline __m256 abs_ps(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }

inline float hmax(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
    return _mm_cvtss_f32(m);
}

// roundf: half away from zero. v - trunc(v) is exact for every float.
inline __m256 round_half_away(__m256 v) {
    const __m256 t = _mm256_round_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256 far = _mm256_cmp_ps(abs_ps(_mm256_sub_ps(v, t)), _mm256_set1_ps(0.5f), _CMP_GE_OQ);
    const __m256 step = _mm256_or_ps(_mm256_and_ps(v, _mm256_set1_ps(-0.0f)), _mm256_set1_ps(1.0f));
    return _mm256_add_ps(t, _mm256_and_ps(far, step));
}

// The low bytes of four vectors of int32, in element order.
inline __m256i low_bytes(__m256i a, __m256i b, __m256i c, __m256i d) {
    const __m256i ff = _mm256_set1_epi32(0xff);
    const __m256i ab = _mm256_packus_epi32(_mm256_and_si256(a, ff), _mm256_and_si256(b, ff));
    const __m256i cd = _mm256_packus_epi32(_mm256_and_si256(c, ff), _mm256_and_si256(d, ff));
    const __m256i bytes = _mm256_packus_epi16(ab, cd);
    return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

inline void store_fp16(uint8_t* dst, float v) {
    const uint16_t h = _cvtss_sh(v, _MM_FROUND_TO_NEAREST_INT);
    std::memcpy(dst, &h, 2);
}

}  // namespace

void quantize_row_q8_0_avx2(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / 32; ++b, src += 32, dst += 34) {
        __m256 x[4];
        __m256 amax = _mm256_setzero_ps();
        for (int k = 0; k < 4; ++k) {
            x[k] = _mm256_loadu_ps(src + 8 * k);
            amax = _mm256_max_ps(amax, abs_ps(x[k]));
        }
        const float d = hmax(amax) / 127.0f;
        const __m256 inv = _mm256_set1_ps(d != 0.0f ? 1.0f / d : 0.0f);
        store_fp16(dst, d);
        __m256i q[4];
        // cvttps2dq gives INT32_MIN for NaN and out-of-range values, as the
        // scalar truncate_like_x86 does.
        for (int k = 0; k < 4; ++k) q[k] = _mm256_cvttps_epi32(round_half_away(_mm256_mul_ps(x[k], inv)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 2), low_bytes(q[0], q[1], q[2], q[3]));
    }
}

void quantize_row_q8_k_avx2(const float* src, int64_t n, uint8_t* dst) {
    constexpr int kQs = 4, kBsums = 260, kBytes = 292;
    const __m256i ones8 = _mm256_set1_epi8(1);
    const __m256i ones16 = _mm256_set1_epi16(1);
    for (int64_t b = 0; b < n / 256; ++b, src += 256, dst += kBytes) {
        // Four independent max chains: one chain of 32 dependent maxes was
        // most of a 4096-element row's time.
        __m256 m[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
        for (int k = 0; k < 32; ++k) m[k % 4] = _mm256_max_ps(m[k % 4], abs_ps(_mm256_loadu_ps(src + 8 * k)));
        const float amax = hmax(_mm256_max_ps(_mm256_max_ps(m[0], m[1]), _mm256_max_ps(m[2], m[3])));
        if (amax == 0.0f) {
            std::memset(dst, 0, kBytes);
            continue;
        }
        // The signed value of the first element of largest magnitude.
        const __m256 vmax = _mm256_set1_ps(amax);
        int first = 0;
        for (int k = 0; k < 32; ++k) {
            const int hit = _mm256_movemask_ps(_mm256_cmp_ps(abs_ps(_mm256_loadu_ps(src + 8 * k)), vmax, _CMP_EQ_OQ));
            if (hit != 0) {
                first = 8 * k + __builtin_ctz(unsigned(hit));
                break;
            }
        }
        const float inv = -127.0f / src[first];
        const __m256 vinv = _mm256_set1_ps(inv);
        __m256i quads[8];  // per 32 elements: the sums of each 4 consecutive codes
        for (int g = 0; g < 8; ++g) {
            __m256i q[4];
            for (int k = 0; k < 4; ++k) {
                // Round to nearest even, as the scalar magic-number rounding
                // does; |inv * x| <= 127 (+ rounding), so only the upper
                // clamp can bind.
                const __m256i r = _mm256_cvtps_epi32(_mm256_mul_ps(vinv, _mm256_loadu_ps(src + 32 * g + 8 * k)));
                q[k] = _mm256_min_epi32(r, _mm256_set1_epi32(127));
            }
            const __m256i codes = low_bytes(q[0], q[1], q[2], q[3]);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + kQs + 32 * g), codes);
            quads[g] = _mm256_madd_epi16(_mm256_maddubs_epi16(ones8, codes), ones16);
        }
        // The 16-element sums: two rounds of hadd leave, per group of four
        // groups g, bsum 2g in the low 128 bits and 2g + 1 in the high ones
        // (|sum| <= 16 * 127, exact in int16); then interleaved into order.
        __m256i h[2];
        for (int t = 0; t < 2; ++t)
            h[t] = _mm256_hadd_epi32(_mm256_hadd_epi32(quads[4 * t], quads[4 * t + 1]),
                                     _mm256_hadd_epi32(quads[4 * t + 2], quads[4 * t + 3]));
        const __m256i packed = _mm256_packs_epi32(h[0], h[1]);  // low: even bsums, high: odd ones
        const __m128i even = _mm256_castsi256_si128(packed), odd = _mm256_extracti128_si256(packed, 1);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + kBsums), _mm_unpacklo_epi16(even, odd));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + kBsums + 16), _mm_unpackhi_epi16(even, odd));
        const float d = 1.0f / inv;
        std::memcpy(dst, &d, 4);
    }
}

}  // namespace skn_core::kernels::x86_64
