// SPDX-License-Identifier: MIT
// NVFP4 x Q8_0 matmul_wt, AVX2 tier (vpmaddubsw + vpmaddwd). Kernel
// functions only (see nvfp4/kernels.hpp); docs/kernels/nvfp4.md explains the
// tiling and the accumulation order.
//
// One weight block (64 elements) per step, as two 256-bit code vectors: the
// low nibbles of its 32 code bytes (128-bit lane 0: elements 0-7, 16-23;
// lane 1: 32-39, 48-55) and the high nibbles (8-15, 24-31 | 40-47, 56-63).
// The activations (Q8_0 blocks 2b, 2b+1 = 8-byte groups G0..G7) are permuted
// to match: [G0 G2 | G4 G6] and [G1 G3 | G5 G7]. 32-bit lanes (0,1), (2,3),
// (4,5), (6,7) of either vector then hold sub-blocks 0, 1, 2, 3, so the two
// vectors are summed in integers before a single conversion:
//   int16: t = maddubs(c_lo, q_lo) + maddubs(c_hi, q_hi) - 12 * (sum of the same q)
// (codes + 12 <= 24 and |q| <= 128: each maddubs is within +-6144, their sum
// within +-12288 and the result, four products (c - 12) q, within +-6144, so
// no int16 step saturates), then
// vpmaddwd to int32 lanes and, per (weight row, activation row) and block in
// block order, acc = fma(float(lanes), scale_w[lane] * d_x[lane], acc)
// (8 float lanes), summed with a fixed tree at the end (+ bias).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/row_tiles.hpp"
#include "kernels/x86_64/nvfp4/decode.hpp"
#include "kernels/x86_64/nvfp4/kernels.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

inline __m256i load256(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }

inline float hsum8(__m256 v) {
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}

struct WBlock {
    __m256i lo, hi;  // codes + 12
    __m256 s;        // half scale of each lane's sub-block
};

inline WBlock load_wblock(const uint8_t* p, __m256i table) {
    const __m256i raw = load256(p + 4), m = _mm256_set1_epi8(0x0F);
    const __m256i lo = _mm256_and_si256(raw, m), hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), m);
    const __m256 s4 = _mm256_castps128_ps256(nvfp4_half_scales(nvfp4_load_u32(p)));
    const __m256 s = _mm256_permutevar8x32_ps(s4, _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
    return WBlock{_mm256_shuffle_epi8(table, lo), _mm256_shuffle_epi8(table, hi), s};
}

struct XBlock {
    __m256i lo, hi;  // activation bytes in the lane order above
    __m256i nq;      // int16: -12 * sum of the q of each int16 lane's four products
    __m256 d;        // d_x of each lane's Q8_0 block
};

inline XBlock load_xblock(const uint8_t* xb) {
    const __m256i g0 = _mm256_permute4x64_epi64(load256(xb + 2), 0xD8);              // G0 G2 G1 G3
    const __m256i g1 = _mm256_permute4x64_epi64(load256(xb + kQ80Bytes + 2), 0xD8);  // G4 G6 G5 G7
    XBlock x;
    x.lo = _mm256_permute2x128_si256(g0, g1, 0x20);
    x.hi = _mm256_permute2x128_si256(g0, g1, 0x31);
    const __m256i k = _mm256_set1_epi8(kNvfp4CodeOffset);
    x.nq = _mm256_sub_epi16(_mm256_setzero_si256(),
                            _mm256_add_epi16(_mm256_maddubs_epi16(k, x.lo), _mm256_maddubs_epi16(k, x.hi)));
    x.d = _mm256_blend_ps(_mm256_set1_ps(nvfp4_load_h(xb)), _mm256_set1_ps(nvfp4_load_h(xb + kQ80Bytes)), 0xF0);
    return x;
}

inline int64_t prefetch_distance(const PackedArgs& a) { return a.so * (a.so >= 256 ? 12 : 32); }

template <int R, int N>
void tile(const PackedArgs& a, int64_t o0, int64_t i0) {
    __m256 acc[R][N];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) acc[r][i] = _mm256_setzero_ps();
    const uint8_t* wrow[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) wrow[r] = a.w + (o0 + r) * a.so;
    const uint8_t* xrow[N];
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) xrow[i] = a.xq + size_t(i0 + i) * a.xq_stride;
    const __m256i table = _mm256_broadcastsi128_si256(nvfp4_code_table());
    const __m256i ones16 = _mm256_set1_epi16(1);
    const int64_t pf = prefetch_distance(a);
    for (int64_t b = 0; b < a.bpr; ++b) {
        WBlock w[R];
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const uint8_t* blk = wrow[r] + b * a.sb;
            _mm_prefetch(reinterpret_cast<const char*>(blk + pf), _MM_HINT_T1);
            _mm_prefetch(reinterpret_cast<const char*>(blk + pf + kNvfp4Bytes - 1), _MM_HINT_T1);
            w[r] = load_wblock(blk, table);
        }
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            const XBlock x = load_xblock(xrow[i] + b * 2 * kQ80Bytes);
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) {
                const __m256i t = _mm256_add_epi16(
                    _mm256_add_epi16(_mm256_maddubs_epi16(w[r].lo, x.lo), _mm256_maddubs_epi16(w[r].hi, x.hi)), x.nq);
                const __m256 f = _mm256_cvtepi32_ps(_mm256_madd_epi16(t, ones16));
                acc[r][i] = _mm256_fmadd_ps(f, _mm256_mul_ps(w[r].s, x.d), acc[r][i]);
            }
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            const float v = hsum8(acc[r][i]);
            a.y[(i0 + i) * a.y_stride + o0 + r] = a.bias != nullptr ? v + a.bias[o0 + r] : v;
        }
}

template <int R>
void row_tile(const PackedArgs& a, int64_t o0) {
    for_each_row_tile_up_to<4>(a.n, [&](auto N, int64_t i) SKN_TILE_INLINE { tile<R, N>(a, o0, i); });
}

}  // namespace

void nvfp4_q8_0_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) {
    int64_t o = out_begin;
    for (; o + 2 <= out_end; o += 2) row_tile<2>(a, o);
    for (; o < out_end; ++o) row_tile<1>(a, o);
}

}  // namespace skn_core::kernels::x86_64
