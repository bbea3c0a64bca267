// SPDX-License-Identifier: MIT
// Scopes, views, prepack, byte relayout and the orientation guard.
#include <new>

#include "capi/guard.hpp"
#include "capi/handles.hpp"
#include "runtime/checked.hpp"
#include "formats/orientation.hpp"
#include "layout/prepack.hpp"
#include "formats/codecs.hpp"
#include "layout/relayout.hpp"

using skn_core::capi::guarded;
using skn_core::capi::lookup_format;
using skn_core::capi::raw_enum;
using skn_core::capi::new_view_handle;
using skn_core::capi::require_non_null;

namespace skn_core::capi {

skn_view* new_view_handle(const View& v) {
    auto* h = new skn_view;
    h->view = v;
    h->description = v.layout.describe() + (v.borrowed() ? " (borrowed)" : " (scope-owned)");
    return h;
}

const FormatTraits& lookup_format(int64_t format) {
    const FormatTraits* f = format >= INT32_MIN && format <= INT32_MAX ? find_format(int32_t(format)) : nullptr;
    if (f == nullptr)
        fail(SKN_E_UNKNOWN_FORMAT,
             "format id {} is not one skn implements (skn_format_count()/skn_format_at() list those it does)",
             format);
    return *f;
}

}  // namespace skn_core::capi

namespace {

skn_core::BlockOrder to_order(int64_t o) {
    if (o != SKN_ORDER_ROW_MAJOR && o != SKN_ORDER_INPUT_BLOCK_MAJOR)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                  "block order {} is not SKN_ORDER_ROW_MAJOR (0) or SKN_ORDER_INPUT_BLOCK_MAJOR (1)", o);
    return static_cast<skn_core::BlockOrder>(o);
}

const skn_core::View& view_of(const skn_view* v) {
    require_non_null(v, "view");
    return v->view;
}

void relayout(int64_t format, const void* src, size_t src_size, void* dst, size_t dst_size, int64_t rows,
              int64_t bpr, bool forward) {
    const skn_core::FormatTraits& f = lookup_format(format);
    if (!f.block_quantized)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "{} is a dense format: it has no blocks to reorder", f.name);
    require_non_null(src, "src");
    require_non_null(dst, "dst");
    const char* what = forward ? "skn_packed_to_kernel_order" : "skn_packed_to_canonical_order";
    if (rows <= 0 || bpr <= 0)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "{}: rows ({}) and blocks_per_row ({}) must be positive", what, rows, bpr);
    const size_t trailer = size_t(f.tensor_trailer_bytes);
    constexpr std::string_view grid = "the byte size of rows * blocks_per_row blocks";
    const uint64_t need = skn_core::checked_add<uint64_t>(
        skn_core::checked_mul(skn_core::checked_mul(uint64_t(rows), uint64_t(bpr), grid), uint64_t(f.block_bytes), grid),
        trailer, grid);
    if (src_size < need || dst_size < need)
        skn_core::fail(SKN_E_BUFFER_TOO_SMALL, "{}: a {} x {} {} grid{} needs {} bytes; src has {}, dst has {}", what,
                  rows, bpr, f.name, trailer ? " with its trailer" : "", need, src_size, dst_size);
    // A row-interleaved format's grid has rows / R rows of blocks of R rows.
    if (rows % f.block_rows != 0)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "{}: {} interleaves {} rows per block, so rows ({}) must be a multiple of {}", what, f.name,
                       f.block_rows, rows, f.block_rows);
    const size_t block_bytes = size_t(need) - trailer;
    const auto* s = static_cast<const uint8_t*>(src);
    auto* d = static_cast<uint8_t*>(dst);
    if (s < d + need && d < s + need)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "{}: src and dst overlap; the permutation cannot run in place", what);
    const int64_t grid_rows = rows / f.block_rows;
    if (forward) skn_core::to_kernel_order(s, block_bytes, d, block_bytes, grid_rows, bpr, f.tile_bytes());
    else skn_core::to_canonical_order(s, block_bytes, d, block_bytes, grid_rows, bpr, f.tile_bytes());
    std::copy(s + block_bytes, s + need, d + block_bytes);
}

bool is_i2_s_layout(int64_t f) { return f == SKN_FORMAT_I2_S || f == SKN_FORMAT_I2_S_G64; }

