// SPDX-License-Identifier: MIT
#include "layout/view.hpp"

#include <vector>

#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {

size_t storage_bytes(const FormatTraits& f, int64_t blocks) {
    constexpr std::string_view what = "the byte size of the view's blocks";
    const uint64_t bytes = checked_add(checked_mul(uint64_t(blocks), uint64_t(f.block_bytes), what),
                                       uint64_t(f.tensor_trailer_bytes), what);
    if (bytes > SIZE_MAX) fail(SKN_E_INVALID_ARGUMENT, "{} blocks of {} do not fit in memory", blocks, f.name);
    return size_t(bytes);
}

View make_view(const void* data, size_t nbytes, const FormatTraits& f, const int64_t* shape, int rank,
               BlockOrder order) {
    if (data == nullptr) fail(SKN_E_INVALID_ARGUMENT, "data must not be NULL");
    if (shape == nullptr) fail(SKN_E_INVALID_ARGUMENT, "shape must not be NULL");
    View v;
    v.layout = make_layout(f, shape, rank, order);
    v.data = static_cast<const uint8_t*>(data);
    v.nbytes = nbytes;
    const size_t need = storage_bytes(f, v.layout.block_count());
    if (nbytes < need)
        fail(SKN_E_INVALID_ARGUMENT, "a {} view needs {} bytes{} but {} were given", v.layout.describe(), need,
             f.tensor_trailer_bytes ? " (trailer included)" : "", nbytes);
    if (f.tensor_trailer_bytes > 0) v.trailer = v.data + (need - size_t(f.tensor_trailer_bytes));
    if (f.read_tensor_scale != nullptr) v.tensor_scale = f.read_tensor_scale(v.trailer);
    return v;
}

View with_layout(const View& v, const Layout& l) {
    View out = v;
    out.layout = l;
    return out;
}

namespace {

void check_indices(const Layout& l, const int64_t* idx, int rank) {
    if (idx == nullptr) fail(SKN_E_INVALID_ARGUMENT, "indices must not be NULL");
    if (rank != l.rank) fail(SKN_E_INVALID_ARGUMENT, "{} indices given for a rank-{} view", rank, l.rank);
    for (int d = 0; d < rank; ++d)
        if (idx[d] < 0 || idx[d] >= l.shape[size_t(d)])
            fail(SKN_E_INVALID_ARGUMENT, "index {} = {} is outside dimension {} of extent {}", d, idx[d], d,
                 l.shape[size_t(d)]);
}

}  // namespace

float view_get(const View& v, const int64_t* indices, int rank) {
    const Layout& l = v.layout;
    check_indices(l, indices, rank);
    int64_t g[kMaxRank];
    for (int d = 0; d < rank; ++d) g[d] = indices[d];
    const int last = rank - 1;
    const int64_t be = l.packed() ? l.block_elems() : 1;
    g[last] = indices[last] / be;
    float block[256];  // the largest block has 256 elements
    l.format->decode(v.block_at(l.block_index(g)), 1, v.tensor_scale, block);
    return block[indices[last] % be];
}

void view_to_float(const View& v, float* dst, size_t dst_count) {
    const Layout& l = v.layout;
    if (dst == nullptr) fail(SKN_E_INVALID_ARGUMENT, "dst must not be NULL");
    const uint64_t n = uint64_t(l.element_count());
    if (dst_count < n)
        fail(SKN_E_BUFFER_TOO_SMALL, "the view {} has {} elements but dst has room for {}", l.describe(), n, dst_count);
    const int last = l.rank - 1;
    const int64_t be = l.packed() ? l.block_elems() : 1;
    const int64_t blocks_per_row = l.grid[size_t(last)];
    const int64_t rows = l.block_count() / blocks_per_row;
    int64_t g[kMaxRank] = {0, 0, 0, 0};
    for (int64_t r = 0; r < rows; ++r) {
        // g holds the row's leading coordinates; walk its blocks by stride.
        g[last] = 0;
        const int64_t first = l.block_index(g);
        float* out = dst + r * blocks_per_row * be;
        for (int64_t b = 0; b < blocks_per_row; ++b)
            l.format->decode(v.block_at(first + b * l.strides[size_t(last)]), 1, v.tensor_scale, out + b * be);
        for (int d = last - 1; d >= 0; --d) {  // next row: odometer over leading dims
            if (++g[d] < l.grid[size_t(d)]) break;
            g[d] = 0;
        }
    }
}

}  // namespace skn_core
