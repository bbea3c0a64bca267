// SPDX-License-Identifier: MIT
// Context, matmul_wt, prepack_for_matmul and the kernel listing.
#include "capi/guard.hpp"
#include "capi/handles.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "runtime/checked.hpp"
#include "dispatch/matmul.hpp"
#include "dispatch/matmul_id.hpp"
#include "layout/orientation.hpp"
#include "layout/prepack.hpp"
#include "runtime/isa.hpp"

using skn_core::capi::guarded;
using skn_core::capi::new_view_handle;
using skn_core::capi::require_non_null;

struct skn_context {
    skn_core::Context ctx;
};

namespace {

skn_core::Context& context_of(skn_context* c) {
    require_non_null(c, "ctx");
    return c->ctx;
}

// The bytes x or y spans, computed with checked arithmetic before the core
// compares ranges or computes row addresses: an overflowing product would
// otherwise wrap into a small, valid-looking span (or an address before the
// buffer) and pass every later check. `rows`, `stride` and `width` are the
// caller's; the names make the message name the argument at fault.
void check_span(const float* p, int64_t rows, int64_t stride, int64_t width, const char* rows_name,
                const char* stride_name, const char* width_name, const char* buffer) {
    using skn_core::checked_add;
    using skn_core::checked_mul;
    // The usual case, checked without building the messages (formatting them
    // cost more than a small GEMV).
    int64_t last_elem = 0, elems_ok = 0, bytes_ok = 0;
    uintptr_t end = 0;
    if (!__builtin_mul_overflow(rows - 1, stride, &last_elem) && !__builtin_add_overflow(last_elem, width, &elems_ok) &&
        !__builtin_mul_overflow(elems_ok, int64_t(sizeof(float)), &bytes_ok) &&
        !__builtin_add_overflow(reinterpret_cast<uintptr_t>(p), uintptr_t(bytes_ok), &end))
        return;
    const std::string last = fmt::format("({} - 1) * {}", rows_name, stride_name);
    const int64_t elems = checked_add(checked_mul(rows - 1, stride, last), width, last + " + " + width_name);
    const int64_t bytes = checked_mul<int64_t>(elems, int64_t(sizeof(float)),
                                               fmt::format("({} + {}) * sizeof(float)", last, width_name));
    (void)checked_add<uintptr_t>(reinterpret_cast<uintptr_t>(p), uintptr_t(bytes),
                                 fmt::format("the end of {} ({} rows of {})", buffer, rows_name, stride_name));
}

void check_matmul_sizes(const float* x, int64_t x_rows, int64_t x_row_stride, const skn_core::View& w, const float* y,
                        int64_t y_row_stride) {
    const skn_core::Layout& l = w.layout;
    if (x == nullptr || y == nullptr || l.rank != 2) return;  // the core reports these
    const int64_t out = l.shape[0], in = l.shape[1];
    if (x_rows < 1) skn_core::fail(SKN_E_INVALID_ARGUMENT, "x_rows is {}: at least one activation row is needed", x_rows);
    if (x_row_stride < in)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "x_row_stride {} is smaller than a row of {} inputs", x_row_stride, in);
    if (y_row_stride < out)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "y_row_stride {} is smaller than a row of {} outputs", y_row_stride, out);
    check_span(x, x_rows, x_row_stride, in, "x_rows", "x_row_stride", "in", "x");
    check_span(y, x_rows, y_row_stride, out, "x_rows", "y_row_stride", "out", "y");
}

// check_span for a buffer addressed by row and slot: (rows - 1) * row_stride
// + (k - 1) * slot_stride + width elements of elem_bytes each.
void check_routed_span(const void* p, size_t elem_bytes, int64_t rows, int64_t row_stride, int64_t k,
                       int64_t slot_stride, int64_t width, const char* row_stride_name, const char* slot_stride_name,
                       const char* width_name, const char* buffer) {
    using skn_core::checked_add;
    using skn_core::checked_mul;
    const std::string by_row = fmt::format("(x_rows - 1) * {}", row_stride_name);
    const std::string by_slot = fmt::format("(k - 1) * {}", slot_stride_name);
    const std::string sum = fmt::format("{} + {} + {}", by_row, by_slot, width_name);
    const int64_t elems = checked_add(checked_add(checked_mul(rows - 1, row_stride, by_row),
                                                  checked_mul(k - 1, slot_stride, by_slot), sum),
                                      width, sum);
    const int64_t bytes = checked_mul<int64_t>(elems, int64_t(elem_bytes), fmt::format("({}) * {}", sum, elem_bytes));
    (void)checked_add<uintptr_t>(reinterpret_cast<uintptr_t>(p), uintptr_t(bytes),
                                 fmt::format("the end of {} ({})", buffer, sum));
}

