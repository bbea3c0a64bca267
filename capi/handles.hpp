// SPDX-License-Identifier: MIT
// The opaque handles behind skn.h's skn_scope and skn_view.
#pragma once

#include <atomic>
#include <string>

#include "layout/scope.hpp"
#include "layout/view.hpp"
#include "skn/skn.h"

struct skn_scope {
    skn_core::Scope scope;
};

// Reference-counted so that a prepack to the order a view already has can
// hand back the very same handle.
struct skn_view {
    std::atomic<int> refs{1};
    skn_core::View view;
    std::string description;
};

namespace skn_core::capi {

// A new handle (one reference) over `v`, with its description rendered once.
skn_view* new_view_handle(const View& v);

const FormatTraits& lookup_format(int64_t format);

}  // namespace skn_core::capi
