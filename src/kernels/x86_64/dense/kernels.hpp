// SPDX-License-Identifier: MIT
// Dense (CONTIGUOUS F32 / F16 / BF16 weight) matmul_wt kernels for x86. The
// ISA translation units (dense/avx2.cpp, dense/avx512.cpp, dense/avx512vnni.cpp)
// see only this header and the plain PackedArgs (kernels/common/packed_args.hpp)
// filled by dense/register.cpp (built without ISA flags) from MatmulArgs: a
// dense weight is a grid of one-element blocks, so `so` is its row stride in
// bytes and `in` its row length. F32 activations are the float rows (xf),
// F16 and BF16 ones the fast-precision rows (xq).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::x86_64 {

// <weight>_<activation>_<isa>
void bf16_bf16_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void bf16_bf16_avx512bf16(const PackedArgs& a, int64_t out_begin, int64_t out_end);  // needs AVX512_BF16
void f16_f16_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void f16_f16_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void bf16_f32_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void bf16_f32_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void f16_f32_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void f16_f32_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void f32_f32_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void f32_f32_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// BF16_R16 (dense/r16_body.inc): a grid of 16-row x 2-input blocks read
// through `so` / `sb` (either block order), bit-identical to the BF16
// kernel of the same tier above.
void bf16_r16_bf16_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void bf16_r16_bf16_avx512bf16(const PackedArgs& a, int64_t out_begin, int64_t out_end);  // needs AVX512_BF16
void bf16_r16_f32_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void bf16_r16_f32_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// The F32 libxsmm path (dense/xsmm.cpp, built without ISA flags): from
// kXsmmMinRows activation rows on, y comes from libxsmm GEMMs over packed
// blocks of weight rows; below that, or when libxsmm cannot serve the call,
// `fallback` (our kernel of the same tier) computes it.
constexpr int64_t kXsmmMinRows = 128;  // measured crossover, docs/kernels/dense.md
void dense_xsmm_f32(PackedKernelFn fallback, const PackedArgs& a, int64_t out_begin, int64_t out_end);

// The packer of that path, AVX-512 tier: `rows` rows of `cols` 32-bit units,
// row r at src + r * src_stride, written column-major: dst[c * rows + r].
void transpose32_avx512(const uint8_t* src, int64_t src_stride, int64_t rows, int64_t cols, uint32_t* dst);

}  // namespace skn_core::kernels::x86_64
