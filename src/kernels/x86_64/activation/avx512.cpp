// SPDX-License-Identifier: MIT
// Q8_0 activation quantizer, AVX-512 (F/BW/VL/DQ). Byte-identical to the
// scalar codec, like the AVX2 one (activation/avx2.cpp says how), but 16
// blocks share one vector division for their scales and inverse scales,
// and a block is two zmm: half the operations of the AVX2 quantizer, whose
// two scalar divisions and horizontal maximum per block made it about a
// tenth of a [64, 4096] Q4_0 GEMV call.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/x86_64/activation/kernels.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

constexpr int kGroup = 16;  // blocks per vector division

// roundf: half away from zero. v - trunc(v) is exact for every float.
inline __m512 round_half_away(__m512 v) {
    const __m512 t = _mm512_roundscale_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __mmask16 far = _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_sub_ps(v, t)), _mm512_set1_ps(0.5f), _CMP_GE_OQ);
    const __m512 step = _mm512_or_ps(_mm512_and_ps(v, _mm512_set1_ps(-0.0f)), _mm512_set1_ps(1.0f));
    return _mm512_mask_add_ps(t, far, t, step);
}

// cvttps2dq gives INT32_MIN for NaN and out-of-range values, as the scalar
// truncate_like_x86 does; vpmovdb keeps the low byte, as low_byte does.
inline __m128i codes(__m512 x, __m512 inv) {
    return _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(round_half_away(_mm512_mul_ps(x, inv))));
}

}  // namespace

void quantize_row_q8_0_avx512(const float* src, int64_t n, uint8_t* dst) {
    const int64_t blocks = n / 32;
    for (int64_t g0 = 0; g0 < blocks; g0 += kGroup) {
        const int count = blocks - g0 < kGroup ? int(blocks - g0) : kGroup;
        const float* s = src + g0 * 32;
        alignas(64) float amax[kGroup] = {};
        for (int b = 0; b < count; ++b) {
            const __m512 m = _mm512_max_ps(_mm512_abs_ps(_mm512_loadu_ps(s + 32 * b)),
                                           _mm512_abs_ps(_mm512_loadu_ps(s + 32 * b + 16)));
            amax[b] = _mm512_reduce_max_ps(m);  // a maximum is exact in any order
        }
        const __m512 d = _mm512_div_ps(_mm512_load_ps(amax), _mm512_set1_ps(127.0f));
        const __mmask16 nonzero = _mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_NEQ_OQ);
        alignas(64) float inv[kGroup];
        _mm512_store_ps(inv, _mm512_maskz_div_ps(nonzero, _mm512_set1_ps(1.0f), d));
        alignas(32) uint16_t half[kGroup];
        _mm256_store_si256(reinterpret_cast<__m256i*>(half), _mm512_cvtps_ph(d, _MM_FROUND_TO_NEAREST_INT));
        uint8_t* out = dst + g0 * 34;
        for (int b = 0; b < count; ++b, out += 34) {
            std::memcpy(out, &half[b], 2);
            const __m512 vinv = _mm512_set1_ps(inv[b]);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2), codes(_mm512_loadu_ps(s + 32 * b), vinv));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 18), codes(_mm512_loadu_ps(s + 32 * b + 16), vinv));
        }
    }
}

}  // namespace skn_core::kernels::x86_64
