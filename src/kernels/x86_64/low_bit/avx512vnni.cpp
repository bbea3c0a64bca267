// SPDX-License-Identifier: MIT
// Ternary / low-bit matmul_wt kernels, AVX512-VNNI tier (vpdpbusd). Kernel
// functions only; the body is low_bit/body512.inc, shared with the AVX-512
// tier.
#include "kernels/x86_64/low_bit/body512.inc"
