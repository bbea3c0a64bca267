// SPDX-License-Identifier: MIT
#include "dispatch/matmul_id.hpp"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dispatch/activation_rows.hpp"
#include "dispatch/expert_routing.hpp"
#include "dispatch/matmul.hpp"
#include "dispatch/matmul_tasks.hpp"
#include "runtime/checked.hpp"

namespace skn_core {
namespace {

// Step 2 for each expert some slot is routed to: its slice's kernel (and
// relayout), as matmul_wt chooses for it, and its positions in the batch.
// The first fallback's reason goes to *fallback_reason.
std::vector<ExpertBatch> choose_experts(const Context& ctx, const MatmulCall& call, const View& w,
                                        const SlotGroups& groups, FormatId act, const MatmulOptions& opts,
                                        std::string* fallback_reason) {
    const Layout& l = w.layout;
    const int64_t experts = l.shape[0], out = l.shape[1];
    int64_t count = 0;
    for (int64_t e = 0; e < experts; ++e) count += groups.start[e + 1] != groups.start[e];
    std::vector<ExpertBatch> used;
    used.reserve(size_t(count));
    for (int64_t e = 0; e < experts; ++e) {
        if (groups.start[e + 1] == groups.start[e]) continue;
        ChosenWeight chosen = choose_weight(ctx, with_layout(w, select(l, 0, e)), act, opts, e);
        if (fallback_reason->empty()) *fallback_reason = std::move(chosen.fallback_reason);
        used.push_back(ExpertBatch{.expert = e,
                                   .w = std::move(chosen.w),
                                   .kernel = chosen.kernel,
                                   .bias = call.bias != nullptr ? call.bias + e * out : nullptr,
                                   .first = groups.start[e],
                                   .rows = groups.start[e + 1] - groups.start[e]});
    }
    return used;
}

}  // namespace

void matmul_wt_id(Context& ctx, const MatmulCall& call, const View& w, const MatmulOptions& opts) {
    validate_call(call, w);
    const Layout& l = w.layout;
    const int64_t out = l.shape[1], in = l.shape[2];
    const SlotGroups groups = group_slots_by_expert(ctx, call, l);
    const FormatId act = activation_for(*l.format, opts.precision);
    std::string fallback_reason;
    std::vector<ExpertBatch> batches = choose_experts(ctx, call, w, groups, act, opts, &fallback_reason);
    const int64_t tasks = plan_tasks(batches, out);

    // Timed for the KERNEL event only: an untraced call reads no clock.
    std::optional<Stopwatch> clock;
    if (ctx.trace().enabled()) clock.emplace();
    bool decode_too = false, several_rows = false;
    for (const ExpertBatch& b : batches) {
        decode_too |= (b.kernel->needs & kNeedsFloat) != 0;
        several_rows |= b.rows > 1;
    }
    const BatchRows rows{&call, groups.slot_at, groups.total};
    const PreparedActivations xa = prepare_activations(ctx, act, rows, in, decode_too);
    // An expert with several slots computes into a gathered block, scattered
    // to the slots' places afterwards; one with a single slot writes in place.
    float* gathered =
        several_rows ? ctx.output_scratch(size_t(checked_mul(groups.total, out, "x_rows * k * out"))) : nullptr;
    run_batches(ctx, batches, tasks, xa, rows, out, in, gathered);

    if (!ctx.trace().enabled()) return;
    const int64_t ns = clock ? clock->nanoseconds() : 0;
    const ExpertBatch& first = batches.front();
    if (!fallback_reason.empty())
        emit_kernel_event(ctx, SKN_TRACE_FALLBACK, *first.kernel, fallback_reason, first.w, groups.total, ns);
    emit_kernel_event(ctx, SKN_TRACE_KERNEL, *first.kernel,
                      fmt::format("matmul_wt_id: {} on {} of the {} experts of {}, {} rows x {} slots",
                                  first.kernel->name, batches.size(), l.shape[0], l.describe(), call.n, call.k),
                      first.w, groups.total, ns);
}

}  // namespace skn_core
