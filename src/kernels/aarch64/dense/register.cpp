// SPDX-License-Identifier: MIT
// Registers the NEON dense (CONTIGUOUS F32 / F16 / BF16) kernels
// (dense/neon.cpp). Built without ISA flags: it only turns MatmulArgs into
// the plain PackedArgs the tier source reads (kernels/common/registration.hpp).
//
// As on x86: fast precision pairs BF16 weights with BF16 activations (xq)
// and F16 with F16; exact precision pairs every dense weight with F32
// activations (xf). Everything the kernels use is Armv8.0, so they sit at
// the `neon` tier and serve every arm64 CPU. BF16 x BF16 also has a BFDOT
// kernel, registered at `neoni8mm` only when the CPU has bf16 (no tier
// implies it), as x86 registers its AVX512_BF16 kernel.
#include "kernels/aarch64/dense/kernels.hpp"
#include "kernels/common/registration.hpp"
#include "runtime/cpu.hpp"

namespace skn_core {

void register_aarch64_dense_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using kernels::packed_entry;
    using F = FormatId;
    const auto add = [&r](F weight, F activation, skn_isa isa, MatmulKernelFn fn, uint32_t needs) {
        // rows_per_task 32: a multiple of the row tiles (4).
        r.add(kernels::contiguous_kernel(weight, activation, isa, fn, 32, needs));
    };
    const skn_isa neon = SKN_ISA_NEON;
    add(F::BF16, F::BF16, neon, packed_entry<ka::dense_bf16_bf16_neon>, kNeedsQuantized);
    add(F::F16, F::F16, neon, packed_entry<ka::dense_f16_f16_neon>, kNeedsQuantized);
    add(F::BF16, F::F32, neon, packed_entry<ka::dense_bf16_f32_neon>, kNeedsFloat);
    add(F::F16, F::F32, neon, packed_entry<ka::dense_f16_f32_neon>, kNeedsFloat);
    add(F::F32, F::F32, neon, packed_entry<ka::dense_f32_f32_neon>, kNeedsFloat);
    if (cpu_features().neon_bf16)
        add(F::BF16, F::BF16, SKN_ISA_NEON_I8MM, packed_entry<ka::dense_bf16_bf16_neonbf16>, kNeedsQuantized);

    // BF16_R16, the row-interleaved twin: BF16's pairs and tiers in both
    // block orders; rows_per_task 32, a multiple of the 16-row block row.
    const auto add_r16 = [&r](F activation, skn_isa isa, MatmulKernelFn fn, uint32_t needs) {
        kernels::add_both_orders(r, kernels::blocked_kernel(F::BF16_R16, activation, isa, fn, 32, needs));
    };
    add_r16(F::BF16, neon, packed_entry<ka::dense_bf16_r16_bf16_neon>, kNeedsQuantized);
    add_r16(F::F32, neon, packed_entry<ka::dense_bf16_r16_f32_neon>, kNeedsFloat);
    if (cpu_features().neon_bf16)
        add_r16(F::BF16, SKN_ISA_NEON_I8MM, packed_entry<ka::dense_bf16_r16_bf16_neonbf16>, kNeedsQuantized);
}

}  // namespace skn_core
