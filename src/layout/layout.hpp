// SPDX-License-Identifier: MIT
// Layout: where each block of a view lives. Shape is in elements (labels, the
// block axis last for block formats); the block grid, its strides and its
// offset are counted in blocks. The block order lives in the strides:
// ROW_MAJOR [out, in] has strides [blocks_per_row, 1], INPUT_BLOCK_MAJOR has
// [1, out]. Everything that reads a view goes through block_index(), so it
// means the same matrix in either order.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "formats/format.hpp"
#include "layout/block_order.hpp"

namespace skn_core {

constexpr int kMaxRank = 4;

struct Layout {
    const FormatTraits* format = nullptr;
    int rank = 0;
    std::array<int64_t, kMaxRank> shape{};    // elements per dimension
    std::array<int64_t, kMaxRank> grid{};     // blocks per dimension (the last divided by block_elems; for a
                                              // row-interleaved format the one before by block_rows)
    std::array<int64_t, kMaxRank> strides{};  // in blocks
    int64_t offset = 0;                       // in blocks
    BlockOrder order = BlockOrder::RowMajor;

    bool packed() const { return format->block_quantized; }
    int64_t block_elems() const { return format->block_elems; }
    // Output rows one block spans (row-interleaved formats: R; else 1).
    int64_t block_rows() const { return format->block_rows; }

    // Flat block index of grid coordinates g[0..rank).
    int64_t block_index(const int64_t* g) const {
        int64_t at = offset;
        for (int d = 0; d < rank; ++d) at += g[d] * strides[d];
        return at;
    }
    int64_t element_count() const;
    int64_t block_count() const;
    // One past the largest flat block index the layout can reach.
    int64_t reach() const;
    LayoutClass layout_class() const;
    std::string describe() const;
};

// A dense (fresh) layout of `shape` in `order`: for a packed weight
// [..., out, in] INPUT_BLOCK_MAJOR makes each [out, in] matrix's blocks
// b-major; leading dimensions stay outermost. Throws skn_core::Error on bad shapes.
Layout make_layout(const FormatTraits& f, const int64_t* shape, int rank, BlockOrder order);

Layout narrow(const Layout& l, int dim, int64_t start, int64_t length);
// Index `index` of dimension `dim`, that dimension dropped: the offset moves
// by index * strides[dim] and the other dimensions keep their strides, so the
// slice is read in the parent's order. Never the block axis of a packed view
// (a block cannot be split), never the only dimension (rank 0 is not a view).
Layout select(const Layout& l, int dim, int64_t index);
Layout transpose(const Layout& l, int dim0, int dim1);
Layout unsqueeze(const Layout& l, int dim);

}  // namespace skn_core
