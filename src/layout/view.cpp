// SPDX-License-Identifier: MIT
#include "layout/view.hpp"

#include <algorithm>
#include <vector>

#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {

size_t storage_bytes(const FormatTraits& f, int64_t blocks) {
    constexpr std::string_view what = "the byte size of the view's blocks";
    const uint64_t bytes = checked_add(checked_mul(uint64_t(blocks), uint64_t(f.tile_bytes()), what),
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
    const int64_t br = l.block_rows();
    g[last] = indices[last] / be;
    if (br > 1) g[last - 1] = indices[last - 1] / br;
    // The largest block decodes to 2048 floats (IQ4_XS_R8: 8 rows of 256).
    float block[2048];
    l.format->decode(v.block_at(l.block_index(g)), 1, v.tensor_scale, block);
    const int64_t row_in_block = br > 1 ? indices[last - 1] % br : 0;
    return block[row_in_block * be + indices[last] % be];
}

void view_to_float(const View& v, float* dst, size_t dst_count) {
    const Layout& l = v.layout;
    if (dst == nullptr) fail(SKN_E_INVALID_ARGUMENT, "dst must not be NULL");
    const uint64_t n = uint64_t(l.element_count());
    if (dst_count < n)
        fail(SKN_E_BUFFER_TOO_SMALL, "the view {} has {} elements but dst has room for {}", l.describe(), n, dst_count);
    const int last = l.rank - 1;
    const int64_t be = l.packed() ? l.block_elems() : 1;
    const int64_t br = l.block_rows();  // output rows one block covers
    const int64_t blocks_per_row = l.grid[size_t(last)];
    const int64_t row_elems = blocks_per_row * be;
    const int64_t block_rows_total = l.block_count() / blocks_per_row;
    std::vector<float> tile(br > 1 ? size_t(br * be) : 0);
    int64_t g[kMaxRank] = {0, 0, 0, 0};
    for (int64_t r = 0; r < block_rows_total; ++r) {
        // g holds the block row's leading coordinates; walk its blocks by stride.
        g[last] = 0;
        const int64_t first = l.block_index(g);
        float* out = dst + r * br * row_elems;
        for (int64_t b = 0; b < blocks_per_row; ++b) {
            const uint8_t* block = v.block_at(first + b * l.strides[size_t(last)]);
            if (br == 1) {
                l.format->decode(block, 1, v.tensor_scale, out + b * be);
                continue;
            }
            // A row-interleaved block decodes to its br rows, [br][be].
            l.format->decode(block, 1, v.tensor_scale, tile.data());
            for (int64_t k = 0; k < br; ++k)
                std::copy(tile.data() + k * be, tile.data() + (k + 1) * be, out + k * row_elems + b * be);
        }
        for (int d = last - 1; d >= 0; --d) {  // next block row: odometer over leading dims
            if (++g[d] < l.grid[size_t(d)]) break;
            g[d] = 0;
        }
    }
}

}  // namespace skn_core
