// SPDX-License-Identifier: MIT
// The avx512 kernel for the row-interleaved IQ4_XS_R8 weight: the body is
// superblock/xs_r8_body.inc. A translation unit of its own, so the canonical
// kernels' units keep the inlining they were measured with.
#include "kernels/x86_64/superblock/xs_r8_body.inc"
