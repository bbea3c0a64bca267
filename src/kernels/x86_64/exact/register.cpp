// SPDX-License-Identifier: MIT
// Registers the exact-precision kernels (exact/<isa>.cpp) for every block
// format and its row-interleaved twins, in both block orders. Built without ISA flags: it
// fills the plain PackedArgs from MatmulArgs; the kernel bodies run only once
// the registry has checked the CPU.
#include "kernels/common/registration.hpp"
#include "kernels/x86_64/exact/kernels.hpp"
#include "runtime/error.hpp"

namespace skn_core {

namespace kernels::x86_64 {
void exact_unknown_format(FormatId format) {
    const FormatTraits* f = find_format(format);
    fail(SKN_E_INTERNAL, "exact kernel asked for format {} ({}), which it has no decoder for",
         f != nullptr ? f->name : "unknown", static_cast<int32_t>(format));
}
}  // namespace kernels::x86_64

void register_exact_kernels(Registry& r) {
    namespace kx = kernels::x86_64;
    using kernels::packed_entry;
    // rows_per_task 128: a multiple of every row tile; the batched path
    // reuses each activation chunk across a task.
    const auto add = [&r](FormatId f, skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(f, FormatId::F32, isa, fn, 128, kNeedsFloat));
    };
    // Every format the driver serves (block formats and their twins): the
    // tiers decode each one (exact/driver.inc walks the same table). The table
    // is data, not a call into the ISA translation units, which must not run
    // before the registry has checked the CPU.
    for (const FormatTraits& f : all_formats()) {
        if (!kx::exact_driver_serves(f.id)) continue;
        add(f.id, SKN_ISA_AVX2, packed_entry<kx::exact_matmul_avx2>);
        add(f.id, SKN_ISA_AVX512, packed_entry<kx::exact_matmul_avx512>);
    }
}

}  // namespace skn_core
