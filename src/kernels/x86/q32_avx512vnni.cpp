// AVX512-VNNI matmul_wt kernels for Q4_0, Q8_0, IQ4_NL and MXFP4 weights
// against Q8_0 activations (fast precision). Kernel functions only: see
// q32_kernels.hpp for the accumulation order and register_q32.cpp for the
// registration.
//
// Scheme ("lanes are output rows"): a tile is 16 output rows x C activation
// rows (C in 16, 8, 4, 2, 1). For each input block b the 16 weight blocks of
// the tile are transposed in registers into eight zmm W[j] whose 32-bit lane
// r holds row r's codes 4j..4j+3 as unsigned bytes (code + a per-format
// offset). The activation block's int8 codes are broadcast four at a time
// straight from memory into vpdpbusd, so after eight vpdpbusd lane r holds
// the exact integer dot of row r with the activation block; the offset is
// removed exactly by starting the sum at -offset * sum(activation codes),
// precomputed once per task for a chunk of blocks. Then one convert and one
// fma per (tile, activation row, block).
// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsic
// headers (the _mm512_undefined_* placeholders, GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/x86/q32_kernels.hpp"

namespace skn::kernels::x86 {
namespace {

typedef int32_t i32u __attribute__((may_alias, aligned(1)));
typedef uint16_t u16u __attribute__((may_alias, aligned(1)));

constexpr int kRows = 16;      // output rows per tile (one zmm of lanes)
constexpr int kMaxC = 16;      // activation rows per tile
constexpr int kChunk = 128;    // input blocks per precomputed activation chunk
constexpr int kColumns = 8;    // INPUT_BLOCK_MAJOR, few activation rows: blocks per pass over the tiles

struct Tile {
    int64_t ro[kRows];  // byte offset of each row's block from row 0's (rows past the end repeat row 0)
    __m512i voff;       // the same, as int32 lanes for gathers
    __mmask16 mask;     // valid rows
};

// T[jj] lane r (r = 0..15) = 32-bit word jj of the 16 bytes at p + ro[r].
inline void load_transpose_4x16(const uint8_t* p, const int64_t* ro, __m512i T[4]) {
    __m512i Z[4];
    #pragma GCC unroll 16
    for (int k = 0; k < 4; ++k) {
        __m512i z = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k])));
        z = _mm512_inserti32x4(z, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k + 4])), 1);
        z = _mm512_inserti32x4(z, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k + 8])), 2);
        z = _mm512_inserti32x4(z, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k + 12])), 3);
        Z[k] = z;  // 128-bit lane q holds row k + 4q
    }
    const __m512i a = _mm512_unpacklo_epi32(Z[0], Z[1]);
    const __m512i b = _mm512_unpackhi_epi32(Z[0], Z[1]);
    const __m512i c = _mm512_unpacklo_epi32(Z[2], Z[3]);
    const __m512i d = _mm512_unpackhi_epi32(Z[2], Z[3]);
    T[0] = _mm512_unpacklo_epi64(a, c);
    T[1] = _mm512_unpackhi_epi64(a, c);
    T[2] = _mm512_unpacklo_epi64(b, d);
    T[3] = _mm512_unpackhi_epi64(b, d);
}

// The 16 rows' fp16 scales at p + ro[r] as floats.
inline __m512 fp16_scales(const uint8_t* p, __m512i voff) {
    const __m512i g = _mm512_i32gather_epi32(voff, p, 1);
    return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(g));
}

// Nibble pairs (byte j: element j low, element j + 16 high) -> W[0..7].
inline void split_nibbles(const __m512i T[4], __m512i W[8]) {
    const __m512i m = _mm512_set1_epi8(0x0F);
    #pragma GCC unroll 16
    for (int jj = 0; jj < 4; ++jj) {
        W[jj] = _mm512_and_si512(T[jj], m);
        W[jj + 4] = _mm512_and_si512(_mm512_srli_epi16(T[jj], 4), m);
    }
}

