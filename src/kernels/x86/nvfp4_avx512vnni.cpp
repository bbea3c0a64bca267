// SPDX-License-Identifier: MIT
// NVFP4 x Q8_0 matmul_wt, AVX512-VNNI tier (vpdpbusd). Kernel functions
// only; the body is nvfp4_fast512.inc, shared with the AVX-512 tier.
#include "kernels/x86/nvfp4_fast512.inc"
