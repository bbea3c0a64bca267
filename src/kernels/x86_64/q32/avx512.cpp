// SPDX-License-Identifier: MIT
// AVX-512 (F/BW/VL/DQ, no VNNI) fast-precision kernels for the 32-element
// block formats: the body is q32/body512.inc, where vpmaddubsw + vpmaddwd do
// the integer dot (the .inc explains why no pair sum saturates). Gives
// bit-identical y to the AVX512-VNNI kernels.
#include "kernels/x86_64/q32/body512.inc"
