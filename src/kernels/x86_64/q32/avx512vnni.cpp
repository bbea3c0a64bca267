// SPDX-License-Identifier: MIT
// AVX512-VNNI fast-precision kernels for the 32-element block formats: the
// body is q32/body512.inc, where vpdpbusd does the integer dot.
#include "kernels/x86_64/q32/body512.inc"
