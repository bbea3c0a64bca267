// SPDX-License-Identifier: MIT
// Registers the NEON kernels of the 32-element legacy formats (q32/<tier>.cpp)
// under both block orders. Built without ISA flags: it only fills the plain
// PackedArgs from MatmulArgs and adds Kernel entries; the kernel bodies run
// only when the registry has checked the CPU.
#include "dispatch/registry.hpp"
#include "kernels/aarch64/q32/kernels.hpp"

namespace skn_core {

namespace {

using kernels::aarch64::Q32Fn;

template <Q32Fn F>
void entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    F(kernels::aarch64::packed_args(a), out_begin, out_end);
}

// Both orders. No `supports` restriction (has_fresh_block_strides): the
// kernels address blocks through 64-bit byte strides of either sign, so
// narrowed and selected views of the two classes are readable too.
void add_both_orders(Registry& r, FormatId f, FormatId act, skn_isa isa, MatmulKernelFn fn) {
    for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
        r.add(Kernel{.key = KernelKey{Op::MatmulWt, f, c, act, isa},
                     .fn = fn,
                     .needs = kNeedsQuantized,
                     .rows_per_task = 128});
}

}  // namespace

void register_aarch64_q32_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    const FormatId q8 = FormatId::Q8_0, q81 = FormatId::Q8_1;
    add_both_orders(r, FormatId::Q4_0, q8, SKN_ISA_NEON_DOTPROD, entry<ka::q32_q4_0_q8_0_neondotprod>);
    add_both_orders(r, FormatId::Q8_0, q8, SKN_ISA_NEON_DOTPROD, entry<ka::q32_q8_0_q8_0_neondotprod>);
    add_both_orders(r, FormatId::IQ4_NL, q8, SKN_ISA_NEON_DOTPROD, entry<ka::q32_iq4_nl_q8_0_neondotprod>);
    add_both_orders(r, FormatId::Q5_0, q8, SKN_ISA_NEON_DOTPROD, entry<ka::q32_q5_0_q8_0_neondotprod>);
    add_both_orders(r, FormatId::Q4_1, q81, SKN_ISA_NEON_DOTPROD, entry<ka::q32_q4_1_q8_1_neondotprod>);
    add_both_orders(r, FormatId::Q5_1, q81, SKN_ISA_NEON_DOTPROD, entry<ka::q32_q5_1_q8_1_neondotprod>);
    add_both_orders(r, FormatId::Q4_0, q8, SKN_ISA_NEON, entry<ka::q32_q4_0_q8_0_neon>);
    add_both_orders(r, FormatId::Q8_0, q8, SKN_ISA_NEON, entry<ka::q32_q8_0_q8_0_neon>);
    add_both_orders(r, FormatId::IQ4_NL, q8, SKN_ISA_NEON, entry<ka::q32_iq4_nl_q8_0_neon>);
    add_both_orders(r, FormatId::Q5_0, q8, SKN_ISA_NEON, entry<ka::q32_q5_0_q8_0_neon>);
    add_both_orders(r, FormatId::Q4_1, q81, SKN_ISA_NEON, entry<ka::q32_q4_1_q8_1_neon>);
    add_both_orders(r, FormatId::Q5_1, q81, SKN_ISA_NEON, entry<ka::q32_q5_1_q8_1_neon>);
}

}  // namespace skn_core
