// SPDX-License-Identifier: MIT
// BF16_R16 matmul_wt kernel for BF16 activations with vdpbf16ps
// (dense/r16_body.inc). Built with the avx512vnni flags (which include
// -mavx512bf16); registration checks the CPU for AVX512_BF16. Kernel
// functions only.
#include "kernels/x86_64/dense/r16_body.inc"

namespace skn_core::kernels::x86_64 {

// From 2 activation rows on, the chain-first walk (one weight load feeds
// every activation row of a tile); one row runs rows-first (the weights
// stream once, in order).
void bf16_r16_bf16_avx512bf16(const PackedArgs& a, int64_t ob, int64_t oe) { run_r16<Bf16Bf16Dp, 2>(a, ob, oe); }

}  // namespace skn_core::kernels::x86_64