inline void lookup(const __m512i lut, __m512i W[8]) {
    #pragma GCC unroll 16
    for (int j = 0; j < 8; ++j) W[j] = _mm512_shuffle_epi8(lut, W[j]);
}

struct Q4_0F {
    static constexpr int kBytes = 18, kOffset = 8;  // code = value + 8
    static constexpr bool kQ81 = false;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8], __m512& mw) {
        (void)mw;
        __m512i T[4];
        load_transpose_4x16(p + 2, t.ro, T);
        split_nibbles(T, W);
        return fp16_scales(p, t.voff);
    }
};

struct Iq4NlF {
    static constexpr int kBytes = 18, kOffset = 128;  // level + 128
    static constexpr bool kQ81 = false;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8], __m512& mw) {
        (void)mw;
        __m512i T[4];
        load_transpose_4x16(p + 2, t.ro, T);
        split_nibbles(T, W);
        const __m512i lut = _mm512_broadcast_i32x4(
            _mm_setr_epi8(1, 24, 45, 63, 79, 93, 106, 118, (char)129, (char)141, (char)153, (char)166, (char)181,
                          (char)197, (char)217, (char)241));
        lookup(lut, W);
        return fp16_scales(p, t.voff);
    }
};

struct Mxfp4F {
    static constexpr int kBytes = 17, kOffset = 12;  // doubled E2M1 value + 12
    static constexpr bool kQ81 = false;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8], __m512& mw) {
        (void)mw;
        __m512i T[4];
        load_transpose_4x16(p + 1, t.ro, T);
        split_nibbles(T, W);
        const __m512i lut =
            _mm512_broadcast_i32x4(_mm_setr_epi8(12, 13, 14, 15, 16, 18, 20, 24, 12, 11, 10, 9, 8, 6, 4, 0));
        lookup(lut, W);
        // E8M0 e -> 2^(e - 128) (the halved scale): (e - 1) << 23, or 0x00200000 << e for e < 2.
        const __m512i e = _mm512_and_si512(_mm512_i32gather_epi32(t.voff, p, 1), _mm512_set1_epi32(0xFF));
        const __m512i normal = _mm512_slli_epi32(_mm512_sub_epi32(e, _mm512_set1_epi32(1)), 23);
        const __m512i sub = _mm512_sllv_epi32(_mm512_set1_epi32(0x00200000), e);
        const __mmask16 small = _mm512_cmplt_epi32_mask(e, _mm512_set1_epi32(2));
        return _mm512_castsi512_ps(_mm512_mask_blend_epi32(small, normal, sub));
    }
};

struct Q8_0F {
    static constexpr int kBytes = 34, kOffset = 128;  // q + 128
    static constexpr bool kQ81 = false;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8], __m512& mw) {
        (void)mw;
        load_transpose_4x16(p + 2, t.ro, W);
        load_transpose_4x16(p + 18, t.ro, W + 4);
        const __m512i flip = _mm512_set1_epi8((char)0x80);
        #pragma GCC unroll 16
        for (int j = 0; j < 8; ++j) W[j] = _mm512_xor_si512(W[j], flip);
        return fp16_scales(p, t.voff);
    }
};

// The 5-bit formats: bit 4 of element e is bit e of the 32-bit word qh
// (per row in a lane). Element 4j + t sits in byte t of lane r of W[j]; its
// bit is in byte j / 2 of qh at bit t (j even) or 4 + t (j odd).
inline void add_high_bits(__m512i qh, __m512i W[8]) {
    const __m512i bits = _mm512_set1_epi32(0x08040201);
    const __m512i hi = _mm512_set1_epi8(0x10);
    #pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
        const int m = j / 2;
        // byte m of each 32-bit lane, four times (vpshufb indexes within 128 bits)
        const __m512i pick = _mm512_broadcast_i32x4(
            _mm_setr_epi32(0x01010101 * m, 0x01010101 * (4 + m), 0x01010101 * (8 + m), 0x01010101 * (12 + m)));
        const __m512i rep = _mm512_shuffle_epi8(qh, pick);
        const __m512i probe = (j & 1) ? _mm512_slli_epi32(bits, 4) : bits;
        const __mmask64 k = _mm512_test_epi8_mask(rep, probe);
        W[j] = _mm512_mask_add_epi8(W[j], k, W[j], hi);  // bit 4 is clear: add is or
    }
}

