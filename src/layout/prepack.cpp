// SPDX-License-Identifier: MIT
#include "layout/prepack.hpp"

#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "formats/orientation.hpp"
#include "layout/relayout.hpp"
#include "runtime/error.hpp"
#include "runtime/log.hpp"

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
    const size_t bpb = l.format->tile_bytes();
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

// The adapter event of a conversion. `subject` names what was converted and
// where the copy went (the tensor's name when known, the scope), so an
// engine can tell which weight it is. With no sink set the event still goes
// to the library log at DEBUG: a conversion is never silent (rule 3). A
// change of encoding (a row-interleaved format and its canonical twin) names
// both formats; a prepack passes the same format twice.
void emit_adapter(const TraceSink& sink, const FormatTraits& from_format, const FormatTraits& to_format,
                  BlockOrder from, BlockOrder to, uint64_t bytes, int64_t nanoseconds, const std::string& subject) {
    if (!sink.enabled() && !log_enabled(SKN_LOG_DEBUG)) return;
    const bool same = &from_format == &to_format;
    const char* name = same ? "prepack" : "convert";
    const std::string detail =
        same ? fmt::format("prepack {} {}: {} -> {}, {} bytes copied", from_format.name, subject, order_name(from),
                           order_name(to), bytes)
             : fmt::format("convert {}: {} {} -> {} {}, {} bytes written", subject, from_format.name, order_name(from),
                           to_format.name, order_name(to), bytes);
    if (!sink.enabled()) {
        log_debug("adapter: {} ({} ns)", detail, nanoseconds);
        return;
    }
    skn_trace_event e{};
    e.struct_size = sizeof e;
    e.kind = SKN_TRACE_ADAPTER;
    e.name = name;
    e.detail = detail.c_str();
    e.format = static_cast<skn_format>(from_format.id);
    e.from_order = static_cast<skn_block_order>(from);
    e.to_order = static_cast<skn_block_order>(to);
    e.bytes = bytes;
    e.nanoseconds = nanoseconds;
    e.to_format = static_cast<skn_format>(to_format.id);
    sink.emit(e);
}

