// SPDX-License-Identifier: MIT
// BF16_R16 matmul_wt kernel, AVX-512 tier (dense/r16_body.inc): BF16 x F32
// with dense/body512.inc's fma steps. Kernel functions only.
#include "kernels/x86_64/dense/r16_body.inc"

namespace skn_core::kernels::x86_64 {

void bf16_r16_f32_avx512(const PackedArgs& a, int64_t ob, int64_t oe) { run_r16<Bf16F32Step, INT64_MAX>(a, ob, oe); }

}  // namespace skn_core::kernels::x86_64
