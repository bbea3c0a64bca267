// SPDX-License-Identifier: MIT
// Dense (CONTIGUOUS F32 / F16 / BF16 weight) matmul_wt kernels for aarch64.
// The tier sources (dense/neon.cpp, dense/neoni8mm.cpp; one body,
// dense/body.inc) see only this header: a plain struct filled by
// dense/register.cpp (built without ISA flags) from MatmulArgs.
//
// Accumulation order of the neon kernels (docs/kernels/dense.md, "arm64"),
// the same for every split of the output rows and so for any thread count:
// for each (weight row o, activation row i), two 4-lane float accumulators
// a = b = 0. The row is walked in chunks of 8 elements in index order;
// elements 0..3 of a chunk go into a and 4..7 into b, one fma per lane
// (weights and activations widened to float exactly first). When `in` is not a multiple of 8, the last chunk's
// weights and activations are zero-padded. Then s = a + b lane-wise,
// v = (s0 + s1) + (s2 + s3), y = v (+ bias[o]).
#pragma once

#include <cstddef>
#include <cstdint>

namespace skn_core::kernels::aarch64 {

struct DenseArgs {
    const uint8_t* w = nullptr;  // element (0, 0) of the weight
    int64_t row_stride = 0;      // bytes between weight rows
    int64_t in = 0, n = 0;       // row length, activation rows
    const uint8_t* x = nullptr;  // activations: F32 (xf) or the fast activation format (xq: F16 / BF16)
    size_t x_stride = 0;         // bytes between activation rows
    const float* bias = nullptr;
    float* y = nullptr;
    int64_t y_stride = 0;
};

// <weight>_<activation>_<tier>. Armv8.0: FMLA after exact widening (F16:
// FCVTL / FCVTL2; BF16: a 16-bit left shift).
void dense_bf16_bf16_neon(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void dense_f16_f16_neon(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void dense_bf16_f32_neon(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void dense_f16_f32_neon(const DenseArgs& a, int64_t out_begin, int64_t out_end);
void dense_f32_f32_neon(const DenseArgs& a, int64_t out_begin, int64_t out_end);

// BFDOT (FEAT_BF16; registered at neoni8mm when the CPU has it): its own
// order and rounding, see dense/neoni8mm.cpp.
void dense_bf16_bf16_neonbf16(const DenseArgs& a, int64_t out_begin, int64_t out_end);

}  // namespace skn_core::kernels::aarch64
