// SPDX-License-Identifier: MIT
// The orientation guard: a weight for matmul_wt is [out, in] with its blocks
// along in. This catches the historical bug of a weight labelled [in, out]
// (GGUF's ne order) being handed over as if it were [out, in].
#pragma once

#include <cstdint>

#include "formats/format.hpp"

namespace skn_core {

// Throws skn_core::Error (SKN_E_INVALID_ARGUMENT) when the shape cannot be [out, in].
void require_out_in(int64_t rows, int64_t in, const FormatTraits& f);

}  // namespace skn_core
