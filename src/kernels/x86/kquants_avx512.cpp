// Q4_K x F32 (exact precision) matmul_wt kernel, AVX-512F/BW.
// Kernel functions only (see kquants_kernels.hpp); no std templates here.
//
// Per output row and tile of up to 8 activation rows: each super-block is
// decoded to 256 floats in 16 zmm registers ((d*sc_j)*q - dmin*m_j) and
// multiplied into one 16-lane float accumulator per (i, o) with FMAs in
// element order; after the last block the accumulator's lanes are summed in
// a fixed tree, then the bias is added. The same code reads both block
// orders, so rm and ibm results are bit-identical.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/x86/kquants_kernels.hpp"

namespace skn::kernels::x86 {
namespace {

inline float load_f16(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}

inline void q4k_scales_mins(const uint8_t* s12, uint8_t* sc, uint8_t* m) {
    uint32_t u0, u1, u2;
    std::memcpy(&u0, s12, 4);
    std::memcpy(&u1, s12 + 4, 4);
    std::memcpy(&u2, s12 + 8, 4);
    const uint32_t v[4] = {u0 & 0x3f3f3f3fu, (u2 & 0x0f0f0f0fu) | (((u0 >> 6) & 0x03030303u) << 4), u1 & 0x3f3f3f3fu,
                           ((u2 >> 4) & 0x0f0f0f0fu) | (((u1 >> 6) & 0x03030303u) << 4)};
    std::memcpy(sc, v, 8);
    std::memcpy(m, v + 2, 8);
}

// Decode one Q4_K block into 16 vectors of 16 floats (elements 16v .. 16v+15).
inline void q4k_decode(const uint8_t* blk, __m512* w) {
    uint8_t sc[8], m[8];
    q4k_scales_mins(blk + 4, sc, m);
    const float d = load_f16(blk), dmin = load_f16(blk + 2);
    for (int c = 0; c < 4; ++c) {
        const __m256i v = _mm256_loadu_si256((const __m256i*)(blk + 16 + 32 * c));
        const __m256i m0f = _mm256_set1_epi8(0x0f);
        const __m256i half[2] = {_mm256_and_si256(v, m0f), _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f)};
        for (int h = 0; h < 2; ++h) {
            const int j = 2 * c + h;  // sub-block: elements 32j .. 32j+31
            const __m512 ds = _mm512_set1_ps(d * float(sc[j])), dm = _mm512_set1_ps(dmin * float(m[j]));
            const __m512 q0 = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm256_castsi256_si128(half[h])));
            const __m512 q1 = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm256_extracti128_si256(half[h], 1)));
            w[4 * c + 2 * h] = _mm512_fmsub_ps(ds, q0, dm);
            w[4 * c + 2 * h + 1] = _mm512_fmsub_ps(ds, q1, dm);
        }
    }
}

template <int R>
void rows(const KqArgs& a, int64_t o, int64_t i0) {
    __m512 acc[R];
    for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps();
    const uint8_t* wrow = a.w + o * a.so;
    for (int64_t b = 0; b < a.bpr; ++b) {
        __m512 w[16];
        q4k_decode(wrow + b * a.sb, w);
        for (int r = 0; r < R; ++r) {
            const float* x = a.xf + (i0 + r) * a.xf_stride + b * 256;
            for (int v = 0; v < 16; ++v) acc[r] = _mm512_fmadd_ps(w[v], _mm512_loadu_ps(x + 16 * v), acc[r]);
        }
    }
    for (int r = 0; r < R; ++r) {
        const float s = _mm512_reduce_add_ps(acc[r]);
        a.y[(i0 + r) * a.y_stride + o] = a.bias != nullptr ? s + a.bias[o] : s;
    }
}

}  // namespace

void kq_q4_k_f32_avx512(const KqArgs& a, int64_t out_begin, int64_t out_end) {
    // Activation tiles outermost: a tile's rows stay in cache while the
    // task's output rows (weights) stream past them.
    for (int64_t i = 0; i < a.n; i += 8) {
        const int64_t left = a.n - i;
        for (int64_t o = out_begin; o < out_end; ++o) {
            switch (left >= 8 ? 8 : left) {
                case 8: rows<8>(a, o, i); break;
                case 7: rows<7>(a, o, i); break;
                case 6: rows<6>(a, o, i); break;
                case 5: rows<5>(a, o, i); break;
                case 4: rows<4>(a, o, i); break;
                case 3: rows<3>(a, o, i); break;
                case 2: rows<2>(a, o, i); break;
                default: rows<1>(a, o, i); break;
            }
        }
    }
}

}  // namespace skn::kernels::x86
