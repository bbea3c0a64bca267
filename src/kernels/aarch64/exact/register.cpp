// SPDX-License-Identifier: MIT
// Registers the NEON exact-precision kernel (exact/neon.cpp) for every block
// format the driver serves (kernels.hpp's exact_driver_serves: today every
// one and its row-interleaved twins, which NeonExactContract asserts) in both block orders, so a new
// format is covered without editing a list. Built without ISA flags: it
// fills the plain PackedArgs from MatmulArgs, the format's scalar decoder
// included (the driver uses it for formats without a NEON decoder; ISA code
// must not include the formats' code itself).
#include "kernels/aarch64/exact/kernels.hpp"
#include "kernels/common/registration.hpp"

namespace skn_core {

void register_aarch64_exact_kernels(Registry& r) {
    const MatmulKernelFn fn = kernels::packed_entry<kernels::aarch64::exact_matmul_neon>;
    for (const FormatTraits& f : all_formats()) {
        if (!kernels::aarch64::exact_driver_serves(f.block_quantized, f.decode != nullptr, f.block_elems)) continue;
        // rows_per_task 128: as x86's exact kernels; the driver has no row tile.
        kernels::add_both_orders(r, kernels::blocked_kernel(f.id, FormatId::F32, SKN_ISA_NEON, fn, 128, kNeedsFloat));
    }
}

}  // namespace skn_core
