// Q2_K, Q3_K, Q4_K, Q5_K, Q6_K and IQ4_XS x Q8_K matmul_wt kernels, AVX512-VNNI (vpdpbusd, vpdpwssd).
// Kernel functions only (see kquants_kernels.hpp); no std templates here.
//
// Two paths compute bit-identical results (docs/kernels/k_quants.md):
//  * GEMV (n < 4, or the last < 16 output rows): per tile of 16 output rows
//    and super-block, decode each block's codes in registers, vpdpbusd them
//    against up to 4 activation rows, apply the sub-block scales with
//    vpdpwssd (IQ4_XS: vpmulld), reduce the lanes of 4 blocks at a time to
//    their exact integer sums.
//  * GEMM (n >= 4): 16 output rows at a time, their codes unpacked to bytes
//    and transposed so that one zmm holds 4 consecutive codes of each of the
//    16 rows; a 4-byte activation broadcast then feeds vpdpbusd with the 16
//    rows in the 16 lanes, and the integer sums of a block land per lane
//    without any horizontal reduction. Up to 8 activation rows share each
//    weight vector.
// Both paths then do the same float32 operations per (i, o, block).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/x86/kquants_kernels.hpp"

namespace skn::kernels::x86 {
namespace {

constexpr int64_t kQ8kBytes = 292;  // f32 d, int8 qs[256] @4, int16 bsums[16] @260
// Formats (template argument F) and their constants.
constexpr int kQ4k = 0, kQ5k = 1, kQ6k = 2, kQ2k = 3, kQ3k = 4, kIq4xs = 5;
constexpr bool is_affine(int f) { return f == kQ2k || f == kQ4k || f == kQ5k; }  // value = d*sc*q - dmin*m
constexpr bool is_sub16(int f) { return f == kQ2k || f == kQ3k || f == kQ6k; }   // 16 sub-blocks of 16
constexpr int64_t block_bytes(int f) {
    return f == kQ2k ? 84 : f == kQ3k ? 110 : f == kQ4k ? 144 : f == kQ5k ? 176 : f == kIq4xs ? 136 : 210;
}
constexpr int d_at(int f) { return f == kQ2k ? 80 : f == kQ3k ? 108 : f == kQ6k ? 208 : 0; }  // fp16 d
constexpr int dmin_at(int f) { return f == kQ2k ? 82 : 2; }
constexpr int sym_shift(int f) { return f == kQ3k ? 2 : 5; }  // log2 of the code offset (4 or 32)
constexpr int kGemmMinRows = 4;     // below this the GEMV path runs
constexpr int kKc = 8;              // super-blocks per repacked chunk
constexpr int kIg = 256;            // activation rows per group in the GEMM path

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
inline int32_t load_i32(const uint8_t* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

// The per-block float step (docs/kernels/k_quants.md), the same operations per lane
// in the GEMV path (4 output rows per vector) and the GEMM path (16):
// affine formats acc + (S * (d*dx) - M * (dmin*dx)); symmetric fma(S, d*dx, acc).
inline __m512 step_affine16(__m512 acc, __m512i s, __m512i m, __m512 ddx, __m512 mdx) {
    const __m512 t = _mm512_mul_ps(_mm512_cvtepi32_ps(m), mdx);
    const __m512 v = _mm512_fmsub_ps(_mm512_cvtepi32_ps(s), ddx, t);
    return _mm512_add_ps(acc, v);
}
inline __m512 step_sym16(__m512 acc, __m512i s, __m512 ddx) {
    return _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), ddx, acc);
}

// Q4_K/Q5_K 6-bit scale/min pairs: bytes 0..7 = sc_0..7, bytes 8..15 = m_0..7.
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

inline __m512i halves_epi32(int lo, int hi) {
    return _mm512_inserti64x4(_mm512_set1_epi32(lo), _mm256_set1_epi32(hi), 1);
}
inline __m512i halves_epi16(short lo, short hi) {
    return _mm512_inserti64x4(_mm512_set1_epi16(lo), _mm256_set1_epi16(hi), 1);
}

inline __m512i halves_epi8(char lo, char hi) {
    return _mm512_inserti64x4(_mm512_set1_epi8(lo), _mm256_set1_epi8(hi), 1);
}

// Q4_K/Q5_K low nibbles of chunk c (elements 64c .. 64c+63) as bytes 0..15.
inline __m512i nibbles64(const uint8_t* qs, int c) {
    const __m512i v = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i*)(qs + 32 * c)));
    return _mm512_and_si512(_mm512_srlv_epi16(v, halves_epi16(0, 4)), _mm512_set1_epi8(0x0f));
}