// The spans matmul_wt_id addresses, checked before the core computes any of
// them. Arguments the core refuses anyway (NULL, counts below 1, negative
// strides, a weight that is not rank 3) are left to its messages.
void check_matmul_id_sizes(const float* x, int64_t x_rows, int64_t x_row_stride, int64_t x_slot_stride,
                           const int32_t* ids, int64_t k, int64_t ids_row_stride, const float* gates,
                           int64_t gates_row_stride, const skn_core::View& w, const float* y, int64_t y_row_stride,
                           int64_t y_slot_stride) {
    const skn_core::Layout& l = w.layout;
    if (x == nullptr || y == nullptr || ids == nullptr || l.rank != 3 || x_rows < 1 || k < 1) return;
    if (x_row_stride < 0 || x_slot_stride < 0 || ids_row_stride < 0 || (gates != nullptr && gates_row_stride < 0) ||
        y_row_stride < 0 || y_slot_stride < 0)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "a stride is negative (x_row_stride {}, x_slot_stride {}, ids_row_stride {}, "
                       "gates_row_stride {}, y_row_stride {}, y_slot_stride {}): rows and slots go forward",
                       x_row_stride, x_slot_stride, ids_row_stride, gates_row_stride, y_row_stride, y_slot_stride);
    const int64_t out = l.shape[1], in = l.shape[2];
    check_routed_span(x, sizeof(float), x_rows, x_row_stride, k, x_slot_stride, in, "x_row_stride", "x_slot_stride",
                      "in", "x");
    check_routed_span(y, sizeof(float), x_rows, y_row_stride, k, y_slot_stride, out, "y_row_stride", "y_slot_stride",
                      "out", "y");
    check_routed_span(ids, sizeof(int32_t), x_rows, ids_row_stride, 1, 0, k, "ids_row_stride", "0", "k", "ids");
    if (gates != nullptr)
        check_routed_span(gates, sizeof(float), x_rows, gates_row_stride, 1, 0, k, "gates_row_stride", "0", "k",
                          "gates");
}

constexpr size_t kOptionsV1Size = offsetof(skn_matmul_options, scope) + sizeof(skn_scope*);

skn_core::MatmulOptions to_options(const skn_matmul_options* o) {
    skn_core::MatmulOptions out;
    if (o == nullptr) return out;
    if (o->struct_size < kOptionsV1Size)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "opts->struct_size is {}: set it to sizeof(skn_matmul_options) ({})",
                  o->struct_size, sizeof(skn_matmul_options));
    const int64_t precision = skn_core::capi::raw_enum(o->precision);
    if (precision != SKN_PRECISION_FAST && precision != SKN_PRECISION_EXACT)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "precision {} is not SKN_PRECISION_FAST (0) or SKN_PRECISION_EXACT (1)",
                  precision);
    out.precision = static_cast<skn_core::Precision>(precision);
    out.prepack_weights = o->prepack_weights != 0;
    out.strict = o->strict != 0;
    out.scope = o->scope != nullptr ? &o->scope->scope : nullptr;
    return out;
}

}  // namespace

