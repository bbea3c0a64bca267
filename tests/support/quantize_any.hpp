// SPDX-License-Identifier: MIT
// Quantizing every format in tests that loop over the format table: formats
// whose reference quantizes only with importance weights (IQ2_XXS, IQ2_XS,
// IQ1_S and the twins IQ2_XXS_R4, IQ2_XS_R4) get test::golden_importance;
// the others get none, as before.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "support/golden_file.hpp"

namespace skn_core::test {

inline void quantize_any(const FormatTraits& f, const float* src, int64_t rows, int64_t cols, void* dst,
                         size_t dst_size, int threads = 1) {
    const std::vector<float> importance = f.requires_importance() ? golden_importance(cols) : std::vector<float>{};
    quantize_tensor(f, src, rows, cols, dst, dst_size, importance.empty() ? nullptr : importance.data(), threads);
}

}  // namespace skn_core::test
