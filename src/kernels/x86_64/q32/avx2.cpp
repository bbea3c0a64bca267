// SPDX-License-Identifier: MIT
// AVX2 matmul_wt kernels for Q4_0, Q8_0, IQ4_NL and MXFP4 weights against
// Q8_0 activations (fast precision). Kernel functions only: see
// q32/kernels.hpp for the accumulation order and q32/register.cpp for the
// registration.
//
// Same scheme as q32/avx512vnni.cpp with 8 output rows per tile (one ymm of
// lanes) and C in 4, 2, 1 activation rows: the tile's weight blocks are
// transposed so that 32-bit lane r holds row r's codes 4j..4j+3, activation
// codes are broadcast four at a time, and vpmaddubsw + vpmaddwd give the exact
// integer dot per lane. vpmaddubsw saturates its 16-bit pair sums, so:
//   Q4_0, MXFP4: unsigned codes (value + offset, at most 24); pair sums are
//     added in 16 bits over as many words as stay below 2^15, and the offset
//     is removed by starting at -offset * sum(activation codes);
//   Q8_0, IQ4_NL: the sign trick, |w| (unsigned, <= 128) times x with w's
//     sign (<= 127 in magnitude), one vpmaddwd per word vector.
// The integer dot is exact either way, so results are bit-identical to the
// AVX512-VNNI kernels.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/common/row_tiles.hpp"
#include "kernels/x86_64/common/activation_chunk.hpp"
#include "kernels/x86_64/q32/kernels.hpp"
#include "kernels/x86_64/common/value_tables.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

typedef int32_t i32u __attribute__((may_alias, aligned(1)));
typedef uint16_t u16u __attribute__((may_alias, aligned(1)));

constexpr int kRows = 8;      // output rows per tile
constexpr int kMaxC = 4;      // activation rows per tile
using Chunk = ActivationChunk<1024, kMaxC, 256>;  // activation values per chunk (common/activation_chunk.hpp)
constexpr int kColumns = 8;   // INPUT_BLOCK_MAJOR, few activation rows: blocks per pass over the tiles

struct Tile {
    int64_t ro[kRows];  // byte offset of each row's block from row 0's (rows past the end repeat row 0)
    __m256i voff;       // the same as int32 lanes
    __m256i mask;       // valid rows (all ones)
};

// T[jj] lane r (r = 0..7) = 32-bit word jj of the 16 bytes at p + ro[r].
inline void load_transpose_4x8(const uint8_t* p, const int64_t* ro, __m256i T[4]) {
    __m256i Z[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
        const __m256i z = _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k])));
        Z[k] = _mm256_inserti128_si256(z, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k + 4])), 1);
    }
    const __m256i a = _mm256_unpacklo_epi32(Z[0], Z[1]);
    const __m256i b = _mm256_unpackhi_epi32(Z[0], Z[1]);
    const __m256i c = _mm256_unpacklo_epi32(Z[2], Z[3]);
    const __m256i d = _mm256_unpackhi_epi32(Z[2], Z[3]);
    T[0] = _mm256_unpacklo_epi64(a, c);
    T[1] = _mm256_unpackhi_epi64(a, c);
    T[2] = _mm256_unpacklo_epi64(b, d);
    T[3] = _mm256_unpackhi_epi64(b, d);
}

// The low 16 bits of each 32-bit lane, packed into 8 words.
inline __m128i low_words(__m256i g) {
    const __m256i pick = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4, 5, 8, 9,
                                          12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i s = _mm256_shuffle_epi8(g, pick);
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(s, 0x08));
}

inline __m256 fp16_scales(const uint8_t* p, __m256i voff) {
    const __m256i g = _mm256_i32gather_epi32(reinterpret_cast<const int*>(p), voff, 1);
    return _mm256_cvtph_ps(low_words(g));
}

