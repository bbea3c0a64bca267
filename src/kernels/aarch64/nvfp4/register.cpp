// SPDX-License-Identifier: MIT
// Registers the NEON NVFP4 kernels (nvfp4/<tier>.cpp) under both block
// orders (common/registration.hpp). Built without ISA flags; the kernel
// bodies run only when the registry has checked the CPU.
#include "kernels/aarch64/common/registration.hpp"
#include "kernels/aarch64/nvfp4/kernels.hpp"

namespace skn_core {

void register_aarch64_nvfp4_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using ka::packed_entry;
    ka::add_blocked_both_orders(r, FormatId::NVFP4, FormatId::Q8_0, SKN_ISA_NEON_DOTPROD,
                                packed_entry<ka::nvfp4_q8_0_neondotprod>);
    ka::add_blocked_both_orders(r, FormatId::NVFP4, FormatId::Q8_0, SKN_ISA_NEON, packed_entry<ka::nvfp4_q8_0_neon>);
}

}  // namespace skn_core
