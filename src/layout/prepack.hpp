// SPDX-License-Identifier: MIT
// prepack: the only relayout of a view (rule 3). Same order -> the same view,
// nothing copied or traced. Otherwise the blocks are copied into the scope in
// the new order and one adapter event reports the byte count.
#pragma once

#include "layout/scope.hpp"
#include "layout/view.hpp"
#include "trace/trace.hpp"

namespace skn_core {

// Returns true and sets *out when a copy was made; false when `v` is already
// in `order` (then *out is left alone: the caller keeps using v).
bool prepack(const View& v, BlockOrder order, Scope* scope, const TraceSink& sink, View* out);

// The one conversion between encodings of a format: `to` is the view's own
// format (then this is prepack), or the two are a canonical format and its
// row-interleaved twin (Q4_0 and Q4_0_R8; BF16 and BF16_R16), in either
// direction and either block order. Lossless: the result decodes to the
// same floats. A copy goes into the scope with one adapter event ("convert",
// both formats, the bytes written). Returns false when nothing changes.
bool convert(const View& v, const FormatTraits& to, BlockOrder order, Scope* scope, const TraceSink& sink, View* out);

// The twin of convert for raw bytes: a ROW_MAJOR [rows, cols] tensor of
// `from` rewritten as `to` (same format: copied). Sizes checked; src and
// dst must not overlap.
void convert_rows(const FormatTraits& from, const FormatTraits& to, const void* src, size_t src_size, void* dst,
                  size_t dst_size, int64_t rows, int64_t cols);

}  // namespace skn_core
