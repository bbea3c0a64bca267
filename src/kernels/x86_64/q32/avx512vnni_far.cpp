// SPDX-License-Identifier: MIT
// The AVX512-VNNI kernels of q32/avx512vnni.cpp with the few-row
// INPUT_BLOCK_MAJOR walk prefetching into L2 eight tiles ahead: registered as
// the "far" variant (q32/register.cpp), which the tuning table picks on the
// cores that stream better so (Zen 4); the same body and the same bits.
// MXFP4 has none.
#define SKN_Q32_FAR_PREFETCH 1
#include "kernels/x86_64/q32/body512.inc"