struct Q5_0F {
    static constexpr int kBytes = 22, kOffset = 16;  // code = value + 16
    static constexpr bool kQ81 = false;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8], __m512& mw) {
        (void)mw;
        __m512i T[4];
        load_transpose_4x16(p + 6, t.ro, T);
        split_nibbles(T, W);
        add_high_bits(_mm512_i32gather_epi32(t.voff, p + 2, 1), W);
        return fp16_scales(p, t.voff);
    }
};

// The _1 formats pair with Q8_1 activations: value = code * d + m, so the
// block adds m * (d_x * sum of the activation codes) after the code dot.
inline __m512 fp16_high_scales(const uint8_t* p, __m512i voff) {
    const __m512i g = _mm512_i32gather_epi32(voff, p, 1);
    return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(g, 16)));
}

struct Q4_1F {
    static constexpr int kBytes = 20, kOffset = 0;
    static constexpr bool kQ81 = true;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8], __m512& mw) {
        __m512i T[4];
        load_transpose_4x16(p + 4, t.ro, T);
        split_nibbles(T, W);
        mw = fp16_high_scales(p, t.voff);
        return fp16_scales(p, t.voff);
    }
};

struct Q5_1F {
    static constexpr int kBytes = 24, kOffset = 0;
    static constexpr bool kQ81 = true;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8], __m512& mw) {
        __m512i T[4];
        load_transpose_4x16(p + 8, t.ro, T);
        split_nibbles(T, W);
        add_high_bits(_mm512_i32gather_epi32(t.voff, p + 4, 1), W);
        mw = fp16_high_scales(p, t.voff);
        return fp16_scales(p, t.voff);
    }
};

// For activation rows i0..i0+C-1 and blocks k0..k0+nb-1, at [b * kMaxC + c]:
// the float scale d_x, -offset * (sum of the block's codes) and, for Q8_1,
// d_x * float(sum of the codes).
template <bool kQ81>
void precompute(const Q32Args& a, int64_t i0, int C, int64_t k0, int64_t nb, int offset, float* dx, int32_t* nc,
                float* mx) {
    constexpr int kAB = kQ81 ? 36 : 34, kAQ = kQ81 ? 4 : 2;
    const __m256i flip = _mm256_set1_epi8((char)0x80);
    const __m256i zero = _mm256_setzero_si256();
    for (int c = 0; c < C; ++c) {
        const uint8_t* row = a.xq + size_t(i0 + c) * a.xq_stride + size_t(k0) * kAB;
        for (int64_t b = 0; b < nb; ++b) {
            const uint8_t* blk = row + b * kAB;
            const float d = _cvtsh_ss(*reinterpret_cast<const u16u*>(blk));
            dx[b * kMaxC + c] = d;
            const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk + kAQ));
            const __m256i s = _mm256_sad_epu8(_mm256_xor_si256(q, flip), zero);  // sums of q + 128
            const __m128i h = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
            const int64_t sum = _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1) - 32 * 128;
            nc[b * kMaxC + c] = int32_t(-offset * sum);
            if (kQ81) mx[b * kMaxC + c] = d * float(sum);
        }
    }
}

// Software prefetch of the kLines cache lines of one tile's block (16
// consecutive blocks of an INPUT_BLOCK_MAJOR column).
template <class F>
inline void prefetch_ahead(const uint8_t* pf) {
    constexpr int kLines = (kRows * F::kBytes + 63) / 64;
#pragma GCC unroll 16
    for (int l = 0; l < kLines; ++l) _mm_prefetch(reinterpret_cast<const char*>(pf + 64 * l), _MM_HINT_T0);
}

