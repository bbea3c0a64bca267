// SPDX-License-Identifier: MIT
// Registers the NEON ternary kernels (low_bit/<tier>.cpp) under both block
// orders (kernels/common/registration.hpp). Built without ISA flags; the kernel
// bodies run only when the registry has checked the CPU.
#include "kernels/aarch64/low_bit/kernels.hpp"
#include "kernels/common/registration.hpp"

namespace skn_core {

void register_aarch64_low_bit_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using kernels::packed_entry;
    // rows_per_task 128: a multiple of every row tile.
    const auto add = [&r](FormatId f, FormatId act, skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(f, act, isa, fn, 128));
    };
    const FormatId q8k = FormatId::Q8_K, q8 = FormatId::Q8_0;
    add(FormatId::TQ2_0, q8k, SKN_ISA_NEON_DOTPROD, packed_entry<ka::tern_tq2_0_q8_k_neondotprod>);
    add(FormatId::TQ1_0, q8k, SKN_ISA_NEON_DOTPROD, packed_entry<ka::tern_tq1_0_q8_k_neondotprod>);
    add(FormatId::I2_S, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::tern_i2_s_q8_0_neondotprod>);
    add(FormatId::TQ2_0, q8k, SKN_ISA_NEON, packed_entry<ka::tern_tq2_0_q8_k_neon>);
    add(FormatId::TQ1_0, q8k, SKN_ISA_NEON, packed_entry<ka::tern_tq1_0_q8_k_neon>);
    add(FormatId::I2_S, q8, SKN_ISA_NEON, packed_entry<ka::tern_i2_s_q8_0_neon>);
    add(FormatId::Q1_0, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::tern_q1_0_q8_0_neondotprod>);
    add(FormatId::Q2_0, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::tern_q2_0_q8_0_neondotprod>);
    add(FormatId::Q1_0, q8, SKN_ISA_NEON, packed_entry<ka::tern_q1_0_q8_0_neon>);
    add(FormatId::Q2_0, q8, SKN_ISA_NEON, packed_entry<ka::tern_q2_0_q8_0_neon>);
    // I2_S_G64: the arm64 I2_S layout.
    add(FormatId::I2_S_G64, q8, SKN_ISA_NEON_DOTPROD, packed_entry<ka::tern_i2_s_g64_q8_0_neondotprod>);
    add(FormatId::I2_S_G64, q8, SKN_ISA_NEON, packed_entry<ka::tern_i2_s_g64_q8_0_neon>);
}

}  // namespace skn_core
