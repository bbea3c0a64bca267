// SPDX-License-Identifier: MIT
// Dense (CONTIGUOUS F32 / F16 / BF16 weight) matmul_wt kernels for x86. The
// ISA translation units (dense/avx2.cpp, dense/avx512.cpp, dense/avx512vnni.cpp)
// see only this header: a plain struct filled by dense/register.cpp (built without ISA
// flags) from MatmulArgs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace skn_core::kernels::x86_64 {

struct DenseArgs {
    const uint8_t* w = nullptr;  // element (0, 0) of the weight
    int64_t row_stride = 0;      // bytes between weight rows
    int64_t out = 0, in = 0, n = 0;  // out: rows of the whole weight (the call may cover fewer)
    const uint8_t* x = nullptr;  // activations: F32 (xf) or the fast activation format (xq: F16 / BF16)
    size_t x_stride = 0;         // bytes between activation rows
    const float* bias = nullptr;
    float* y = nullptr;
    int64_t y_stride = 0;
};

using DenseKernelFn = void (*)(const DenseArgs& a, int64_t out_begin, int64_t out_end);

// <weight>_<activation>_<isa>
void bf16_bf16_avx2(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void bf16_bf16_avx512bf16(const DenseArgs& a, int64_t out_begin, int64_t out_end);  // needs AVX512_BF16
void f16_f16_avx2(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void f16_f16_avx512(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void bf16_f32_avx2(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void bf16_f32_avx512(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void f16_f32_avx2(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void f16_f32_avx512(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void f32_f32_avx2(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void f32_f32_avx512(const DenseArgs& a, int64_t out_begin, int64_t out_end);

// The F32 libxsmm path (dense/xsmm.cpp, built without ISA flags): from
// kXsmmMinRows activation rows on, y comes from libxsmm GEMMs over packed
// blocks of weight rows; below that, or when libxsmm cannot serve the call,
// `fallback` (our kernel of the same tier) computes it.
constexpr int64_t kXsmmMinRows = 128;  // measured crossover, docs/kernels/dense.md
void dense_xsmm_f32(DenseKernelFn fallback, const DenseArgs& a, int64_t out_begin, int64_t out_end);

// The packer of that path, AVX-512 tier: `rows` rows of `cols` 32-bit units,
// row r at src + r * src_stride, written column-major: dst[c * rows + r].
void transpose32_avx512(const uint8_t* src, int64_t src_stride, int64_t rows, int64_t cols, uint32_t* dst);

}  // namespace skn_core::kernels::x86_64
