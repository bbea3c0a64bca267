// SPDX-License-Identifier: MIT
// Registers the NEON K-quant kernels (superblock/<tier>.cpp) under both block
// orders (kernels/common/registration.hpp). Built without ISA flags; the kernel
// bodies run only when the registry has checked the CPU.
#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/registration.hpp"

namespace skn_core {

void register_aarch64_superblock_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using kernels::packed_entry;
    // rows_per_task 128: a multiple of every row tile.
    const auto add = [&r](FormatId f, skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(f, FormatId::Q8_K, isa, fn, 128));
    };
    add(FormatId::Q4_K, SKN_ISA_NEON_I8MM, packed_entry<ka::kq_q4_k_q8_k_neoni8mm>);
    add(FormatId::Q5_K, SKN_ISA_NEON_I8MM, packed_entry<ka::kq_q5_k_q8_k_neoni8mm>);
    add(FormatId::Q6_K, SKN_ISA_NEON_I8MM, packed_entry<ka::kq_q6_k_q8_k_neoni8mm>);
    add(FormatId::Q4_K, SKN_ISA_NEON_DOTPROD, packed_entry<ka::kq_q4_k_q8_k_neondotprod>);
    add(FormatId::Q6_K, SKN_ISA_NEON_DOTPROD, packed_entry<ka::kq_q6_k_q8_k_neondotprod>);
    add(FormatId::Q5_K, SKN_ISA_NEON_DOTPROD, packed_entry<ka::kq_q5_k_q8_k_neondotprod>);
    add(FormatId::Q2_K, SKN_ISA_NEON_DOTPROD, packed_entry<ka::kq_q2_k_q8_k_neondotprod>);
    add(FormatId::Q3_K, SKN_ISA_NEON_DOTPROD, packed_entry<ka::kq_q3_k_q8_k_neondotprod>);
    add(FormatId::IQ4_XS, SKN_ISA_NEON_DOTPROD, packed_entry<ka::kq_iq4_xs_q8_k_neondotprod>);
    add(FormatId::Q4_K, SKN_ISA_NEON, packed_entry<ka::kq_q4_k_q8_k_neon>);
    add(FormatId::Q6_K, SKN_ISA_NEON, packed_entry<ka::kq_q6_k_q8_k_neon>);
    add(FormatId::Q5_K, SKN_ISA_NEON, packed_entry<ka::kq_q5_k_q8_k_neon>);
    add(FormatId::Q2_K, SKN_ISA_NEON, packed_entry<ka::kq_q2_k_q8_k_neon>);
    add(FormatId::Q3_K, SKN_ISA_NEON, packed_entry<ka::kq_q3_k_q8_k_neon>);
    add(FormatId::IQ4_XS, SKN_ISA_NEON, packed_entry<ka::kq_iq4_xs_q8_k_neon>);
    // IQ4_XS_R8 (superblock/xs_r8_body.inc): IQ4_XS's tiers and task size (a
    // multiple of its 8-row block row).
    add(FormatId::IQ4_XS_R8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::kq_iq4_xs_r8_q8_k_neondotprod>);
    add(FormatId::IQ4_XS_R8, SKN_ISA_NEON, packed_entry<ka::kq_iq4_xs_r8_q8_k_neon>);
    // The row-interleaved twins (superblock/r4_body.inc; neoni8mm_r4.cpp):
    // the canonical formats' task size, a multiple of the 4-row block row.
    // Q2_K_R4 and Q3_K_R4 run the neondotprod body at neoni8mm too (their
    // canonical formats have no SMMLA kernel; the by-element SDOT already
    // feeds four rows).
    struct R4Twin {
        FormatId f;
        MatmulKernelFn i8mm, dotprod, neon;
    };
    const R4Twin r4_twins[] = {
        {FormatId::Q4_K_R4, packed_entry<ka::kq_q4_k_r4_q8_k_neoni8mm>, packed_entry<ka::kq_q4_k_r4_q8_k_neondotprod>,
         packed_entry<ka::kq_q4_k_r4_q8_k_neon>},
        {FormatId::Q5_K_R4, packed_entry<ka::kq_q5_k_r4_q8_k_neoni8mm>, packed_entry<ka::kq_q5_k_r4_q8_k_neondotprod>,
         packed_entry<ka::kq_q5_k_r4_q8_k_neon>},
        {FormatId::Q6_K_R4, packed_entry<ka::kq_q6_k_r4_q8_k_neoni8mm>, packed_entry<ka::kq_q6_k_r4_q8_k_neondotprod>,
         packed_entry<ka::kq_q6_k_r4_q8_k_neon>},
        {FormatId::Q2_K_R4, packed_entry<ka::kq_q2_k_r4_q8_k_neondotprod>, packed_entry<ka::kq_q2_k_r4_q8_k_neondotprod>,
         packed_entry<ka::kq_q2_k_r4_q8_k_neon>},
        {FormatId::Q3_K_R4, packed_entry<ka::kq_q3_k_r4_q8_k_neondotprod>, packed_entry<ka::kq_q3_k_r4_q8_k_neondotprod>,
         packed_entry<ka::kq_q3_k_r4_q8_k_neon>},
    };
    for (const R4Twin& t : r4_twins) {
        add(t.f, SKN_ISA_NEON_I8MM, t.i8mm);
        add(t.f, SKN_ISA_NEON_DOTPROD, t.dotprod);
        add(t.f, SKN_ISA_NEON, t.neon);
    }
}

}  // namespace skn_core
