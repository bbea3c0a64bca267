// SPDX-License-Identifier: MIT
// Grid-format x Q8_K kernels at the avx512 tier: the shared body, compiled with
// this file's flags (bit-identical on every tier, see grid/body.inc).
#include "kernels/x86_64/grid/body.inc"