template <class F, int C>
void tile(const Q32Args& a, const uint8_t* w0, int64_t sbb, const Tile& t, int64_t nb, const uint8_t* x0,
          const float* dx, const int32_t* nc, const float* mx, float* y0, bool first, bool last,
          const float* bias, const uint8_t* pf, int64_t pf_step) {
    constexpr int kAB = F::kQ81 ? 36 : 34;
    __m512 acc[C];
    #pragma GCC unroll 16
    for (int c = 0; c < C; ++c)
        acc[c] = first ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(t.mask, y0 + c * a.y_stride);
    const size_t xs = a.xq_stride;
    for (int64_t b = 0; b < nb; ++b) {
        __m512i W[8];
        if (pf != nullptr) prefetch_ahead<F>(pf + b * pf_step);
        __m512 mw = _mm512_setzero_ps();
        const __m512 dw = F::prep(w0 + b * sbb, t, W, mw);
        const uint8_t* xb = x0 + b * kAB + (F::kQ81 ? 4 : 2);
        #pragma GCC unroll 16
        for (int c = 0; c < C; ++c) {
            const uint8_t* xc = xb + c * xs;
            __m512i s = _mm512_set1_epi32(nc[b * kMaxC + c]);
            if constexpr (C <= 2) {
                // Few activation rows: two shorter dependency chains.
                __m512i s1 = _mm512_setzero_si512();
                #pragma GCC unroll 16
                for (int j = 0; j < 8; j += 2) {
                    s = _mm512_dpbusd_epi32(s, W[j], _mm512_set1_epi32(*reinterpret_cast<const i32u*>(xc + 4 * j)));
                    s1 = _mm512_dpbusd_epi32(s1, W[j + 1],
                                             _mm512_set1_epi32(*reinterpret_cast<const i32u*>(xc + 4 * j + 4)));
                }
                s = _mm512_add_epi32(s, s1);
            } else {
                #pragma GCC unroll 16
                for (int j = 0; j < 8; ++j)
                    s = _mm512_dpbusd_epi32(s, W[j], _mm512_set1_epi32(*reinterpret_cast<const i32u*>(xc + 4 * j)));
            }
            const __m512 sc = _mm512_mul_ps(dw, _mm512_set1_ps(dx[b * kMaxC + c]));
            acc[c] = _mm512_fmadd_ps(sc, _mm512_cvtepi32_ps(s), acc[c]);
            if constexpr (F::kQ81) acc[c] = _mm512_fmadd_ps(mw, _mm512_set1_ps(mx[b * kMaxC + c]), acc[c]);
        }
    }
    const __m512 bv = (last && bias != nullptr) ? _mm512_maskz_loadu_ps(t.mask, bias) : _mm512_setzero_ps();
    #pragma GCC unroll 16
    for (int c = 0; c < C; ++c) {
        const __m512 v = (last && bias != nullptr) ? _mm512_add_ps(acc[c], bv) : acc[c];
        _mm512_mask_storeu_ps(y0 + c * a.y_stride, t.mask, v);
    }
}