// Q5_K codes (0..31) of chunk c: the nibble plus 16 where qh has bit 2c
// (first 32 elements) or 2c+1 (last 32).
inline __m512i q5k_codes64(const uint8_t* blk, int c) {
    const __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i*)(blk + 16)));
    const __mmask64 k = _mm512_test_epi8_mask(qh, halves_epi8(char(1 << (2 * c)), char(1 << (2 * c + 1))));
    const __m512i w = nibbles64(blk + 48, c);
    return _mm512_mask_add_epi8(w, k, w, _mm512_set1_epi8(16));
}

// Q6_K codes (0..63) of elements 64g .. 64g+63, g = 0..3.
inline __m512i q6k_codes64(const uint8_t* blk, int g) {
    const int h = g >> 1;
    const __m512i ql = _mm512_loadu_si512(blk + 64 * h);
    const __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i*)(blk + 128 + 32 * h)));
    const __m512i m0f = _mm512_set1_epi8(0x0f), m30 = _mm512_set1_epi8(0x30);
    if ((g & 1) == 0)
        return _mm512_or_si512(_mm512_and_si512(ql, m0f), _mm512_and_si512(_mm512_sllv_epi16(qh, halves_epi16(4, 2)), m30));
    return _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(ql, 4), m0f),
                           _mm512_and_si512(_mm512_srlv_epi16(qh, halves_epi16(0, 2)), m30));
}

// Q2_K/Q3_K low two bits of elements 64g .. 64g+63 from the 2-bit plane at qs.
inline __m512i twobits64(const uint8_t* qs, int g) {
    const int h = g >> 1, k0 = 2 * (g & 1);
    const __m512i v = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i*)(qs + 32 * h)));
    return _mm512_and_si512(_mm512_srlv_epi16(v, halves_epi16(short(2 * k0), short(2 * k0 + 2))), _mm512_set1_epi8(3));
}

// Q3_K codes 0..7 (value + 4): two bits plus 4 where hmask has bit 2g / 2g+1.
inline __m512i q3k_codes64(const uint8_t* blk, int g) {
    const __m512i hm = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i*)blk));
    const __mmask64 k = _mm512_test_epi8_mask(hm, halves_epi8(char(1 << (2 * g)), char(1 << (2 * g + 1))));
    const __m512i w = twobits64(blk + 32, g);
    return _mm512_mask_add_epi8(w, k, w, _mm512_set1_epi8(4));
}

// The 16 sub-block scales of Q2_K (low nibbles, 0..15), Q3_K (6-bit,
// unbiased to -32..31) and Q6_K (int8) as int8 lanes.
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
// Q2_K mins (high nibbles of the scale bytes).
inline __m128i q2k_mins16(const uint8_t* blk) {
    return _mm_and_si128(_mm_srli_epi16(_mm_loadu_si128((const __m128i*)blk), 4), _mm_set1_epi8(0x0f));
}

// IQ4_XS: the 6-bit sub-block scales minus 32, as 8 int8 (bytes 0..7).
inline __m128i iq4xs_scales8(const uint8_t* blk) {
    uint16_t sh;
    uint32_t sl;
    std::memcpy(&sh, blk + 2, 2);
    std::memcpy(&sl, blk + 4, 4);
    uint64_t v = 0;
    for (int j = 0; j < 8; ++j)
        v |= uint64_t(((sl >> (4 * j)) & 15u) | (((uint32_t(sh) >> (2 * j)) & 3u) << 4)) << (8 * j);
    return _mm_sub_epi8(_mm_cvtsi64_si128(int64_t(v)), _mm_set1_epi8(32));
}

// IQ4_XS grid levels + 128 (unsigned, 1..241) of elements 64c .. 64c+63
// (sub-blocks 2c, 2c+1; sub-block s = 16 bytes, element j low nibble of byte
// j, element j+16 high nibble).
inline __m512i iq4xs_codes64(const uint8_t* blk, int c) {
    const __m512i v = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i*)(blk + 8 + 32 * c)));
    const __m512i q = _mm512_shuffle_i64x2(v, v, 0x50);  // 128-bit quarters A A B B
    const __m512i shift = _mm512_set_epi64(4 * 0x0001000100010001LL, 4 * 0x0001000100010001LL, 0, 0,
                                           4 * 0x0001000100010001LL, 4 * 0x0001000100010001LL, 0, 0);
    const __m512i codes = _mm512_and_si512(_mm512_srlv_epi16(q, shift), _mm512_set1_epi8(0x0f));
    const __m512i table = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 24, 45, 63, 79, 93, 106, 118, (char)129, (char)141,
                                                               (char)153, (char)166, (char)181, (char)197, (char)217,
                                                               (char)241));
    return _mm512_shuffle_epi8(table, codes);
}

