// SPDX-License-Identifier: MIT
#include "dispatch/expert_routing.hpp"

#include <algorithm>

#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {

SlotGroups group_slots_by_expert(Context& ctx, const MatmulCall& call, const Layout& w) {
    const int64_t experts = w.shape[0], n = call.n, k = call.k;
    const int64_t total = checked_mul(n, k, "x_rows * k");
    int64_t* table = ctx.index_scratch(size_t(checked_add(checked_mul<int64_t>(experts, 2, "E * 2"), total + 1,
                                                          "the routing table size")));
    int64_t* start = table;                 // [E + 1]
    int64_t* cursor = table + experts + 1;  // [E]
    int64_t* slot_at = cursor + experts;    // [n * k]
    std::fill(start, start + experts + 1, 0);
    // A counting sort: count each expert's slots, then place them in (row,
    // slot) order.
    for (int64_t i = 0; i < n; ++i)
        for (int64_t s = 0; s < k; ++s) {
            const int32_t e = call.ids[i * call.ids_row_stride + s];
            if (e < 0 || e >= experts)
                fail(SKN_E_INVALID_ARGUMENT,
                     "row {}, slot {}: expert id {} is outside the {} experts of the weight {} (valid ids: 0..{})", i,
                     s, e, experts, w.describe(), experts - 1);
            ++start[e + 1];
        }
    for (int64_t e = 0; e < experts; ++e) {
        start[e + 1] += start[e];
        cursor[e] = start[e];
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t s = 0; s < k; ++s) slot_at[cursor[call.ids[i * call.ids_row_stride + s]]++] = i * k + s;
    return SlotGroups{start, slot_at, total};
}

}  // namespace skn_core
