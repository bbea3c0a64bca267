// SPDX-License-Identifier: MIT
// Registers the NEON grid-format kernels (grid/<tier>.cpp) under both block
// orders (kernels/common/registration.hpp). Built without ISA flags; the kernel
// bodies run only when the registry has checked the CPU.
#include "kernels/aarch64/grid/kernels.hpp"
#include "kernels/common/registration.hpp"

namespace skn_core {

void register_aarch64_grid_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using kernels::packed_entry;
    // rows_per_task 128: a multiple of every row tile.
    const auto add = [&r](FormatId f, skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(f, FormatId::Q8_K, isa, fn, 128));
    };
    add(FormatId::IQ2_XXS, SKN_ISA_NEON_DOTPROD, packed_entry<ka::grid_iq2_xxs_q8_k_neondotprod>);
    add(FormatId::IQ3_XXS, SKN_ISA_NEON_DOTPROD, packed_entry<ka::grid_iq3_xxs_q8_k_neondotprod>);
    add(FormatId::IQ2_XS, SKN_ISA_NEON_DOTPROD, packed_entry<ka::grid_iq2_xs_q8_k_neondotprod>);
    add(FormatId::IQ2_S, SKN_ISA_NEON_DOTPROD, packed_entry<ka::grid_iq2_s_q8_k_neondotprod>);
    add(FormatId::IQ3_S, SKN_ISA_NEON_DOTPROD, packed_entry<ka::grid_iq3_s_q8_k_neondotprod>);
    add(FormatId::IQ1_S, SKN_ISA_NEON_DOTPROD, packed_entry<ka::grid_iq1_s_q8_k_neondotprod>);
    add(FormatId::IQ1_M, SKN_ISA_NEON_DOTPROD, packed_entry<ka::grid_iq1_m_q8_k_neondotprod>);
    add(FormatId::IQ2_XXS, SKN_ISA_NEON, packed_entry<ka::grid_iq2_xxs_q8_k_neon>);
    add(FormatId::IQ3_XXS, SKN_ISA_NEON, packed_entry<ka::grid_iq3_xxs_q8_k_neon>);
    add(FormatId::IQ2_XS, SKN_ISA_NEON, packed_entry<ka::grid_iq2_xs_q8_k_neon>);
    add(FormatId::IQ2_S, SKN_ISA_NEON, packed_entry<ka::grid_iq2_s_q8_k_neon>);
    add(FormatId::IQ3_S, SKN_ISA_NEON, packed_entry<ka::grid_iq3_s_q8_k_neon>);
    add(FormatId::IQ1_S, SKN_ISA_NEON, packed_entry<ka::grid_iq1_s_q8_k_neon>);
    add(FormatId::IQ1_M, SKN_ISA_NEON, packed_entry<ka::grid_iq1_m_q8_k_neon>);
    // The row-interleaved twins (grid/r4_body.inc): the canonical formats'
    // tiers and task size (a multiple of the 4-row block row).
    struct R4Twin {
        FormatId f;
        MatmulKernelFn dotprod, neon;
    };
    const R4Twin r4_twins[] = {
        {FormatId::IQ2_XXS_R4, packed_entry<ka::grid_iq2_xxs_r4_q8_k_neondotprod>,
         packed_entry<ka::grid_iq2_xxs_r4_q8_k_neon>},
        {FormatId::IQ3_XXS_R4, packed_entry<ka::grid_iq3_xxs_r4_q8_k_neondotprod>,
         packed_entry<ka::grid_iq3_xxs_r4_q8_k_neon>},
        {FormatId::IQ2_XS_R4, packed_entry<ka::grid_iq2_xs_r4_q8_k_neondotprod>, packed_entry<ka::grid_iq2_xs_r4_q8_k_neon>},
        {FormatId::IQ2_S_R4, packed_entry<ka::grid_iq2_s_r4_q8_k_neondotprod>, packed_entry<ka::grid_iq2_s_r4_q8_k_neon>},
        {FormatId::IQ3_S_R4, packed_entry<ka::grid_iq3_s_r4_q8_k_neondotprod>, packed_entry<ka::grid_iq3_s_r4_q8_k_neon>},
    };
    for (const R4Twin& t : r4_twins) {
        add(t.f, SKN_ISA_NEON_DOTPROD, t.dotprod);
        add(t.f, SKN_ISA_NEON, t.neon);
    }
}

}  // namespace skn_core