inline void split_nibbles(const __m256i T[4], __m256i W[8]) {
    const __m256i m = _mm256_set1_epi8(0x0F);
#pragma GCC unroll 4
    for (int jj = 0; jj < 4; ++jj) {
        W[jj] = _mm256_and_si256(T[jj], m);
        W[jj + 4] = _mm256_and_si256(_mm256_srli_epi16(T[jj], 4), m);
    }
}

inline void lookup(const __m256i lut, __m256i W[8]) {
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) W[j] = _mm256_shuffle_epi8(lut, W[j]);
}

// Unsigned-offset formats: kGroup = word vectors of vpmaddubsw summed in 16
// bits before one vpmaddwd (2 * kGroup * max_code * 127 < 2^15).
struct Q4_0F {
    static constexpr int kBytes = 18, kOffset = 8, kGroup = 8;
    static constexpr bool kSigned = false;
    static constexpr bool kQ81 = false;
    static inline __m256 prep(const uint8_t* p, const Tile& t, __m256i W[8], __m256& mw) {
        (void)mw;
        __m256i T[4];
        load_transpose_4x8(p + 2, t.ro, T);
        split_nibbles(T, W);
        return fp16_scales(p, t.voff);
    }
};

struct Mxfp4F {
    static constexpr int kBytes = 17, kOffset = 12, kGroup = 4;
    static constexpr bool kSigned = false;
    static constexpr bool kQ81 = false;
    static inline __m256 prep(const uint8_t* p, const Tile& t, __m256i W[8], __m256& mw) {
        (void)mw;
        __m256i T[4];
        load_transpose_4x8(p + 1, t.ro, T);
        split_nibbles(T, W);
        const __m256i lut =
            _mm256_broadcastsi128_si256(load_table(kE2M1DoubledPlus12));
        lookup(lut, W);
        const __m256i e = _mm256_and_si256(_mm256_i32gather_epi32(reinterpret_cast<const int*>(p), t.voff, 1),
                                           _mm256_set1_epi32(0xFF));
        const __m256i normal = _mm256_slli_epi32(_mm256_sub_epi32(e, _mm256_set1_epi32(1)), 23);
        const __m256i sub = _mm256_sllv_epi32(_mm256_set1_epi32(0x00200000), e);
        const __m256i small = _mm256_cmpgt_epi32(_mm256_set1_epi32(2), e);
        return _mm256_castsi256_ps(_mm256_blendv_epi8(normal, sub, small));
    }
};

// Signed formats: W holds the signed values.
struct Iq4NlF {
    static constexpr int kBytes = 18, kOffset = 0, kGroup = 1;
    static constexpr bool kSigned = true;
    static constexpr bool kQ81 = false;
    static inline __m256 prep(const uint8_t* p, const Tile& t, __m256i W[8], __m256& mw) {
        (void)mw;
        __m256i T[4];
        load_transpose_4x8(p + 2, t.ro, T);
        split_nibbles(T, W);
        const __m256i lut = _mm256_broadcastsi128_si256(
            load_table(kIq4nlLevels));
        lookup(lut, W);
        return fp16_scales(p, t.voff);
    }
};

struct Q8_0F {
    static constexpr int kBytes = 34, kOffset = 0, kGroup = 1;
    static constexpr bool kSigned = true;
    static constexpr bool kQ81 = false;
    static inline __m256 prep(const uint8_t* p, const Tile& t, __m256i W[8], __m256& mw) {
        (void)mw;
        load_transpose_4x8(p + 2, t.ro, W);
        load_transpose_4x8(p + 18, t.ro, W + 4);
        return fp16_scales(p, t.voff);
    }
};

