// SPDX-License-Identifier: MIT
// Binds common/grid_tables.hpp's names to the formats' tables (one copy of
// each, in src/formats). Built without ISA flags (see the header).
#include "kernels/aarch64/common/grid_tables.hpp"

#include "formats/grid_bytes.hpp"
#include "formats/grid_iq3_tables.hpp"
#include "formats/grid_signs.hpp"

namespace skn_core::kernels::aarch64::grid_tables {

// The kernels step 8 bytes per point through the tables.
static_assert(sizeof(codec::GridMagnitudes) == 8 && sizeof(codec::kIq2sGrid) == 1024 * 8);
static_assert(sizeof(codec::GridTernary) == 8 && sizeof(codec::kIq1Grid) == 2048 * 8);

// constinit: bound before any static constructor could run a kernel.
constinit const uint8_t* const kIq2xxs = codec::kIq2xxsGrid[0].data();
constinit const uint8_t* const kIq2xs = codec::kIq2xsGrid[0].data();
constinit const uint8_t* const kIq2s = codec::kIq2sGrid[0].data();
constinit const int8_t* const kIq1 = codec::kIq1Grid[0].data();
constinit const uint32_t* const kIq3xxs = codec::kIq3xxsGrid;
constinit const uint32_t* const kIq3s = codec::kIq3sGrid;
constinit const uint8_t* const kSigns7 = codec::grid::kSignPatterns.data();

}  // namespace skn_core::kernels::aarch64::grid_tables
