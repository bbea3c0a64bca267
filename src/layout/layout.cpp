// SPDX-License-Identifier: MIT
#include "layout/layout.hpp"

#include <fmt/format.h>

#include "formats/orientation.hpp"
#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

std::string list(const std::array<int64_t, kMaxRank>& v, int rank) {
    std::string s = "[";
    for (int d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(v[size_t(d)]);
    return s + "]";
}

void check_dim(const Layout& l, int dim, const char* what, int limit) {
    if (dim < 0 || dim >= limit)
        fail(SKN_E_INVALID_ARGUMENT, "{}: dimension {} is out of range for a rank-{} view (valid: 0..{})", what, dim,
             l.rank, limit - 1);
}

}  // namespace

int64_t Layout::element_count() const {
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= shape[size_t(d)];
    return n;
}

int64_t Layout::block_count() const {
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= grid[size_t(d)];
    return n;
}

int64_t Layout::reach() const {
    int64_t last = offset;
    for (int d = 0; d < rank; ++d) last += (grid[size_t(d)] - 1) * strides[size_t(d)];
    return last + 1;
}

LayoutClass Layout::layout_class() const {
    if (packed()) return order == BlockOrder::RowMajor ? LayoutClass::BlockedRowMajor : LayoutClass::BlockedInputMajor;
    int64_t expect = 1;
    for (int d = rank - 1; d >= 0; --d) {
        if (grid[size_t(d)] != 1 && strides[size_t(d)] != expect) return LayoutClass::Strided;
        expect *= grid[size_t(d)];
    }
    return LayoutClass::Contiguous;
}

std::string Layout::describe() const {
    return fmt::format("{} {} {} order={} grid={} strides={} offset={}", format->name, list(shape, rank),
                       layout_class_name(layout_class()), order_name(order), list(grid, rank), list(strides, rank),
                       offset);
}

Layout make_layout(const FormatTraits& f, const int64_t* shape, int rank, BlockOrder order) {
    if (rank < 1 || rank > kMaxRank) fail(SKN_E_INVALID_ARGUMENT, "rank {} is outside 1..{}", rank, kMaxRank);
    if (order != BlockOrder::RowMajor && order != BlockOrder::InputBlockMajor)
        fail(SKN_E_INVALID_ARGUMENT, "block order {} is not ROW_MAJOR (0) or INPUT_BLOCK_MAJOR (1)", int(order));
    if (!f.block_quantized && order != BlockOrder::RowMajor)
        fail(SKN_E_INVALID_ARGUMENT,
             "{} is a dense format: it has no blocks to reorder, so its order must be ROW_MAJOR", f.name);
    Layout l;
    l.format = &f;
    l.rank = rank;
    l.order = order;
    int64_t total = 1;
    for (int d = 0; d < rank; ++d) {
        if (shape[d] <= 0) fail(SKN_E_INVALID_ARGUMENT, "dimension {} is {}: every dimension must be positive", d, shape[d]);
        l.shape[size_t(d)] = shape[d];
        l.grid[size_t(d)] = shape[d];
    }
    const int last = rank - 1;
    // A weight labelled [in, out] fails the alignment check below with a
    // message about the last dimension, which hides the actual mistake: let
    // the orientation guard speak first whenever a transposed label would
    // have been aligned (it throws only in that case).
    if (f.block_quantized && rank >= 2 && shape[last] % f.block_elems != 0 && shape[last - 1] % f.block_elems == 0)
        require_out_in(shape[last - 1], shape[last], f);
    if (shape[last] % f.block_elems != 0)
        fail(SKN_E_INVALID_ARGUMENT,
             "the last dimension ({}) must be a multiple of {}'s block size {}: a packed weight is [out, in] with "
             "its blocks along in",
             shape[last], f.name, f.block_elems);
    l.grid[size_t(last)] = shape[last] / f.block_elems;
    if (f.interleaved()) {
        // A block spans block_rows output rows: out is cut into groups of R.
        if (rank < 2)
            fail(SKN_E_INVALID_ARGUMENT,
                 "{} interleaves {} rows per block, so a view of it is at least [out, in]; this shape has one "
                 "dimension",
                 f.name, f.block_rows);
        if (shape[last - 1] % f.block_rows != 0)
            fail(SKN_E_INVALID_ARGUMENT,
                 "{} interleaves {} rows per block, so out must be a multiple of {}; this weight has {} rows "
                 "(keep it in {}, which takes any number of rows)",
                 f.name, f.block_rows, f.block_rows, shape[last - 1], find_format(f.interleaves)->name);
        l.grid[size_t(last - 1)] = shape[last - 1] / f.block_rows;
    }
    for (int d = 0; d < rank; ++d)
        total = checked_mul(total, l.grid[size_t(d)], "the block count of the shape (the product of its dimensions)");
    // Row-major strides first; INPUT_BLOCK_MAJOR swaps the roles of the last
    // two axes inside each [out, in] matrix.
    int64_t s = 1;
    for (int d = last; d >= 0; --d) {
        l.strides[size_t(d)] = s;
        s *= l.grid[size_t(d)];
    }
    if (order == BlockOrder::InputBlockMajor && rank >= 2) {
        l.strides[size_t(last - 1)] = 1;
        l.strides[size_t(last)] = l.grid[size_t(last - 1)];
    }
    return l;
}

