// SPDX-License-Identifier: MIT
// Dense (CONTIGUOUS F32 / F16 / BF16 weight) matmul_wt kernels for aarch64.
// The tier sources (dense/neon.cpp, dense/neoni8mm.cpp; one body,
// dense/body.inc) see only this header and the plain PackedArgs
// (kernels/common/packed_args.hpp) filled by dense/register.cpp (built
// without ISA flags) from MatmulArgs: a dense weight is a grid of
// one-element blocks, so `so` is its row stride in bytes and `in` its row
// length. F32 activations are the float rows (xf), F16 and BF16 ones the
// fast-precision rows (xq).
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

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

// <weight>_<activation>_<tier>. Armv8.0: FMLA after exact widening (F16:
// FCVTL / FCVTL2; BF16: a 16-bit left shift).
void dense_bf16_bf16_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void dense_f16_f16_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void dense_bf16_f32_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void dense_f16_f32_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void dense_f32_f32_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// BFDOT (FEAT_BF16; registered at neoni8mm when the CPU has it): its own
// order and rounding, see dense/neoni8mm.cpp.
void dense_bf16_bf16_neonbf16(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// BF16_R16, the row-interleaved twin (dense/r16_body.inc): the same pairs and
// tiers, each bit-identical to its BF16 kernel above; a blocked weight (both
// orders through so / sb), out_begin and out_end multiples of 16.
void dense_bf16_r16_bf16_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void dense_bf16_r16_f32_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void dense_bf16_r16_bf16_neonbf16(const PackedArgs& a, int64_t out_begin, int64_t out_end);

}  // namespace skn_core::kernels::aarch64
