// SPDX-License-Identifier: MIT
// NEON matmul_wt kernels for the grid formats (IQ2_XXS, IQ2_XS, IQ2_S,
// IQ3_XXS, IQ3_S, IQ1_S, IQ1_M) against Q8_K activations in fast precision.
// The kernels live in translation units built with their tier's flags
// (grid/neon.cpp, grid/neondotprod.cpp, one body: grid/body.inc) and see
// only the plain struct of kernels/common/packed_args.hpp and the formats' decode
// tables as named by common/grid_tables.hpp; grid/register.cpp (built
// without ISA flags) fills PackedArgs from MatmulArgs.
//
// Accumulation order: the one x86's grid kernels follow
// (docs/kernels/grid.md), so both block orders, every split of the output
// rows, both NEON tiers and the x86 tiers give bit-identical y. For each
// (i, o), acc = 0; for each super-block b in order, with S the exact integer
// sum over the block's elements of m * w * q (m = 2 ls + 1 per 16 elements,
// w the signed integer weight, q the Q8_K code), dd = d * 2^-k (the format's
// power of two) and dx the Q8_K block's d:
//   acc = fma(float(S), dd * dx, acc)
// Finally y = acc (+ bias[o]). See docs/kernels/neon.md.
#pragma once

#include <cstdint>

#include "kernels/common/packed_args.hpp"
#include "kernels/aarch64/common/grid_tables.hpp"

namespace skn_core::kernels::aarch64 {

// One function per format and tier; the same function serves both block
// orders (it reads blocks through the byte strides). Tiers: neondotprod
// (Armv8.2 dotprod: SDOT) and neon (Armv8.0: SMULL + SADALP).
#define SKN_GRID_DECLARE(tier)                                                  \
    void grid_iq2_xxs_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void grid_iq2_xs_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);  \
    void grid_iq2_s_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);   \
    void grid_iq3_xxs_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void grid_iq3_s_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);   \
    void grid_iq1_s_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);   \
    void grid_iq1_m_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);
SKN_GRID_DECLARE(neondotprod)
SKN_GRID_DECLARE(neon)
#undef SKN_GRID_DECLARE

// The row-interleaved twins (grid/r4_body.inc, units grid/<tier>_r4.cpp):
// one block row (4 output rows) per tile, the same accumulation order, so
// each gives its canonical format's bits at the same tier.
#define SKN_GRID_R4_DECLARE(tier)                                                  \
    void grid_iq2_xxs_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void grid_iq3_xxs_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void grid_iq2_xs_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);  \
    void grid_iq2_s_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);   \
    void grid_iq3_s_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);
SKN_GRID_R4_DECLARE(neondotprod)
SKN_GRID_R4_DECLARE(neon)
#undef SKN_GRID_R4_DECLARE

}  // namespace skn_core::kernels::aarch64
