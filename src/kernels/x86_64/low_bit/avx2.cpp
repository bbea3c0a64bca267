// SPDX-License-Identifier: MIT
// Ternary / low-bit matmul_wt kernels, AVX2 tier (vpmaddubsw + vpmaddwd).
// Built with the avx2 flags only: this file holds kernel functions and
// nothing else (see low_bit/kernels.hpp). docs/kernels/low_bit.md explains
// the tiling and the accumulation order.
//
// Weight codes are unsigned bytes c (0..3) multiplied with the signed
// activation bytes q by vpmaddubsw; the offset is removed exactly in 16-bit
// integers by subtracting a vpmaddubsw of ones over the SAME lanes, then
// vpmaddwd widens to 8 int32 lanes. Per block (Q8_K) or per Q8_0 block (32
// elements), each (weight row, activation row) does
//   acc = fma(float(lanes), d_w * d_x, acc)          (8 float lanes)
// in block order; the lanes are summed at the end in a fixed order. The same
// operations run whatever the tile shape or block order.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/row_tiles.hpp"
#include "kernels/x86_64/low_bit/kernels.hpp"

namespace skn_core::kernels::x86_64 {
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
inline __m256i mul3(__m256i v) { return _mm256_add_epi8(v, _mm256_add_epi8(v, v)); }  // bytewise, mod 256

inline float hsum8(__m256 v) {
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}

// Software prefetch of the same block some rows ahead (into L2): in either
// block order that is a fixed distance ahead in every stream the kernel
// walks. Rows are far apart in ROW_MAJOR (12 rows), close in
// INPUT_BLOCK_MAJOR (32 rows, about 2 KiB ahead in each block column).
inline int64_t prefetch_distance(const PackedArgs& a) { return a.so * (a.so >= 256 ? 12 : 32); }

inline void store_y(const PackedArgs& a, int64_t i, int64_t o, float v) {
    a.y[i * a.y_stride + o] = a.bias != nullptr ? v + a.bias[o] : v;
}

// ---------------------------------------------------------------------------
// Q8_K formats: 256-element blocks in 8 steps of 32 codes; step s pairs with
// q[32s..32s+31].

// TQ2_0: step s = 4h + l is bits 2l of bytes 32h..32h+31.
struct Tq2 {
    static constexpr bool kQ8K = true;
    static constexpr int64_t kBytes = 66;
    struct W {
        __m256i v[2];
        float d;
    };
    static W load(const uint8_t* p) { return W{{load256(p), load256(p + 32)}, load_h(p + 64)}; }
    static __m256i codes(W& w, int s) {
        const int h = s >> 2;
        const __m256i c = _mm256_and_si256(w.v[h], _mm256_set1_epi8(3));
        w.v[h] = _mm256_srli_epi16(w.v[h], 2);
        return c;
    }
};

// TQ1_0 digit of x = b * 3^n mod 256: [x >= 86] + [x >= 171].
inline __m256i trit(__m256i x) {
    const __m256i one = _mm256_set1_epi8(1);
    return _mm256_add_epi8(_mm256_min_epu8(_mm256_subs_epu8(x, _mm256_set1_epi8(85)), one),
                           _mm256_min_epu8(_mm256_subs_epu8(x, _mm256_set1_epi8(char(170))), one));
}

// TQ1_0 steps: 0..4 wide * 3^s; 5: narrow * {1, 3}; 6: narrow * {9, 27};
// 7: narrow * 81, tail * {1, 3, 9, 27}.
struct Tq1 {
    static constexpr bool kQ8K = true;
    static constexpr int64_t kBytes = 54;
    struct W {
        __m256i wide, narrow;
        uint32_t tail;
        float d;
    };
    static W load(const uint8_t* p) {
        W w;
        w.wide = load256(p);
        const __m256i n0 = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32)));
        w.narrow = _mm256_blend_epi32(n0, mul3(n0), 0xF0);
        __builtin_memcpy(&w.tail, p + 48, 4);
        w.d = load_h(p + 52);
        return w;
    }
    static __m256i codes(W& w, int s) {
        if (s < 5) {
            const __m256i c = trit(w.wide);
            w.wide = mul3(w.wide);
            return c;
        }
        if (s < 7) {
            const __m256i c = trit(w.narrow);
            w.narrow = mul3(mul3(w.narrow));
            return c;
        }
        const __m256i t0 = _mm256_set1_epi32(int(w.tail)), t3 = mul3(t0), t9 = mul3(t3), t27 = mul3(t9);
        __m256i v = _mm256_blend_epi32(w.narrow, t0, 0x10);
        v = _mm256_blend_epi32(v, t3, 0x20);
        v = _mm256_blend_epi32(v, t9, 0x40);
        v = _mm256_blend_epi32(v, t27, 0x80);
        return trit(v);
    }
};