// The 5-bit formats: bit 4 of element e is bit e of the 32-bit word qh. Element
// 4j + t sits in byte t of lane r of W[j]; its bit is byte j / 2 of qh, bit t
// (j even) or 4 + t (j odd).
inline void add_high_bits(__m256i qh, __m256i W[8]) {
    const __m256i bits = _mm256_set1_epi32(0x08040201);
    const __m256i hi = _mm256_set1_epi8(0x10);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
        const int m = j / 2;
        const __m256i pick = _mm256_broadcastsi128_si256(
            _mm_setr_epi32(0x01010101 * m, 0x01010101 * (4 + m), 0x01010101 * (8 + m), 0x01010101 * (12 + m)));
        const __m256i probe = (j & 1) ? _mm256_slli_epi32(bits, 4) : bits;
        const __m256i rep = _mm256_and_si256(_mm256_shuffle_epi8(qh, pick), probe);
        const __m256i set = _mm256_cmpeq_epi8(rep, probe);
        W[j] = _mm256_or_si256(W[j], _mm256_and_si256(set, hi));
    }
}

struct Q5_0F {
    static constexpr int kBytes = 22, kOffset = 16, kGroup = 4;  // 2 * 4 * 31 * 127 < 2^15
    static constexpr bool kSigned = false;
    static constexpr bool kQ81 = false;
    static inline __m256 prep(const uint8_t* p, const Tile& t, __m256i W[8], __m256& mw) {
        (void)mw;
        __m256i T[4];
        load_transpose_4x8(p + 6, t.ro, T);
        split_nibbles(T, W);
        add_high_bits(_mm256_i32gather_epi32(reinterpret_cast<const int*>(p + 2), t.voff, 1), W);
        return fp16_scales(p, t.voff);
    }
};

// The _1 formats (Q8_1 activations): value = code * d + m; the block adds
// m * (d_x * sum of the activation codes) after the code dot.
inline __m256 fp16_high_scales(const uint8_t* p, __m256i voff) {
    const __m256i g = _mm256_i32gather_epi32(reinterpret_cast<const int*>(p), voff, 1);
    return _mm256_cvtph_ps(low_words(_mm256_srli_epi32(g, 16)));
}

struct Q4_1F {
    static constexpr int kBytes = 20, kOffset = 0, kGroup = 8;
    static constexpr bool kSigned = false;
    static constexpr bool kQ81 = true;
    static inline __m256 prep(const uint8_t* p, const Tile& t, __m256i W[8], __m256& mw) {
        __m256i T[4];
        load_transpose_4x8(p + 4, t.ro, T);
        split_nibbles(T, W);
        mw = fp16_high_scales(p, t.voff);
        return fp16_scales(p, t.voff);
    }
};

struct Q5_1F {
    static constexpr int kBytes = 24, kOffset = 0, kGroup = 4;
    static constexpr bool kSigned = false;
    static constexpr bool kQ81 = true;
    static inline __m256 prep(const uint8_t* p, const Tile& t, __m256i W[8], __m256& mw) {
        __m256i T[4];
        load_transpose_4x8(p + 8, t.ro, T);
        split_nibbles(T, W);
        add_high_bits(_mm256_i32gather_epi32(reinterpret_cast<const int*>(p + 4), t.voff, 1), W);
        mw = fp16_high_scales(p, t.voff);
        return fp16_scales(p, t.voff);
    }
};

template <bool kQ81>
void precompute(const PackedArgs& a, int64_t i0, int C, int64_t k0, int64_t nb, int offset, float* dx, int32_t* nc,
                float* mx) {
    constexpr int kAB = kQ81 ? 36 : 34, kAQ = kQ81 ? 4 : 2;
    const __m256i flip = _mm256_set1_epi8((char)0x80);
    const __m256i zero = _mm256_setzero_si256();
    for (int c = 0; c < C; ++c) {
        const uint8_t* row = a.xq + size_t(i0 + c) * a.xq_stride + size_t(k0) * kAB;
        for (int64_t b = 0; b < nb; ++b) {
            const uint8_t* blk = row + b * kAB;
            const float d = _cvtsh_ss(*reinterpret_cast<const u16u*>(blk));
            dx[b * Chunk::stride(C) + c] = d;
            if (offset == 0 && !kQ81) {
                nc[b * Chunk::stride(C) + c] = 0;
                continue;
            }
            const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk + kAQ));
            const __m256i s = _mm256_sad_epu8(_mm256_xor_si256(q, flip), zero);
            const __m128i h = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
            const int64_t sum = _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1) - 32 * 128;
            nc[b * Chunk::stride(C) + c] = int32_t(-offset * sum);
            if (kQ81) mx[b * Chunk::stride(C) + c] = d * float(sum);
        }
    }
}

