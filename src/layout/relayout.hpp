// SPDX-License-Identifier: MIT
// The single implementation of the block permutation between the two orders.
// to_kernel_order: ROW_MAJOR (o * bpr + b) -> INPUT_BLOCK_MAJOR (b * rows + o);
// to_canonical_order is its exact inverse.
#pragma once

#include <cstddef>
#include <cstdint>

namespace skn_core {

void to_kernel_order(const void* src, size_t src_size, void* dst, size_t dst_size, int64_t rows,
                     int64_t blocks_per_row, size_t bytes_per_block);
void to_canonical_order(const void* src, size_t src_size, void* dst, size_t dst_size, int64_t rows,
                        int64_t blocks_per_row, size_t bytes_per_block);

}  // namespace skn_core
