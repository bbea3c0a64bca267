// SPDX-License-Identifier: MIT
// AVX512-VNNI fast-precision kernels for the 32-element block formats: the
// body is q32_fast512.inc, where vpdpbusd does the integer dot.
#include "kernels/x86/q32_fast512.inc"
