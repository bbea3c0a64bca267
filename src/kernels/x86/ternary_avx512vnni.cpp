// Ternary / low-bit matmul_wt kernels, AVX512-VNNI tier (512-bit vpdpbusd).
// Built with the avx512vnni flags only: this file holds kernel functions and
// nothing else (see ternary_kernels.hpp). docs/kernels/ternary.md explains
// the tiling and the accumulation order.
//
// Every weight code is fed to vpdpbusd as an UNSIGNED byte c (0..3) against
// the signed activation byte q; the offset is removed exactly in integers by
// subtracting sum(q) over the SAME lanes (a vpdpbusd of ones, shared by the
// weight rows of a tile), so a lane holds sum((c - 1) * q)
// (Q1_0: codes 0/2, sum((2b - 1) * q)). Per block (Q8_K) or per pair of Q8_0
// blocks (64 elements), each (weight row, activation row) does
//   acc = fma(float(lanes), d_w * d_x, acc)         (16 float lanes)
// in block order, and the lanes are summed at the end with a fixed tree.
// The same operations run whatever the tile shape or block order, so y is
// bit-identical for ROW_MAJOR / INPUT_BLOCK_MAJOR and any split of the rows.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/x86/ternary_kernels.hpp"

namespace skn::kernels::x86 {
namespace {

constexpr int64_t kQ8KBytes = 292, kQ8KQs = 4;  // { f32 d; i8 q[256]; i16 bsums[16] }
constexpr int64_t kQ80Bytes = 34;                                 // { f16 d; i8 q[32] }


inline float load_h(const uint8_t* p) {
    uint16_t h;
    __builtin_memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}
inline float load_f(const uint8_t* p) {
    float f;
    __builtin_memcpy(&f, p, 4);
    return f;
}
inline __m256i load256(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline __m512i load512(const uint8_t* p) { return _mm512_loadu_si512(p); }
inline __m512i mul3(__m512i v) { return _mm512_add_epi8(v, _mm512_add_epi8(v, v)); }  // bytewise, mod 256

// Software prefetch of the same block some rows ahead (into L2): in either
// block order that is a fixed distance ahead in every stream the kernel
// walks. Rows are far apart in ROW_MAJOR (12 rows), close in
// INPUT_BLOCK_MAJOR (32 rows, about 2 KiB ahead in each block column).
inline int64_t prefetch_distance(const TernaryArgs& a) { return a.so * (a.so >= 256 ? 12 : 32); }

inline void store_y(const TernaryArgs& a, int64_t i, int64_t o, float v) {
    a.y[i * a.y_stride + o] = a.bias != nullptr ? v + a.bias[o] : v;
}

// ---------------------------------------------------------------------------
// Q8_K formats: 256-element blocks, 4 steps of 64 codes.

// TQ2_0: element 128h + 32l + m is bits 2l of byte 32h + m. Step l: the 64
// code bytes shifted by 2l pair with q[32l..] (low half) and q[128+32l..].
struct Tq2 {
    static constexpr bool kQ8K = true;
    static constexpr int64_t kBytes = 66;
    struct W {
        __m512i v;
        float d;
    };
    static W load(const uint8_t* p) { return W{load512(p), load_h(p + 64)}; }
    static __m512i codes(W& w, int) {
        const __m512i c = _mm512_and_si512(w.v, _mm512_set1_epi8(3));
        w.v = _mm512_srli_epi16(w.v, 2);
        return c;
    }
    static __m512i acts(const uint8_t* q, int s) {
        return _mm512_inserti64x4(_mm512_castsi256_si512(load256(q + 32 * s)), load256(q + 128 + 32 * s), 1);
    }
};

// TQ1_0: digit n of byte b is ((b * 3^n mod 256) * 3) >> 8, i.e.
// [x >= 86] + [x >= 171] for x = b * 3^n mod 256. The four steps cover
// elements 64s..64s+63 in order:
//   0: wide*1, wide*3   1: wide*9, wide*27   2: wide*81, narrow*1, narrow*3
//   3: narrow*9, narrow*27, narrow*81, tail*{1,3,9,27}
struct Tq1 {
    static constexpr bool kQ8K = true;
    static constexpr int64_t kBytes = 54;
    struct W {
        __m512i v[4];
        float d;
    };
    static W load(const uint8_t* p) {
        W w;
        const __m512i a0 = _mm512_broadcast_i64x4(load256(p));
        const __m512i a = _mm512_mask_blend_epi64(0xF0, a0, mul3(a0));
        const __m512i b = mul3(mul3(a));
        const __m512i c81 = mul3(mul3(b));
        const __m512i n0 = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32)));
        const __m512i n3 = mul3(n0), n9 = mul3(n3), n27 = mul3(n9), n81 = mul3(n27);
        uint32_t tail;
        __builtin_memcpy(&tail, p + 48, 4);
        const __m512i t0 = _mm512_set1_epi32(int(tail)), t3 = mul3(t0), t9 = mul3(t3), t27 = mul3(t9);
        w.v[0] = a;
        w.v[1] = b;
        w.v[2] = _mm512_mask_blend_epi64(0xC0, _mm512_mask_blend_epi64(0x30, c81, n0), n3);
        __m512i d = _mm512_mask_blend_epi32(0x00F0, n9, n27);
        d = _mm512_mask_blend_epi32(0x0F00, d, n81);
        d = _mm512_mask_blend_epi32(0x1000, d, t0);
        d = _mm512_mask_blend_epi32(0x2000, d, t3);
        d = _mm512_mask_blend_epi32(0x4000, d, t9);
        w.v[3] = _mm512_mask_blend_epi32(0x8000, d, t27);
        w.d = load_h(p + 52);
        return w;
    }
    static __m512i codes(W& w, int s) {
        const __m512i x = w.v[s], one = _mm512_set1_epi8(1);
        const __m512i t = _mm512_maskz_mov_epi8(_mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(86)), one);
        return _mm512_mask_add_epi8(t, _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(char(171))), t, one);
    }
    static __m512i acts(const uint8_t* q, int s) { return load512(q + 64 * s); }
};

