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

}  // namespace skn_core