template <class F>
void run(const Q32Args& a, int64_t o0, int64_t o1) {
    alignas(64) float dx[kChunk * kMaxC];
    alignas(64) int32_t nc[kChunk * kMaxC];
    alignas(64) float mx[F::kQ81 ? kChunk * kMaxC : 1];
    constexpr int kAB = F::kQ81 ? 36 : 34;
    const int64_t sbb = a.sb * F::kBytes, sob = a.so * F::kBytes;
    for (int64_t i0 = 0; i0 < a.n;) {
        const int64_t left = a.n - i0;
        const int C = left >= 16 ? 16 : left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
        for (int64_t k0 = 0; k0 < a.bpr; k0 += kChunk) {
            const int64_t nb = a.bpr - k0 < kChunk ? a.bpr - k0 : kChunk;
            precompute<F::kQ81>(a, i0, C, k0, nb, F::kOffset, dx, nc, mx);
            // ROW_MAJOR, or many activation rows (compute-bound, the task's
            // weight stays in L2): each tile runs through the whole chunk.
            // INPUT_BLOCK_MAJOR with few activation rows (memory-bound):
            // kColumns blocks at a time over every tile, so the weight is read
            // in address order, with the next columns of the same tile
            // prefetched.
            const bool by_columns = a.sb != 1 && C <= 4;
            const int64_t step = by_columns ? kColumns : nb;
            for (int64_t kb = 0; kb < nb; kb += step) {
                const int64_t nb2 = nb - kb < step ? nb - kb : step;
                const bool first = k0 + kb == 0, last = k0 + kb + nb2 == a.bpr;
                const uint8_t* x0 = a.xq + size_t(i0) * a.xq_stride + size_t(k0 + kb) * kAB;
                const float* dxb = dx + kb * kMaxC;
                const int32_t* ncb = nc + kb * kMaxC;
                const float* mxb = F::kQ81 ? mx + kb * kMaxC : mx;
                for (int64_t o = o0; o < o1; o += kRows) {
                    const int nr = o1 - o < kRows ? int(o1 - o) : kRows;
                    Tile t;
                    alignas(64) int32_t off32[kRows];
                    #pragma GCC unroll 16
                    for (int r = 0; r < kRows; ++r) {
                        t.ro[r] = r < nr ? r * sob : 0;
                        off32[r] = int32_t(t.ro[r]);
                    }
                    t.voff = _mm512_load_si512(off32);
                    t.mask = __mmask16((1u << nr) - 1u);
                    const uint8_t* w0 = a.w + o * sob + (k0 + kb) * sbb;
                    float* y0 = a.y + i0 * a.y_stride + o;
                    const float* bias = a.bias != nullptr ? a.bias + o : nullptr;
                    // Prefetch the next columns of this tile when going by
                    // columns. (ROW_MAJOR tiles are 16 sequential streams the
                    // hardware prefetcher follows; software prefetch measured
                    // slower there.)
                    const uint8_t* pf = by_columns ? w0 + step * sbb : nullptr;
                    const int64_t pf_step = sbb;
                    switch (C) {
                        case 16: tile<F, 16>(a, w0, sbb, t, nb2, x0, dxb, ncb, mxb, y0, first, last, bias, pf, pf_step); break;
                        case 8: tile<F, 8>(a, w0, sbb, t, nb2, x0, dxb, ncb, mxb, y0, first, last, bias, pf, pf_step); break;
                        case 4: tile<F, 4>(a, w0, sbb, t, nb2, x0, dxb, ncb, mxb, y0, first, last, bias, pf, pf_step); break;
                        case 2: tile<F, 2>(a, w0, sbb, t, nb2, x0, dxb, ncb, mxb, y0, first, last, bias, pf, pf_step); break;
                        default: tile<F, 1>(a, w0, sbb, t, nb2, x0, dxb, ncb, mxb, y0, first, last, bias, pf, pf_step); break;
                    }
                }
            }
        }
        i0 += C;
    }
}

}  // namespace

void q32_q4_0_q8_0_avx512vnni(const Q32Args& a, int64_t o0, int64_t o1) { run<Q4_0F>(a, o0, o1); }
void q32_q8_0_q8_0_avx512vnni(const Q32Args& a, int64_t o0, int64_t o1) { run<Q8_0F>(a, o0, o1); }
void q32_iq4_nl_q8_0_avx512vnni(const Q32Args& a, int64_t o0, int64_t o1) { run<Iq4NlF>(a, o0, o1); }
void q32_mxfp4_q8_0_avx512vnni(const Q32Args& a, int64_t o0, int64_t o1) { run<Mxfp4F>(a, o0, o1); }
void q32_q5_0_q8_0_avx512vnni(const Q32Args& a, int64_t o0, int64_t o1) { run<Q5_0F>(a, o0, o1); }
void q32_q4_1_q8_1_avx512vnni(const Q32Args& a, int64_t o0, int64_t o1) { run<Q4_1F>(a, o0, o1); }
void q32_q5_1_q8_1_avx512vnni(const Q32Args& a, int64_t o0, int64_t o1) { run<Q5_1F>(a, o0, o1); }

}  // namespace skn::kernels::x86