template <class P, int R, int N>
void tile_q8k(const TernaryArgs& a, int64_t o0, int64_t i0) {
    __m512 acc[R][N];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) acc[r][i] = _mm512_setzero_ps();
    const uint8_t* wrow[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) wrow[r] = a.w + (o0 + r) * a.so;
    const uint8_t* xrow[N];
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) xrow[i] = a.xq + size_t(i0 + i) * a.xq_stride;
    const __m512i ones = _mm512_set1_epi8(1);
    const int64_t pf = prefetch_distance(a);
    for (int64_t b = 0; b < a.bpr; ++b) {
        typename P::W w[R];
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const uint8_t* blk = wrow[r] + b * a.sb;
            _mm_prefetch(reinterpret_cast<const char*>(blk + pf), _MM_HINT_T1);
            _mm_prefetch(reinterpret_cast<const char*>(blk + pf + P::kBytes - 1), _MM_HINT_T1);
            w[r] = P::load(blk);
        }
        const uint8_t* xb[N];
        __m512i s[R][N], qsum[N];
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            xb[i] = xrow[i] + b * kQ8KBytes;
            qsum[i] = _mm512_setzero_si512();
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) s[r][i] = _mm512_setzero_si512();
        }
#pragma GCC unroll 4
        for (int st = 0; st < 4; ++st) {
            __m512i x[N];
#pragma GCC unroll 8
            for (int i = 0; i < N; ++i) {
                x[i] = P::acts(xb[i] + kQ8KQs, st);
                qsum[i] = _mm512_dpbusd_epi32(qsum[i], ones, x[i]);
            }
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) {
                const __m512i c = P::codes(w[r], st);
#pragma GCC unroll 8
                for (int i = 0; i < N; ++i) s[r][i] = _mm512_dpbusd_epi32(s[r][i], c, x[i]);
            }
        }
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            const __m512 dx = _mm512_set1_ps(load_f(xb[i]));
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r)
                acc[r][i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(s[r][i], qsum[i])), _mm512_mul_ps(_mm512_set1_ps(w[r].d), dx),
                                            acc[r][i]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) store_y(a, i0 + i, o0 + r, _mm512_reduce_add_ps(acc[r][i]));
}

