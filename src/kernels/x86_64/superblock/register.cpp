// SPDX-License-Identifier: MIT
// Registers the K-quant SIMD kernels (superblock/<isa>.cpp) under both block
// orders (kernels/common/registration.hpp). Built without ISA flags: it reads
// the weight's layout here and hands the kernels plain byte strides
// (PackedArgs), so the ISA translation units touch no shared inline code.
#include "kernels/common/registration.hpp"
#include "kernels/x86_64/superblock/kernels.hpp"

namespace skn_core {

namespace {

// The row-interleaved twins (Q2_K_R4 ... Q6_K_R4; superblock/r4_body.inc) at
// every tier in both orders: the canonical kernels' task size (a multiple of
// the 4-row block row and of the 16-row tile, so every task starts and ends
// on a block row), any strides (64-bit offsets).
void add_interleaved_r4(Registry& r) {
    using namespace kernels::x86_64;
    using kernels::packed_entry;
    const auto add = [&r](FormatId f, skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(f, FormatId::Q8_K, isa, fn, 256));
    };
    add(FormatId::Q4_K_R4, SKN_ISA_AVX2, packed_entry<kq_q4_k_r4_avx2>);
    add(FormatId::Q4_K_R4, SKN_ISA_AVX512, packed_entry<kq_q4_k_r4_avx512>);
    add(FormatId::Q4_K_R4, SKN_ISA_AVX512_VNNI, packed_entry<kq_q4_k_r4_avx512vnni>);
    add(FormatId::Q2_K_R4, SKN_ISA_AVX2, packed_entry<kq_q2_k_r4_avx2>);
    add(FormatId::Q2_K_R4, SKN_ISA_AVX512, packed_entry<kq_q2_k_r4_avx512>);
    add(FormatId::Q2_K_R4, SKN_ISA_AVX512_VNNI, packed_entry<kq_q2_k_r4_avx512vnni>);
    add(FormatId::Q3_K_R4, SKN_ISA_AVX2, packed_entry<kq_q3_k_r4_avx2>);
    add(FormatId::Q3_K_R4, SKN_ISA_AVX512, packed_entry<kq_q3_k_r4_avx512>);
    add(FormatId::Q3_K_R4, SKN_ISA_AVX512_VNNI, packed_entry<kq_q3_k_r4_avx512vnni>);
    add(FormatId::Q5_K_R4, SKN_ISA_AVX2, packed_entry<kq_q5_k_r4_avx2>);
    add(FormatId::Q5_K_R4, SKN_ISA_AVX512, packed_entry<kq_q5_k_r4_avx512>);
    add(FormatId::Q5_K_R4, SKN_ISA_AVX512_VNNI, packed_entry<kq_q5_k_r4_avx512vnni>);
    add(FormatId::Q6_K_R4, SKN_ISA_AVX2, packed_entry<kq_q6_k_r4_avx2>);
    add(FormatId::Q6_K_R4, SKN_ISA_AVX512, packed_entry<kq_q6_k_r4_avx512>);
    add(FormatId::Q6_K_R4, SKN_ISA_AVX512_VNNI, packed_entry<kq_q6_k_r4_avx512vnni>);
}

// The row-interleaved IQ4_XS_R8 (superblock/xs_r8_body.inc) in both orders
// at each tier: the canonical IQ4_XS kernels' task size (256 rows, a
// multiple of the 16-row tile, so every task starts and ends on a block
// row), any strides (64-bit offsets).
void add_interleaved_xs_r8(Registry& r) {
    using namespace kernels::x86_64;
    using kernels::packed_entry;
    const auto add = [&r](skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(FormatId::IQ4_XS_R8, FormatId::Q8_K, isa, fn, 256));
    };
    add(SKN_ISA_AVX512_VNNI, packed_entry<kq_iq4_xs_r8_avx512vnni>);
    add(SKN_ISA_AVX512, packed_entry<kq_iq4_xs_r8_avx512>);
    add(SKN_ISA_AVX2, packed_entry<kq_iq4_xs_r8_avx2>);
}

}  // namespace

void register_superblock_kernels(Registry& r) {
    using namespace kernels::x86_64;
    using kernels::packed_entry;
    const auto add = [&r](FormatId f, skn_isa isa, MatmulKernelFn fn) {
        // rows_per_task 256: a multiple of the 16-row GEMM tile and the 4-row
        // GEMV step, and the GEMV's INPUT_BLOCK_MAJOR run (superblock/body512.inc, kIbmRows).
        Kernel k = kernels::blocked_kernel(f, FormatId::Q8_K, isa, fn, 256);
        k.supports = has_fresh_block_strides;
        kernels::add_both_orders(r, k);
    };
    add(FormatId::Q2_K, SKN_ISA_AVX2, packed_entry<kq_q2_k_avx2>);
    add(FormatId::Q3_K, SKN_ISA_AVX2, packed_entry<kq_q3_k_avx2>);
    add(FormatId::Q4_K, SKN_ISA_AVX2, packed_entry<kq_q4_k_avx2>);
    add(FormatId::Q5_K, SKN_ISA_AVX2, packed_entry<kq_q5_k_avx2>);
    add(FormatId::Q6_K, SKN_ISA_AVX2, packed_entry<kq_q6_k_avx2>);
    add(FormatId::IQ4_XS, SKN_ISA_AVX2, packed_entry<kq_iq4_xs_avx2>);
    add(FormatId::Q2_K, SKN_ISA_AVX512, packed_entry<kq_q2_k_avx512>);
    add(FormatId::Q3_K, SKN_ISA_AVX512, packed_entry<kq_q3_k_avx512>);
    add(FormatId::Q4_K, SKN_ISA_AVX512, packed_entry<kq_q4_k_avx512>);
    add(FormatId::Q5_K, SKN_ISA_AVX512, packed_entry<kq_q5_k_avx512>);
    add(FormatId::Q6_K, SKN_ISA_AVX512, packed_entry<kq_q6_k_avx512>);
    add(FormatId::IQ4_XS, SKN_ISA_AVX512, packed_entry<kq_iq4_xs_avx512>);
    add(FormatId::Q2_K, SKN_ISA_AVX512_VNNI, packed_entry<kq_q2_k_avx512vnni>);
    add(FormatId::Q3_K, SKN_ISA_AVX512_VNNI, packed_entry<kq_q3_k_avx512vnni>);
    add(FormatId::Q4_K, SKN_ISA_AVX512_VNNI, packed_entry<kq_q4_k_avx512vnni>);
    add(FormatId::Q5_K, SKN_ISA_AVX512_VNNI, packed_entry<kq_q5_k_avx512vnni>);
    add(FormatId::Q6_K, SKN_ISA_AVX512_VNNI, packed_entry<kq_q6_k_avx512vnni>);
    add(FormatId::IQ4_XS, SKN_ISA_AVX512_VNNI, packed_entry<kq_iq4_xs_avx512vnni>);
    add_interleaved_r4(r);
    add_interleaved_xs_r8(r);
}

}  // namespace skn_core
