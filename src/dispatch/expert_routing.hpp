// SPDX-License-Identifier: MIT
// The routed call's own step, between validation and the kernel choice:
// group its (row, slot) pairs by the expert they name, each group in (row,
// slot) order. The groups are the batch the later steps work on: each used
// expert's weight is chosen and read once, over all the slots routed to it.
#pragma once

#include <cstdint>

#include "dispatch/context.hpp"
#include "dispatch/matmul_call.hpp"
#include "layout/layout.hpp"

namespace skn_core {

// Batch position p holds the slot slot_at[p] = i * k + s; expert e's
// positions are [start[e], start[e + 1]). Both live in the context's index
// scratch until its next call.
struct SlotGroups {
    const int64_t* start = nullptr;    // [E + 1]
    const int64_t* slot_at = nullptr;  // [n * k]
    int64_t total = 0;                 // n * k
};

// Reads every id of a validated call once, before any output is written;
// an id outside 0..E-1 (E = w.shape[0]) is refused naming its row, its slot,
// the id and E.
SlotGroups group_slots_by_expert(Context& ctx, const MatmulCall& call, const Layout& w);

}  // namespace skn_core