// ---------------------------------------------------------------------------
// Q8_0 formats: units of 64 elements = two Q8_0 activation blocks (lanes 0-7
// the first, 8-15 the second).

inline __m512i q80_pair(const uint8_t* xb) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(load256(xb + 2)), load256(xb + kQ80Bytes + 2), 1);
}

// I2_S: 128 elements in 32 bytes; element 32g + p is bits 6-2g of byte p.
// Unit u (elements 64u..64u+63) is groups 2u (low half) and 2u+1 (high).
// Code 3 decodes to 0 in skn, so it is turned into 1 first.
struct I2s {
    static constexpr bool kQ8K = false, kHasScale = false;
    static constexpr int64_t kBytes = 32;
    static constexpr int kUnits = 2;
    struct W {
        __m512i v;
        float d;
    };
    static W load(const uint8_t* p) {
        __m512i v = _mm512_broadcast_i64x4(load256(p));
        const __m512i both = _mm512_and_si512(_mm512_and_si512(v, _mm512_srli_epi16(v, 1)), _mm512_set1_epi8(0x55));
        v = _mm512_xor_si512(v, _mm512_slli_epi16(both, 1));
        return W{v, 1.0f};
    }
    static __m512i codes(W& w, int u) {
        const __m512i cnt = u == 0 ? _mm512_mask_blend_epi64(0xF0, _mm512_set1_epi16(6), _mm512_set1_epi16(4))
                                   : _mm512_mask_blend_epi64(0xF0, _mm512_set1_epi16(2), _mm512_setzero_si512());
        return _mm512_and_si512(_mm512_srlv_epi16(w.v, cnt), _mm512_set1_epi8(3));
    }
    static __m512i acts(const uint8_t* xb) { return q80_pair(xb); }
};

// Q1_0: 128 sign bits; element i is bit i of the little-endian bit string.
// Codes 0 / 2 so that a lane holds sum((2b - 1) q).
struct Q1 {
    static constexpr bool kQ8K = false, kHasScale = true;
    static constexpr int64_t kBytes = 18;
    static constexpr int kUnits = 2;
    struct W {
        uint64_t bits[2];
        float d;
    };
    static W load(const uint8_t* p) {
        W w;
        __builtin_memcpy(w.bits, p + 2, 16);
        w.d = load_h(p);
        return w;
    }
    static __m512i codes(W& w, int u) { return _mm512_maskz_mov_epi8(_cvtu64_mask64(w.bits[u]), _mm512_set1_epi8(2)); }
    static __m512i acts(const uint8_t* xb) { return q80_pair(xb); }
};

// Q2_0: 64 elements; element 4m + k is bits 2k of code byte m. In each
// 128-bit lane L (elements 16L..16L+15) the codes are laid out k-major
// (position 4k + j holds element 16L + 4j + k), and the activations are
// shuffled the same way, so every dword still sums four products of one
// Q8_0 block.
struct Q2 {
    static constexpr bool kQ8K = false, kHasScale = true;
    static constexpr int64_t kBytes = 18;
    static constexpr int kUnits = 1;
    struct W {
        __m512i c;
        float d;
    };
    static W load(const uint8_t* p) {
        const __m512i raw = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2)));
        const __m512i idx = _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0);
        const __m512i cnt = _mm512_set_epi32(6, 4, 2, 0, 6, 4, 2, 0, 6, 4, 2, 0, 6, 4, 2, 0);
        const __m512i c =
            _mm512_and_si512(_mm512_srlv_epi32(_mm512_permutexvar_epi32(idx, raw), cnt), _mm512_set1_epi8(3));
        return W{c, load_h(p)};
    }
    static __m512i codes(W& w, int) { return w.c; }
    static __m512i acts(const uint8_t* xb) {
        const __m512i t = _mm512_set4_epi32(0x0f0b0703, 0x0e0a0602, 0x0d090501, 0x0c080400);
        return _mm512_shuffle_epi8(q80_pair(xb), t);
    }
};

