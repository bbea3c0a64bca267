// AVX-512 matmul_wt kernels for Q4_0, Q8_0, IQ4_NL and MXFP4 weights against
// float32 activations (exact precision). Kernel functions only: see
// register_q32.cpp for the registration.
//
// Accumulation order (both block orders, any row split): for each (i, o),
// acc = 0; for each block b in order: partial = v_0 * x_0, then
// partial = fma(v_k, x_k, partial) for k = 1..31 in element order, where v_k
// is the block's integer value (Q4_0: code - 8; Q8_0: q; IQ4_NL: the level;
// MXFP4: the doubled E2M1 value), exact in float; acc = fma(d_w, partial,
// acc) with d_w the block scale (MXFP4: the halved scale); then y = acc
// (+ bias).
//
// Tiling as in q32_avx512vnni.cpp: 16 output rows in the lanes of a zmm (the
// tile's blocks transposed so lane r holds row r's values 4j..4j+3 in 32-bit
// word j), C in 8, 4, 2, 1 activation rows whose floats are broadcast from
// memory into the fma.
// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsic
// headers (the _mm512_undefined_* placeholders, GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/x86/q32_kernels.hpp"

namespace skn::kernels::x86 {
namespace {

constexpr int kRows = 16;
constexpr int kColumns = 8;  // INPUT_BLOCK_MAJOR, few activation rows: blocks per pass over the tiles

struct Tile {
    int64_t ro[kRows];  // byte offset of each row's block from row 0's (rows past the end repeat row 0)
    __m512i voff;
    __mmask16 mask;
};

inline void load_transpose_4x16(const uint8_t* p, const int64_t* ro, __m512i T[4]) {
    __m512i Z[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
        __m512i z = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k])));
        z = _mm512_inserti32x4(z, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k + 4])), 1);
        z = _mm512_inserti32x4(z, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k + 8])), 2);
        z = _mm512_inserti32x4(z, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + ro[k + 12])), 3);
        Z[k] = z;
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

inline __m512 fp16_scales(const uint8_t* p, __m512i voff) {
    const __m512i g = _mm512_i32gather_epi32(voff, p, 1);
    return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(g));
}

// Nibble pairs -> signed values through a 16-entry table.
inline void nibbles_to_values(const __m512i T[4], __m512i lut, __m512i W[8]) {
    const __m512i m = _mm512_set1_epi8(0x0F);
#pragma GCC unroll 4
    for (int jj = 0; jj < 4; ++jj) {
        W[jj] = _mm512_shuffle_epi8(lut, _mm512_and_si512(T[jj], m));
        W[jj + 4] = _mm512_shuffle_epi8(lut, _mm512_and_si512(_mm512_srli_epi16(T[jj], 4), m));
    }
}

struct Q4_0F {
    static constexpr int kBytes = 18;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8]) {
        __m512i T[4];
        load_transpose_4x16(p + 2, t.ro, T);
        nibbles_to_values(T, _mm512_broadcast_i32x4(_mm_setr_epi8(-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7)),
                          W);
        return fp16_scales(p, t.voff);
    }
};

struct Iq4NlF {
    static constexpr int kBytes = 18;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8]) {
        __m512i T[4];
        load_transpose_4x16(p + 2, t.ro, T);
        nibbles_to_values(
            T,
            _mm512_broadcast_i32x4(_mm_setr_epi8(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113)),
            W);
        return fp16_scales(p, t.voff);
    }
};

struct Mxfp4F {
    static constexpr int kBytes = 17;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8]) {
        __m512i T[4];
        load_transpose_4x16(p + 1, t.ro, T);
        nibbles_to_values(T, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12)),
                          W);
        const __m512i e = _mm512_and_si512(_mm512_i32gather_epi32(t.voff, p, 1), _mm512_set1_epi32(0xFF));
        const __m512i normal = _mm512_slli_epi32(_mm512_sub_epi32(e, _mm512_set1_epi32(1)), 23);
        const __m512i sub = _mm512_sllv_epi32(_mm512_set1_epi32(0x00200000), e);
        const __mmask16 small = _mm512_cmplt_epi32_mask(e, _mm512_set1_epi32(2));
        return _mm512_castsi512_ps(_mm512_mask_blend_epi32(small, normal, sub));
    }
};

struct Q8_0F {
    static constexpr int kBytes = 34;
    static inline __m512 prep(const uint8_t* p, const Tile& t, __m512i W[8]) {
        load_transpose_4x16(p + 2, t.ro, W);
        load_transpose_4x16(p + 18, t.ro, W + 4);
        return fp16_scales(p, t.voff);
    }
};

// Signed byte i (0..3) of each 32-bit lane, as float.
template <int I>
inline __m512 byte_value(__m512i w) {
    if constexpr (I == 3) return _mm512_cvtepi32_ps(_mm512_srai_epi32(w, 24));
    return _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(w, 24 - 8 * I), 24));
}

