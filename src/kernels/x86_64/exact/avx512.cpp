// SPDX-License-Identifier: MIT
// Exact-precision matmul_wt kernels, AVX-512F/BW: 16-lane vectors; the
// batched path puts 16 output rows in the lanes and runs 8 activation rows
// per tile. Kernel functions only (see exact/kernels.hpp, registered by
// exact/register.cpp).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/common/row_tiles.hpp"
#include "kernels/x86_64/common/grid_tables.hpp"
#include "kernels/x86_64/common/value_tables.hpp"
#include "kernels/x86_64/exact/kernels.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

// 16 bytes -> 16 floats, one zmm (see exact/decode.inc).
inline __m512 i8_ps(__m128i v) { return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(v)); }
inline __m512 u8_ps(__m128i v) { return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(v)); }
template <class Out>
inline void put_i8(__m128i v, float d, Out& out, int at) {
    out.put(_mm512_mul_ps(i8_ps(v), _mm512_set1_ps(d)), at);
}
template <class Out>
inline void put_u8_affine(__m128i v, float d, float m, Out& out, int at) {
    out.put(_mm512_add_ps(_mm512_mul_ps(u8_ps(v), _mm512_set1_ps(d)), _mm512_set1_ps(m)), at);
}
template <class Out>
inline void put_u8_step(__m128i v, float step, float off, Out& out, int at) {
    out.put(_mm512_sub_ps(_mm512_mul_ps(_mm512_set1_ps(step), u8_ps(v)), _mm512_set1_ps(off)), at);
}
template <class Out>
inline void put_signs(uint32_t bits, float d, Out& out, int at) {
    out.put(_mm512_mask_blend_ps(__mmask16(bits), _mm512_set1_ps(-d), _mm512_set1_ps(d)), at);
}

// Grid formats: (float(u8 v[j]) * d) * (bit j of neg ? -1 : 1), and
// d * (float(int8 v[j]) + shift), shift_lo for j < 8 and shift_hi above.
template <class Out>
inline void put_u8_signed(__m128i v, uint32_t neg, float d, Out& out, int at) {
    const __m512 sign = _mm512_mask_blend_ps(__mmask16(neg), _mm512_set1_ps(1.0f), _mm512_set1_ps(-1.0f));
    out.put(_mm512_mul_ps(_mm512_mul_ps(u8_ps(v), _mm512_set1_ps(d)), sign), at);
}
template <class Out>
inline void put_i8_shifted(__m128i v, float shift_lo, float shift_hi, float d, Out& out, int at) {
    const __m512 shift = _mm512_mask_blend_ps(__mmask16(0xFF00), _mm512_set1_ps(shift_lo), _mm512_set1_ps(shift_hi));
    out.put(_mm512_mul_ps(_mm512_set1_ps(d), _mm512_add_ps(i8_ps(v), shift)), at);
}

#include "kernels/x86_64/exact/decode.inc"

using Vec = __m512;
constexpr int kLanes = 16;

constexpr int kGemmMinN = kExactBatchedMinN;
constexpr int kGemmC = 8;

inline Vec vload(const float* p) { return _mm512_load_ps(p); }
inline Vec vbroadcast(const float* p) { return _mm512_set1_ps(*p); }
inline Vec vadd(Vec a, Vec b) { return _mm512_add_ps(a, b); }
inline Vec vload_n(const float* p, int n) { return _mm512_maskz_loadu_ps(__mmask16((1u << n) - 1u), p); }
inline void vstore_n(float* p, Vec v, int n) { _mm512_mask_storeu_ps(p, __mmask16((1u << n) - 1u), v); }

// dst[16 k + r] = src[r * stride + k] for r, k < 16.
inline void transpose_tile(const float* src, int64_t stride, float* dst) {
    __m512 r[16], t[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) r[i] = _mm512_load_ps(src + i * stride);
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    // Per 128-bit lane L, r[4i + j] becomes column 4L + j of rows 4i..4i+3.
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        const __m512d a0 = _mm512_castps_pd(t[4 * i]), a1 = _mm512_castps_pd(t[4 * i + 1]);
        const __m512d a2 = _mm512_castps_pd(t[4 * i + 2]), a3 = _mm512_castps_pd(t[4 * i + 3]);
        r[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
        r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
        r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
        r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
    }
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j)
#pragma GCC unroll 2
        for (int g = 0; g < 16; g += 8) {
            t[g + j] = _mm512_shuffle_f32x4(r[g + j], r[g + j + 4], 0x88);
            t[g + j + 4] = _mm512_shuffle_f32x4(r[g + j], r[g + j + 4], 0xDD);
        }
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
        _mm512_store_ps(dst + 16 * j, _mm512_shuffle_f32x4(t[j], t[8 + j], 0x88));
        _mm512_store_ps(dst + 16 * (8 + j), _mm512_shuffle_f32x4(t[j], t[8 + j], 0xDD));
        _mm512_store_ps(dst + 16 * (4 + j), _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0x88));
        _mm512_store_ps(dst + 16 * (12 + j), _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0xDD));
    }
}
inline Vec vloadu(const float* p) { return _mm512_loadu_ps(p); }
inline void vstoreu(float* p, Vec v) { _mm512_storeu_ps(p, v); }
inline Vec vzero() { return _mm512_setzero_ps(); }
inline Vec vfma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
inline float vsum(Vec v) {
    __m256 h = _mm256_add_ps(_mm512_castps512_ps256(v), _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
    __m128 q = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
    q = _mm_add_ps(q, _mm_movehl_ps(q, q));
    return _mm_cvtss_f32(_mm_add_ss(q, _mm_movehdup_ps(q)));
}

#include "kernels/x86_64/exact/driver.inc"

}  // namespace

void exact_matmul_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run(a, out_begin, out_end); }
ExactDecodeFn exact_decoder_avx512(FormatId format) { return format_of(format).dec; }

}  // namespace skn_core::kernels::x86_64
