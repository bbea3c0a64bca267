// SPDX-License-Identifier: MIT
// One matmul call, dense (matmul_wt) or expert-routed (matmul_wt_id): its
// operands, its options, where each row of its batch comes from and goes,
// and the check of all of them. The two calls are fronts on the same steps:
//   1. validate_call (here): every pointer, count and stride, once, before
//      anything is computed or written;
//   2. choose_weight (kernel_choice.hpp): the kernel, and the relayout when
//      the choice asks for one;
//   3. prepare_activations (activation_rows.hpp): the batch's activation rows,
//      checked and quantized in pieces on the context's threads;
//   4. run_batches (matmul_tasks.hpp): output-row tasks per weight, written
//      in place or scattered to the routed slots with their gates.
#pragma once

#include <cstdint>

#include "layout/scope.hpp"
#include "layout/view.hpp"

namespace skn_core {

enum class Precision : int32_t { Fast = 0, Exact = 1 };

struct MatmulOptions {
    Precision precision = Precision::Fast;
    bool prepack_weights = false;
    bool strict = false;
    Scope* scope = nullptr;
};

// For row i < n and slot s < k of a routed call, with e = ids[i, s]:
//   y[i, s] = gates[i, s] * (x[i, s % x_slots] * W[e]^T + bias[e])
// over a stacked weight W [E, out, in] (gates null: no multiply). A dense
// call is one slot per row through a rank-2 weight: y[i] = x[i] * W^T + bias.
// Strides count elements (floats; int32 for ids); element c of a row is
// contiguous.
struct MatmulCall {
    bool routed = false;
    const float* x = nullptr;
    int64_t n = 0;                 // x_rows
    int64_t x_row_stride = 0;
    int64_t x_slots = 1;           // activation slots per row: 1 (every slot reads the row) ... k, dividing k
    int64_t x_slot_stride = 0;     // read only when x_slots > 1
    const int32_t* ids = nullptr;  // routed: ids[i * ids_row_stride + s]
    int64_t k = 1;                 // slots per row
    int64_t ids_row_stride = 0;
    const float* gates = nullptr;  // routed, optional: gates[i * gates_row_stride + s]
    int64_t gates_row_stride = 0;
    const float* bias = nullptr;   // null, [out] (dense) or [E, out] (routed)
    float* y = nullptr;
    int64_t y_row_stride = 0;
    int64_t y_slot_stride = 0;     // read only when k > 1
    // The caller gave its strides in bytes (skn_matmul_wt_id_ex); they are
    // elements here, and a message shows them as the caller wrote them.
    bool byte_strides = false;
};

// Refuses (SKN_E_INVALID_ARGUMENT, naming the argument and the fix) NULL
// operands, a weight that is not [out, in] (dense) or [E, out, in] (routed),
// counts below 1, x_slots not dividing k, negative strides, strides smaller
// than what they step over, addresses whose arithmetic overflows, outputs of
// two (row, slot) pairs that overlap, and y overlapping x, gates or bias.
// Expert ids are checked where they are read (group_slots_by_expert).
void validate_call(const MatmulCall& call, const View& w);

// Where position p of a call's batch of activation rows comes from and where
// its output goes. Dense: position p is row p. Routed: the batch holds the
// slots grouped by expert, and position p is the slot slot_at[p] = i * k + s.
struct BatchRows {
    const MatmulCall* call = nullptr;
    const int64_t* slot_at = nullptr;  // null: dense
    int64_t count = 0;                 // positions

    // The activation row position p reads, numbered i * x_slots + j for row i,
    // activation slot j: the order in which a non-finite one is reported.
    int64_t source(int64_t p) const {
        if (slot_at == nullptr) return p;
        const int64_t i = slot_at[p] / call->k, s = slot_at[p] % call->k;
        return i * call->x_slots + s % call->x_slots;
    }
    const float* x_row(int64_t source_index) const {
        if (call->x_slots == 1) return call->x + source_index * call->x_row_stride;
        const int64_t i = source_index / call->x_slots, j = source_index % call->x_slots;
        return call->x + i * call->x_row_stride + j * call->x_slot_stride;
    }
    float* y_row(int64_t p) const {
        if (slot_at == nullptr) return call->y + p * call->y_row_stride;
        const int64_t i = slot_at[p] / call->k, s = slot_at[p] % call->k;
        return call->y + i * call->y_row_stride + s * call->y_slot_stride;
    }
    // Null when the call has no gates.
    const float* gate(int64_t p) const {
        if (call->gates == nullptr) return nullptr;
        const int64_t i = slot_at[p] / call->k, s = slot_at[p] % call->k;
        return call->gates + i * call->gates_row_stride + s;
    }
};

}  // namespace skn_core
