// SPDX-License-Identifier: MIT
// matmul_wt, the dense front on the steps of matmul_call.hpp, and step 2 of
// every call: choosing a weight's kernel, visibly (kernel / fallback /
// adapter events), and relaying the weight out when that choice asks for it.
#pragma once

#include <string>

#include "dispatch/context.hpp"
#include "dispatch/matmul_call.hpp"
#include "layout/scope.hpp"
#include "layout/view.hpp"

namespace skn_core {

// How a weight runs: the kernel, whether the weight is relaid out to the
// other order first (prepack_weights), and, when the reference runs although
// the cap allowed SIMD, why (the FALLBACK event's text). matmul_wt_id makes
// the same choice for each expert's slice.
struct KernelChoice {
    const Kernel* kernel = nullptr;
    bool relayout = false;        // prepack the weight to the other order first
    std::string fallback_reason;  // non-empty: the reference ran although SIMD was allowed
};

KernelChoice choose_kernel(const Context& ctx, const View& w, FormatId act, const MatmulOptions& opts);

// Step 2 of a call: the kernel choose_kernel picks for the rank-2 weight `w`
// and the weight it reads: `w` itself, or its copy in the other order in
// opts.scope (an ADAPTER event) when the choice relays it out. A fallback is
// refused (SKN_E_UNSUPPORTED) under opts.strict, naming `expert` when it is
// a routed call's expert slice (>= 0).
struct ChosenWeight {
    View w;
    const Kernel* kernel = nullptr;
    std::string fallback_reason;  // non-empty: the reference runs although SIMD was allowed
};

ChosenWeight choose_weight(const Context& ctx, const View& w, FormatId act, const MatmulOptions& opts,
                           int64_t expert = -1);

// A KERNEL or FALLBACK event for kernel `k` over the rank-2 weight `w` and n
// activation rows (nothing when the context has no trace sink).
void emit_kernel_event(const Context& ctx, skn_trace_kind kind, const Kernel& k, const std::string& detail,
                       const View& w, int64_t n, int64_t ns);

void matmul_wt(Context& ctx, const float* x, int64_t n, int64_t x_stride, const View& w, const float* bias, float* y,
               int64_t y_stride, const MatmulOptions& opts);

// The order skn_prepack_for_matmul gives a weight (fast precision, this
// context's cap): the order with the higher-tier kernel; when both orders have
// kernels of the same SIMD tier, the one measured faster (order_table.inc:
// n = 1 decides, then n >= 32); else the weight's own order.
BlockOrder preferred_order(const Context& ctx, const View& w);

// The format and order skn_prepack_for_matmul gives a weight: its own format
// in preferred_order, unless the context's tuning (dispatch/tuning.hpp)
// prefers another encoding of the same values for the one-token regime (the
// row-interleaved twin, or back to the canonical format) that the weight can
// hold and a kernel of the same tier reads.
struct Encoding {
    const FormatTraits* format;
    BlockOrder order;
};
Encoding preferred_encoding(const Context& ctx, const View& w);

// The activation format a weight format pairs with at a precision.
FormatId activation_for(const FormatTraits& f, Precision p);

}  // namespace skn_core
