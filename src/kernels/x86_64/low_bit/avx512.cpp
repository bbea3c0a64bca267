// SPDX-License-Identifier: MIT
// Ternary / low-bit matmul_wt kernels, AVX-512 tier without VNNI
// (vpmaddubsw + vpmaddwd). Kernel functions only; the body is
// low_bit/body512.inc, shared with the AVX512-VNNI tier, whose results this
// tier reproduces bit for bit.
#include "kernels/x86_64/low_bit/body512.inc"
