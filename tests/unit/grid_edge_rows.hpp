// SPDX-License-Identifier: MIT
// The edge-case rows the IQ2/IQ1 grid quantizers are checked on against the
// reference (tests/golden/quant/grid_edges): all zero, only block 1
// non-zero, a single non-zero element, a sample row times 1e-3 and times
// 1e3, and float32 subnormals; every row three blocks of 256 wide. The
// reference's bytes were made from exactly these floats (see the MANIFEST
// there; scripts/update-quant-goldens regenerates them), so this file
// defines the goldens' input: never change a row.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "fixtures/sample_weight.hpp"

namespace skn_core::test {

constexpr int64_t kGridEdgeRows = 6;
constexpr int64_t kGridEdgeCols = 768;

inline std::vector<float> grid_edge_rows() {
    constexpr int64_t cols = kGridEdgeCols;
    std::vector<float> base(size_t(8 * cols));
    sample_weight(base.data(), 8, cols, 7);
    std::vector<float> x(size_t(kGridEdgeRows * cols), 0.0f);
    const auto at = [](int64_t r, int64_t c) { return size_t(r * cols + c); };
    for (int64_t c = 256; c < 512; ++c) x[at(1, c)] = base[at(1, c)];  // only block 1 non-zero
    x[at(2, 300)] = -0.75f;                                              // one non-zero element
    for (int64_t c = 0; c < cols; ++c) {
        x[at(3, c)] = base[at(0, c)] * 1e-3f;
        x[at(4, c)] = base[at(0, c)] * 1e3f;
        x[at(5, c)] = std::ldexp(base[at(1, c)], -130);  // float32 subnormals
    }
    return x;
}

}  // namespace skn_core::test
