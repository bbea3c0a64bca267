// SPDX-License-Identifier: MIT
#include "dispatch/matmul_id.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dispatch/activation_quant.hpp"
#include "dispatch/activation_rows.hpp"
#include "layout/orientation.hpp"
#include "layout/prepack.hpp"
#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

// One expert some slot is routed to.
struct Expert {
    int64_t id = 0;
    View w;                        // its [out, in] slice (relaid out when the choice says so)
    const Kernel* kernel = nullptr;
    int64_t first = 0;             // its first row in the gathered batch
    int64_t rows = 0;              // how many slots are routed to it
    TaskRows split;                // its output rows in tasks
    int64_t first_task = 0;        // its first task in the call's task list
};

// Offsets from a row's (or slot's) base pointer, in elements.
struct Strides {
    int64_t x_row, x_slot, y_row, y_slot;
};

// Whether [a, a + a_floats) and [b, b + b_floats) share a byte.
bool overlaps(const float* a, int64_t a_floats, const float* b, int64_t b_floats) {
    const auto* ab = reinterpret_cast<const char*>(a);
    const auto* bb = reinterpret_cast<const char*>(b);
    return ab < bb + size_t(b_floats) * sizeof(float) && bb < ab + size_t(a_floats) * sizeof(float);
}

void check_args(const float* x, int64_t n, const Strides& st, const ExpertRouting& r, const View& w, const float* bias,
                const float* y) {
    if (x == nullptr) fail(SKN_E_INVALID_ARGUMENT, "x must not be NULL");
    if (y == nullptr) fail(SKN_E_INVALID_ARGUMENT, "y must not be NULL");
    if (r.ids == nullptr) fail(SKN_E_INVALID_ARGUMENT, "ids must not be NULL");
    const Layout& l = w.layout;
    if (l.rank != 3)
        fail(SKN_E_INVALID_ARGUMENT,
             "matmul_wt_id takes a stacked expert weight [E, out, in] (rank 3); this one is {}{}", l.describe(),
             l.rank == 2 ? ": for a single weight [out, in] use skn_matmul_wt, or skn_view_unsqueeze it to [1, out, in]"
                         : "");
    const int64_t out = l.shape[1], in = l.shape[2];
    require_out_in(out, in, *l.format);
    if (n < 1) fail(SKN_E_INVALID_ARGUMENT, "x_rows is {}: at least one activation row is needed", n);
    if (r.k < 1) fail(SKN_E_INVALID_ARGUMENT, "k is {}: every row is routed to at least one expert", r.k);
    if (st.x_row < in)
        fail(SKN_E_INVALID_ARGUMENT, "x_row_stride {} is smaller than a row of {} inputs", st.x_row, in);
    if (st.x_slot != 0 && st.x_slot < in)
        fail(SKN_E_INVALID_ARGUMENT,
             "x_slot_stride {} is neither 0 (every slot of a row reads the row) nor at least a row of {} inputs "
             "(each slot reads its own row)",
             st.x_slot, in);
    if (r.ids_stride < r.k)
        fail(SKN_E_INVALID_ARGUMENT, "ids_row_stride {} is smaller than a row of k = {} ids", r.ids_stride, r.k);
    if (r.gates != nullptr && r.gates_stride < r.k)
        fail(SKN_E_INVALID_ARGUMENT, "gates_row_stride {} is smaller than a row of k = {} gates", r.gates_stride,
             r.k);
    if (st.y_row < out)
        fail(SKN_E_INVALID_ARGUMENT, "y_row_stride {} is smaller than a row of {} outputs", st.y_row, out);
    if (r.k > 1 && st.y_slot < out)
        fail(SKN_E_INVALID_ARGUMENT, "y_slot_stride {} is smaller than a slot's {} outputs", st.y_slot, out);
    // Slots are computed in parallel: two that share outputs would race.
    // Either nesting is fine: rows of k slots ([n, k, out], llama.cpp's) or
    // slots of n rows ([k, n, out]).
    if (n > 1 && r.k > 1 && st.y_row < (r.k - 1) * st.y_slot + out && st.y_slot < (n - 1) * st.y_row + out)
        fail(SKN_E_INVALID_ARGUMENT,
             "y_row_stride {} and y_slot_stride {} make the outputs of different (row, slot) pairs overlap: use "
             "y_slot_stride >= out ({}) and y_row_stride >= (k - 1) * y_slot_stride + out ({}), or y_row_stride >= "
             "out and y_slot_stride >= (x_rows - 1) * y_row_stride + out ({})",
             st.y_row, st.y_slot, out, (r.k - 1) * st.y_slot + out, (n - 1) * st.y_row + out);
    // Tasks write y while others still read x, the gates and the bias.
    const int64_t y_span = (n - 1) * st.y_row + (r.k - 1) * st.y_slot + out;
    if (overlaps(y, y_span, x, (n - 1) * st.x_row + (r.k - 1) * st.x_slot + in))
        fail(SKN_E_INVALID_ARGUMENT, "y overlaps x: the output must not alias the input");
    if (r.gates != nullptr && overlaps(y, y_span, r.gates, (n - 1) * r.gates_stride + r.k))
        fail(SKN_E_INVALID_ARGUMENT, "y overlaps gates: the output must not alias the input");
    if (bias != nullptr && overlaps(y, y_span, bias, l.shape[0] * out))
        fail(SKN_E_INVALID_ARGUMENT, "y overlaps bias: the output must not alias the input");
}

