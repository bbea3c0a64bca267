// SPDX-License-Identifier: MIT
// The avx512vnni kernels for the row-interleaved grid twins IQ2_XXS_R4 ... IQ3_S_R4:
// grid/body.inc with the twins' Block<> views (grid/r4_blocks.inc). A
// translation unit of its own, so the canonical kernels' units keep the
// inlining they were measured with.
#define SKN_GRID_TWINS 1
#include "kernels/x86_64/grid/body.inc"
