// SPDX-License-Identifier: MIT
// Exact-precision matmul_wt kernels, AVX2/FMA/F16C: 8-lane vectors; the
// batched path puts 8 output rows in the lanes and runs 8 activation rows
// per tile. Kernel functions only (see exact/kernels.hpp, registered by
// exact/register.cpp).
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

// 16 bytes -> 16 floats, two ymm (see exact/decode.inc).
inline __m256 i8_ps(__m128i v) { return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(v)); }
inline __m256 u8_ps(__m128i v) { return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v)); }
inline __m128i upper8(__m128i v) { return _mm_unpackhi_epi64(v, v); }
template <class Out>
inline void put_i8(__m128i v, float df, Out& out, int at) {
    const __m256 d = _mm256_set1_ps(df);
    out.put(_mm256_mul_ps(i8_ps(v), d), at);
    out.put(_mm256_mul_ps(i8_ps(upper8(v)), d), at + 8);
}
template <class Out>
inline void put_u8_affine(__m128i v, float df, float mf, Out& out, int at) {
    const __m256 d = _mm256_set1_ps(df), m = _mm256_set1_ps(mf);
    out.put(_mm256_add_ps(_mm256_mul_ps(u8_ps(v), d), m), at);
    out.put(_mm256_add_ps(_mm256_mul_ps(u8_ps(upper8(v)), d), m), at + 8);
}
template <class Out>
inline void put_u8_step(__m128i v, float step, float off, Out& out, int at) {
    const __m256 s = _mm256_set1_ps(step), o = _mm256_set1_ps(off);
    out.put(_mm256_sub_ps(_mm256_mul_ps(s, u8_ps(v)), o), at);
    out.put(_mm256_sub_ps(_mm256_mul_ps(s, u8_ps(upper8(v))), o), at + 8);
}
template <class Out>
inline void put_signs(uint32_t bits, float df, Out& out, int at) {
    const __m256 d = _mm256_set1_ps(df), nd = _mm256_set1_ps(-df);
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    for (int h = 0; h < 2; ++h) {
        const __m256i on = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int((bits >> (8 * h)) & 0xFF)), sel), sel);
        out.put(_mm256_blendv_ps(nd, d, _mm256_castsi256_ps(on)), at + 8 * h);
    }
}

// Grid formats: (float(u8 v[j]) * d) * (bit j of neg ? -1 : 1), and
// d * (float(int8 v[j]) + shift), shift_lo for j < 8 and shift_hi above.
inline __m256 sign_of_bits(uint32_t neg8) {
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i on = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(neg8 & 0xFF)), sel), sel);
    return _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_set1_ps(-1.0f), _mm256_castsi256_ps(on));
}
template <class Out>
inline void put_u8_signed(__m128i v, uint32_t neg, float df, Out& out, int at) {
    const __m256 d = _mm256_set1_ps(df);
    out.put(_mm256_mul_ps(_mm256_mul_ps(u8_ps(v), d), sign_of_bits(neg)), at);
    out.put(_mm256_mul_ps(_mm256_mul_ps(u8_ps(upper8(v)), d), sign_of_bits(neg >> 8)), at + 8);
}
template <class Out>
inline void put_i8_shifted(__m128i v, float shift_lo, float shift_hi, float df, Out& out, int at) {
    const __m256 d = _mm256_set1_ps(df);
    out.put(_mm256_mul_ps(d, _mm256_add_ps(i8_ps(v), _mm256_set1_ps(shift_lo))), at);
    out.put(_mm256_mul_ps(d, _mm256_add_ps(i8_ps(upper8(v)), _mm256_set1_ps(shift_hi))), at + 8);
}

#include "kernels/x86_64/exact/decode.inc"

using Vec = __m256;
constexpr int kLanes = 8;

constexpr int kGemmMinN = kExactBatchedMinN;
constexpr int kGemmC = 8;

inline Vec vload(const float* p) { return _mm256_load_ps(p); }
inline Vec vbroadcast(const float* p) { return _mm256_broadcast_ss(p); }
inline Vec vadd(Vec a, Vec b) { return _mm256_add_ps(a, b); }
inline __m256i first_n(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
inline Vec vload_n(const float* p, int n) { return _mm256_maskload_ps(p, first_n(n)); }
inline void vstore_n(float* p, Vec v, int n) { _mm256_maskstore_ps(p, first_n(n), v); }

// dst[8 k + r] = src[r * stride + k] for r, k < 8.
inline void transpose_tile(const float* src, int64_t stride, float* dst) {
    __m256 r[8], t[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) r[i] = _mm256_load_ps(src + i * stride);
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    // Per 128-bit lane L, r[4i + j] becomes column 4L + j of rows 4i..4i+3.
#pragma GCC unroll 2
    for (int i = 0; i < 2; ++i) {
        const __m256d a0 = _mm256_castps_pd(t[4 * i]), a1 = _mm256_castps_pd(t[4 * i + 1]);
        const __m256d a2 = _mm256_castps_pd(t[4 * i + 2]), a3 = _mm256_castps_pd(t[4 * i + 3]);
        r[4 * i] = _mm256_castpd_ps(_mm256_unpacklo_pd(a0, a2));
        r[4 * i + 1] = _mm256_castpd_ps(_mm256_unpackhi_pd(a0, a2));
        r[4 * i + 2] = _mm256_castpd_ps(_mm256_unpacklo_pd(a1, a3));
        r[4 * i + 3] = _mm256_castpd_ps(_mm256_unpackhi_pd(a1, a3));
    }
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
        _mm256_store_ps(dst + 8 * j, _mm256_permute2f128_ps(r[j], r[4 + j], 0x20));
        _mm256_store_ps(dst + 8 * (4 + j), _mm256_permute2f128_ps(r[j], r[4 + j], 0x31));
    }
}
inline Vec vloadu(const float* p) { return _mm256_loadu_ps(p); }
inline void vstoreu(float* p, Vec v) { _mm256_storeu_ps(p, v); }
inline Vec vzero() { return _mm256_setzero_ps(); }
inline Vec vfma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline float vsum(Vec v) {
    __m128 q = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    q = _mm_add_ps(q, _mm_movehl_ps(q, q));
    return _mm_cvtss_f32(_mm_add_ss(q, _mm_movehdup_ps(q)));
}

#include "kernels/x86_64/exact/driver.inc"

}  // namespace

void exact_matmul_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run(a, out_begin, out_end); }
ExactDecodeFn exact_decoder_avx2(FormatId format) { return format_of(format).dec; }

}  // namespace skn_core::kernels::x86_64