template <class F>
inline __m256i block_dot(const __m256i W[8], const __m256i Wabs[8], const uint8_t* xc, int32_t start) {
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i s = _mm256_set1_epi32(start);
    if constexpr (F::kSigned) {
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) {
            const __m256i xb = _mm256_set1_epi32(*reinterpret_cast<const i32u*>(xc + 4 * j));
            const __m256i p = _mm256_maddubs_epi16(Wabs[j], _mm256_sign_epi8(xb, W[j]));
            s = _mm256_add_epi32(s, _mm256_madd_epi16(p, ones));
        }
    } else {
#pragma GCC unroll 8
        for (int g = 0; g < 8; g += F::kGroup) {
            __m256i p = _mm256_maddubs_epi16(W[g], _mm256_set1_epi32(*reinterpret_cast<const i32u*>(xc + 4 * g)));
#pragma GCC unroll 8
            for (int j = g + 1; j < g + F::kGroup; ++j)
                p = _mm256_add_epi16(
                    p, _mm256_maddubs_epi16(W[j], _mm256_set1_epi32(*reinterpret_cast<const i32u*>(xc + 4 * j))));
            s = _mm256_add_epi32(s, _mm256_madd_epi16(p, ones));
        }
    }
    return s;
}

template <class F, int C>
void tile(const PackedArgs& a, const uint8_t* w0, int64_t sbb, const Tile& t, int64_t nb, const uint8_t* x0,
          const float* dx, const int32_t* nc, const float* mx, float* y0, bool first, bool last,
          const float* bias, const uint8_t* pf) {
    constexpr int kAB = F::kQ81 ? 36 : 34;
    __m256 acc[C];
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c)
        acc[c] = first ? _mm256_setzero_ps() : _mm256_maskload_ps(y0 + c * a.y_stride, t.mask);
    const size_t xs = a.xq_stride;
    for (int64_t b = 0; b < nb; ++b) {
        __m256i W[8], Wabs[8];
        if (pf != nullptr) {
            constexpr int kLines = (kRows * F::kBytes + 63) / 64;
#pragma GCC unroll 8
            for (int l = 0; l < kLines; ++l)
                _mm_prefetch(reinterpret_cast<const char*>(pf + b * sbb + 64 * l), _MM_HINT_T0);
        }
        __m256 mw = _mm256_setzero_ps();
        const __m256 dw = F::prep(w0 + b * sbb, t, W, mw);
        if constexpr (F::kSigned) {
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j) Wabs[j] = _mm256_abs_epi8(W[j]);
        }
        const uint8_t* xb = x0 + b * kAB + (F::kQ81 ? 4 : 2);
#pragma GCC unroll 4
        for (int c = 0; c < C; ++c) {
            const __m256i s = block_dot<F>(W, Wabs, xb + c * xs, nc[b * Chunk::stride(C) + c]);
            const __m256 sc = _mm256_mul_ps(dw, _mm256_set1_ps(dx[b * Chunk::stride(C) + c]));
            acc[c] = _mm256_fmadd_ps(sc, _mm256_cvtepi32_ps(s), acc[c]);
            if constexpr (F::kQ81) acc[c] = _mm256_fmadd_ps(mw, _mm256_set1_ps(mx[b * Chunk::stride(C) + c]), acc[c]);
        }
    }
    const bool add_bias = last && bias != nullptr;
    const __m256 bv = add_bias ? _mm256_maskload_ps(bias, t.mask) : _mm256_setzero_ps();
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c)
        _mm256_maskstore_ps(y0 + c * a.y_stride, t.mask, add_bias ? _mm256_add_ps(acc[c], bv) : acc[c]);
}