// The adapter event of a copy of `v` into `scope` (prepack: from == to), naming
// the weight and where the copy went.
void emit_copy(const TraceSink& sink, const View& v, const Scope& scope, const FormatTraits& from,
               const FormatTraits& to, BlockOrder order, uint64_t bytes, int64_t nanoseconds) {
    const std::string subject =
        fmt::format("{} {} into scope {} ({} bytes allocated in it)",
                    v.name ? fmt::format("tensor \"{}\"", *v.name) : std::string("unnamed weight"),
                    layout_shape_text(v.layout), static_cast<const void*>(scope.storage.get()),
                    scope.storage->allocated_bytes());
    emit_adapter(sink, from, to, v.layout.order, order, bytes, nanoseconds, subject);
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
    const size_t block_bytes = size_t(dst_layout.block_count()) * f.tile_bytes();
    const size_t total = storage_bytes(f, dst_layout.block_count());
    uint8_t* dst = scope->storage->allocate(total);

    const int last = l.rank - 1;
    if (is_fresh(l) && l.rank >= 2) {
        // Each [out, in] matrix is permuted on its own; leading dims stay outermost.
        const int64_t out_rows = l.grid[size_t(last - 1)];
        const int64_t bpr = l.grid[size_t(last)];
        const size_t matrix_bytes = size_t(out_rows * bpr) * f.tile_bytes();
        const int64_t matrices = l.block_count() / (out_rows * bpr);
        for (int64_t m = 0; m < matrices; ++m) {
            const uint8_t* s = v.data + size_t(m) * matrix_bytes;
            uint8_t* d = dst + size_t(m) * matrix_bytes;
            if (order == BlockOrder::InputBlockMajor)
                to_kernel_order(s, matrix_bytes, d, matrix_bytes, out_rows, bpr, f.tile_bytes());
            else
                to_canonical_order(s, matrix_bytes, d, matrix_bytes, out_rows, bpr, f.tile_bytes());
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
    emit_copy(sink, v, *scope, f, f, order, total, clock.nanoseconds());
    return true;
}

namespace {

// Whether `from` and `to` are encodings of one format: the same format, or a
// canonical format and its row-interleaved twin.
void require_twins(const FormatTraits& from, const FormatTraits& to) {
    if (&from == &to) return;
    if (canonical_format(from.id) == canonical_format(to.id) && (from.interleaved() != to.interleaved())) return;
    const FormatTraits& a = *find_format(canonical_format(from.id));
    fail(SKN_E_INVALID_ARGUMENT,
         "cannot convert {} to {}: a conversion changes the block order or moves a format to or from its "
         "row-interleaved twin (both decode to the same values); {} converts only to {}{}. To change the "
         "quantization, decode with skn_view_to_float and quantize again",
         from.name, to.name, from.name, a.name,
         from.interleaved() || a.id == from.id ? "" : " and its interleaved twin");
}

// Copies every block of `src` into `dst` (laid out by dst_layout), moving
// between a canonical format and its row-interleaved twin when the two
// layouts' formats differ. Reads and writes only through the layouts, so any
// order, strides or offset work on either side; walks each block row with
// fixed strides, and points the codec straight at the canonical blocks
// where a row's share of an interleaved block is contiguous (always, but for
// a strided dense BF16 view), so a load-time repack costs little more than
// the copy itself.
void convert_blocks(const View& src, const Layout& dst_layout, uint8_t* dst) {
    const Layout& sl = src.layout;
    const FormatTraits& df = *dst_layout.format;
    const bool interleave = df.interleaved();
    const FormatTraits& inter = interleave ? df : *sl.format;  // the interleaved side
    const Layout& il = interleave ? dst_layout : sl;            // its layout
    const Layout& cl = interleave ? sl : dst_layout;            // the canonical side's
    const uint8_t* const in_bytes = src.data;
    uint8_t* const ib = interleave ? dst : nullptr;             // interleaved bytes written
    const uint8_t* const ib_read = interleave ? nullptr : in_bytes;
    uint8_t* const cb_write = interleave ? nullptr : dst;       // canonical bytes written
    const uint8_t* const cb_read = interleave ? in_bytes : nullptr;
    const InterleavedCodec& codec = *inter.interleaved_codec;
    const int64_t R = inter.block_rows;
    const int rank = il.rank, last = rank - 1;
    const int64_t bpr = il.grid[size_t(last)];
    // A row's share of an interleaved block is `ratio` canonical blocks
    // (BF16_R16: two BF16 values; every quantized twin: one).
    const int64_t ratio = inter.block_elems / cl.format->block_elems;
    const size_t canon_bytes = cl.format->tile_bytes(), tile = inter.tile_bytes();
    const int64_t cs = cl.strides[size_t(last)], is = il.strides[size_t(last)];
    const bool direct = ratio == 1 || cs == 1;
    std::vector<uint8_t> buf(direct ? 0 : size_t(R) * size_t(inter.block_bytes));
    std::vector<int64_t> cbase(static_cast<size_t>(R));
    std::vector<const uint8_t*> from(static_cast<size_t>(R));
    std::vector<uint8_t*> to(static_cast<size_t>(R));
    int64_t g[kMaxRank] = {0, 0, 0, 0};  // interleaved grid coordinates, g[last] = 0
    int64_t c[kMaxRank] = {0, 0, 0, 0};  // canonical grid coordinates
    for (int64_t row = 0, rows = il.block_count() / bpr; row < rows; ++row) {
        const int64_t i0 = il.block_index(g);
        for (int d = 0; d < rank; ++d) c[d] = g[d];
        for (int64_t k = 0; k < R; ++k) {
            c[last - 1] = g[last - 1] * R + k;
            cbase[size_t(k)] = cl.block_index(c);
        }
        for (int64_t b = 0; b < bpr; ++b) {
            for (int64_t k = 0; k < R; ++k) {
                const size_t at = size_t(cbase[size_t(k)] + b * ratio * cs) * canon_bytes;
                uint8_t* part = direct ? nullptr : buf.data() + size_t(k) * size_t(inter.block_bytes);
                if (interleave) {
                    if (direct) {
                        from[size_t(k)] = cb_read + at;
                        continue;
                    }
                    for (int64_t j = 0; j < ratio; ++j)
                        std::memcpy(part + size_t(j) * canon_bytes, cb_read + at + size_t(j * cs) * canon_bytes,
                                    canon_bytes);
                    from[size_t(k)] = part;
                } else {
                    to[size_t(k)] = direct ? cb_write + at : part;
                }
            }
            if (interleave) {
                codec.interleave(from.data(), ib + size_t(i0 + b * is) * tile);
                continue;
            }
            codec.deinterleave(ib_read + size_t(i0 + b * is) * tile, to.data());
            if (!direct)
                for (int64_t k = 0; k < R; ++k)
                    for (int64_t j = 0; j < ratio; ++j)
                        std::memcpy(cb_write + size_t(cbase[size_t(k)] + (b * ratio + j) * cs) * canon_bytes,
                                    to[size_t(k)] + size_t(j) * canon_bytes, canon_bytes);
        }
        for (int d = last - 1; d >= 0; --d) {  // next block row: odometer over the leading dims
            if (++g[d] < il.grid[size_t(d)]) break;
            g[d] = 0;
        }
    }
}

}  // namespace

bool convert(const View& v, const FormatTraits& to, BlockOrder order, Scope* scope, const TraceSink& sink, View* out) {
    const Layout& l = v.layout;
    const FormatTraits& from = *l.format;
    if (!to.block_quantized && order != BlockOrder::RowMajor)
        fail(SKN_E_INVALID_ARGUMENT, "{} is a dense format: its only order is ROW_MAJOR, not {}", to.name,
             order_name(order));
    if (&to == &from) {
        // A dense view already is its format's one encoding (prepack, which
        // is about block order, would refuse it): nothing to do.
        if (!l.packed()) return false;
        return prepack(v, order, scope, sink, out);
    }
    require_twins(from, to);
    if (order != BlockOrder::RowMajor && order != BlockOrder::InputBlockMajor)
        fail(SKN_E_INVALID_ARGUMENT, "block order {} is not ROW_MAJOR (0) or INPUT_BLOCK_MAJOR (1)", int(order));
    if (l.rank == 2) require_out_in(l.shape[0], l.shape[1], from);
    if (scope == nullptr)
        fail(SKN_E_INVALID_ARGUMENT, "converting {} to {} writes a new weight, so it needs a scope to allocate in",
             from.name, to.name);
    Stopwatch clock;
    const Layout dst_layout = make_layout(to, l.shape.data(), l.rank, order);  // refuses out % R != 0
    const size_t total = storage_bytes(to, dst_layout.block_count());
    uint8_t* dst = scope->storage->allocate(total);
    convert_blocks(v, dst_layout, dst);

    View result;
    result.layout = dst_layout;
    result.data = dst;
    result.nbytes = total;
    result.keep_alive = scope->storage;
    result.name = v.name;
    *out = result;
    emit_copy(sink, v, *scope, from, to, order, total, clock.nanoseconds());
    return true;
}

void convert_rows(const FormatTraits& from, const FormatTraits& to, const void* src, size_t src_size, void* dst,
                  size_t dst_size, int64_t rows, int64_t cols) {
    if (src == nullptr || dst == nullptr) fail(SKN_E_INVALID_ARGUMENT, "src and dst must not be NULL");
    require_twins(from, to);
    const int64_t shape[2] = {rows, cols};
    const Layout src_layout = make_layout(from, shape, 2, BlockOrder::RowMajor);
    const size_t src_need = storage_bytes(from, src_layout.block_count());
    if (src_size < src_need)  // a short buffer, as skn.h documents it (make_view calls it a bad argument)
        fail(SKN_E_BUFFER_TOO_SMALL, "a [{}, {}] {} tensor is {} bytes but src has {}", rows, cols, from.name,
             src_need, src_size);
    const View v = make_view(src, src_size, from, shape, 2, BlockOrder::RowMajor);
    const Layout dst_layout = make_layout(to, shape, 2, BlockOrder::RowMajor);
    const size_t need = storage_bytes(to, dst_layout.block_count());
    if (dst_size < need)
        fail(SKN_E_BUFFER_TOO_SMALL, "a [{}, {}] {} tensor is {} bytes but dst has {}", rows, cols, to.name, need,
             dst_size);
    const auto* s = static_cast<const uint8_t*>(src);
    auto* d = static_cast<uint8_t*>(dst);
    if (s < d + need && d < s + src_need) fail(SKN_E_INVALID_ARGUMENT, "src and dst overlap: convert into another buffer");
    if (&from == &to) {
        std::memcpy(d, s, need);
        return;
    }
    convert_blocks(v, dst_layout, d);
}

}  // namespace skn_core