void change_i2_s_layout(int64_t from, int64_t to, const void* src, size_t src_size, void* dst, size_t dst_size,
                        int64_t elements) {
    constexpr const char* what = "skn_i2_s_change_layout";
    if (!is_i2_s_layout(from) || !is_i2_s_layout(to))
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "{}: converts between SKN_FORMAT_I2_S ({}) and SKN_FORMAT_I2_S_G64 ({}) only; from is {}, to is "
                       "{}",
                       what, int(SKN_FORMAT_I2_S), int(SKN_FORMAT_I2_S_G64), from, to);
    require_non_null(src, "src");
    require_non_null(dst, "dst");
    if (elements <= 0 || elements % 128 != 0)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "{}: elements ({}) must be a positive multiple of 128 (skn's I2_S rows are whole 128-element "
                       "blocks)",
                       what, elements);
    const uint64_t trailer = uint64_t(skn_core::facts_of(skn_core::FormatId::I2_S).tensor_trailer_bytes);
    const uint64_t need = uint64_t(elements) / 4 + trailer;
    if (src_size < need || dst_size < need)
        skn_core::fail(SKN_E_BUFFER_TOO_SMALL, "{}: {} elements with the trailer need {} bytes; src has {}, dst has {}",
                       what, elements, need, src_size, dst_size);
    const auto* s = static_cast<const uint8_t*>(src);
    auto* d = static_cast<uint8_t*>(dst);
    if (s < d + need && d < s + need)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "{}: src and dst overlap; the codes cannot move in place", what);
    if (from == to) std::copy(s, s + need, d);
    else if (from == SKN_FORMAT_I2_S) skn_core::codec::i2_s_to_g64(s, elements, d);
    else skn_core::codec::i2_s_g64_to_i2_s(s, elements, d);
}

}  // namespace

extern "C" {

SKN_API skn_status skn_scope_create(skn_scope** out) {
    return guarded([&] {
        require_non_null(out, "out");
        *out = new skn_scope;
    });
}

SKN_API void skn_scope_destroy(skn_scope* scope) { delete scope; }

SKN_API skn_status skn_scope_allocated(const skn_scope* scope, uint64_t* out_bytes) {
    return guarded([&] {
        require_non_null(scope, "scope");
        require_non_null(out_bytes, "out_bytes");
        *out_bytes = scope->scope.storage->allocated_bytes();
    });
}

SKN_API skn_status skn_view_from_bytes(const void* data, size_t nbytes, skn_format format, const int64_t* shape,
                                       int rank, skn_block_order order, skn_view** out) {
    return guarded([&] {
        require_non_null(out, "out");
        const skn_core::FormatTraits& f = lookup_format(raw_enum(format));
        *out = new_view_handle(skn_core::make_view(data, nbytes, f, shape, rank, to_order(raw_enum(order))));
    });
}

SKN_API skn_view* skn_view_retain(skn_view* view) {
    if (view != nullptr) view->refs.fetch_add(1, std::memory_order_relaxed);
    return view;
}

SKN_API void skn_view_release(skn_view* view) {
    if (view != nullptr && view->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete view;
}

SKN_API const char* skn_view_describe(const skn_view* view) {
    return view == nullptr ? "(null)" : view->description.c_str();
}

SKN_API skn_block_order skn_view_order(const skn_view* view) {
    return view == nullptr ? SKN_ORDER_ROW_MAJOR : static_cast<skn_block_order>(view->view.layout.order);
}

SKN_API skn_layout_class skn_view_layout_class(const skn_view* view) {
    return view == nullptr ? SKN_LAYOUT_CONTIGUOUS : static_cast<skn_layout_class>(view->view.layout.layout_class());
}

SKN_API skn_format skn_view_format(const skn_view* view) {
    return view == nullptr ? SKN_FORMAT_INVALID : static_cast<skn_format>(view->view.layout.format->id);
}

SKN_API int skn_view_rank(const skn_view* view) { return view == nullptr ? 0 : view->view.layout.rank; }

SKN_API skn_status skn_view_shape(const skn_view* view, int64_t shape[4]) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(shape, "shape");
        for (int d = 0; d < 4; ++d) shape[d] = d < v.layout.rank ? v.layout.shape[size_t(d)] : 0;
    });
}

