// SPDX-License-Identifier: MIT
// Registers the NEON kernels of the 32-element block formats (q32/<tier>.cpp)
// under both block orders (kernels/common/registration.hpp). Built without ISA
// flags; the kernel bodies run only when the registry has checked the CPU.
#include "kernels/aarch64/q32/kernels.hpp"
#include "kernels/common/registration.hpp"

namespace skn_core {

void register_aarch64_q32_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using kernels::packed_entry;
    // rows_per_task 128: a multiple of every row tile.
    const auto add = [&r](FormatId f, FormatId act, skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(f, act, isa, fn, 128));
    };
    const FormatId q8 = FormatId::Q8_0, q81 = FormatId::Q8_1;
    add(FormatId::Q4_0, q8, SKN_ISA_NEON_I8MM, packed_entry<ka::q32_q4_0_q8_0_neoni8mm>);
    add(FormatId::Q8_0, q8, SKN_ISA_NEON_I8MM, packed_entry<ka::q32_q8_0_q8_0_neoni8mm>);
    add(FormatId::IQ4_NL, q8, SKN_ISA_NEON_I8MM, packed_entry<ka::q32_iq4_nl_q8_0_neoni8mm>);
    add(FormatId::MXFP4, q8, SKN_ISA_NEON_I8MM, packed_entry<ka::q32_mxfp4_q8_0_neoni8mm>);
    add(FormatId::Q5_0, q8, SKN_ISA_NEON_I8MM, packed_entry<ka::q32_q5_0_q8_0_neoni8mm>);
    add(FormatId::Q4_1, q81, SKN_ISA_NEON_I8MM, packed_entry<ka::q32_q4_1_q8_1_neoni8mm>);
    add(FormatId::Q5_1, q81, SKN_ISA_NEON_I8MM, packed_entry<ka::q32_q5_1_q8_1_neoni8mm>);
    add(FormatId::Q4_0, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::q32_q4_0_q8_0_neondotprod>);
    add(FormatId::Q8_0, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::q32_q8_0_q8_0_neondotprod>);
    add(FormatId::IQ4_NL, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::q32_iq4_nl_q8_0_neondotprod>);
    add(FormatId::MXFP4, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::q32_mxfp4_q8_0_neondotprod>);
    add(FormatId::Q5_0, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::q32_q5_0_q8_0_neondotprod>);
    add(FormatId::Q4_1, q81, SKN_ISA_NEON_DOTPROD, packed_entry<ka::q32_q4_1_q8_1_neondotprod>);
    add(FormatId::Q5_1, q81, SKN_ISA_NEON_DOTPROD, packed_entry<ka::q32_q5_1_q8_1_neondotprod>);
    add(FormatId::Q4_0, q8, SKN_ISA_NEON, packed_entry<ka::q32_q4_0_q8_0_neon>);
    add(FormatId::Q8_0, q8, SKN_ISA_NEON, packed_entry<ka::q32_q8_0_q8_0_neon>);
    add(FormatId::IQ4_NL, q8, SKN_ISA_NEON, packed_entry<ka::q32_iq4_nl_q8_0_neon>);
    add(FormatId::MXFP4, q8, SKN_ISA_NEON, packed_entry<ka::q32_mxfp4_q8_0_neon>);
    add(FormatId::Q5_0, q8, SKN_ISA_NEON, packed_entry<ka::q32_q5_0_q8_0_neon>);
    add(FormatId::Q4_1, q81, SKN_ISA_NEON, packed_entry<ka::q32_q4_1_q8_1_neon>);
    add(FormatId::Q5_1, q81, SKN_ISA_NEON, packed_entry<ka::q32_q5_1_q8_1_neon>);
    // The row-interleaved twins (q32/r8_body.inc): the canonical formats'
    // task size, a multiple of the 8- or 4-row block row, so every task
    // starts and ends on one. neoni8mm runs the neondotprod body (its
    // by-element SDOT already keeps four rows per instruction; the canonical
    // SMMLA pairs would need the chunks zipped).
    struct Twin {
        FormatId f;
        MatmulKernelFn dotprod, neon;
    };
    const Twin twins[] = {
        {FormatId::Q4_0_R8, packed_entry<ka::q32_q4_0_r8_q8_0_neondotprod>, packed_entry<ka::q32_q4_0_r8_q8_0_neon>},
        {FormatId::Q8_0_R8, packed_entry<ka::q32_q8_0_r8_q8_0_neondotprod>, packed_entry<ka::q32_q8_0_r8_q8_0_neon>},
        {FormatId::MXFP4_R8, packed_entry<ka::q32_mxfp4_r8_q8_0_neondotprod>, packed_entry<ka::q32_mxfp4_r8_q8_0_neon>},
        {FormatId::IQ4_NL_R4, packed_entry<ka::q32_iq4_nl_r4_q8_0_neondotprod>,
         packed_entry<ka::q32_iq4_nl_r4_q8_0_neon>},
        {FormatId::Q5_0_R4, packed_entry<ka::q32_q5_0_r4_q8_0_neondotprod>, packed_entry<ka::q32_q5_0_r4_q8_0_neon>},
    };
    for (const Twin& t : twins) {
        add(t.f, q8, SKN_ISA_NEON_I8MM, t.dotprod);
        add(t.f, q8, SKN_ISA_NEON_DOTPROD, t.dotprod);
        add(t.f, q8, SKN_ISA_NEON, t.neon);
    }
}

}  // namespace skn_core