template <int F>
inline __m512i codes64(const uint8_t* blk, int c) {
    if constexpr (F == kQ4k) return nibbles64(blk + 16, c);
    else if constexpr (F == kQ5k) return q5k_codes64(blk, c);
    else if constexpr (F == kQ2k) return twobits64(blk + 16, c);
    else if constexpr (F == kQ3k) return q3k_codes64(blk, c);
    else if constexpr (F == kIq4xs) return iq4xs_codes64(blk, c);
    else return q6k_codes64(blk, c);
}

// ---------------------------------------------------------------- GEMV path

// Integer sums of one Q4_K/Q5_K block against R Q8_K blocks, as lane vectors whose
// lanes add up to s[r] = sum_j sc_j * dot_j and
// m[r] = sum_j m_j * (bsums[2j] + bsums[2j+1]).
template <int R, int F>
inline void affine_ints(const uint8_t* blk, const uint8_t* const* xb, __m256i* s, __m256i* m) {
    const __m128i scm = q4k_scales_mins(blk + 4);
    const __m512i sc32 = _mm512_cvtepu8_epi32(scm);  // lanes 0..7 sc, 8..15 m (zero-extended)
    const __m256i mins16 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(scm, scm));
    __m512i acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_si512();
    for (int c = 0; c < 4; ++c) {
        const __m512i w = codes64<F>(blk, c);
        const __m512i scv = _mm512_permutexvar_epi32(halves_epi32(2 * c, 2 * c + 1), sc32);
        for (int r = 0; r < R; ++r) {
            const __m512i p = _mm512_dpbusd_epi32(_mm512_setzero_si512(), w, _mm512_loadu_si512(xb[r] + 4 + 64 * c));
            acc[r] = _mm512_dpwssd_epi32(acc[r], p, scv);  // |p| <= 4*31*127 < 2^15: low half times sc, high half times 0
        }
    }
    for (int r = 0; r < R; ++r) {
        s[r] = _mm256_add_epi32(_mm512_castsi512_si256(acc[r]), _mm512_extracti64x4_epi64(acc[r], 1));
        m[r] = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(xb[r] + 260)), mins16);
    }
}

// Lanes adding up to the integer sums of one block with 16 sub-blocks of 16:
// Q2_K s[r] = sum_j sc_j * dot_j, m[r] = sum_j m_j * bsums[j];
// Q3_K/Q6_K s[r] = sum_j sc_j * (dot_j - off * bsums[j]) (off = 4 / 32), m unused.
template <int R, int F>
inline void sub16_ints(const uint8_t* blk, const uint8_t* const* xb, __m256i* s, __m256i* m) {
    const __m128i sc = scales16<F>(blk);
    const __m512i sc32 = _mm512_and_si512(_mm512_cvtepi8_epi32(sc), _mm512_set1_epi32(0xffff));
    __m512i acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_si512();
    for (int g = 0; g < 4; ++g) {
        const __m512i w = codes64<F>(blk, g);
        const __m512i idx = _mm512_set_epi32(4 * g + 3, 4 * g + 3, 4 * g + 3, 4 * g + 3, 4 * g + 2, 4 * g + 2,
                                             4 * g + 2, 4 * g + 2, 4 * g + 1, 4 * g + 1, 4 * g + 1, 4 * g + 1,
                                             4 * g, 4 * g, 4 * g, 4 * g);
        const __m512i scv = _mm512_permutexvar_epi32(idx, sc32);
        for (int r = 0; r < R; ++r) {
            const __m512i p = _mm512_dpbusd_epi32(_mm512_setzero_si512(), w, _mm512_loadu_si512(xb[r] + 4 + 64 * g));
            acc[r] = _mm512_dpwssd_epi32(acc[r], p, scv);  // |p| <= 4*63*127 < 2^15
        }
    }
    if constexpr (is_affine(F)) {
        const __m256i mins = _mm256_cvtepu8_epi16(q2k_mins16(blk));
        for (int r = 0; r < R; ++r) {
            s[r] = _mm256_add_epi32(_mm512_castsi512_si256(acc[r]), _mm512_extracti64x4_epi64(acc[r], 1));
            m[r] = _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(xb[r] + 260)), mins);
        }
    } else {
        const __m256i corr16 = _mm256_slli_epi16(_mm256_cvtepi8_epi16(sc), sym_shift(F));
        for (int r = 0; r < R; ++r)
            s[r] = _mm256_sub_epi32(_mm256_add_epi32(_mm512_castsi512_si256(acc[r]), _mm512_extracti64x4_epi64(acc[r], 1)),
                                    _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(xb[r] + 260)), corr16));
    }
}

