// SPDX-License-Identifier: MIT
// Binds common/grid_tables.hpp's names to the formats' tables. Built without
// ISA flags (see the header).
#include "kernels/x86_64/common/grid_tables.hpp"

#include <cstddef>

#include "formats/grid_bytes.hpp"
#include "formats/grid_points.hpp"
#include "formats/grid_iq3_tables.hpp"
#include "formats/grid_signs.hpp"

namespace skn_core::kernels::x86_64::grid_tables {

const std::array<Point8, 256>& kIq2xxs = codec::kIq2xxsGrid;
const std::array<Point8, 512>& kIq2xs = codec::kIq2xsGrid;
const std::array<Point8, 1024>& kIq2s = codec::kIq2sGrid;
const std::array<Ternary8, 2048>& kIq1 = codec::kIq1Grid;

namespace {
// Built from the same points as codec::kIq1Grid (level 0, 1, 2 = -1, 0, +1).
alignas(64) constinit const std::array<Point8, 4096> kIq1BiasedTable = [] {
    std::array<Point8, 4096> out{};
    for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t i = 0; i < 2048; ++i)
            for (std::size_t j = 0; j < 8; ++j) {
                const int g = int((codec::grid::kIq1sPoints[i] >> (2 * j)) & 3) - 1;
                out[(s << 11) + i][j] = uint8_t(64 + 8 * g + (s != 0 ? -1 : 1));
            }
    return out;
}();
}  // namespace
const std::array<Point8, 4096>& kIq1Biased = kIq1BiasedTable;
const uint32_t (&kIq3xxs)[256] = codec::kIq3xxsGrid;
const uint32_t (&kIq3s)[512] = codec::kIq3sGrid;
const uint8_t* const kSigns7 = codec::grid::kSignPatterns.data();

}  // namespace skn_core::kernels::x86_64::grid_tables
