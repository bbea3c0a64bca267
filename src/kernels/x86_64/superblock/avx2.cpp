// SPDX-License-Identifier: MIT
// Q2_K, Q3_K, Q4_K, Q5_K, Q6_K and IQ4_XS x Q8_K matmul_wt kernels, AVX2 (vpmaddubsw + vpmaddwd).
// Kernel functions only (see superblock/kernels.hpp); no std templates here.
//
// Per tile of 16 output rows x up to 4 activation rows, per super-block: the
// codes are decoded once in registers and multiplied against every
// activation row (vpmaddubsw: unsigned codes x signed activations, pairs
// into int16 without saturation), the sub-block scales applied with vpmaddwd,
// the lanes reduced to the block's exact integer sums, then the same float32
// steps as every other K-quant kernel (docs/kernels/superblock.md).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/common/row_tiles.hpp"
#include "kernels/x86_64/superblock/kernels.hpp"
#include "kernels/x86_64/common/value_tables.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

constexpr int64_t kQ8kBytes = 292;
// Formats (template argument F) and their constants.
constexpr int kQ4k = 0, kQ5k = 1, kQ6k = 2, kQ2k = 3, kQ3k = 4, kIq4xs = 5;
constexpr bool is_affine(int f) { return f == kQ2k || f == kQ4k || f == kQ5k; }  // value = d*sc*q - dmin*m
constexpr bool is_sub16(int f) { return f == kQ2k || f == kQ3k || f == kQ6k; }   // 16 sub-blocks of 16
constexpr int64_t block_bytes(int f) {
    return f == kQ2k ? 84 : f == kQ3k ? 110 : f == kQ4k ? 144 : f == kQ5k ? 176 : f == kIq4xs ? 136 : 210;
}
constexpr int d_at(int f) { return f == kQ2k ? 80 : f == kQ3k ? 108 : f == kQ6k ? 208 : 0; }
constexpr int dmin_at(int f) { return f == kQ2k ? 82 : 2; }
constexpr int sym_shift(int f) { return f == kQ3k ? 2 : 5; }  // log2 of the code offset (4 or 32)
constexpr int kTo = 4;

inline float load_f16(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}
inline float load_f32(const uint8_t* p) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
}

inline __m128i q4k_scales_mins(const uint8_t* s12) {
    uint32_t u0, u1, u2;
    std::memcpy(&u0, s12, 4);
    std::memcpy(&u1, s12 + 4, 4);
    std::memcpy(&u2, s12 + 8, 4);
    const uint32_t sc_lo = u0 & 0x3f3f3f3fu, m_lo = u1 & 0x3f3f3f3fu;
    const uint32_t sc_hi = (u2 & 0x0f0f0f0fu) | (((u0 >> 6) & 0x03030303u) << 4);
    const uint32_t m_hi = ((u2 >> 4) & 0x0f0f0f0fu) | (((u1 >> 6) & 0x03030303u) << 4);
    return _mm_set_epi32(int(m_hi), int(m_lo), int(sc_hi), int(sc_lo));
}

// Byte-shuffle control that turns 8 unsigned bytes (lanes 0..7) into an
// int16 broadcast of byte j in every lane.
inline __m256i bcast_u8_as_i16(__m256i bytes2x, int j) {
    return _mm256_shuffle_epi8(bytes2x, _mm256_set1_epi16(short(0x8000 | j)));
}

// Lane vectors adding up to s[r] = sum_j sc_j * dot_j and
// m[r] = sum_j m_j * (bsums[2j] + bsums[2j+1]) for one Q4_K block.
template <int R, int F>
inline void affine_ints(const uint8_t* blk, const uint8_t* const* xb, __m256i* s, __m256i* m) {
    const __m128i scm = q4k_scales_mins(blk + 4);
    const __m256i scm2 = _mm256_broadcastsi128_si256(scm);
    const __m256i mins16 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(scm, scm));
    const __m256i m0f = _mm256_set1_epi8(0x0f);
    __m256i acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_si256();
    for (int c = 0; c < 4; ++c) {
        const __m256i v = _mm256_loadu_si256((const __m256i*)(blk + (F == kQ4k ? 16 : 48) + 32 * c));
        __m256i lo = _mm256_and_si256(v, m0f), hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f);
        if constexpr (F == kQ5k) {
            // Bit 4 of the code: bit 2c (first 32 elements) or 2c+1 of qh[e % 32].
            const __m256i qh = _mm256_loadu_si256((const __m256i*)(blk + 16));
            const __m256i one = _mm256_set1_epi8(1);
            lo = _mm256_or_si256(lo, _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2 * c), one), 4));
            hi = _mm256_or_si256(hi, _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2 * c + 1), one), 4));
        }
        const __m256i slo = bcast_u8_as_i16(scm2, 2 * c), shi = bcast_u8_as_i16(scm2, 2 * c + 1);
        for (int r = 0; r < R; ++r) {
            const uint8_t* x = xb[r] + 4 + 64 * c;
            const __m256i plo = _mm256_maddubs_epi16(lo, _mm256_loadu_si256((const __m256i*)x));
            const __m256i phi = _mm256_maddubs_epi16(hi, _mm256_loadu_si256((const __m256i*)(x + 32)));
            acc[r] = _mm256_add_epi32(acc[r], _mm256_add_epi32(_mm256_madd_epi16(plo, slo), _mm256_madd_epi16(phi, shi)));
        }
    }
    for (int r = 0; r < R; ++r) {
        s[r] = acc[r];
        m[r] = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(xb[r] + 260)), mins16);
    }
}

