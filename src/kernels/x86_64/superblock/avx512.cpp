// SPDX-License-Identifier: MIT
// K-quant x Q8_K kernels at the AVX-512 (F/BW/VL/DQ, no VNNI) tier
// (vpmaddubsw + vpmaddwd): the shared 512-bit body, compiled with this
// file's flags. Bit-identical to the VNNI tier (see superblock/body512.inc).
#include "kernels/x86_64/superblock/body512.inc"
