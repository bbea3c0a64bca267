// SPDX-License-Identifier: MIT
// Dense matmul_wt kernels, AVX-512 tier: F32, F16 and BF16 weights against
// F32 activations, F16 against F16, and the packer of the F32 libxsmm path.
// They need AVX512F/BW/VL/DQ and nothing more, so they are registered at the
// avx512 tier (and serve avx512vnni CPUs too). Kernel functions only; the
// kernel body is dense/body512.inc.
#include "kernels/x86_64/dense/body512.inc"

namespace skn_core::kernels::x86_64 {

void f16_f16_avx512(const PackedArgs& a, int64_t ob, int64_t oe) { run<F16F16>(a, ob, oe); }
void bf16_f32_avx512(const PackedArgs& a, int64_t ob, int64_t oe) { run<Bf16F32>(a, ob, oe); }
void f16_f32_avx512(const PackedArgs& a, int64_t ob, int64_t oe) { run<F16F32>(a, ob, oe); }
void f32_f32_avx512(const PackedArgs& a, int64_t ob, int64_t oe) { run<F32F32>(a, ob, oe); }

// 16 x 16 blocks through registers; lanes past `cols` load as zero, rows past
// `rows` are not stored.
void transpose32_avx512(const uint8_t* src, int64_t src_stride, int64_t rows, int64_t cols, uint32_t* dst) {
    for (int64_t r0 = 0; r0 < rows; r0 += 16) {
        const int64_t nr = rows - r0 < 16 ? rows - r0 : 16;
        const __mmask16 rmask = __mmask16((1u << nr) - 1);
        for (int64_t c0 = 0; c0 < cols; c0 += 16) {
            const int64_t nc = cols - c0 < 16 ? cols - c0 : 16;
            const __mmask16 cmask = __mmask16((1u << nc) - 1);
            __m512i v[16];
            for (int i = 0; i < 16; ++i)
                v[i] = i < nr ? _mm512_maskz_loadu_epi32(cmask, src + (r0 + i) * src_stride + c0 * 4) : _mm512_setzero_si512();
            // rows 4g..4g+3, columns 4l+q in 128-bit lane l of u[g][q]
            __m512i u[4][4];
            for (int g = 0; g < 4; ++g) {
                const __m512i lo01 = _mm512_unpacklo_epi32(v[4 * g], v[4 * g + 1]);
                const __m512i hi01 = _mm512_unpackhi_epi32(v[4 * g], v[4 * g + 1]);
                const __m512i lo23 = _mm512_unpacklo_epi32(v[4 * g + 2], v[4 * g + 3]);
                const __m512i hi23 = _mm512_unpackhi_epi32(v[4 * g + 2], v[4 * g + 3]);
                u[g][0] = _mm512_unpacklo_epi64(lo01, lo23);
                u[g][1] = _mm512_unpackhi_epi64(lo01, lo23);
                u[g][2] = _mm512_unpacklo_epi64(hi01, hi23);
                u[g][3] = _mm512_unpackhi_epi64(hi01, hi23);
            }
            for (int q = 0; q < 4; ++q) {
                const __m512i s0 = _mm512_shuffle_i32x4(u[0][q], u[1][q], 0x88);
                const __m512i s1 = _mm512_shuffle_i32x4(u[0][q], u[1][q], 0xDD);
                const __m512i s2 = _mm512_shuffle_i32x4(u[2][q], u[3][q], 0x88);
                const __m512i s3 = _mm512_shuffle_i32x4(u[2][q], u[3][q], 0xDD);
                const __m512i col[4] = {_mm512_shuffle_i32x4(s0, s2, 0x88), _mm512_shuffle_i32x4(s1, s3, 0x88),
                                        _mm512_shuffle_i32x4(s0, s2, 0xDD), _mm512_shuffle_i32x4(s1, s3, 0xDD)};
                for (int l = 0; l < 4; ++l) {
                    const int64_t c = 4 * l + q;
                    if (c < nc) _mm512_mask_storeu_epi32(dst + (c0 + c) * rows + r0, rmask, col[l]);
                }
            }
        }
    }
}

}  // namespace skn_core::kernels::x86_64
