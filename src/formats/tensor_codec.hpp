// SPDX-License-Identifier: MIT
// Whole-tensor quantize / dequantize over the format table, with every size
// checked. Throws skn_core::Error with a message that names what was wrong.
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/format.hpp"

namespace skn_core {

// Bytes of a row-major [rows, n_per_row] tensor in `f`, trailer included.
size_t quantized_size(const FormatTraits& f, int64_t rows, int64_t n_per_row);

// The most threads quantize_tensor takes (as a matmul context).
inline constexpr int kMaxQuantizeThreads = 1024;

// `importance`, when not null, holds n_per_row finite, non-negative weights
// shared by every row (an imatrix entry); formats whose reference ignores
// them quantize as without. Formats that require them refuse a null
// `importance`. `threads` (1..kMaxQuantizeThreads) threads share the rows;
// the bytes are the same for every thread count.
void quantize_tensor(const FormatTraits& f, const float* src, int64_t rows, int64_t n_per_row, void* dst,
                     size_t dst_size, const float* importance = nullptr, int threads = 1);

void dequantize_tensor(const FormatTraits& f, const void* src, size_t src_size, int64_t rows, int64_t n_per_row,
                       float* dst, size_t dst_count);

}  // namespace skn_core
