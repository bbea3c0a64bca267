// SPDX-License-Identifier: MIT
// NVFP4 x Q8_0 matmul_wt, AVX512-VNNI tier (vpdpbusd). Kernel functions
// only; the body is nvfp4/body512.inc, shared with the AVX-512 tier.
#include "kernels/x86_64/nvfp4/body512.inc"