template <class P, int R, int N>
void tile_q8k(const PackedArgs& a, int64_t o0, int64_t i0) {
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
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
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
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) xb[i] = xrow[i] + b * kQ8KBytes;
        __m256i s[R][N], qsum[N];
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            qsum[i] = _mm256_setzero_si256();
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) s[r][i] = _mm256_setzero_si256();
        }
#pragma GCC unroll 8
        for (int st = 0; st < 8; ++st) {
#pragma GCC unroll 8
            for (int i = 0; i < N; ++i)
                qsum[i] = _mm256_add_epi16(qsum[i], _mm256_maddubs_epi16(ones8, load256(xb[i] + kQ8KQs + 32 * st)));
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) {
                const __m256i c = P::codes(w[r], st);
#pragma GCC unroll 8
                for (int i = 0; i < N; ++i)
                    s[r][i] = _mm256_add_epi16(s[r][i], _mm256_maddubs_epi16(c, load256(xb[i] + kQ8KQs + 32 * st)));
            }
        }
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            const __m256 dx = _mm256_set1_ps(load_f(xb[i]));
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) {
                const __m256i d = _mm256_madd_epi16(_mm256_sub_epi16(s[r][i], qsum[i]), ones16);
                acc[r][i] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(d), _mm256_mul_ps(_mm256_set1_ps(w[r].d), dx),
                                            acc[r][i]);
            }
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) store_y(a, i0 + i, o0 + r, hsum8(acc[r][i]));
}

// ---------------------------------------------------------------------------
// Q8_0 formats: units of 32 elements = one Q8_0 activation block.

// I2_S (either layout): code 3 decodes to 0 in skn, like 1, so every 2-bit
// field holding 3 is turned into 1 before the dots.
inline __m256i i2s_code3_to_1(__m256i v) {
    const __m256i both = _mm256_and_si256(_mm256_and_si256(v, _mm256_srli_epi16(v, 1)), _mm256_set1_epi8(0x55));
    return _mm256_xor_si256(v, _mm256_slli_epi16(both, 1));
}

// I2_S: unit g (elements 32g..32g+31) is bits 6-2g of the 32 bytes.
struct I2s {
    static constexpr bool kQ8K = false, kHasScale = false;
    static constexpr int64_t kBytes = 32;
    static constexpr int kUnits = 4;
    struct W {
        __m256i v;
        float d;
    };
    static W load(const uint8_t* p) { return W{i2s_code3_to_1(load256(p)), 1.0f}; }
    static __m256i codes(W& w, int u) {
        return _mm256_and_si256(_mm256_srl_epi16(w.v, _mm_cvtsi32_si128(6 - 2 * u)), _mm256_set1_epi8(3));
    }
    static __m256i acts(const uint8_t* xb) { return load256(xb + 2); }
};

// I2_S_G64 (bitnet.cpp's arm64 layout): 64 elements in 16 bytes; element
// 16j + p is bits 6-2j of byte p. Unit u (elements 32u..32u+31) is the 16
// bytes twice, shifted down by 6 - 4u in the low 128 bits and 4 - 4u in the
// high (a dword shift: the bits it pulls in from the next byte are masked
// off), so byte p of a unit is element 32u + p as in I2s: the same y.
struct I2sG64 {
    static constexpr bool kQ8K = false, kHasScale = false;
    static constexpr int64_t kBytes = 16;
    static constexpr int kUnits = 2;
    struct W {
        __m256i v;
        float d;
    };
    static W load(const uint8_t* p) {
        return W{i2s_code3_to_1(_mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)))), 1.0f};
    }
    static __m256i codes(W& w, int u) {
        const __m256i shift = u == 0 ? _mm256_setr_epi32(6, 6, 6, 6, 4, 4, 4, 4) : _mm256_setr_epi32(2, 2, 2, 2, 0, 0, 0, 0);
        return _mm256_and_si256(_mm256_srlv_epi32(w.v, shift), _mm256_set1_epi8(3));
    }
    static __m256i acts(const uint8_t* xb) { return load256(xb + 2); }
};

// Q1_0: unit u is bits 32u..32u+31; codes 0 / 2 so a lane holds sum((2b - 1) q).
struct Q1 {
    static constexpr bool kQ8K = false, kHasScale = true;
    static constexpr int64_t kBytes = 18;
    static constexpr int kUnits = 4;
    struct W {
        uint32_t bits[4];
        float d;
    };
    static W load(const uint8_t* p) {
        W w;
        __builtin_memcpy(w.bits, p + 2, 16);
        w.d = load_h(p);
        return w;
    }
    static __m256i codes(W& w, int u) {
        const __m256i spread = _mm256_shuffle_epi8(
            _mm256_set1_epi32(int(w.bits[u])),
            _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0));
        const __m256i bit = _mm256_set1_epi64x(int64_t(0x8040201008040201ull));
        const __m256i m = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
        return _mm256_and_si256(m, _mm256_set1_epi8(2));
    }
    static __m256i acts(const uint8_t* xb) { return load256(xb + 2); }
};

