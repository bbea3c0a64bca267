// SPDX-License-Identifier: MIT
// The avx512 kernels for the row-interleaved Q4_0_R8, Q8_0_R8, MXFP4_R8, IQ4_NL_R4 and Q5_0_R4 weights: the
// body is q32/r8_body.inc. A translation unit of their own, so the canonical
// kernels' units keep the inlining they were measured with.
#include "kernels/x86_64/q32/r8_body.inc"
