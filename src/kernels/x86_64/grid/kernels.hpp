// SPDX-License-Identifier: MIT
// Grid-format SIMD kernels (IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S,
// IQ1_M) against Q8_K activations. One body (grid/body.inc) is compiled
// once per tier (grid/<isa>.cpp); the registration code (grid/register.cpp,
// built without ISA flags) hands the kernels plain byte strides.
//
// Every kernel computes each y[i, o] the same way (docs/kernels/grid.md):
// per super-block an exact integer sum, then a fixed sequence of float32
// operations in block order, so results are bit-identical across the two
// block orders, the ISA tiers and any split of the output rows.
#pragma once

#include <cstdint>

#include "kernels/common/packed_args.hpp"
#include "kernels/x86_64/common/grid_tables.hpp"

namespace skn_core::kernels::x86_64 {

// The decode tables (lattice points as bytes, the IQ3 grids) are the
// formats' own, named for ISA code in common/grid_tables.hpp, as the exact
// family reads them.

#define SKN_GRID_KERNELS(tier)                                                     \
    void grid_iq2_xxs_##tier(const PackedArgs& a, int64_t ob, int64_t oe);         \
    void grid_iq2_xs_##tier(const PackedArgs& a, int64_t ob, int64_t oe);          \
    void grid_iq2_s_##tier(const PackedArgs& a, int64_t ob, int64_t oe);           \
    void grid_iq3_xxs_##tier(const PackedArgs& a, int64_t ob, int64_t oe);         \
    void grid_iq3_s_##tier(const PackedArgs& a, int64_t ob, int64_t oe);           \
    void grid_iq1_s_##tier(const PackedArgs& a, int64_t ob, int64_t oe);           \
    void grid_iq1_m_##tier(const PackedArgs& a, int64_t ob, int64_t oe);            \
    /* The row-interleaved twins (grid/r4_blocks.inc, built per tier as     \
       grid/<tier>_r4.cpp): bit-identical to the canonical format's kernel  \
       of the same tier; ob and oe are multiples of 4 (whole block rows). */ \
    void grid_iq2_xxs_r4_##tier(const PackedArgs& a, int64_t ob, int64_t oe);      \
    void grid_iq2_xs_r4_##tier(const PackedArgs& a, int64_t ob, int64_t oe);       \
    void grid_iq2_s_r4_##tier(const PackedArgs& a, int64_t ob, int64_t oe);        \
    void grid_iq3_xxs_r4_##tier(const PackedArgs& a, int64_t ob, int64_t oe);      \
    void grid_iq3_s_r4_##tier(const PackedArgs& a, int64_t ob, int64_t oe);
SKN_GRID_KERNELS(avx2)
SKN_GRID_KERNELS(avx512)
SKN_GRID_KERNELS(avx512vnni)
#undef SKN_GRID_KERNELS

}  // namespace skn_core::kernels::x86_64
