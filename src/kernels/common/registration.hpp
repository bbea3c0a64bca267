// SPDX-License-Identifier: MIT
// What every family's register.cpp does, on either architecture: wrap a
// PackedArgs kernel as a MatmulKernelFn, describe it as a registry Kernel and
// add it under both block orders. Included only by register.cpp files, which
// are built without ISA flags (a tier source must not include it:
// tests/arch/check_includes.py).
//
//   const auto add = [&r](FormatId f, skn_isa isa, MatmulKernelFn fn) {
//       Kernel k = kernels::blocked_kernel(f, FormatId::Q8_0, isa, fn, 64);
//       kernels::take_few_row_tasks(k, SKN_ISA_AVX512);
//       kernels::add_both_orders(r, k);
//   };
//   add(FormatId::Q4_0, SKN_ISA_AVX512, kernels::packed_entry<kernels::x86_64::q4_0_avx512>);
#pragma once

#include <cstdint>

#include "dispatch/registry.hpp"
#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels {

// The MatmulKernelFn of kernel F: fills PackedArgs from MatmulArgs and calls F.
template <PackedKernelFn F>
void packed_entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    F(packed_args(a), out_begin, out_end);
}

// A kernel that reads a block grid through PackedArgs' byte strides, for
// add_both_orders (its key's layout is set there). rows_per_task: a multiple
// of the family's output-row tile. Nothing restricts the views it takes
// (`supports` null): 64-bit strides of either sign reach every block of a
// narrowed or selected view too; a family whose walk assumes more sets
// `supports` (has_fresh_block_strides, dispatch/kernel.hpp).
Kernel blocked_kernel(FormatId weight, FormatId activation, skn_isa isa, MatmulKernelFn fn, int64_t rows_per_task,
                      uint32_t needs = kNeedsQuantized);

// Adds k under BLOCKED_ROW_MAJOR and under BLOCKED_INPUT_MAJOR: one function,
// both orders, the same bits.
void add_both_orders(Registry& r, const Kernel& k);

// A kernel over a CONTIGUOUS (dense F32 / F16 / BF16) weight whose rows are
// consecutive elements: it refuses a view with a column stride other than 1
// (the contiguous class allows one only for a single column).
Kernel contiguous_kernel(FormatId weight, FormatId activation, skn_isa isa, MatmulKernelFn fn, int64_t rows_per_task,
                         uint32_t needs);

// Few activation rows (at most 8: memory-bound, GEMV-like) take tasks of up
// to `rows` output rows instead of rows_per_task (task_rows,
// dispatch/kernel.hpp): each task streams longer runs of the weight, and two
// threads no longer alternate short ones. Applied to kernels of tier `from`
// and the tiers ranked above it in its architecture; below it, k is
// unchanged. Measured on x86's AVX-512 tiers (docs/kernels/q32.md, "Task
// size"; low_bit.md and nvfp4.md, "Threads").
constexpr int64_t kFewRowsPerTask = 512;
void take_few_row_tasks(Kernel& k, skn_isa from, int64_t rows = kFewRowsPerTask);

}  // namespace skn_core::kernels
