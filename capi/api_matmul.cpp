// SPDX-License-Identifier: MIT
// Context, matmul_wt, prepack_for_matmul and the kernel listing.
#include "capi/guard.hpp"
#include "capi/handles.hpp"

#include <cstddef>
#include <cstdint>

#include "dispatch/matmul.hpp"
#include "dispatch/matmul_id.hpp"
#include "formats/orientation.hpp"
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

// A byte stride of skn_routed_matmul in elements of elem_bytes: whole
// elements only (a float or an int32 split across a stride would be read
// misaligned and from two neighbours).
int64_t elements_of(int64_t bytes, size_t elem_bytes, const char* name) {
    if (bytes % int64_t(elem_bytes) != 0)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "{} {} bytes is not a multiple of {}: rows and slots start on whole {}",
                       name, bytes, elem_bytes, elem_bytes == sizeof(float) ? "floats" : "int32 ids");
    return bytes / int64_t(elem_bytes);
}

constexpr size_t kRoutedV1Size = offsetof(skn_routed_matmul, y_slot_stride) + sizeof(int64_t);

skn_core::MatmulCall to_call(const skn_routed_matmul* a) {
    require_non_null(a, "args");
    if (a->struct_size < kRoutedV1Size)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "args->struct_size is {}: set it to sizeof(skn_routed_matmul) ({})",
                       a->struct_size, sizeof(skn_routed_matmul));
    return skn_core::MatmulCall{
        .routed = true,
        .x = a->x,
        .n = a->x_rows,
        .x_row_stride = elements_of(a->x_row_stride, sizeof(float), "x_row_stride"),
        .x_slots = a->x_slots,
        .x_slot_stride = elements_of(a->x_slot_stride, sizeof(float), "x_slot_stride"),
        .ids = a->ids,
        .k = a->k,
        .ids_row_stride = elements_of(a->ids_row_stride, sizeof(int32_t), "ids_row_stride"),
        .gates = a->gates,
        .gates_row_stride =
            a->gates != nullptr ? elements_of(a->gates_row_stride, sizeof(float), "gates_row_stride") : 0,
        .bias = a->bias,
        .y = a->y,
        .y_row_stride = elements_of(a->y_row_stride, sizeof(float), "y_row_stride"),
        .y_slot_stride = elements_of(a->y_slot_stride, sizeof(float), "y_slot_stride"),
        .byte_strides = true};
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
        // x_slot_stride 0: every slot reads the row; else each slot its own.
        const skn_core::MatmulCall call{.routed = true,
                                        .x = x,
                                        .n = x_rows,
                                        .x_row_stride = x_row_stride,
                                        .x_slots = x_slot_stride == 0 ? 1 : k,
                                        .x_slot_stride = x_slot_stride,
                                        .ids = ids,
                                        .k = k,
                                        .ids_row_stride = ids_row_stride,
                                        .gates = gates,
                                        .gates_row_stride = gates_row_stride,
                                        .bias = bias,
                                        .y = y,
                                        .y_row_stride = y_row_stride,
                                        .y_slot_stride = y_slot_stride};
        skn_core::matmul_wt_id(c, call, w->view, to_options(opts));
    });
}

SKN_API skn_status skn_matmul_wt_id_ex(skn_context* ctx, const skn_routed_matmul* args,
                                       const skn_matmul_options* opts) {
    return guarded([&] {
        skn_core::Context& c = context_of(ctx);
        const skn_core::MatmulCall call = to_call(args);
        require_non_null(args->w, "args->w");
        skn_core::matmul_wt_id(c, call, args->w->view, to_options(opts));
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
        const skn_core::Encoding to = skn_core::preferred_encoding(c, one);
        // convert returns false for a weight already in that encoding (a
        // dense one included): the same handle comes back.
        if (skn_core::convert(w->view, *to.format, to.order, scope ? &scope->scope : nullptr, c.trace(), &packed))
            *out = new_view_handle(packed);
        else
            *out = skn_view_retain(const_cast<skn_view*>(w));
    });
}

SKN_API const char* skn_kernel_variant(int32_t index) {
    const auto& k = skn_core::default_registry().kernels();
    if (index < 0 || size_t(index) >= k.size()) return nullptr;
    return k[size_t(index)].variant.c_str();
}

SKN_API int32_t skn_tuning_count(const skn_context* ctx) {
    return ctx == nullptr ? 0 : static_cast<int32_t>(ctx->ctx.tuning().rows().size());
}

SKN_API skn_status skn_tuning_row_at(const skn_context* ctx, int32_t index, skn_tuning_row* row) {
    return guarded([&] {
        require_non_null(ctx, "ctx");
        require_non_null(row, "row");
        if (row->struct_size < offsetof(skn_tuning_row, source) + sizeof(const char*))
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "row->struct_size is {}: set it to sizeof(skn_tuning_row) ({})",
                           row->struct_size, sizeof(skn_tuning_row));
        const auto& rows = ctx->ctx.tuning().rows();
        if (index < 0 || size_t(index) >= rows.size())
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "tuning row {} is out of range (0..{})", index,
                           int64_t(rows.size()) - 1);
        const skn_core::TuningRow& r = rows[size_t(index)];
        row->choice = skn_core::tuning_choice_name(r.choice);
        row->cores = ctx->ctx.tuning().cores_text(size_t(index));
        row->tier = r.tier;
        row->subject = r.subject.c_str();
        row->value = r.value.c_str();
        row->evidence = r.evidence.c_str();
        row->source = r.source.c_str();
    });
}

SKN_API const char* skn_tuning_file(const char** why) {
    const skn_core::Tuning& t = skn_core::Tuning::process();
    if (why != nullptr) *why = t.file_note().c_str();
    return t.file().c_str();
}

SKN_API const char* skn_tuning_file_path(void) {
    static const std::string path = skn_core::tuning_file_path();
    return path.c_str();
}

SKN_API skn_status skn_context_set_tuning(skn_context* ctx, const char* choice, const char* subject,
                                          const char* value) {
    return guarded([&] {
        skn_core::Context& c = context_of(ctx);
        require_non_null(choice, "choice");
        require_non_null(subject, "subject");
        require_non_null(value, "value");
        c.set_tuning(choice, subject, value);
    });
}

SKN_API int32_t skn_kernel_count(void) { return static_cast<int32_t>(skn_core::default_registry().kernels().size()); }

SKN_API const char* skn_kernel_name(int32_t index) {
    const auto& k = skn_core::default_registry().kernels();
    if (index < 0 || size_t(index) >= k.size()) return nullptr;
    return k[size_t(index)].name.c_str();
}

}  // extern "C"
