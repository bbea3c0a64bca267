// SPDX-License-Identifier: MIT
// What several x86-64 families' register.cpp do alike. Included only by the
// families' register.cpp files, which are built without ISA flags (a tier
// source must not include it: tests/arch/check_includes.py).
#pragma once

#include <cstdint>

#include "dispatch/kernel.hpp"
#include "runtime/isa.hpp"

namespace skn_core::kernels::x86_64 {

// A call of at most 8 activation rows (memory-bound: the AVX-512 tiers' few-row
// walks, activation tiles of up to 8 rows) takes tasks of up to `rows` output
// rows instead of rows_per_task (task_rows, dispatch/kernel.hpp): each task
// streams longer runs of the weight, and two threads no longer alternate
// short ones (q32: docs/kernels/q32.md, "Task size"; ternary and NVFP4:
// their docs' "Threads"). The avx2 kernels were not measured and keep theirs.
constexpr int64_t kFewRowsPerTask = 512;

inline void take_few_row_tasks(Kernel& k, int64_t rows = kFewRowsPerTask) {
    // The AVX-512 tiers: those ranked at or above it (runtime/isa_table.def).
    if (!isa_allows(k.key.isa, SKN_ISA_AVX512)) return;
    k.few_rows_per_task = rows;
    k.few_rows_max_n = 8;
}

}  // namespace skn_core::kernels::x86_64
