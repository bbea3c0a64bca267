// SPDX-License-Identifier: MIT
// matmul_wt: choose a kernel for the weight's key, make every choice visible
// (kernel / fallback / adapter events), prepare activations once, and split
// the output rows over the context's threads.
#pragma once

#include <string>

#include "dispatch/context.hpp"
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

// The activation format a weight format pairs with at a precision.
FormatId activation_for(const FormatTraits& f, Precision p);

}  // namespace skn_core