template <class P, int R, int N>
void tile_q80(const TernaryArgs& a, int64_t o0, int64_t i0) {
    __m512 acc[R][N];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) acc[r][i] = _mm512_setzero_ps();
    const uint8_t* wrow[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) wrow[r] = a.w + (o0 + r) * a.so;
    const uint8_t* xrow[N];
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) xrow[i] = a.xq + size_t(i0 + i) * a.xq_stride;
    const __m512i ones = _mm512_set1_epi8(1);
    const int64_t pf = prefetch_distance(a);
    for (int64_t b = 0; b < a.bpr; ++b) {
        typename P::W w[R];
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const uint8_t* blk = wrow[r] + b * a.sb;
            _mm_prefetch(reinterpret_cast<const char*>(blk + pf), _MM_HINT_T1);
            _mm_prefetch(reinterpret_cast<const char*>(blk + pf + P::kBytes - 1), _MM_HINT_T1);
            w[r] = P::load(blk);
        }
#pragma GCC unroll 2
        for (int u = 0; u < P::kUnits; ++u) {
            const int64_t at = (b * P::kUnits + u) * 2 * kQ80Bytes;
            __m512i x[N], nq[N];
            __m512 dx[N];
#pragma GCC unroll 8
            for (int i = 0; i < N; ++i) {
                const uint8_t* xb = xrow[i] + at;
                x[i] = P::acts(xb);
                nq[i] = _mm512_sub_epi32(_mm512_setzero_si512(),
                                         _mm512_dpbusd_epi32(_mm512_setzero_si512(), ones, x[i]));
                dx[i] = _mm512_insertf32x8(_mm512_set1_ps(load_h(xb)), _mm256_set1_ps(load_h(xb + kQ80Bytes)), 1);
            }
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) {
                const __m512i c = P::codes(w[r], u);
#pragma GCC unroll 8
                for (int i = 0; i < N; ++i) {
                    const __m512i s = _mm512_dpbusd_epi32(nq[i], c, x[i]);
                    const __m512 sc = P::kHasScale ? _mm512_mul_ps(dx[i], _mm512_set1_ps(w[r].d)) : dx[i];
                    acc[r][i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), sc, acc[r][i]);
                }
            }
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            float v = _mm512_reduce_add_ps(acc[r][i]);
            if (!P::kHasScale) v *= a.tensor_scale;
            store_y(a, i0 + i, o0 + r, v);
        }
}

// ---------------------------------------------------------------------------

template <class P, int R, int N>
void tile(const TernaryArgs& a, int64_t o0, int64_t i0) {
    if constexpr (P::kQ8K)
        tile_q8k<P, R, N>(a, o0, i0);
    else
        tile_q80<P, R, N>(a, o0, i0);
}

template <class P, int R>
void row_tile(const TernaryArgs& a, int64_t o0) {
    int64_t i = 0;
    for (; i + 4 <= a.n; i += 4) tile<P, R, 4>(a, o0, i);
    switch (a.n - i) {
        case 3: tile<P, R, 3>(a, o0, i); break;
        case 2: tile<P, R, 2>(a, o0, i); break;
        case 1: tile<P, R, 1>(a, o0, i); break;
        default: break;
    }
}

template <class P>
void run(const TernaryArgs& a, int64_t out_begin, int64_t out_end) {
    int64_t o = out_begin;
    for (; o + 4 <= out_end; o += 4) row_tile<P, 4>(a, o);
    for (; o < out_end; ++o) row_tile<P, 1>(a, o);
}

}  // namespace

void tq2_0_q8_k_avx512vnni(const TernaryArgs& a, int64_t ob, int64_t oe) { run<Tq2>(a, ob, oe); }
void tq1_0_q8_k_avx512vnni(const TernaryArgs& a, int64_t ob, int64_t oe) { run<Tq1>(a, ob, oe); }
void i2_s_q8_0_avx512vnni(const TernaryArgs& a, int64_t ob, int64_t oe) { run<I2s>(a, ob, oe); }
void q2_0_q8_0_avx512vnni(const TernaryArgs& a, int64_t ob, int64_t oe) { run<Q2>(a, ob, oe); }
void q1_0_q8_0_avx512vnni(const TernaryArgs& a, int64_t ob, int64_t oe) { run<Q1>(a, ob, oe); }

}  // namespace skn::kernels::x86
