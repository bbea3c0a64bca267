// SPDX-License-Identifier: MIT
#include "kernels/common/registration.hpp"

namespace skn_core::kernels {
namespace {

// The contiguous class allows a column stride other than 1 only for a single
// column; the dense kernels read rows as consecutive elements.
bool unit_columns(const Layout& l) { return l.rank == 2 && (l.strides[1] == 1 || l.grid[1] == 1); }

}  // namespace

Kernel blocked_kernel(FormatId weight, FormatId activation, skn_isa isa, MatmulKernelFn fn, int64_t rows_per_task,
                      uint32_t needs) {
    return Kernel{.key = KernelKey{Op::MatmulWt, weight, LayoutClass::BlockedRowMajor, activation, isa},
                  .fn = fn,
                  .needs = needs,
                  .rows_per_task = rows_per_task};
}

void add_both_orders(Registry& r, const Kernel& k) {
    for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
        Kernel each = k;
        each.key.layout = c;
        r.add(std::move(each));
    }
}

Kernel contiguous_kernel(FormatId weight, FormatId activation, skn_isa isa, MatmulKernelFn fn, int64_t rows_per_task,
                         uint32_t needs) {
    return Kernel{.key = KernelKey{Op::MatmulWt, weight, LayoutClass::Contiguous, activation, isa},
                  .fn = fn,
                  .needs = needs,
                  .rows_per_task = rows_per_task,
                  .supports = unit_columns};
}

void take_few_row_tasks(Kernel& k, skn_isa from, int64_t rows) {
    const IsaInfo* tier = find_isa(k.key.isa);
    const IsaInfo* first = find_isa(from);
    if (tier == nullptr || first == nullptr || tier->arch != first->arch || tier->rank < first->rank) return;
    k.few_rows_per_task = rows;
    k.few_rows_max_n = 8;
}

}  // namespace skn_core::kernels
