// SPDX-License-Identifier: MIT
// Registers the grid-format SIMD kernels (grid/<isa>.cpp) under both block
// orders (kernels/common/registration.hpp). Built without ISA flags: it reads
// the weight's layout here and hands the kernels plain byte strides
// (PackedArgs), so the ISA translation units touch no shared inline code.
#include "kernels/common/registration.hpp"
#include "kernels/x86_64/grid/kernels.hpp"

namespace skn_core {

void register_grid_kernels(Registry& r) {
    using namespace kernels::x86_64;
    using kernels::packed_entry;
    const auto add = [&r](FormatId f, skn_isa isa, MatmulKernelFn fn) {
        // rows_per_task 64: a multiple of the 4-row step and of the 64-row
        // INPUT_BLOCK_MAJOR run (grid/body.inc, kIbmRun).
        Kernel k = kernels::blocked_kernel(f, FormatId::Q8_K, isa, fn, 64);
        k.supports = has_fresh_block_strides;
        kernels::add_both_orders(r, k);
    };
#define SKN_GRID_TIER(isa, tier)                                        \
    add(FormatId::IQ2_XXS, isa, packed_entry<grid_iq2_xxs_##tier>);     \
    add(FormatId::IQ2_XS, isa, packed_entry<grid_iq2_xs_##tier>);       \
    add(FormatId::IQ2_S, isa, packed_entry<grid_iq2_s_##tier>);         \
    add(FormatId::IQ3_XXS, isa, packed_entry<grid_iq3_xxs_##tier>);     \
    add(FormatId::IQ3_S, isa, packed_entry<grid_iq3_s_##tier>);         \
    add(FormatId::IQ1_S, isa, packed_entry<grid_iq1_s_##tier>);         \
    add(FormatId::IQ1_M, isa, packed_entry<grid_iq1_m_##tier>);         \
    /* The row-interleaved twins (grid/r4_blocks.inc): the same task size, \
       a multiple of the 4-row block row, so every task starts and ends on \
       one. */                                                              \
    add(FormatId::IQ2_XXS_R4, isa, packed_entry<grid_iq2_xxs_r4_##tier>); \
    add(FormatId::IQ2_XS_R4, isa, packed_entry<grid_iq2_xs_r4_##tier>);   \
    add(FormatId::IQ2_S_R4, isa, packed_entry<grid_iq2_s_r4_##tier>);     \
    add(FormatId::IQ3_XXS_R4, isa, packed_entry<grid_iq3_xxs_r4_##tier>); \
    add(FormatId::IQ3_S_R4, isa, packed_entry<grid_iq3_s_r4_##tier>);
    SKN_GRID_TIER(SKN_ISA_AVX2, avx2)
    SKN_GRID_TIER(SKN_ISA_AVX512, avx512)
    SKN_GRID_TIER(SKN_ISA_AVX512_VNNI, avx512vnni)
#undef SKN_GRID_TIER
}

}  // namespace skn_core
