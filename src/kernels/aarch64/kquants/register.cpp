// SPDX-License-Identifier: MIT
// Registers the NEON K-quant kernels (kquants/<tier>.cpp) under both block
// orders. Built without ISA flags: it only fills the plain PackedArgs from
// MatmulArgs and adds Kernel entries; the kernel bodies run only when the
// registry has checked the CPU.
#include "dispatch/registry.hpp"
#include "kernels/aarch64/kquants/kernels.hpp"

namespace skn_core {
namespace {

using kernels::aarch64::KqFn;

template <KqFn F>
void entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    F(kernels::aarch64::packed_args(a), out_begin, out_end);
}

// Both orders. No `supports` restriction: the kernels address blocks through
// 64-bit byte strides of either sign, so narrowed and selected views of the
// two classes are readable too. rows_per_task: a multiple of the 4-row tile.
void add_both_orders(Registry& r, FormatId f, skn_isa isa, MatmulKernelFn fn) {
    for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
        r.add(Kernel{.key = KernelKey{Op::MatmulWt, f, c, FormatId::Q8_K, isa},
                     .fn = fn,
                     .needs = kNeedsQuantized,
                     .rows_per_task = 128});
}

}  // namespace

void register_aarch64_kquants_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    add_both_orders(r, FormatId::Q4_K, SKN_ISA_NEON_DOTPROD, entry<ka::kq_q4_k_q8_k_neondotprod>);
    add_both_orders(r, FormatId::Q6_K, SKN_ISA_NEON_DOTPROD, entry<ka::kq_q6_k_q8_k_neondotprod>);
    add_both_orders(r, FormatId::Q5_K, SKN_ISA_NEON_DOTPROD, entry<ka::kq_q5_k_q8_k_neondotprod>);
    add_both_orders(r, FormatId::Q2_K, SKN_ISA_NEON_DOTPROD, entry<ka::kq_q2_k_q8_k_neondotprod>);
    add_both_orders(r, FormatId::Q3_K, SKN_ISA_NEON_DOTPROD, entry<ka::kq_q3_k_q8_k_neondotprod>);
    add_both_orders(r, FormatId::IQ4_XS, SKN_ISA_NEON_DOTPROD, entry<ka::kq_iq4_xs_q8_k_neondotprod>);
    add_both_orders(r, FormatId::Q4_K, SKN_ISA_NEON, entry<ka::kq_q4_k_q8_k_neon>);
    add_both_orders(r, FormatId::Q6_K, SKN_ISA_NEON, entry<ka::kq_q6_k_q8_k_neon>);
    add_both_orders(r, FormatId::Q5_K, SKN_ISA_NEON, entry<ka::kq_q5_k_q8_k_neon>);
    add_both_orders(r, FormatId::Q2_K, SKN_ISA_NEON, entry<ka::kq_q2_k_q8_k_neon>);
    add_both_orders(r, FormatId::Q3_K, SKN_ISA_NEON, entry<ka::kq_q3_k_q8_k_neon>);
    add_both_orders(r, FormatId::IQ4_XS, SKN_ISA_NEON, entry<ka::kq_iq4_xs_q8_k_neon>);
}

}  // namespace skn_core