void check_finite(const float* x, int64_t n, int64_t k, const Strides& st, int64_t in) {
    const int64_t slots = st.x_slot == 0 ? 1 : k;  // a broadcast row is read once
    for (int64_t i = 0; i < n; ++i)
        for (int64_t s = 0; s < slots; ++s) {
            const float* row = x + i * st.x_row + s * st.x_slot;
            if (all_finite(row, in)) continue;
            for (int64_t c = 0; c < in; ++c)
                if (!std::isfinite(row[c]))
                    refuse_non_finite_activation(i, c, st.x_slot == 0 ? std::string() : fmt::format(" of slot {}", s),
                                                 row[c]);
        }
}

}  // namespace

void matmul_wt_id(Context& ctx, const float* x, int64_t n, int64_t x_row_stride, int64_t x_slot_stride,
                  const ExpertRouting& route, const View& w_in, const float* bias, float* y, int64_t y_row_stride,
                  int64_t y_slot_stride, const MatmulOptions& opts) {
    const Strides st{x_row_stride, x_slot_stride, y_row_stride, y_slot_stride};
    check_args(x, n, st, route, w_in, bias, y);
    const Layout& l = w_in.layout;
    const FormatTraits& f = *l.format;
    const int64_t experts = l.shape[0], out = l.shape[1], in = l.shape[2];
    const int64_t k = route.k;
    const int64_t total = checked_mul(n, k, "x_rows * k");

    // Group the slots by expert, each group in (row, slot) order: slot_at[p]
    // is the (row * k + slot) at position p of the gathered batch. The ids
    // are read once, here, before any output is written.
    int64_t* table = ctx.index_scratch(size_t(checked_add(checked_mul<int64_t>(experts, 2, "E * 2"), total + 1,
                                                          "the routing table size")));
    int64_t* start = table;               // [E + 1]: first position of each expert
    int64_t* cursor = table + experts + 1;  // [E]
    int64_t* slot_at = cursor + experts;  // [n * k]
    std::fill(start, start + experts + 1, 0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t s = 0; s < k; ++s) {
            const int32_t e = route.ids[i * route.ids_stride + s];
            if (e < 0 || e >= experts)
                fail(SKN_E_INVALID_ARGUMENT,
                     "row {}, slot {}: expert id {} is outside the {} experts of the weight {} (valid ids: 0..{})", i,
                     s, e, experts, l.describe(), experts - 1);
            ++start[e + 1];
        }
    for (int64_t e = 0; e < experts; ++e) {
        start[e + 1] += start[e];
        cursor[e] = start[e];
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t s = 0; s < k; ++s) slot_at[cursor[route.ids[i * route.ids_stride + s]]++] = i * k + s;

    const FormatId act = activation_for(f, opts.precision);
    if (act != FormatId::F32) check_finite(x, n, k, st, in);

    // Each used expert's slice and kernel, chosen as matmul_wt chooses for it.
    std::vector<Expert> used;
    std::string fallback_reason;
    uint32_t needs = 0;
    int64_t tasks = 0;
    bool gathered_outputs = false;
    for (int64_t e = 0; e < experts; ++e) {
        if (start[e + 1] == start[e]) continue;
        Expert ex;
        ex.id = e;
        ex.w = with_layout(w_in, select(l, 0, e));
        KernelChoice choice = choose_kernel(ctx, ex.w, act, opts);
        if (!choice.fallback_reason.empty()) {
            if (opts.strict) fail(SKN_E_UNSUPPORTED, "strict: expert {}: {}", e, choice.fallback_reason);
            if (fallback_reason.empty()) fallback_reason = std::move(choice.fallback_reason);
        }
        if (choice.relayout) {
            if (opts.scope == nullptr)
                fail(SKN_E_INVALID_ARGUMENT,
                     "prepack_weights needs a scope to allocate the relayout in (options.scope)");
            const BlockOrder to = l.order == BlockOrder::RowMajor ? BlockOrder::InputBlockMajor : BlockOrder::RowMajor;
            View packed;
            prepack(ex.w, to, opts.scope, ctx.trace(), &packed);
            ex.w = packed;
        }
        ex.kernel = choice.kernel;
        ex.first = start[e];
        ex.rows = start[e + 1] - start[e];
        ex.split = task_rows(*ex.kernel, ex.rows, out);
        ex.first_task = tasks;
        tasks += ex.split.count;
        needs |= ex.kernel->needs;
        gathered_outputs |= ex.rows > 1;
        used.push_back(std::move(ex));
    }

    Stopwatch clock;
    // The gathered batch: position p holds the activation row of slot_at[p],
    // prepared as matmul_wt prepares a row (same quantizer, same bytes).
    auto row_of = [&](int64_t p) {
        const int64_t i = slot_at[p] / k, s = slot_at[p] % k;
        return x + i * st.x_row + s * st.x_slot;
    };
    const size_t gathered_floats = size_t(checked_mul(total, in, "x_rows * k * in"));
    const float* xf = nullptr;
    const uint8_t* xq = nullptr;
    size_t row_bytes = 0;
    constexpr int64_t kRowsPerPrepTask = 16;
    const int64_t prep_tasks = (total + kRowsPerPrepTask - 1) / kRowsPerPrepTask;
    if (act == FormatId::F32) {
        float* g = ctx.float_scratch(gathered_floats);
        ctx.run(prep_tasks, [&](int64_t t) {
            for (int64_t p = t * kRowsPerPrepTask; p < std::min(total, (t + 1) * kRowsPerPrepTask); ++p)
                std::memcpy(g + p * in, row_of(p), size_t(in) * sizeof(float));
        });
        xf = g;
    } else {
        const FormatTraits& af = *find_format(act);
        row_bytes = size_t(in / af.block_elems) * size_t(af.block_bytes);
        uint8_t* q = ctx.byte_scratch(size_t(checked_mul<int64_t>(total, int64_t(row_bytes), "the quantized batch")));
        float* g = (needs & kNeedsFloat) ? ctx.float_scratch(gathered_floats) : nullptr;
        const QuantizeRowFn quantize = activation_quantizer(af, ctx.isa_cap());
        ctx.run(prep_tasks, [&](int64_t t) {
            for (int64_t p = t * kRowsPerPrepTask; p < std::min(total, (t + 1) * kRowsPerPrepTask); ++p) {
                quantize(row_of(p), in, q + size_t(p) * row_bytes);
                if (g != nullptr) af.decode(q + size_t(p) * row_bytes, in / af.block_elems, 1.0f, g + p * in);
            }
        });
        xq = q;
        xf = g;
    }
    // An expert with several slots computes into a gathered block, scattered
    // to the slots' places afterwards; one with a single slot writes in place.
    float* yg = gathered_outputs ? ctx.output_scratch(size_t(checked_mul(total, out, "x_rows * k * out"))) : nullptr;

    ctx.run(tasks, [&](int64_t t) {
        const auto it = std::upper_bound(used.begin(), used.end(), t,
                                         [](int64_t task, const Expert& e) { return task < e.first_task; });
        const Expert& ex = *(it - 1);
        const int64_t o0 = ex.split.begin(t - ex.first_task);
        const int64_t o1 = ex.split.end(t - ex.first_task, out);
        MatmulArgs a;
        a.w = &ex.w;
        a.out = out;
        a.in = in;
        a.n = ex.rows;
        if (xf != nullptr) {
            a.xf = xf + ex.first * in;
            a.xf_stride = in;
        }
        if (xq != nullptr) {
            a.xq = xq + size_t(ex.first) * row_bytes;
            a.xq_stride = row_bytes;
        }
        a.bias = bias != nullptr ? bias + ex.id * out : nullptr;
        auto place = [&](int64_t p) {
            const int64_t i = slot_at[p] / k, s = slot_at[p] % k;
            return y + i * st.y_row + s * st.y_slot;
        };
        auto gate = [&](int64_t p) {
            const int64_t i = slot_at[p] / k, s = slot_at[p] % k;
            return route.gates[i * route.gates_stride + s];
        };
        if (ex.rows == 1) {
            float* dst = place(ex.first);
            a.y = dst;
            a.y_stride = out;
            ex.kernel->fn(a, o0, o1);
            if (route.gates != nullptr) {
                const float g = gate(ex.first);
                for (int64_t o = o0; o < o1; ++o) dst[o] *= g;
            }
            return;
        }
        a.y = yg + ex.first * out;
        a.y_stride = out;
        ex.kernel->fn(a, o0, o1);
        for (int64_t j = 0; j < ex.rows; ++j) {
            const int64_t p = ex.first + j;
            const float* src = yg + p * out;
            float* dst = place(p);
            if (route.gates == nullptr) {
                std::memcpy(dst + o0, src + o0, size_t(o1 - o0) * sizeof(float));
            } else {
                const float g = gate(p);
                for (int64_t o = o0; o < o1; ++o) dst[o] = src[o] * g;
            }
        }
    });

    if (!ctx.trace().enabled()) return;
    const int64_t ns = clock.nanoseconds();
    const Expert& first = used.front();
    if (!fallback_reason.empty()) emit_kernel_event(ctx, SKN_TRACE_FALLBACK, *first.kernel, fallback_reason, first.w, total, ns);
    emit_kernel_event(ctx, SKN_TRACE_KERNEL, *first.kernel,
                      fmt::format("matmul_wt_id: {} on {} of the {} experts of {}, {} rows x {} slots", first.kernel->name,
                                  used.size(), experts, l.describe(), n, k),
                      first.w, total, ns);
}

}  // namespace skn_core
