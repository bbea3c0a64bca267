// SPDX-License-Identifier: MIT
// The edge-case rows the IQ3 grid quantizers are checked on against the
// reference (tests/golden/quant/grid_iq3_edges): every row is 3 blocks of
// 256 wide so a block written in the wrong place cannot go unnoticed. The
// reference's bytes were made from exactly these floats (see the MANIFEST
// there), so this file defines the goldens' input: never change a row.
#pragma once

#include <cstdint>
#include <vector>

#include "fixtures/sample_weight.hpp"

namespace skn_core::test {

constexpr int64_t kIq3EdgeRows = 7;
constexpr int64_t kIq3EdgeCols = 768;

inline std::vector<float> iq3_edge_rows() {
    const int64_t n = kIq3EdgeCols;
    std::vector<float> bell(static_cast<size_t>(n));
    sample_weight(bell.data(), 1, n, 7);  // row shape 0: bell-shaped, mean 0, sd 1
    std::vector<float> m(static_cast<size_t>(kIq3EdgeRows * n), 0.0f);
    auto row = [&](int r) { return m.data() + r * n; };
    // 0: all zero.
    // 1: only the middle block is non-zero.
    for (int64_t i = 256; i < 512; ++i) row(1)[i] = bell[size_t(i)];
    // 2, 3: the bell row scaled by 1e-3 and 1e3.
    for (int64_t i = 0; i < n; ++i) row(2)[i] = bell[size_t(i)] * 1e-3f;
    for (int64_t i = 0; i < n; ++i) row(3)[i] = bell[size_t(i)] * 1e3f;
    // 4: float32 subnormals only (|x| <= 6 * 2e-40), some zeros.
    for (int64_t i = 0; i < n; ++i) row(4)[i] = float(int(i % 13) - 6) * 2e-40f;
    // 5: the bell row with sub-blocks 2 and 5 of every block zero and
    //    sub-block 6 holding a single non-zero element: IQ3_S's reference
    //    stores the sub-blocks after a zero one one place early.
    for (int64_t i = 0; i < n; ++i) {
        const int64_t sub = (i % 256) / 32;
        const bool zero = sub == 2 || sub == 5 || (sub == 6 && i % 32 != 9);
        row(5)[i] = zero ? 0.0f : bell[size_t(i)];
    }
    // 6: one non-zero element per block, negative in the middle block.
    for (int64_t b = 0; b < 3; ++b) row(6)[b * 256 + 37 + 50 * b] = b == 1 ? -0.5f : 0.5f;
    return m;
}

}  // namespace skn_core::test
