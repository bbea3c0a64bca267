// SPDX-License-Identifier: MIT
// Step 4 of a matmul call (matmul_call.hpp): the kernels run over output-row
// tasks on the context's threads. A batch is the rows one weight computes:
// a dense call's only one, or the slots routed to one expert. The tasks of
// all batches form one parallel section, batch after batch.
#pragma once

#include <cstdint>
#include <span>

#include "dispatch/activation_rows.hpp"
#include "dispatch/context.hpp"
#include "dispatch/kernel.hpp"
#include "dispatch/matmul_call.hpp"

namespace skn_core {

// One weight's share of a call: batch positions [first, first + rows).
struct ExpertBatch {
    int64_t expert = 0;
    View w;                         // [out, in], relaid out when the kernel choice said so
    const Kernel* kernel = nullptr;
    const float* bias = nullptr;    // [out] or null
    int64_t first = 0;
    int64_t rows = 0;
    TaskRows split;                 // its output rows in tasks (plan_tasks)
    int64_t first_task = 0;         // its first task in the call's task list
};

// Cuts each batch's `out` output rows into tasks (task_rows), numbered batch
// after batch; returns how many there are.
int64_t plan_tasks(std::span<ExpertBatch> batches, int64_t out);

// Runs every task of the planned batches over the prepared activations.
// Outputs are written in place where a batch's positions are evenly spaced
// in y (a dense call; a routed batch of one slot), times the slot's gate;
// a routed batch of several slots computes into `gathered` ([positions,
// out], at its first position) and each task scatters its rows' outputs to
// their slots, times the gates.
void run_batches(Context& ctx, std::span<const ExpertBatch> batches, int64_t tasks, const PreparedActivations& xa,
                 const BatchRows& rows, int64_t out, int64_t in, float* gathered);

}  // namespace skn_core
