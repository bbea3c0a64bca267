// SPDX-License-Identifier: MIT
// Registers the dense (CONTIGUOUS F32 / F16 / BF16) SIMD kernels. Built
// without ISA flags: it only turns MatmulArgs into the plain PackedArgs the
// ISA translation units read (kernels/common/registration.hpp).
//
// Fast precision pairs BF16 weights with BF16 activations (xq) and F16 with
// F16; exact precision pairs every dense weight with F32 activations (xf).
// The AVX512 BF16 fast kernel uses vdpbf16ps, so it is registered only when
// the CPU has AVX512_BF16 (the avx512vnni tier does not imply it); without
// it the AVX2 kernel serves that key. The AVX-512 F32 kernel hands batches of
// kXsmmMinRows activation rows or more to libxsmm (dense/xsmm.cpp), with our
// AVX-512 kernel as its fallback; libxsmm lost to our kernels elsewhere.
#include "kernels/common/registration.hpp"
#include "kernels/x86_64/dense/kernels.hpp"
#include "runtime/cpu.hpp"

namespace skn_core {
namespace {

template <kernels::PackedKernelFn F>
void xsmm_entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    kernels::x86_64::dense_xsmm_f32(F, kernels::packed_args(a), out_begin, out_end);
}

}  // namespace

void register_dense_kernels(Registry& r) {
    namespace k = kernels::x86_64;
    using kernels::packed_entry;
    using F = FormatId;
    const auto add = [&r](F weight, F activation, skn_isa isa, MatmulKernelFn fn, uint32_t needs) {
        // rows_per_task 32: a multiple of the row tiles (4; 32 on the libxsmm path).
        r.add(kernels::contiguous_kernel(weight, activation, isa, fn, 32, needs));
    };
    add(F::BF16, F::BF16, SKN_ISA_AVX2, packed_entry<k::bf16_bf16_avx2>, kNeedsQuantized);
    add(F::F16, F::F16, SKN_ISA_AVX2, packed_entry<k::f16_f16_avx2>, kNeedsQuantized);
    add(F::F16, F::F16, SKN_ISA_AVX512, packed_entry<k::f16_f16_avx512>, kNeedsQuantized);
    add(F::BF16, F::F32, SKN_ISA_AVX2, packed_entry<k::bf16_f32_avx2>, kNeedsFloat);
    add(F::BF16, F::F32, SKN_ISA_AVX512, packed_entry<k::bf16_f32_avx512>, kNeedsFloat);
    add(F::F16, F::F32, SKN_ISA_AVX2, packed_entry<k::f16_f32_avx2>, kNeedsFloat);
    add(F::F16, F::F32, SKN_ISA_AVX512, packed_entry<k::f16_f32_avx512>, kNeedsFloat);
    add(F::F32, F::F32, SKN_ISA_AVX2, packed_entry<k::f32_f32_avx2>, kNeedsFloat);
    add(F::F32, F::F32, SKN_ISA_AVX512, xsmm_entry<k::f32_f32_avx512>, kNeedsFloat);
    if (cpu_features().avx512bf16)
        add(F::BF16, F::BF16, SKN_ISA_AVX512_VNNI, packed_entry<k::bf16_bf16_avx512bf16>, kNeedsQuantized);

    // BF16_R16, the row-interleaved twin: the same pairs and tiers as BF16,
    // in both block orders (one function reads either through the strides).
    // rows_per_task 32, as BF16's: a multiple of the 16-row block row.
    const auto add_r16 = [&r](F activation, skn_isa isa, MatmulKernelFn fn, uint32_t needs) {
        kernels::add_both_orders(r, kernels::blocked_kernel(F::BF16_R16, activation, isa, fn, 32, needs));
    };
    add_r16(F::BF16, SKN_ISA_AVX2, packed_entry<k::bf16_r16_bf16_avx2>, kNeedsQuantized);
    add_r16(F::F32, SKN_ISA_AVX2, packed_entry<k::bf16_r16_f32_avx2>, kNeedsFloat);
    add_r16(F::F32, SKN_ISA_AVX512, packed_entry<k::bf16_r16_f32_avx512>, kNeedsFloat);
    if (cpu_features().avx512bf16)
        add_r16(F::BF16, SKN_ISA_AVX512_VNNI, packed_entry<k::bf16_r16_bf16_avx512bf16>, kNeedsQuantized);
}

}  // namespace skn_core
