// SPDX-License-Identifier: MIT
// Registers the ternary / low-bit SIMD kernels (TQ2_0, TQ1_0, I2_S in both
// layouts, Q2_0, Q1_0) for both block orders. Built without ISA flags: it only turns
// MatmulArgs into the plain TernaryArgs the ISA translation units read.
//
// The kernels address block (o, b) through the layout's strides, so one
// function reads ROW_MAJOR and INPUT_BLOCK_MAJOR alike (and any offset):
// the rm and ibm kernels of a tier are the same code and give bit-identical
// results.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/common/registration.hpp"
#include "kernels/x86_64/low_bit/kernels.hpp"

namespace skn_core {
namespace {

using kernels::x86_64::TernaryKernelFn;

template <TernaryKernelFn F>
void entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    F(kernels::x86_64::packed_args(a), out_begin, out_end);
}

struct Entry {
    FormatId weight, activation;
    skn_isa isa;
    MatmulKernelFn fn;
};

}  // namespace

void register_low_bit_kernels(Registry& r) {
    namespace k = kernels::x86_64;
    const Entry entries[] = {
        {FormatId::TQ2_0, FormatId::Q8_K, SKN_ISA_AVX2, entry<k::tq2_0_q8_k_avx2>},
        {FormatId::TQ2_0, FormatId::Q8_K, SKN_ISA_AVX512, entry<k::tq2_0_q8_k_avx512>},
        {FormatId::TQ2_0, FormatId::Q8_K, SKN_ISA_AVX512_VNNI, entry<k::tq2_0_q8_k_avx512vnni>},
        {FormatId::TQ1_0, FormatId::Q8_K, SKN_ISA_AVX2, entry<k::tq1_0_q8_k_avx2>},
        {FormatId::TQ1_0, FormatId::Q8_K, SKN_ISA_AVX512, entry<k::tq1_0_q8_k_avx512>},
        {FormatId::TQ1_0, FormatId::Q8_K, SKN_ISA_AVX512_VNNI, entry<k::tq1_0_q8_k_avx512vnni>},
        {FormatId::I2_S, FormatId::Q8_0, SKN_ISA_AVX2, entry<k::i2_s_q8_0_avx2>},
        {FormatId::I2_S, FormatId::Q8_0, SKN_ISA_AVX512, entry<k::i2_s_q8_0_avx512>},
        {FormatId::I2_S, FormatId::Q8_0, SKN_ISA_AVX512_VNNI, entry<k::i2_s_q8_0_avx512vnni>},
        {FormatId::I2_S_G64, FormatId::Q8_0, SKN_ISA_AVX2, entry<k::i2_s_g64_q8_0_avx2>},
        {FormatId::I2_S_G64, FormatId::Q8_0, SKN_ISA_AVX512, entry<k::i2_s_g64_q8_0_avx512>},
        {FormatId::I2_S_G64, FormatId::Q8_0, SKN_ISA_AVX512_VNNI, entry<k::i2_s_g64_q8_0_avx512vnni>},
        {FormatId::Q2_0, FormatId::Q8_0, SKN_ISA_AVX2, entry<k::q2_0_q8_0_avx2>},
        {FormatId::Q2_0, FormatId::Q8_0, SKN_ISA_AVX512, entry<k::q2_0_q8_0_avx512>},
        {FormatId::Q2_0, FormatId::Q8_0, SKN_ISA_AVX512_VNNI, entry<k::q2_0_q8_0_avx512vnni>},
        {FormatId::Q1_0, FormatId::Q8_0, SKN_ISA_AVX2, entry<k::q1_0_q8_0_avx2>},
        {FormatId::Q1_0, FormatId::Q8_0, SKN_ISA_AVX512, entry<k::q1_0_q8_0_avx512>},
        {FormatId::Q1_0, FormatId::Q8_0, SKN_ISA_AVX512_VNNI, entry<k::q1_0_q8_0_avx512vnni>},
    };
    for (const Entry& e : entries)
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
            Kernel k;
            k.key = KernelKey{Op::MatmulWt, e.weight, c, e.activation, e.isa};
            k.fn = e.fn;
            k.needs = kNeedsQuantized;
            k.rows_per_task = 32;  // a multiple of every row tile (4 and 2)
            kernels::x86_64::take_few_row_tasks(k);
            r.add(std::move(k));
        }
}

}  // namespace skn_core
