// SPDX-License-Identifier: MIT
// BF16_R16 matmul_wt kernels, AVX2 tier (dense/r16_body.inc): BF16 x BF16
// with dense/avx2.cpp's fma steps, BF16 x F32 likewise. Kernel functions only.
#include "kernels/x86_64/dense/r16_body.inc"

namespace skn_core::kernels::x86_64 {

void bf16_r16_bf16_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run_r16<Bf16Bf16Fma, INT64_MAX>(a, ob, oe); }
void bf16_r16_f32_avx2(const PackedArgs& a, int64_t ob, int64_t oe) { run_r16<Bf16F32Step, INT64_MAX>(a, ob, oe); }

}  // namespace skn_core::kernels::x86_64