// Codes of elements 32q .. 32q+31 (sub-blocks 2q, 2q+1) of a block with 16
// sub-blocks: Q2_K 0..3, Q3_K 0..7 (value + 4), Q6_K 0..63 (value + 32).
template <int F>
inline __m256i codes32(const uint8_t* blk, int q) {
    const int h = q >> 2, k = q & 3;
    const __m256i m3 = _mm256_set1_epi8(3);
    if constexpr (F == kQ2k) {
        return _mm256_and_si256(_mm256_srli_epi16(_mm256_loadu_si256((const __m256i*)(blk + 16 + 32 * h)), 2 * k), m3);
    } else if constexpr (F == kQ3k) {
        const __m256i lo = _mm256_and_si256(_mm256_srli_epi16(_mm256_loadu_si256((const __m256i*)(blk + 32 + 32 * h)), 2 * k), m3);
        const __m256i hm = _mm256_loadu_si256((const __m256i*)blk);  // bit q of hmask[l]
        const __m256i hb = _mm256_and_si256(_mm256_srli_epi16(hm, q), _mm256_set1_epi8(1));
        return _mm256_or_si256(lo, _mm256_slli_epi16(hb, 2));
    } else {
        const __m256i m0f = _mm256_set1_epi8(0x0f), m30 = _mm256_set1_epi8(0x30);
        const __m256i ql = _mm256_loadu_si256((const __m256i*)(blk + 64 * h + 32 * (k & 1)));
        const __m256i qh = _mm256_loadu_si256((const __m256i*)(blk + 128 + 32 * h));
        const __m256i lo4 = k < 2 ? _mm256_and_si256(ql, m0f) : _mm256_and_si256(_mm256_srli_epi16(ql, 4), m0f);
        // Bits 2k, 2k+1 of qh moved to bits 4, 5.
        const __m256i hi2 = k == 0 ? _mm256_slli_epi16(qh, 4)
                          : k == 1 ? _mm256_slli_epi16(qh, 2)
                          : k == 2 ? qh
                                   : _mm256_srli_epi16(qh, 2);
        return _mm256_or_si256(lo4, _mm256_and_si256(hi2, m30));
    }
}

// The 16 sub-block scales as int8: Q2_K low nibbles, Q3_K 6-bit minus 32, Q6_K int8.
template <int F>
inline __m128i scales16(const uint8_t* blk) {
    if constexpr (F == kQ2k) {
        return _mm_and_si128(_mm_loadu_si128((const __m128i*)blk), _mm_set1_epi8(0x0f));
    } else if constexpr (F == kQ3k) {
        uint32_t u0, u1, u2;
        std::memcpy(&u0, blk + 96, 4);
        std::memcpy(&u1, blk + 100, 4);
        std::memcpy(&u2, blk + 104, 4);
        const uint32_t m4 = 0x0f0f0f0fu, m2 = 0x03030303u;
        const __m128i v = _mm_set_epi32(int(((u1 >> 4) & m4) | (((u2 >> 6) & m2) << 4)),
                                        int(((u0 >> 4) & m4) | (((u2 >> 4) & m2) << 4)),
                                        int((u1 & m4) | (((u2 >> 2) & m2) << 4)), int((u0 & m4) | ((u2 & m2) << 4)));
        return _mm_sub_epi8(v, _mm_set1_epi8(32));
    } else {
        return _mm_loadu_si128((const __m128i*)(blk + 192));
    }
}

