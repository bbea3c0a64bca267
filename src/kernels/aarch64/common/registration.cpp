// SPDX-License-Identifier: MIT
#include "kernels/aarch64/common/registration.hpp"

namespace skn_core::kernels::aarch64 {

void add_blocked_both_orders(Registry& r, FormatId weight, FormatId activation, skn_isa isa, MatmulKernelFn fn,
                             uint32_t needs) {
    for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
        r.add(Kernel{.key = KernelKey{Op::MatmulWt, weight, c, activation, isa},
                     .fn = fn,
                     .needs = needs,
                     .rows_per_task = 128});
}

}  // namespace skn_core::kernels::aarch64