extern "C" {

SKN_API skn_status skn_context_create(skn_context** out) {
    return guarded([&] {
        require_non_null(out, "out");
        *out = new skn_context;
    });
}

SKN_API void skn_context_destroy(skn_context* ctx) { delete ctx; }

SKN_API skn_status skn_context_set_threads(skn_context* ctx, int threads) {
    return guarded([&] { context_of(ctx).set_threads(threads); });
}

SKN_API skn_status skn_context_set_parallel_for(skn_context* ctx, skn_parallel_for_fn fn, void* user) {
    return guarded([&] { context_of(ctx).set_parallel_for(skn_core::ParallelFor{fn, user}); });
}

SKN_API skn_status skn_context_set_trace(skn_context* ctx, skn_trace_fn fn, void* user) {
    return guarded([&] { context_of(ctx).set_trace(skn_core::TraceSink{fn, user}); });
}

SKN_API skn_status skn_context_set_isa(skn_context* ctx, skn_isa cap) {
    return guarded([&] {
        skn_core::Context& c = context_of(ctx);
        const int64_t raw = skn_core::capi::raw_enum(cap);
        const skn_core::IsaInfo* isa = skn_core::find_isa(raw);
        if (isa == nullptr) skn_core::fail(SKN_E_INVALID_ARGUMENT, "ISA {} is not an skn_isa", raw);
        c.set_isa_cap(isa->isa);
    });
}

SKN_API skn_status skn_matmul_wt(skn_context* ctx, const float* x, int64_t x_rows, int64_t x_row_stride,
                                 const skn_view* w, const float* bias, float* y, int64_t y_row_stride,
                                 const skn_matmul_options* opts) {
    return guarded([&] {
        skn_core::Context& c = context_of(ctx);
        require_non_null(w, "w");
        check_matmul_sizes(x, x_rows, x_row_stride, w->view, y, y_row_stride);
        skn_core::matmul_wt(c, x, x_rows, x_row_stride, w->view, bias, y, y_row_stride, to_options(opts));
    });
}

SKN_API skn_status skn_matmul_wt_id(skn_context* ctx, const float* x, int64_t x_rows, int64_t x_row_stride,
                                    int64_t x_slot_stride, const int32_t* ids, int64_t k, int64_t ids_row_stride,
                                    const float* gates, int64_t gates_row_stride, const skn_view* w,
                                    const float* bias, float* y, int64_t y_row_stride, int64_t y_slot_stride,
                                    const skn_matmul_options* opts) {
    return guarded([&] {
        skn_core::Context& c = context_of(ctx);
        require_non_null(w, "w");
        check_matmul_id_sizes(x, x_rows, x_row_stride, x_slot_stride, ids, k, ids_row_stride, gates,
                              gates_row_stride, w->view, y, y_row_stride, y_slot_stride);
        skn_core::ExpertRouting route;
        route.ids = ids;
        route.k = k;
        route.ids_stride = ids_row_stride;
        route.gates = gates;
        route.gates_stride = gates_row_stride;
        skn_core::matmul_wt_id(c, x, x_rows, x_row_stride, x_slot_stride, route, w->view, bias, y, y_row_stride,
                               y_slot_stride, to_options(opts));
    });
}

SKN_API skn_status skn_prepack_for_matmul(skn_context* ctx, const skn_view* w, skn_scope* scope, skn_view** out) {
    return guarded([&] {
        skn_core::Context& c = context_of(ctx);
        require_non_null(w, "w");
        require_non_null(out, "out");
        const skn_core::Layout& l = w->view.layout;
        if (l.rank != 2 && l.rank != 3)
            skn_core::fail(SKN_E_INVALID_ARGUMENT,
                           "a matmul weight is rank 2 [out, in] (or rank 3 [E, out, in], stacked experts for "
                           "skn_matmul_wt_id); this one is {}",
                           l.describe());
        skn_core::require_out_in(l.shape[size_t(l.rank - 2)], l.shape[size_t(l.rank - 1)], *l.format);
        // A stack runs one expert's [out, in] slice at a time: its order is the slice's.
        const skn_core::View one =
            l.rank == 3 ? skn_core::with_layout(w->view, skn_core::select(l, 0, 0)) : w->view;
        skn_core::View packed;
        if (l.packed() &&
            skn_core::prepack(w->view, skn_core::preferred_order(c, one), scope ? &scope->scope : nullptr, c.trace(), &packed))
            *out = new_view_handle(packed);
        else
            *out = skn_view_retain(const_cast<skn_view*>(w));
    });
}

SKN_API int32_t skn_kernel_count(void) { return static_cast<int32_t>(skn_core::default_registry().kernels().size()); }

SKN_API const char* skn_kernel_name(int32_t index) {
    const auto& k = skn_core::default_registry().kernels();
    if (index < 0 || size_t(index) >= k.size()) return nullptr;
    return k[size_t(index)].name.c_str();
}

}  // extern "C"
