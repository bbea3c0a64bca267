// SPDX-License-Identifier: MIT
// Registers the ternary / low-bit SIMD kernels (TQ2_0, TQ1_0, I2_S in both
// layouts, Q2_0, Q1_0) for both block orders (kernels/common/registration.hpp).
// Built without ISA flags: it only turns MatmulArgs into the plain PackedArgs
// the ISA translation units read.
//
// The kernels address block (o, b) through the layout's strides, so one
// function reads ROW_MAJOR and INPUT_BLOCK_MAJOR alike (and any offset):
// the rm and ibm kernels of a tier are the same code and give bit-identical
// results.
#include "kernels/common/registration.hpp"
#include "kernels/x86_64/low_bit/kernels.hpp"

namespace skn_core {

void register_low_bit_kernels(Registry& r) {
    namespace k = kernels::x86_64;
    using kernels::packed_entry;
    const auto add = [&r](FormatId f, FormatId act, skn_isa isa, MatmulKernelFn fn) {
        // rows_per_task 32: a multiple of every row tile (4 and 2).
        Kernel kn = kernels::blocked_kernel(f, act, isa, fn, 32);
        kernels::take_few_row_tasks(kn, SKN_ISA_AVX512);
        kernels::add_both_orders(r, kn);
    };
    const FormatId q8k = FormatId::Q8_K, q8 = FormatId::Q8_0;
    add(FormatId::TQ2_0, q8k, SKN_ISA_AVX2, packed_entry<k::tq2_0_q8_k_avx2>);
    add(FormatId::TQ2_0, q8k, SKN_ISA_AVX512, packed_entry<k::tq2_0_q8_k_avx512>);
    add(FormatId::TQ2_0, q8k, SKN_ISA_AVX512_VNNI, packed_entry<k::tq2_0_q8_k_avx512vnni>);
    add(FormatId::TQ1_0, q8k, SKN_ISA_AVX2, packed_entry<k::tq1_0_q8_k_avx2>);
    add(FormatId::TQ1_0, q8k, SKN_ISA_AVX512, packed_entry<k::tq1_0_q8_k_avx512>);
    add(FormatId::TQ1_0, q8k, SKN_ISA_AVX512_VNNI, packed_entry<k::tq1_0_q8_k_avx512vnni>);
    add(FormatId::I2_S, q8, SKN_ISA_AVX2, packed_entry<k::i2_s_q8_0_avx2>);
    add(FormatId::I2_S, q8, SKN_ISA_AVX512, packed_entry<k::i2_s_q8_0_avx512>);
    add(FormatId::I2_S, q8, SKN_ISA_AVX512_VNNI, packed_entry<k::i2_s_q8_0_avx512vnni>);
    add(FormatId::I2_S_G64, q8, SKN_ISA_AVX2, packed_entry<k::i2_s_g64_q8_0_avx2>);
    add(FormatId::I2_S_G64, q8, SKN_ISA_AVX512, packed_entry<k::i2_s_g64_q8_0_avx512>);
    add(FormatId::I2_S_G64, q8, SKN_ISA_AVX512_VNNI, packed_entry<k::i2_s_g64_q8_0_avx512vnni>);
    add(FormatId::Q2_0, q8, SKN_ISA_AVX2, packed_entry<k::q2_0_q8_0_avx2>);
    add(FormatId::Q2_0, q8, SKN_ISA_AVX512, packed_entry<k::q2_0_q8_0_avx512>);
    add(FormatId::Q2_0, q8, SKN_ISA_AVX512_VNNI, packed_entry<k::q2_0_q8_0_avx512vnni>);
    add(FormatId::Q1_0, q8, SKN_ISA_AVX2, packed_entry<k::q1_0_q8_0_avx2>);
    add(FormatId::Q1_0, q8, SKN_ISA_AVX512, packed_entry<k::q1_0_q8_0_avx512>);
    add(FormatId::Q1_0, q8, SKN_ISA_AVX512_VNNI, packed_entry<k::q1_0_q8_0_avx512vnni>);
}

}  // namespace skn_core
