// SPDX-License-Identifier: MIT
// Context, matmul_wt, prepack_for_matmul and the kernel listing.
#include "capi/guard.hpp"
#include "capi/handles.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "runtime/checked.hpp"
#include "dispatch/matmul.hpp"
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

SKN_API skn_status skn_prepack_for_matmul(skn_context* ctx, const skn_view* w, skn_scope* scope, skn_view** out) {
    return guarded([&] {
        skn_core::Context& c = context_of(ctx);
        require_non_null(w, "w");
        require_non_null(out, "out");
        const skn_core::Layout& l = w->view.layout;
        if (l.rank != 2)
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "a matmul weight is rank 2 [out, in]; this one is {}", l.describe());
        skn_core::require_out_in(l.shape[0], l.shape[1], *l.format);
        skn_core::View packed;
        if (l.packed() &&
            skn_core::prepack(w->view, skn_core::preferred_order(c, w->view), scope ? &scope->scope : nullptr, c.trace(), &packed))
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
