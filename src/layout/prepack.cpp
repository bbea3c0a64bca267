// SPDX-License-Identifier: MIT
#include "layout/prepack.hpp"

#include <cstring>

#include <fmt/format.h>

#include "layout/orientation.hpp"
#include "layout/relayout.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

// A view whose layout is exactly the fresh layout of its shape (no narrowing,
// no offset): its matrices can go through the byte-level permutation whole.
bool is_fresh(const Layout& l) {
    const Layout fresh = make_layout(*l.format, l.shape.data(), l.rank, l.order);
    if (l.offset != 0) return false;
    for (int d = 0; d < l.rank; ++d)
        if (l.grid[size_t(d)] != 1 && l.strides[size_t(d)] != fresh.strides[size_t(d)]) return false;
    return true;
}

// Copy block by block through both layouts: any strides, any offset.
void gather(const View& src, const Layout& dst_layout, uint8_t* dst) {
    const Layout& l = src.layout;
    const size_t bpb = size_t(l.format->block_bytes);
    int64_t g[kMaxRank] = {0, 0, 0, 0};
    const int64_t n = l.block_count();
    for (int64_t i = 0; i < n; ++i) {
        std::memcpy(dst + size_t(dst_layout.block_index(g)) * bpb, src.block_at(l.block_index(g)), bpb);
        for (int d = l.rank - 1; d >= 0; --d) {
            if (++g[d] < l.grid[size_t(d)]) break;
            g[d] = 0;
        }
    }
}

std::string layout_shape_text(const Layout& l) {
    std::string s = "[";
    for (int d = 0; d < l.rank; ++d) s += fmt::format("{}{}", d ? ", " : "", l.shape[size_t(d)]);
    return s + "]";
}

}  // namespace

bool prepack(const View& v, BlockOrder order, Scope* scope, const TraceSink& sink, View* out) {
    const Layout& l = v.layout;
    if (order != BlockOrder::RowMajor && order != BlockOrder::InputBlockMajor)
        fail(SKN_E_INVALID_ARGUMENT, "block order {} is not ROW_MAJOR (0) or INPUT_BLOCK_MAJOR (1)", int(order));
    if (!l.packed())
        fail(SKN_E_UNSUPPORTED,
             "cannot prepack a dense {} view: block order applies to block-quantized formats only ({})", l.format->name,
             l.describe());
    // The orientation guard runs on every weight handed to prepack.
    if (l.rank == 2) require_out_in(l.shape[0], l.shape[1], *l.format);
    if (order == l.order) return false;
    if (scope == nullptr)
        fail(SKN_E_INVALID_ARGUMENT, "prepack to {} copies the weight, so it needs a scope to allocate in",
             order_name(order));

    Stopwatch clock;
    const FormatTraits& f = *l.format;
    const Layout dst_layout = make_layout(f, l.shape.data(), l.rank, order);
    const size_t block_bytes = size_t(dst_layout.block_count()) * size_t(f.block_bytes);
    const size_t total = storage_bytes(f, dst_layout.block_count());
    uint8_t* dst = scope->storage->allocate(total);

    const int last = l.rank - 1;
    if (is_fresh(l) && l.rank >= 2) {
        // Each [out, in] matrix is permuted on its own; leading dims stay outermost.
        const int64_t out_rows = l.grid[size_t(last - 1)];
        const int64_t bpr = l.grid[size_t(last)];
        const size_t matrix_bytes = size_t(out_rows * bpr) * size_t(f.block_bytes);
        const int64_t matrices = l.block_count() / (out_rows * bpr);
        for (int64_t m = 0; m < matrices; ++m) {
            const uint8_t* s = v.data + size_t(m) * matrix_bytes;
            uint8_t* d = dst + size_t(m) * matrix_bytes;
            if (order == BlockOrder::InputBlockMajor)
                to_kernel_order(s, matrix_bytes, d, matrix_bytes, out_rows, bpr, size_t(f.block_bytes));
            else
                to_canonical_order(s, matrix_bytes, d, matrix_bytes, out_rows, bpr, size_t(f.block_bytes));
        }
    } else {
        gather(v, dst_layout, dst);
    }
    if (f.tensor_trailer_bytes > 0 && v.trailer != nullptr)
        std::memcpy(dst + block_bytes, v.trailer, size_t(f.tensor_trailer_bytes));

    View result;
    result.layout = dst_layout;
    result.data = dst;
    result.nbytes = total;
    result.tensor_scale = v.tensor_scale;
    result.trailer = f.tensor_trailer_bytes > 0 ? dst + block_bytes : nullptr;
    result.keep_alive = scope->storage;
    result.name = v.name;
    *out = result;
    const std::string subject =
        fmt::format("{} {} into scope {} ({} bytes allocated in it)",
                    v.name ? fmt::format("tensor \"{}\"", *v.name) : std::string("unnamed weight"),
                    layout_shape_text(l), static_cast<const void*>(scope->storage.get()),
                    scope->storage->allocated_bytes());
    emit_adapter(sink, f, l.order, order, total, clock.nanoseconds(), subject);
    return true;
}

}  // namespace skn_core
