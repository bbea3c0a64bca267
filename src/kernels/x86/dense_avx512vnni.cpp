// Dense matmul_wt kernels, AVX512 tier (registered as avx512vnni; the BF16
// fast kernel also needs AVX512_BF16, which registration checks). Built with
// the avx512vnni flags only: this file holds kernel functions and nothing
// else (see dense_kernels.hpp). docs/kernels/dense.md explains the tiling.
//
// Each (weight row, activation row) owns one 16-lane float accumulator; the
// row is walked in chunks in index order (a zero-padded last chunk when `in`
// is not a multiple of the chunk), each chunk adding its products lane-wise
// (vfmadd, or vdpbf16ps for bf16 pairs), and the lanes are summed at the end
// with a fixed tree. The same operations run whatever the tile shape, so the
// result does not depend on how the output rows are split.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/x86/dense_kernels.hpp"

namespace skn::kernels::x86 {
namespace {

constexpr int64_t kPrefetchBytes = 4096;

inline __m256i load256(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline __m512 bf16x16(const uint8_t* p) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(load256(p)), 16));
}

// Policies: K elements per chunk, WB / XB bytes per weight / activation
// element, lw / lx load (and widen) a chunk, dot adds its products.
struct Bf16Bf16 {  // vdpbf16ps: 32 bf16 pairs, lane j += w[2j] x[2j] + w[2j+1] x[2j+1]
    static constexpr int K = 32, WB = 2, XB = 2;
    using WV = __m512i;
    using XV = __m512i;
    static WV lw(const uint8_t* p) { return _mm512_loadu_si512(p); }
    static XV lx(const uint8_t* p) { return _mm512_loadu_si512(p); }
    static __m512 dot(__m512 acc, WV w, XV x) { return _mm512_dpbf16_ps(acc, (__m512bh)w, (__m512bh)x); }
};
struct F16F16 {
    static constexpr int K = 16, WB = 2, XB = 2;
    using WV = __m512;
    using XV = __m512;
    static WV lw(const uint8_t* p) { return _mm512_cvtph_ps(load256(p)); }
    static XV lx(const uint8_t* p) { return _mm512_cvtph_ps(load256(p)); }
    static __m512 dot(__m512 acc, WV w, XV x) { return _mm512_fmadd_ps(w, x, acc); }
};
struct Bf16F32 {
    static constexpr int K = 16, WB = 2, XB = 4;
    using WV = __m512;
    using XV = __m512;
    static WV lw(const uint8_t* p) { return bf16x16(p); }
    static XV lx(const uint8_t* p) { return _mm512_loadu_ps(p); }
    static __m512 dot(__m512 acc, WV w, XV x) { return _mm512_fmadd_ps(w, x, acc); }
};
struct F16F32 {
    static constexpr int K = 16, WB = 2, XB = 4;
    using WV = __m512;
    using XV = __m512;
    static WV lw(const uint8_t* p) { return _mm512_cvtph_ps(load256(p)); }
    static XV lx(const uint8_t* p) { return _mm512_loadu_ps(p); }
    static __m512 dot(__m512 acc, WV w, XV x) { return _mm512_fmadd_ps(w, x, acc); }
};
struct F32F32 {
    static constexpr int K = 16, WB = 4, XB = 4;
    using WV = __m512;
    using XV = __m512;
    static WV lw(const uint8_t* p) { return _mm512_loadu_ps(p); }
    static XV lx(const uint8_t* p) { return _mm512_loadu_ps(p); }
    static __m512 dot(__m512 acc, WV w, XV x) { return _mm512_fmadd_ps(w, x, acc); }
};

template <class P, int R, int N>
inline void chunk(__m512 (&acc)[R][N], const uint8_t* const (&w)[R], const uint8_t* const (&x)[N]) {
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
void tile(const DenseArgs& a, int64_t o0, int64_t i0) {
    __m512 acc[R][N];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) acc[r][i] = _mm512_setzero_ps();
    const uint8_t* wr[R];
    const uint8_t* xr[N];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) wr[r] = a.w + (o0 + r) * a.row_stride;
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) xr[i] = a.x + size_t(i0 + i) * a.x_stride;
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
        alignas(64) uint8_t wb[R][P::K * P::WB], xb[N][P::K * P::XB];
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
            const float v = _mm512_reduce_add_ps(acc[r][i]);
            const int64_t o = o0 + r;
            a.y[(i0 + i) * a.y_stride + o] = a.bias != nullptr ? v + a.bias[o] : v;
        }
}

template <class P, int R>
void row_tile(const DenseArgs& a, int64_t o0) {
    int64_t i = 0;
    for (; i + 6 <= a.n; i += 6) tile<P, R, 6>(a, o0, i);
    switch (a.n - i) {
        case 5: tile<P, R, 5>(a, o0, i); break;
        case 4: tile<P, R, 4>(a, o0, i); break;
        case 3: tile<P, R, 3>(a, o0, i); break;
        case 2: tile<P, R, 2>(a, o0, i); break;
        case 1: tile<P, R, 1>(a, o0, i); break;
        default: break;
    }
}

template <class P>
void run(const DenseArgs& a, int64_t out_begin, int64_t out_end) {
    int64_t o = out_begin;
    for (; o + 4 <= out_end; o += 4) row_tile<P, 4>(a, o);
    for (; o < out_end; ++o) row_tile<P, 1>(a, o);
}

}  // namespace

void bf16_bf16_avx512bf16(const DenseArgs& a, int64_t ob, int64_t oe) { run<Bf16Bf16>(a, ob, oe); }
void f16_f16_avx512vnni(const DenseArgs& a, int64_t ob, int64_t oe) { run<F16F16>(a, ob, oe); }
void bf16_f32_avx512vnni(const DenseArgs& a, int64_t ob, int64_t oe) { run<Bf16F32>(a, ob, oe); }
void f16_f32_avx512vnni(const DenseArgs& a, int64_t ob, int64_t oe) { run<F16F32>(a, ob, oe); }
void f32_f32_avx512vnni(const DenseArgs& a, int64_t ob, int64_t oe) { run<F32F32>(a, ob, oe); }

}  // namespace skn::kernels::x86