// Lanes adding up to the integer sums of one block with 16 sub-blocks of 16:
// Q2_K s[r] = sum_j sc_j * dot_j, m[r] = sum_j m_j * bsums[j];
// Q3_K/Q6_K s[r] = sum_j sc_j * (dot_j - off * bsums[j]) (off = 4 / 32), m unused.
template <int R, int F>
inline void sub16_ints(const uint8_t* blk, const uint8_t* const* xb, __m256i* s, __m256i* m) {
    const __m128i sc = scales16<F>(blk);
    const __m256i sc16 = _mm256_cvtepi8_epi16(sc);  // int16 scales 0..7 | 8..15
    __m256i acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_si256();
    for (int h = 0; h < 2; ++h) {
        // Scales of sub-blocks 8h .. 8h+7 in both 128-bit lanes.
        const __m256i half = h == 0 ? _mm256_permute2x128_si256(sc16, sc16, 0x00) : _mm256_permute2x128_si256(sc16, sc16, 0x11);
        for (int k = 0; k < 4; ++k) {
            const __m256i e = codes32<F>(blk, 4 * h + k);
            // int16 scale of sub-block 2k (low lane) and 2k+1 (high lane) of this half.
            const __m256i ctrl = _mm256_setr_epi8(char(4 * k), char(4 * k + 1), char(4 * k), char(4 * k + 1), char(4 * k),
                                                  char(4 * k + 1), char(4 * k), char(4 * k + 1), char(4 * k), char(4 * k + 1),
                                                  char(4 * k), char(4 * k + 1), char(4 * k), char(4 * k + 1), char(4 * k),
                                                  char(4 * k + 1), char(4 * k + 2), char(4 * k + 3), char(4 * k + 2),
                                                  char(4 * k + 3), char(4 * k + 2), char(4 * k + 3), char(4 * k + 2),
                                                  char(4 * k + 3), char(4 * k + 2), char(4 * k + 3), char(4 * k + 2),
                                                  char(4 * k + 3), char(4 * k + 2), char(4 * k + 3), char(4 * k + 2),
                                                  char(4 * k + 3));
            const __m256i sv = _mm256_shuffle_epi8(half, ctrl);
            for (int r = 0; r < R; ++r) {
                const __m256i x = _mm256_loadu_si256((const __m256i*)(xb[r] + 4 + 128 * h + 32 * k));
                acc[r] = _mm256_add_epi32(acc[r], _mm256_madd_epi16(_mm256_maddubs_epi16(e, x), sv));
            }
        }
    }
    const __m256i bs_mul = is_affine(F) ? _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(_mm_loadu_si128((const __m128i*)blk), 4),
                                                                            _mm_set1_epi8(0x0f)))
                                        : _mm256_slli_epi16(sc16, sym_shift(F));
    for (int r = 0; r < R; ++r) {
        const __m256i t = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(xb[r] + 260)), bs_mul);
        if constexpr (is_affine(F)) {
            s[r] = acc[r];
            m[r] = t;
        } else {
            s[r] = _mm256_sub_epi32(acc[r], t);
        }
    }
}

// IQ4_XS: lanes adding up to s[r] = sum_j ls_j * dot(level, x)_j (ls_j =
// scale - 32). Signed levels: vpmaddubsw takes |x| (at most 128: an
// activation code may be -128) and the level with x's sign (|level| <= 127),
// so a pair is at most 2*128*127 and never saturates.
template <int R>
inline void iq4xs_ints(const uint8_t* blk, const uint8_t* const* xb, __m256i* s) {
    uint16_t sh;
    uint32_t sl;
    std::memcpy(&sh, blk + 2, 2);
    std::memcpy(&sl, blk + 4, 4);
    const __m256i table = _mm256_broadcastsi128_si256(
        load_table(kIq4nlLevels));
    const __m256i m0f = _mm256_set1_epi8(0x0f);
    __m256i acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm256_setzero_si256();
    for (int j = 0; j < 8; ++j) {
        const int ls = int(((sl >> (4 * j)) & 15u) | (((uint32_t(sh) >> (2 * j)) & 3u) << 4)) - 32;
        const __m128i v = _mm_loadu_si128((const __m128i*)(blk + 8 + 16 * j));
        const __m256i codes = _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(v, 4), v), m0f);
        const __m256i lv = _mm256_shuffle_epi8(table, codes);
        const __m256i scale = _mm256_set1_epi16(short(ls));
        for (int r = 0; r < R; ++r) {
            const __m256i x = _mm256_loadu_si256((const __m256i*)(xb[r] + 4 + 32 * j));
            const __m256i p = _mm256_maddubs_epi16(_mm256_abs_epi8(x), _mm256_sign_epi8(lv, x));
            acc[r] = _mm256_add_epi32(acc[r], _mm256_madd_epi16(p, scale));
        }
    }
    for (int r = 0; r < R; ++r) s[r] = acc[r];
}