SKN_API skn_status skn_view_narrow(const skn_view* view, int dim, int64_t start, int64_t length, skn_view** out) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(out, "out");
        *out = new_view_handle(skn_core::with_layout(v, skn_core::narrow(v.layout, dim, start, length)));
    });
}

SKN_API skn_status skn_view_select(const skn_view* view, int dim, int64_t index, skn_view** out) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(out, "out");
        *out = new_view_handle(skn_core::with_layout(v, skn_core::select(v.layout, dim, index)));
    });
}

SKN_API skn_status skn_view_transpose(const skn_view* view, int dim0, int dim1, skn_view** out) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(out, "out");
        *out = new_view_handle(skn_core::with_layout(v, skn_core::transpose(v.layout, dim0, dim1)));
    });
}

SKN_API skn_status skn_view_unsqueeze(const skn_view* view, int dim, skn_view** out) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(out, "out");
        *out = new_view_handle(skn_core::with_layout(v, skn_core::unsqueeze(v.layout, dim)));
    });
}

SKN_API skn_status skn_view_get(const skn_view* view, const int64_t* indices, int rank, float* out) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(out, "out");
        *out = skn_core::view_get(v, indices, rank);
    });
}

SKN_API skn_status skn_view_to_float(const skn_view* view, float* dst, size_t dst_count) {
    return guarded([&] { skn_core::view_to_float(view_of(view), dst, dst_count); });
}

SKN_API skn_status skn_view_prepack(const skn_view* view, skn_block_order order, skn_scope* scope,
                                    skn_trace_fn trace, void* user, skn_view** out) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(out, "out");
        skn_core::View packed;
        if (skn_core::prepack(v, to_order(raw_enum(order)), scope ? &scope->scope : nullptr, skn_core::TraceSink{trace, user}, &packed)) {
            *out = new_view_handle(packed);
        } else {
            *out = skn_view_retain(const_cast<skn_view*>(view));  // the very same view
        }
    });
}

SKN_API skn_status skn_view_convert(const skn_view* view, skn_format format, skn_block_order order, skn_scope* scope,
                                    skn_trace_fn trace, void* user, skn_view** out) {
    return guarded([&] {
        const skn_core::View& v = view_of(view);
        require_non_null(out, "out");
        const skn_core::FormatTraits& to = lookup_format(raw_enum(format));
        skn_core::View converted;
        if (skn_core::convert(v, to, to_order(raw_enum(order)), scope ? &scope->scope : nullptr,
                              skn_core::TraceSink{trace, user}, &converted))
            *out = new_view_handle(converted);
        else
            *out = skn_view_retain(const_cast<skn_view*>(view));  // the very same view
    });
}

SKN_API skn_status skn_packed_convert(skn_format from, skn_format to, const void* src, size_t src_size, void* dst,
                                      size_t dst_size, int64_t rows, int64_t cols) {
    return guarded([&] {
        skn_core::convert_rows(lookup_format(raw_enum(from)), lookup_format(raw_enum(to)), src, src_size, dst, dst_size,
                               rows, cols);
    });
}

SKN_API skn_status skn_packed_to_kernel_order(skn_format format, const void* src, size_t src_size, void* dst,
                                              size_t dst_size, int64_t rows, int64_t blocks_per_row) {
    return guarded([&] { relayout(raw_enum(format), src, src_size, dst, dst_size, rows, blocks_per_row, true); });
}

SKN_API skn_status skn_packed_to_canonical_order(skn_format format, const void* src, size_t src_size, void* dst,
                                                 size_t dst_size, int64_t rows, int64_t blocks_per_row) {
    return guarded([&] { relayout(raw_enum(format), src, src_size, dst, dst_size, rows, blocks_per_row, false); });
}

SKN_API skn_status skn_i2_s_change_layout(skn_format from, skn_format to, const void* src, size_t src_size, void* dst,
                                          size_t dst_size, int64_t elements) {
    return guarded(
        [&] { change_i2_s_layout(raw_enum(from), raw_enum(to), src, src_size, dst, dst_size, elements); });
}

SKN_API skn_status skn_require_out_in(int64_t rows, int64_t in, skn_format format) {
    return guarded([&] { skn_core::require_out_in(rows, in, lookup_format(raw_enum(format))); });
}

}  // extern "C"