// Lanes adding up to s[r] = sum_j ls_j * (dot(level + 128, x)_j - 128 * bsum32_j)
// = sum_j ls_j * dot(level, x)_j for one IQ4_XS block (ls_j = scale - 32).
template <int R>
inline void iq4xs_ints(const uint8_t* blk, const uint8_t* const* xb, __m256i* s) {
    const __m128i ls8 = iq4xs_scales8(blk);
    const __m512i ls32 = _mm512_cvtepi8_epi32(ls8);
    const __m256i corr16 = _mm256_slli_epi16(_mm256_cvtepi8_epi16(_mm_unpacklo_epi8(ls8, ls8)), 7);
    __m512i acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_si512();
    for (int c = 0; c < 4; ++c) {
        const __m512i w = iq4xs_codes64(blk, c);
        const __m512i scv = _mm512_permutexvar_epi32(halves_epi32(2 * c, 2 * c + 1), ls32);
        for (int r = 0; r < R; ++r) {
            const __m512i p = _mm512_dpbusd_epi32(_mm512_setzero_si512(), w, _mm512_loadu_si512(xb[r] + 4 + 64 * c));
            acc[r] = _mm512_add_epi32(acc[r], _mm512_mullo_epi32(p, scv));  // |p| up to 4*241*128: no int16 trick
        }
    }
    for (int r = 0; r < R; ++r)
        s[r] = _mm256_sub_epi32(_mm256_add_epi32(_mm512_castsi512_si256(acc[r]), _mm512_extracti64x4_epi64(acc[r], 1)),
                                _mm256_madd_epi16(_mm256_loadu_si256((const __m256i*)(xb[r] + 260)), corr16));
}

