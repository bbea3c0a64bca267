// SPDX-License-Identifier: MIT
// The avx512vnni kernels for the row-interleaved Q4_K_R4 and Q6_K_R4 weights: the
// body is superblock/r4_body.inc. A translation unit of its own, so the
// canonical kernels' units keep the inlining they were measured with.
#include "kernels/x86_64/superblock/r4_body.inc"
