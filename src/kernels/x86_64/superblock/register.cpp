// SPDX-License-Identifier: MIT
// Registers the K-quant SIMD kernels (superblock/<isa>.cpp). Built without ISA
// flags: it reads the weight's layout here and hands the kernels plain byte
// strides (KqArgs), so the ISA translation units touch no shared inline code.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/superblock/kernels.hpp"

namespace skn_core {
namespace {

using kernels::x86_64::KqFn;

template <KqFn F>
void kq_entry(const MatmulArgs& m, int64_t out_begin, int64_t out_end) {
    F(kernels::x86_64::packed_args(m), out_begin, out_end);
}

void add(Registry& r, FormatId f, LayoutClass c, skn_isa isa, MatmulKernelFn fn) {
    // A multiple of the 16-row GEMM tile and the 4-row GEMV step, and the
    // GEMV's INPUT_BLOCK_MAJOR run (superblock/body512.inc, kIbmRows).
    r.add(Kernel{.key = KernelKey{Op::MatmulWt, f, c, FormatId::Q8_K, isa},
                 .fn = fn,
                 .needs = kNeedsQuantized,
                 .rows_per_task = 256,
                 .supports = has_fresh_block_strides});
}

}  // namespace

void register_superblock_kernels(Registry& r) {
    using namespace kernels::x86_64;
    for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
        add(r, FormatId::Q2_K, c, SKN_ISA_AVX2, kq_entry<kq_q2_k_avx2>);
        add(r, FormatId::Q3_K, c, SKN_ISA_AVX2, kq_entry<kq_q3_k_avx2>);
        add(r, FormatId::Q4_K, c, SKN_ISA_AVX2, kq_entry<kq_q4_k_avx2>);
        add(r, FormatId::Q5_K, c, SKN_ISA_AVX2, kq_entry<kq_q5_k_avx2>);
        add(r, FormatId::Q6_K, c, SKN_ISA_AVX2, kq_entry<kq_q6_k_avx2>);
        add(r, FormatId::IQ4_XS, c, SKN_ISA_AVX2, kq_entry<kq_iq4_xs_avx2>);
        add(r, FormatId::Q2_K, c, SKN_ISA_AVX512, kq_entry<kq_q2_k_avx512>);
        add(r, FormatId::Q3_K, c, SKN_ISA_AVX512, kq_entry<kq_q3_k_avx512>);
        add(r, FormatId::Q4_K, c, SKN_ISA_AVX512, kq_entry<kq_q4_k_avx512>);
        add(r, FormatId::Q5_K, c, SKN_ISA_AVX512, kq_entry<kq_q5_k_avx512>);
        add(r, FormatId::Q6_K, c, SKN_ISA_AVX512, kq_entry<kq_q6_k_avx512>);
        add(r, FormatId::IQ4_XS, c, SKN_ISA_AVX512, kq_entry<kq_iq4_xs_avx512>);
        add(r, FormatId::Q2_K, c, SKN_ISA_AVX512_VNNI, kq_entry<kq_q2_k_avx512vnni>);
        add(r, FormatId::Q3_K, c, SKN_ISA_AVX512_VNNI, kq_entry<kq_q3_k_avx512vnni>);
        add(r, FormatId::Q4_K, c, SKN_ISA_AVX512_VNNI, kq_entry<kq_q4_k_avx512vnni>);
        add(r, FormatId::Q5_K, c, SKN_ISA_AVX512_VNNI, kq_entry<kq_q5_k_avx512vnni>);
        add(r, FormatId::Q6_K, c, SKN_ISA_AVX512_VNNI, kq_entry<kq_q6_k_avx512vnni>);
        add(r, FormatId::IQ4_XS, c, SKN_ISA_AVX512_VNNI, kq_entry<kq_iq4_xs_avx512vnni>);
    }
}

}  // namespace skn_core