template <class F>
void run(const PackedArgs& a, int64_t o0, int64_t o1) {
    alignas(32) float dx[Chunk::kSize];
    alignas(32) int32_t nc[Chunk::kSize];
    alignas(32) float mx[F::kQ81 ? Chunk::kSize : 1];
    constexpr int kAB = F::kQ81 ? 36 : 34;
    const int64_t sbb = a.sb, sob = a.so;  // bytes
    for (int64_t i0 = 0; i0 < a.n;) {
        const int C = row_tile_rows<4, 2, 1>(a.n - i0);
        const int64_t chunk = Chunk::blocks(C);
        for (int64_t k0 = 0; k0 < a.bpr; k0 += chunk) {
            const int64_t nb = a.bpr - k0 < chunk ? a.bpr - k0 : chunk;
            precompute<F::kQ81>(a, i0, C, k0, nb, F::kOffset, dx, nc, mx);
            // INPUT_BLOCK_MAJOR with few activation rows (memory-bound):
            // kColumns blocks at a time over every tile, reading the weight in
            // address order and prefetching the tile's next columns; partial
            // sums wait in y between passes. Otherwise each tile runs through
            // the chunk.
            const bool by_columns = a.sb != F::kBytes && a.n <= 4;
            const int64_t step = by_columns ? kColumns : nb;
            for (int64_t kb = 0; kb < nb; kb += step) {
                const int64_t nb2 = nb - kb < step ? nb - kb : step;
                const bool first = k0 + kb == 0, last = k0 + kb + nb2 == a.bpr;
                const uint8_t* x0 = a.xq + size_t(i0) * a.xq_stride + size_t(k0 + kb) * kAB;
                const float* dxb = dx + kb * Chunk::stride(C);
                const int32_t* ncb = nc + kb * Chunk::stride(C);
                const float* mxb = F::kQ81 ? mx + kb * Chunk::stride(C) : mx;
                for (int64_t o = o0; o < o1; o += kRows) {
                    const int nr = o1 - o < kRows ? int(o1 - o) : kRows;
                    Tile t;
                    alignas(32) int32_t off32[kRows], m32[kRows];
                    for (int r = 0; r < kRows; ++r) {
                        t.ro[r] = r < nr ? r * sob : 0;
                        off32[r] = int32_t(t.ro[r]);
                        m32[r] = r < nr ? -1 : 0;
                    }
                    t.voff = _mm256_load_si256(reinterpret_cast<const __m256i*>(off32));
                    t.mask = _mm256_load_si256(reinterpret_cast<const __m256i*>(m32));
                    const uint8_t* w0 = a.w + o * sob + (k0 + kb) * sbb;
                    float* y0 = a.y + i0 * a.y_stride + o;
                    const float* bias = a.bias != nullptr ? a.bias + o : nullptr;
                    const uint8_t* pf = by_columns ? w0 + step * sbb : nullptr;
                    with_row_tile<4, 2, 1>(C, [&](auto c) SKN_TILE_INLINE {
                        tile<F, c>(a, w0, sbb, t, nb2, x0, dxb, ncb, mxb, y0, first, last, bias, pf);
                    });
                }
            }
        }
        i0 += C;
    }
}

}  // namespace

void q32_q4_0_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1) { run<Q4_0F>(a, o0, o1); }
void q32_q8_0_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1) { run<Q8_0F>(a, o0, o1); }
void q32_iq4_nl_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1) { run<Iq4NlF>(a, o0, o1); }
void q32_mxfp4_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1) { run<Mxfp4F>(a, o0, o1); }
void q32_q5_0_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1) { run<Q5_0F>(a, o0, o1); }
void q32_q4_1_q8_1_avx2(const PackedArgs& a, int64_t o0, int64_t o1) { run<Q4_1F>(a, o0, o1); }
void q32_q5_1_q8_1_avx2(const PackedArgs& a, int64_t o0, int64_t o1) { run<Q5_1F>(a, o0, o1); }

}  // namespace skn_core::kernels::x86_64
