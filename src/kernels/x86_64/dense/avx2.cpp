// SPDX-License-Identifier: MIT
// Dense matmul_wt kernels, AVX2 tier. Built with the avx2 flags only: this
// file holds kernel functions and nothing else (see dense/kernels.hpp).
// docs/kernels/dense.md explains the tiling.
//
// Each (weight row, activation row) owns one 8-lane float accumulator; the
// row is walked in chunks in index order (a zero-padded last chunk when `in`
// is not a multiple of the chunk), each chunk adding its products lane-wise
// with vfmadd (bf16 pairs: even elements, then odd elements), and the lanes
// are summed at the end in a fixed order. The same operations run whatever
// the tile shape, so the result does not depend on how the output rows are
// split.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/row_tiles.hpp"
#include "kernels/x86_64/dense/kernels.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

constexpr int64_t kPrefetchBytes = 4096;

inline __m128i load128(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline __m256i load256(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline __m256 bf16x8(const uint8_t* p) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(load128(p)), 16));
}
inline float hsum8(__m256 v) {
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}

// 16 bf16 values as floats: the even elements and the odd elements.
struct Pair {
    __m256 even, odd;
};
inline Pair bf16x16(const uint8_t* p) {
    const __m256i v = load256(p);
    return Pair{_mm256_castsi256_ps(_mm256_slli_epi32(v, 16)),
                _mm256_castsi256_ps(_mm256_and_si256(v, _mm256_set1_epi32(int(0xFFFF0000u))))};
}

// Policies: K elements per chunk, WB / XB bytes per weight / activation
// element, lw / lx load (and widen) a chunk, dot adds its products.
struct Bf16Bf16 {
    static constexpr int K = 16, WB = 2, XB = 2;
    using WV = Pair;
    using XV = Pair;
    static WV lw(const uint8_t* p) { return bf16x16(p); }
    static XV lx(const uint8_t* p) { return bf16x16(p); }
    static __m256 dot(__m256 acc, WV w, XV x) {
        return _mm256_fmadd_ps(w.odd, x.odd, _mm256_fmadd_ps(w.even, x.even, acc));
    }
};
struct F16F16 {
    static constexpr int K = 8, WB = 2, XB = 2;
    using WV = __m256;
    using XV = __m256;
    static WV lw(const uint8_t* p) { return _mm256_cvtph_ps(load128(p)); }
    static XV lx(const uint8_t* p) { return _mm256_cvtph_ps(load128(p)); }
    static __m256 dot(__m256 acc, WV w, XV x) { return _mm256_fmadd_ps(w, x, acc); }
};
struct Bf16F32 {
    static constexpr int K = 8, WB = 2, XB = 4;
    using WV = __m256;
    using XV = __m256;
    static WV lw(const uint8_t* p) { return bf16x8(p); }
    static XV lx(const uint8_t* p) { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
    static __m256 dot(__m256 acc, WV w, XV x) { return _mm256_fmadd_ps(w, x, acc); }
};
struct F16F32 {
    static constexpr int K = 8, WB = 2, XB = 4;
    using WV = __m256;
    using XV = __m256;
    static WV lw(const uint8_t* p) { return _mm256_cvtph_ps(load128(p)); }
    static XV lx(const uint8_t* p) { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
    static __m256 dot(__m256 acc, WV w, XV x) { return _mm256_fmadd_ps(w, x, acc); }
};
struct F32F32 {
    static constexpr int K = 8, WB = 4, XB = 4;
    using WV = __m256;
    using XV = __m256;
    static WV lw(const uint8_t* p) { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
    static XV lx(const uint8_t* p) { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
    static __m256 dot(__m256 acc, WV w, XV x) { return _mm256_fmadd_ps(w, x, acc); }
};

template <class P, int R, int N>
inline void chunk(__m256 (&acc)[R][N], const uint8_t* const (&w)[R], const uint8_t* const (&x)[N]) {
    typename P::WV wv[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) wv[r] = P::lw(w[r]);
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) {
        const typename P::XV xv = P::lx(x[i]);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) acc[r][i] = P::dot(acc[r][i], wv[r], xv);
    }
}

template <class P, int R, int N>
void tile(const PackedArgs& a, int64_t o0, int64_t i0) {
    __m256 acc[R][N];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) acc[r][i] = _mm256_setzero_ps();
    const uint8_t* wr[R];
    const uint8_t* xr[N];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) wr[r] = a.w + (o0 + r) * a.so;
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) xr[i] = activation_row<P::XB == sizeof(float)>(a, i0 + i);
    int64_t k = 0;
    for (; k + P::K <= a.in; k += P::K) {
        const uint8_t* w[R];
        const uint8_t* x[N];
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            w[r] = wr[r] + k * P::WB;
            // Software prefetch into L2 a fixed distance ahead in each row
            // stream (one line per row per 64 bytes of weights).
            if (P::K * P::WB >= 64 || (k & (64 / (P::K * P::WB) - 1) * P::K) == 0)
                _mm_prefetch(reinterpret_cast<const char*>(w[r] + kPrefetchBytes), _MM_HINT_T1);
        }
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) x[i] = xr[i] + k * P::XB;
        chunk<P, R, N>(acc, w, x);
    }
    if (k < a.in) {  // the last, partial chunk, zero-padded
        const int64_t rem = a.in - k;
        alignas(32) uint8_t wb[R][P::K * P::WB], xb[N][P::K * P::XB];
        const uint8_t* w[R];
        const uint8_t* x[N];
        for (int r = 0; r < R; ++r) {
            for (int64_t j = 0; j < P::K * P::WB; ++j) wb[r][j] = j < rem * P::WB ? wr[r][k * P::WB + j] : 0;
            w[r] = wb[r];
        }
        for (int i = 0; i < N; ++i) {
            for (int64_t j = 0; j < P::K * P::XB; ++j) xb[i][j] = j < rem * P::XB ? xr[i][k * P::XB + j] : 0;
            x[i] = xb[i];
        }
        chunk<P, R, N>(acc, w, x);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            const float v = hsum8(acc[r][i]);
            const int64_t o = o0 + r;
            a.y[(i0 + i) * a.y_stride + o] = a.bias != nullptr ? v + a.bias[o] : v;
        }
}

template <class P, int R>
void row_tile(const PackedArgs& a, int64_t o0) {
    for_each_row_tile_up_to<4>(a.n, [&](auto N, int64_t i) SKN_TILE_INLINE { tile<P, R, N>(a, o0, i); });
}

template <class P>
void run(const PackedArgs& a, int64_t out_begin, int64_t out_end) {
    int64_t o = out_begin;
    for (; o + 4 <= out_end; o += 4) row_tile<P, 4>(a, o);
    for (; o < out_end; ++o) row_tile<P, 1>(a, o);
}

}  // namespace

void bf16_bf16_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<Bf16Bf16>(a, ob, oe); }
void f16_f16_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<F16F16>(a, ob, oe); }
void bf16_f32_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<Bf16F32>(a, ob, oe); }
void f16_f32_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<F16F32>(a, ob, oe); }
void f32_f32_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<F32F32>(a, ob, oe); }

}  // namespace skn_core::kernels::x86_64