// The totals of four 8-lane vectors, in lanes 0..3.
inline __m128i hsum4(__m256i a, __m256i b, __m256i c, __m256i d) {
    const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
    return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

constexpr int kTt = 16;       // output rows per tile (4 float vectors of 4)
constexpr int kPrefetch = 2;  // super-blocks ahead to prefetch, in tile order

inline void prefetch_block(const uint8_t* p, int64_t bytes) {
    for (int64_t o = 0; o < bytes; o += 64) _mm_prefetch((const char*)(p + o), _MM_HINT_T0);
}

// kTt output rows x R activation rows, by blocks: for each super-block b the
// tile's 16 blocks (contiguous in INPUT_BLOCK_MAJOR), four at a time into one
// float vector per activation row (lanes = output rows). Rows past oe repeat
// the last row and are not stored.
template <int R, int F>
void gemv_tile(const PackedArgs& a, int64_t o0, int64_t oe, int64_t i0) {
    constexpr int64_t kBlock = block_bytes(F);
    const int nto = oe - o0 < kTt ? int(oe - o0) : kTt;
    const uint8_t* wrow[kTt];
    for (int t = 0; t < kTt; ++t) wrow[t] = a.w + (o0 + (t < nto ? t : nto - 1)) * a.so;
    __m128 acc[kTt / kTo][R];
    for (int g = 0; g < kTt / kTo; ++g)
        for (int r = 0; r < R; ++r) acc[g][r] = _mm_setzero_ps();
    const uint8_t* xb[R];
    for (int64_t b = 0; b < a.bpr; ++b) {
        for (int r = 0; r < R; ++r) xb[r] = a.xq + size_t(i0 + r) * a.xq_stride + size_t(b) * kQ8kBytes;
        {
            int64_t pb = b + kPrefetch, po = o0;
            if (pb >= a.bpr) pb -= a.bpr, po += kTt;
            const int64_t pe = po + kTt < oe ? po + kTt : oe;
            for (int64_t o = po; o < pe; ++o) prefetch_block(a.w + o * a.so + pb * a.sb, kBlock);
        }
        for (int g = 0; g < kTt / kTo; ++g) {
            __m256i s[kTo][R], m[kTo][R];
            alignas(16) float d[kTo], dmin[kTo];
            for (int t = 0; t < kTo; ++t) {
                const uint8_t* blk = wrow[g * kTo + t] + b * a.sb;
                if constexpr (is_sub16(F)) sub16_ints<R, F>(blk, xb, s[t], m[t]);
                else if constexpr (F == kIq4xs) iq4xs_ints<R>(blk, xb, s[t]);
                else affine_ints<R, F>(blk, xb, s[t], m[t]);
                d[t] = load_f16(blk + d_at(F));
                if constexpr (is_affine(F)) dmin[t] = load_f16(blk + dmin_at(F));
            }
            const __m128 d4 = _mm_load_ps(d);
            for (int r = 0; r < R; ++r) {
                const __m128 dx = _mm_set1_ps(load_f32(xb[r]));
                const __m128i s4 = hsum4(s[0][r], s[1][r], s[2][r], s[3][r]);
                if constexpr (is_affine(F)) {
                    const __m128i m4 = hsum4(m[0][r], m[1][r], m[2][r], m[3][r]);
                    const __m128 t = _mm_mul_ps(_mm_cvtepi32_ps(m4), _mm_mul_ps(_mm_load_ps(dmin), dx));
                    acc[g][r] = _mm_add_ps(acc[g][r], _mm_fmsub_ps(_mm_cvtepi32_ps(s4), _mm_mul_ps(d4, dx), t));
                } else {
                    acc[g][r] = _mm_fmadd_ps(_mm_cvtepi32_ps(s4), _mm_mul_ps(d4, dx), acc[g][r]);
                }
            }
        }
    }
    for (int r = 0; r < R; ++r) {
        alignas(16) float v[kTt];
        for (int g = 0; g < kTt / kTo; ++g) _mm_store_ps(v + g * kTo, acc[g][r]);
        for (int t = 0; t < nto; ++t) {
            const int64_t o = o0 + t;
            a.y[(i0 + r) * a.y_stride + o] = a.bias != nullptr ? v[t] + a.bias[o] : v[t];
        }
    }
}

template <int F>
void run(const PackedArgs& a, int64_t ob, int64_t oe) {
    for (int64_t o0 = ob; o0 < oe; o0 += kTt)
        for_each_row_tile_up_to<4>(a.n, [&](auto N, int64_t i) SKN_TILE_INLINE { gemv_tile<N, F>(a, o0, oe, i); });
}

}  // namespace

void kq_q4_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run<kQ4k>(a, out_begin, out_end); }
void kq_q5_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run<kQ5k>(a, out_begin, out_end); }
void kq_q6_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run<kQ6k>(a, out_begin, out_end); }
void kq_iq4_xs_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run<kIq4xs>(a, out_begin, out_end); }
void kq_q2_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run<kQ2k>(a, out_begin, out_end); }
void kq_q3_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end) { run<kQ3k>(a, out_begin, out_end); }

}  // namespace skn_core::kernels::x86_64
