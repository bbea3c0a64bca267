// SPDX-License-Identifier: MIT
// Registers the NEON ternary kernels (low_bit/<tier>.cpp) under both block
// orders (common/registration.hpp). Built without ISA flags; the kernel
// bodies run only when the registry has checked the CPU.
#include "kernels/aarch64/common/registration.hpp"
#include "kernels/aarch64/low_bit/kernels.hpp"

namespace skn_core {

void register_aarch64_low_bit_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using ka::packed_entry;
    ka::add_blocked_both_orders(r, FormatId::TQ2_0, FormatId::Q8_K, SKN_ISA_NEON_DOTPROD,
                                packed_entry<ka::tern_tq2_0_q8_k_neondotprod>);
    ka::add_blocked_both_orders(r, FormatId::TQ1_0, FormatId::Q8_K, SKN_ISA_NEON_DOTPROD,
                                packed_entry<ka::tern_tq1_0_q8_k_neondotprod>);
    ka::add_blocked_both_orders(r, FormatId::I2_S, FormatId::Q8_0, SKN_ISA_NEON_DOTPROD,
                                packed_entry<ka::tern_i2_s_q8_0_neondotprod>);
    ka::add_blocked_both_orders(r, FormatId::TQ2_0, FormatId::Q8_K, SKN_ISA_NEON,
                                packed_entry<ka::tern_tq2_0_q8_k_neon>);
    ka::add_blocked_both_orders(r, FormatId::TQ1_0, FormatId::Q8_K, SKN_ISA_NEON,
                                packed_entry<ka::tern_tq1_0_q8_k_neon>);
    ka::add_blocked_both_orders(r, FormatId::I2_S, FormatId::Q8_0, SKN_ISA_NEON,
                                packed_entry<ka::tern_i2_s_q8_0_neon>);
    ka::add_blocked_both_orders(r, FormatId::Q1_0, FormatId::Q8_0, SKN_ISA_NEON_DOTPROD,
                                packed_entry<ka::tern_q1_0_q8_0_neondotprod>);
    ka::add_blocked_both_orders(r, FormatId::Q2_0, FormatId::Q8_0, SKN_ISA_NEON_DOTPROD,
                                packed_entry<ka::tern_q2_0_q8_0_neondotprod>);
    ka::add_blocked_both_orders(r, FormatId::Q1_0, FormatId::Q8_0, SKN_ISA_NEON,
                                packed_entry<ka::tern_q1_0_q8_0_neon>);
    ka::add_blocked_both_orders(r, FormatId::Q2_0, FormatId::Q8_0, SKN_ISA_NEON,
                                packed_entry<ka::tern_q2_0_q8_0_neon>);
    // I2_S_G64: the arm64 I2_S layout.
    ka::add_blocked_both_orders(r, FormatId::I2_S_G64, FormatId::Q8_0, SKN_ISA_NEON_DOTPROD,
                                packed_entry<ka::tern_i2_s_g64_q8_0_neondotprod>);
    ka::add_blocked_both_orders(r, FormatId::I2_S_G64, FormatId::Q8_0, SKN_ISA_NEON,
                                packed_entry<ka::tern_i2_s_g64_q8_0_neon>);
}

}  // namespace skn_core
