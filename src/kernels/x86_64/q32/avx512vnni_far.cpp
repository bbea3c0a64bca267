// SPDX-License-Identifier: MIT
// The AVX512-VNNI kernels of q32/avx512vnni.cpp with the few-row
// INPUT_BLOCK_MAJOR walk prefetching into L2 eight tiles ahead (StreamMode::Far,
// runtime/stream_tuning.hpp): the same body and the same bits, for the cores
// that stream better so (Zen 4). MXFP4 has none.
#define SKN_Q32_FAR_PREFETCH 1
#include "kernels/x86_64/q32/body512.inc"
