// SPDX-License-Identifier: MIT
// NEON matmul_wt kernels for NVFP4 weights against Q8_0 activations (fast
// precision; exact precision runs the reference kernel). The kernels live in
// translation units built with their tier's flags (nvfp4/neon.cpp,
// nvfp4/neondotprod.cpp, one body: nvfp4/body.inc) and see only the plain
// struct of kernels/common/packed_args.hpp; nvfp4/register.cpp (built without ISA
// flags) fills it from MatmulArgs.
//
// An NVFP4 block is 64 elements in 36 bytes: { u8 scale[4] (UE4M3); u8
// qs[32] }, sub-block s (16 elements) uses scale[s] and qs[8s .. 8s+7], low
// nibbles elements 0-7, high nibbles 8-15. It meets Q8_0 activation blocks 2b
// and 2b+1. Accumulation order: the one of x86's avx2 NVFP4 kernel
// (x86_64/nvfp4/kernels.hpp, docs/kernels/nvfp4.md), so both block orders,
// every split of the output rows, both NEON tiers and x86's avx2 tier give
// bit-identical y. Per (i, o), eight float lanes acc[0..7] = 0; for each
// block b in order, integer lane k (0..7) is the exact dot of the doubled
// E2M1 values (-12..12) with the activation codes over the elements
// 16 * (k / 2) + 4 * (k % 2) + {0..3, 8..11} (sub-block k / 2), and
// acc[k] = fma(float(lane k), s_w[o,b,k/2] * d_x[i,2b + k/4], acc[k]), where
// s_w is half the UE4M3 scale (the grid is doubled). Finally
// y = ((acc0 + acc4) + (acc2 + acc6)) + ((acc1 + acc5) + (acc3 + acc7))
// (+ bias[o]). See docs/kernels/neon.md.
#pragma once

#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

// One function per tier; the same function serves both block orders (it
// reads blocks through the byte strides).
void nvfp4_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);  // Armv8.2 dotprod: SDOT
void nvfp4_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);         // Armv8.0: SMULL + SMLAL

}  // namespace skn_core::kernels::aarch64