Layout narrow(const Layout& l, int dim, int64_t start, int64_t length) {
    check_dim(l, dim, "narrow", l.rank);
    const int64_t extent = l.shape[size_t(dim)];
    if (length <= 0)
        fail(SKN_E_INVALID_ARGUMENT, "narrow: length {} is not positive: a view keeps at least one index of dimension {}",
             length, dim);
    // Compared without forming start + length, which may overflow.
    if (start < 0 || start > extent || length > extent - start)
        fail(SKN_E_INVALID_ARGUMENT, "narrow: start {} with length {} is outside dimension {} of extent {}", start,
             length, dim, extent);
    Layout out = l;
    const bool block_axis = dim == l.rank - 1;
    if (l.format->interleaved() && dim == l.rank - 2 && (start % l.format->block_rows != 0 ||
                                                          length % l.format->block_rows != 0))
        fail(SKN_E_INVALID_ARGUMENT,
             "narrow: rows [{}, {}) split a block of {}, which interleaves {} rows per block; use a range whose "
             "start and length are multiples of {}",
             start, start + length, l.format->name, l.format->block_rows, l.format->block_rows);
    const int64_t be = block_axis ? l.block_elems() : dim == l.rank - 2 ? l.block_rows() : 1;
    if (block_axis && (start % be != 0 || length % be != 0)) {
        const int64_t lo = start / be * be;
        const int64_t hi = (start + length + be - 1) / be * be;
        fail(SKN_E_INVALID_ARGUMENT,
             "narrow: [{}, {}) splits a block of {} ({} elements per block) on the block axis; use a block-aligned "
             "range such as [{}, {})",
             start, start + length, l.format->name, be, lo, hi);
    }
    out.offset += (start / be) * l.strides[size_t(dim)];
    out.shape[size_t(dim)] = length;
    out.grid[size_t(dim)] = length / be;
    return out;
}

Layout select(const Layout& l, int dim, int64_t index) {
    if (l.rank == 1)
        fail(SKN_E_INVALID_ARGUMENT,
             "select: the view {} has one dimension, and a view keeps at least one; read a single element with "
             "skn_view_get",
             l.describe());
    check_dim(l, dim, "select", l.rank);
    if (l.packed() && dim == l.rank - 1)
        fail(SKN_E_INVALID_ARGUMENT,
             "select: dimension {} is the block axis of a packed {} view ({} elements per block), and a single "
             "element cannot be cut out of a block; select a leading dimension (0..{}), e.g. dimension 0 of a "
             "stacked expert weight [E, out, in], or decode the row with skn_view_to_float",
             dim, l.format->name, l.block_elems(), l.rank - 2);
    if (l.format->interleaved() && dim == l.rank - 2)
        fail(SKN_E_INVALID_ARGUMENT,
             "select: dimension {} holds the rows of a {} view, which interleaves {} rows per block, so one row "
             "cannot be cut out; narrow to a group of {} rows, decode the row with skn_view_to_float, or convert "
             "the weight to {} with skn_view_convert",
             dim, l.format->name, l.format->block_rows, l.format->block_rows, find_format(l.format->interleaves)->name);
    const int64_t extent = l.shape[size_t(dim)];
    if (index < 0 || index >= extent)
        fail(SKN_E_INVALID_ARGUMENT, "select: index {} is outside dimension {} of extent {} (valid: 0..{})", index, dim,
             extent, extent - 1);
    Layout out = l;
    // Every block the parent reaches is in its buffer, so this stays in range.
    out.offset += index * l.strides[size_t(dim)];
    for (int d = dim; d + 1 < l.rank; ++d) {
        out.shape[size_t(d)] = l.shape[size_t(d + 1)];
        out.grid[size_t(d)] = l.grid[size_t(d + 1)];
        out.strides[size_t(d)] = l.strides[size_t(d + 1)];
    }
    const size_t last = size_t(l.rank - 1);
    out.shape[last] = out.grid[last] = out.strides[last] = 0;
    out.rank = l.rank - 1;
    return out;
}

Layout transpose(const Layout& l, int dim0, int dim1) {
    if (l.packed())
        fail(SKN_E_UNSUPPORTED,
             "cannot transpose a packed {} weight: its blocks run along the input axis, so a transposed view would "
             "split them. To compute x * W^T pass W as stored to skn_matmul_wt",
             l.format->name);
    check_dim(l, dim0, "transpose", l.rank);
    check_dim(l, dim1, "transpose", l.rank);
    Layout out = l;
    std::swap(out.shape[size_t(dim0)], out.shape[size_t(dim1)]);
    std::swap(out.grid[size_t(dim0)], out.grid[size_t(dim1)]);
    std::swap(out.strides[size_t(dim0)], out.strides[size_t(dim1)]);
    return out;
}

Layout unsqueeze(const Layout& l, int dim) {
    if (l.rank == kMaxRank) fail(SKN_E_INVALID_ARGUMENT, "unsqueeze: the view already has the maximum rank {}", kMaxRank);
    // The block axis of a packed view must stay last, and the row axis of a
    // row-interleaved view just before it.
    const int limit = l.format->interleaved() ? l.rank - 1 : l.packed() ? l.rank : l.rank + 1;
    if (dim < 0 || dim >= limit)
        fail(SKN_E_INVALID_ARGUMENT, "unsqueeze: position {} is out of range (valid: 0..{}{})", dim, limit - 1,
             l.format->interleaved() ? "; the row and block axes of a row-interleaved view stay last"
             : l.packed()            ? "; the block axis of a packed view stays last"
                                     : "");
    Layout out = l;
    for (int d = l.rank; d > dim; --d) {
        out.shape[size_t(d)] = l.shape[size_t(d - 1)];
        out.grid[size_t(d)] = l.grid[size_t(d - 1)];
        out.strides[size_t(d)] = l.strides[size_t(d - 1)];
    }
    out.shape[size_t(dim)] = 1;
    out.grid[size_t(dim)] = 1;
    out.strides[size_t(dim)] = 0;  // never multiplied by a non-zero index
    out.rank = l.rank + 1;
    return out;
}

}  // namespace skn_core