// Q2_0: element 4m + k is bits 2k of code byte m. Unit u covers code bytes
// 8u..8u+7; in each 128-bit lane the codes are laid out k-major (position
// 4k + j holds element 16L + 4j + k of the unit) and the activations are
// shuffled the same way.
struct Q2 {
    static constexpr bool kQ8K = false, kHasScale = true;
    static constexpr int64_t kBytes = 18;
    static constexpr int kUnits = 2;
    struct W {
        __m256i raw;
        float d;
    };
    static W load(const uint8_t* p) {
        return W{_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2))), load_h(p)};
    }
    static __m256i codes(W& w, int u) {
        const __m256i idx = u == 0 ? _mm256_set_epi32(1, 1, 1, 1, 0, 0, 0, 0) : _mm256_set_epi32(3, 3, 3, 3, 2, 2, 2, 2);
        const __m256i cnt = _mm256_set_epi32(6, 4, 2, 0, 6, 4, 2, 0);
        return _mm256_and_si256(_mm256_srlv_epi32(_mm256_permutevar8x32_epi32(w.raw, idx), cnt), _mm256_set1_epi8(3));
    }
    static __m256i acts(const uint8_t* xb) {
        const __m256i t = _mm256_set_epi32(0x0f0b0703, 0x0e0a0602, 0x0d090501, 0x0c080400, 0x0f0b0703, 0x0e0a0602,
                                           0x0d090501, 0x0c080400);
        return _mm256_shuffle_epi8(load256(xb + 2), t);
    }
};

template <class P, int R, int N>
void tile_q80(const PackedArgs& a, int64_t o0, int64_t i0) {
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
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
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
#pragma GCC unroll 4
        for (int u = 0; u < P::kUnits; ++u) {
            const int64_t at = (b * P::kUnits + u) * kQ80Bytes;
            __m256i x[N], qs[N];
            __m256 dx[N];
#pragma GCC unroll 8
            for (int i = 0; i < N; ++i) {
                const uint8_t* xb = xrow[i] + at;
                x[i] = P::acts(xb);
                qs[i] = _mm256_maddubs_epi16(ones8, x[i]);
                dx[i] = _mm256_set1_ps(load_h(xb));
            }
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) {
                const __m256i c = P::codes(w[r], u);
#pragma GCC unroll 8
                for (int i = 0; i < N; ++i) {
                    const __m256i s =
                        _mm256_madd_epi16(_mm256_sub_epi16(_mm256_maddubs_epi16(c, x[i]), qs[i]), ones16);
                    const __m256 sc = P::kHasScale ? _mm256_mul_ps(dx[i], _mm256_set1_ps(w[r].d)) : dx[i];
                    acc[r][i] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(s), sc, acc[r][i]);
                }
            }
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int i = 0; i < N; ++i) {
            float v = hsum8(acc[r][i]);
            if (!P::kHasScale) v *= a.tensor_scale;
            store_y(a, i0 + i, o0 + r, v);
        }
}

// ---------------------------------------------------------------------------

template <class P, int R, int N>
void tile(const PackedArgs& a, int64_t o0, int64_t i0) {
    if constexpr (P::kQ8K)
        tile_q8k<P, R, N>(a, o0, i0);
    else
        tile_q80<P, R, N>(a, o0, i0);
}

template <class P, int R>
void row_tile(const PackedArgs& a, int64_t o0) {
    for_each_row_tile_up_to<4>(a.n, [&](auto N, int64_t i) SKN_TILE_INLINE { tile<P, R, N>(a, o0, i); });
}

template <class P>
void run(const PackedArgs& a, int64_t out_begin, int64_t out_end) {
    // Few activation rows: taller tiles share each activation load more.
    int64_t o = out_begin;
    if (a.n < 4)
        for (; o + 4 <= out_end; o += 4) row_tile<P, 4>(a, o);
    for (; o + 2 <= out_end; o += 2) row_tile<P, 2>(a, o);
    for (; o < out_end; ++o) row_tile<P, 1>(a, o);
}

}  // namespace

void tq2_0_q8_k_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<Tq2>(a, ob, oe); }
void tq1_0_q8_k_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<Tq1>(a, ob, oe); }
void i2_s_q8_0_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<I2s>(a, ob, oe); }
void i2_s_g64_q8_0_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<I2sG64>(a, ob, oe); }
void q2_0_q8_0_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<Q2>(a, ob, oe); }
void q1_0_q8_0_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run<Q1>(a, ob, oe); }

}  // namespace skn_core::kernels::x86_64
