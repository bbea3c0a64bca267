// SPDX-License-Identifier: MIT
// Binds common/grid_tables.hpp's names to the formats' tables. Built without
// ISA flags (see the header).
#include "kernels/x86_64/common/grid_tables.hpp"

#include "formats/grid_bytes.hpp"
#include "formats/grid_iq3_tables.hpp"
#include "formats/grid_signs.hpp"

namespace skn_core::kernels::x86_64::grid_tables {

const std::array<Point8, 256>& kIq2xxs = codec::kIq2xxsGrid;
const std::array<Point8, 512>& kIq2xs = codec::kIq2xsGrid;
const std::array<Point8, 1024>& kIq2s = codec::kIq2sGrid;
const std::array<Ternary8, 2048>& kIq1 = codec::kIq1Grid;
const uint32_t (&kIq3xxs)[256] = codec::kIq3xxsGrid;
const uint32_t (&kIq3s)[512] = codec::kIq3sGrid;
const uint8_t* const kSigns7 = codec::grid::kSignPatterns.data();

}  // namespace skn_core::kernels::x86_64::grid_tables
