// SPDX-License-Identifier: MIT
// Registers the NEON NVFP4 kernels (nvfp4/<tier>.cpp) under both block
// orders (kernels/common/registration.hpp). Built without ISA flags; the kernel
// bodies run only when the registry has checked the CPU.
#include "kernels/aarch64/nvfp4/kernels.hpp"
#include "kernels/common/registration.hpp"

namespace skn_core {

void register_aarch64_nvfp4_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using kernels::packed_entry;
    // rows_per_task 128: a multiple of every row tile.
    const auto add = [&r](skn_isa isa, MatmulKernelFn fn) {
        kernels::add_both_orders(r, kernels::blocked_kernel(FormatId::NVFP4, FormatId::Q8_0, isa, fn, 128));
    };
    add(SKN_ISA_NEON_DOTPROD, packed_entry<ka::nvfp4_q8_0_neondotprod>);
    add(SKN_ISA_NEON, packed_entry<ka::nvfp4_q8_0_neon>);
}

}  // namespace skn_core
