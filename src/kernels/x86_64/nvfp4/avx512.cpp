// SPDX-License-Identifier: MIT
// NVFP4 x Q8_0 matmul_wt, AVX-512 tier without VNNI (vpmaddubsw + vpmaddwd).
// Kernel functions only; the body is nvfp4/body512.inc, shared with the
// AVX512-VNNI tier, whose results this tier reproduces bit for bit.
#include "kernels/x86_64/nvfp4/body512.inc"