template <int I, int C>
inline void fma_element(__m512 v, const float* const* xs, int64_t k, __m512 part[C]) {
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) {
        if constexpr (I == 0)
            part[c] = _mm512_mul_ps(v, _mm512_set1_ps(xs[c][k]));
        else
            part[c] = _mm512_fmadd_ps(v, _mm512_set1_ps(xs[c][k]), part[c]);
    }
}

template <class F, int C>
void tile(const Q32Args& a, const uint8_t* w0, int64_t sbb, const Tile& t, int64_t nb, const float* x0, float* y0,
          bool first, bool last, const float* bias, const uint8_t* pf) {
    __m512 acc[C];
    const float* xs[C];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) {
        acc[c] = first ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(t.mask, y0 + c * a.y_stride);
        xs[c] = x0 + c * a.xf_stride;
    }
    for (int64_t b = 0; b < nb; ++b) {
        if (pf != nullptr) {
            constexpr int kLines = (kRows * F::kBytes + 63) / 64;
#pragma GCC unroll 16
            for (int l = 0; l < kLines; ++l)
                _mm_prefetch(reinterpret_cast<const char*>(pf + b * sbb + 64 * l), _MM_HINT_T0);
        }
        __m512i W[8];
        const __m512 dw = F::prep(w0 + b * sbb, t, W);
        __m512 part[C];
        const int64_t e0 = b * 32;
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) {
            if (j == 0)
                fma_element<0, C>(byte_value<0>(W[j]), xs, e0, part);
            else
                fma_element<1, C>(byte_value<0>(W[j]), xs, e0 + 4 * j, part);
            fma_element<1, C>(byte_value<1>(W[j]), xs, e0 + 4 * j + 1, part);
            fma_element<1, C>(byte_value<2>(W[j]), xs, e0 + 4 * j + 2, part);
            fma_element<1, C>(byte_value<3>(W[j]), xs, e0 + 4 * j + 3, part);
        }
#pragma GCC unroll 8
        for (int c = 0; c < C; ++c) acc[c] = _mm512_fmadd_ps(dw, part[c], acc[c]);
    }
    const bool add_bias = last && bias != nullptr;
    const __m512 bv = add_bias ? _mm512_maskz_loadu_ps(t.mask, bias) : _mm512_setzero_ps();
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c)
        _mm512_mask_storeu_ps(y0 + c * a.y_stride, t.mask, add_bias ? _mm512_add_ps(acc[c], bv) : acc[c]);
}

template <class F>
void run(const Q32Args& a, int64_t o0, int64_t o1) {
    const int64_t sbb = a.sb * F::kBytes, sob = a.so * F::kBytes;
    for (int64_t i0 = 0; i0 < a.n;) {
        const int64_t left = a.n - i0;
        const int C = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
        // As in the fast kernels: INPUT_BLOCK_MAJOR with few activation rows
        // goes kColumns blocks at a time over every tile (address order).
        const bool by_columns = a.sb != 1 && C <= 4;
        const int64_t step = by_columns ? kColumns : a.bpr;
        for (int64_t k0 = 0; k0 < a.bpr; k0 += step) {
            const int64_t nb = a.bpr - k0 < step ? a.bpr - k0 : step;
            const bool first = k0 == 0, last = k0 + nb == a.bpr;
            const float* x0 = a.xf + i0 * a.xf_stride;
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
                const uint8_t* w0 = a.w + o * sob + k0 * sbb;
                float* y0 = a.y + i0 * a.y_stride + o;
                const float* bias = a.bias != nullptr ? a.bias + o : nullptr;
                const uint8_t* pf = by_columns ? w0 + step * sbb : nullptr;
                const float* xk = x0 + k0 * 32;
                switch (C) {
                    case 8: tile<F, 8>(a, w0, sbb, t, nb, xk, y0, first, last, bias, pf); break;
                    case 4: tile<F, 4>(a, w0, sbb, t, nb, xk, y0, first, last, bias, pf); break;
                    case 2: tile<F, 2>(a, w0, sbb, t, nb, xk, y0, first, last, bias, pf); break;
                    default: tile<F, 1>(a, w0, sbb, t, nb, xk, y0, first, last, bias, pf); break;
                }
            }
        }
        i0 += C;
    }
}

}  // namespace

void q32_q4_0_f32_avx512(const Q32Args& a, int64_t o0, int64_t o1) { run<Q4_0F>(a, o0, o1); }
void q32_q8_0_f32_avx512(const Q32Args& a, int64_t o0, int64_t o1) { run<Q8_0F>(a, o0, o1); }
void q32_iq4_nl_f32_avx512(const Q32Args& a, int64_t o0, int64_t o1) { run<Iq4NlF>(a, o0, o1); }
void q32_mxfp4_f32_avx512(const Q32Args& a, int64_t o0, int64_t o1) { run<Mxfp4F>(a, o0, o1); }

}  // namespace skn::kernels::x86