// The totals of four 8-lane vectors, in lanes 0..3.
inline __m128i hsum4(__m256i a, __m256i b, __m256i c, __m256i d) {
    const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
    return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

constexpr int kTo = 4;        // output rows per float vector in the GEMV path
constexpr int kTt = 16;       // output rows per GEMV tile (4 vectors)
constexpr int kPrefetch = 2;  // GEMV: super-blocks ahead to prefetch, in tile order

inline void prefetch_block(const uint8_t* p, int64_t bytes) {
    for (int64_t o = 0; o < bytes; o += 64) _mm_prefetch((const char*)(p + o), _MM_HINT_T0);
}

// kTt output rows x R activation rows, by blocks: for each super-block b
// the tile's 16 blocks (contiguous in INPUT_BLOCK_MAJOR), four at a time
// into one float vector per activation row. Rows past oe repeat the last
// row and are not stored. Prefetches run kPrefetch blocks ahead along the
// tile and on into the next tile.
template <int R, int F>
void gemv_tile(const KqArgs& a, int64_t o0, int64_t oe, int64_t i0) {
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
        if (kPrefetch > 0) {
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
void gemv(const KqArgs& a, int64_t ob, int64_t oe) {
    for (int64_t o0 = ob; o0 < oe; o0 += kTt) {
        int64_t i = 0;
        for (; i + 4 <= a.n; i += 4) gemv_tile<4, F>(a, o0, oe, i);
        switch (a.n - i) {
            case 3: gemv_tile<3, F>(a, o0, oe, i); break;
            case 2: gemv_tile<2, F>(a, o0, oe, i); break;
            case 1: gemv_tile<1, F>(a, o0, oe, i); break;
            default: break;
        }
    }
}

// ---------------------------------------------------------------- GEMM path

// 16 output rows x kKc super-blocks, codes transposed: q[k][g][t] holds codes
// 4g .. 4g+3 of row t's block k. sc[k][j][t]: the integer scale of sub-block
// j (8 or 16 of them); mn[k][p][t]: the int16 pair multiplying (bsums[2p],
// bsums[2p+1]) — (m_p, m_p) for Q4_K/Q5_K, (m_2p, m_2p+1) for Q2_K,
// (off*sc_2p, off*sc_2p+1) for Q3_K/Q6_K, (128*ls_p, 128*ls_p) for IQ4_XS;
// d, dmin per row.
struct alignas(64) Pack {
    uint32_t q[kKc][64][16];
    int32_t sc[kKc][16][16];
    int32_t mn[kKc][8][16];
    float d[kKc][16];
    float dmin[kKc][16];
};

template <int F>
void repack(Pack& p, const KqArgs& a, int64_t o0, int64_t k0, int kc) {
    alignas(64) uint32_t rows[16][64];
    for (int k = 0; k < kc; ++k) {
        for (int t = 0; t < 16; ++t) {
            const uint8_t* blk = a.w + (o0 + t) * a.so + (k0 + k) * a.sb;
            for (int c = 0; c < 4; ++c)
                _mm512_store_si512(&rows[t][16 * c], codes64<F>(blk, c));
            if constexpr (F == kIq4xs) {
                alignas(16) int8_t ls[16];
                _mm_store_si128((__m128i*)ls, iq4xs_scales8(blk));
                for (int j = 0; j < 8; ++j) {
                    p.sc[k][j][t] = ls[j];
                    const uint32_t c = uint16_t(int16_t(ls[j] * 128));
                    p.mn[k][j][t] = int32_t(c | (c << 16));
                }
            } else if constexpr (!is_sub16(F)) {
                alignas(16) uint8_t sm[16];
                _mm_store_si128((__m128i*)sm, q4k_scales_mins(blk + 4));
                for (int j = 0; j < 8; ++j) {
                    p.sc[k][j][t] = sm[j];
                    p.mn[k][j][t] = int32_t(uint32_t(sm[8 + j]) | (uint32_t(sm[8 + j]) << 16));
                }
            } else {
                // mn: per lane the int16 pair multiplying (bsums[2j], bsums[2j+1]).
                alignas(16) int8_t sc[16], mins[16];
                _mm_store_si128((__m128i*)sc, scales16<F>(blk));
                if constexpr (is_affine(F)) _mm_store_si128((__m128i*)mins, q2k_mins16(blk));
                for (int j = 0; j < 16; ++j) {
                    p.sc[k][j][t] = sc[j];
                    if constexpr (!is_affine(F)) mins[j] = 0;
                }
                for (int j = 0; j < 8; ++j) {
                    const int lo = is_affine(F) ? mins[2 * j] : sc[2 * j] * (1 << sym_shift(F));
                    const int hi = is_affine(F) ? mins[2 * j + 1] : sc[2 * j + 1] * (1 << sym_shift(F));
                    p.mn[k][j][t] = int32_t(uint32_t(uint16_t(int16_t(lo))) | (uint32_t(uint16_t(int16_t(hi))) << 16));
                }
            }
            p.d[k][t] = load_f16(blk + d_at(F));
            p.dmin[k][t] = is_affine(F) ? load_f16(blk + dmin_at(F)) : 0.0f;
        }
        // Transpose 16 rows x 64 dwords into 64 x 16.
        for (int g = 0; g < 64; ++g)
            for (int t = 0; t < 16; ++t) p.q[k][g][t] = rows[t][g];
    }
}

template <int R, int F>
void gemm_rows(const Pack& p, int kc, const uint8_t* const* xrow, __m512* f) {
    for (int k = 0; k < kc; ++k) {
        const uint8_t* xb[R];
        for (int r = 0; r < R; ++r) xb[r] = xrow[r] + size_t(k) * kQ8kBytes;
        __m512i s[R], m[R];
        for (int r = 0; r < R; ++r) s[r] = m[r] = _mm512_setzero_si512();
        constexpr int kSub = is_sub16(F) ? 16 : 8, kGroups = is_sub16(F) ? 4 : 8;  // sub-blocks, code groups per sub-block
        for (int j = 0; j < kSub; ++j) {
            __m512i acc[R];
            for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_si512();
            for (int g = 0; g < kGroups; ++g) {
                const __m512i w = _mm512_load_si512(p.q[k][j * kGroups + g]);
                for (int r = 0; r < R; ++r)
                    acc[r] = _mm512_dpbusd_epi32(acc[r], w, _mm512_set1_epi32(load_i32(xb[r] + 4 + 4 * (j * kGroups + g))));
            }
            const __m512i scv = _mm512_load_si512(p.sc[k][j]);
            for (int r = 0; r < R; ++r) s[r] = _mm512_add_epi32(s[r], _mm512_mullo_epi32(acc[r], scv));
        }
        for (int j = 0; j < 8; ++j) {
            const __m512i mv = _mm512_load_si512(p.mn[k][j]);
            for (int r = 0; r < R; ++r) m[r] = _mm512_dpwssd_epi32(m[r], mv, _mm512_set1_epi32(load_i32(xb[r] + 260 + 4 * j)));
        }
        const __m512 dv = _mm512_load_ps(p.d[k]);
        if constexpr (is_affine(F)) {
            const __m512 mvf = _mm512_load_ps(p.dmin[k]);
            for (int r = 0; r < R; ++r) {
                const __m512 dx = _mm512_set1_ps(load_f32(xb[r]));
                f[r] = step_affine16(f[r], s[r], m[r], _mm512_mul_ps(dv, dx), _mm512_mul_ps(mvf, dx));
            }
        } else {
            for (int r = 0; r < R; ++r) {
                const __m512 dx = _mm512_set1_ps(load_f32(xb[r]));
                f[r] = step_sym16(f[r], _mm512_sub_epi32(s[r], m[r]), _mm512_mul_ps(dv, dx));
            }
        }
    }
}

template <int F>
void gemm_tile(const KqArgs& a, int64_t o0) {
    Pack p;
    alignas(64) float fbuf[kIg][16];
    for (int64_t i0 = 0; i0 < a.n; i0 += kIg) {
        const int ng = a.n - i0 < kIg ? int(a.n - i0) : kIg;
        for (int i = 0; i < ng; ++i) _mm512_store_ps(fbuf[i], _mm512_setzero_ps());
        for (int64_t k0 = 0; k0 < a.bpr; k0 += kKc) {
            const int kc = a.bpr - k0 < kKc ? int(a.bpr - k0) : kKc;
            repack<F>(p, a, o0, k0, kc);
            for (int r0 = 0; r0 < ng;) {
                const int rr = ng - r0 < 8 ? ng - r0 : 8;
                const uint8_t* xrow[8];
                __m512 f[8];
                for (int r = 0; r < rr; ++r) {
                    xrow[r] = a.xq + size_t(i0 + r0 + r) * a.xq_stride + size_t(k0) * kQ8kBytes;
                    f[r] = _mm512_load_ps(fbuf[r0 + r]);
                }
                switch (rr) {
                    case 8: gemm_rows<8, F>(p, kc, xrow, f); break;
                    case 7: gemm_rows<7, F>(p, kc, xrow, f); break;
                    case 6: gemm_rows<6, F>(p, kc, xrow, f); break;
                    case 5: gemm_rows<5, F>(p, kc, xrow, f); break;
                    case 4: gemm_rows<4, F>(p, kc, xrow, f); break;
                    case 3: gemm_rows<3, F>(p, kc, xrow, f); break;
                    case 2: gemm_rows<2, F>(p, kc, xrow, f); break;
                    default: gemm_rows<1, F>(p, kc, xrow, f); break;
                }
                for (int r = 0; r < rr; ++r) _mm512_store_ps(fbuf[r0 + r], f[r]);
                r0 += rr;
            }
        }
        for (int i = 0; i < ng; ++i) {
            __m512 v = _mm512_load_ps(fbuf[i]);
            if (a.bias != nullptr) v = _mm512_add_ps(v, _mm512_loadu_ps(a.bias + o0));
            _mm512_storeu_ps(a.y + (i0 + i) * a.y_stride + o0, v);
        }
    }
}

template <int F>
void run(const KqArgs& a, int64_t ob, int64_t oe) {
    int64_t o = ob;
    if (a.n >= kGemmMinRows)
        for (; o + 16 <= oe; o += 16) gemm_tile<F>(a, o);
    if (o < oe) gemv<F>(a, o, oe);
}

}  // namespace

void kq_q4_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end) { run<kQ4k>(a, out_begin, out_end); }
void kq_q5_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end) { run<kQ5k>(a, out_begin, out_end); }
void kq_q6_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end) { run<kQ6k>(a, out_begin, out_end); }
void kq_iq4_xs_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end) { run<kIq4xs>(a, out_begin, out_end); }
void kq_q2_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end) { run<kQ2k>(a, out_begin, out_end); }
void kq_q3_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end) { run<kQ3k>(a, out_begin, out_end); }

}  // namespace skn::kernels::x86
