// SPDX-License-Identifier: MIT
// K-quant x Q8_K kernels at the AVX512-VNNI tier (vpdpbusd, vpdpwssd): the
// shared 512-bit body, compiled with this file's flags.
#include "kernels/x86_64/superblock/body512.inc"
