// SPDX-License-Identifier: MIT
// What every aarch64 family's register.cpp does: wrap a PackedArgs kernel as
// a MatmulKernelFn and add it under both block orders. Included only by the
// families' register.cpp files, which are built without ISA flags (a tier
// source must not include it: tests/arch/check_includes.py).
#pragma once

#include "dispatch/registry.hpp"
#include "kernels/aarch64/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

using PackedKernelFn = void (*)(const PackedArgs& a, int64_t out_begin, int64_t out_end);

template <PackedKernelFn F>
void packed_entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    F(packed_args(a), out_begin, out_end);
}

// Adds fn under ROW_MAJOR and INPUT_BLOCK_MAJOR. No `supports` restriction:
// the kernels address blocks through PackedArgs' 64-bit byte strides of
// either sign, so narrowed and selected views of both classes are readable
// too. rows_per_task 128: a multiple of every aarch64 row tile.
void add_blocked_both_orders(Registry& r, FormatId weight, FormatId activation, skn_isa isa, MatmulKernelFn fn,
                             uint32_t needs = kNeedsQuantized);

}  // namespace skn_core::kernels::aarch64
