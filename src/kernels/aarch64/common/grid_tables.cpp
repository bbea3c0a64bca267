// SPDX-License-Identifier: MIT
// Binds common/grid_tables.hpp's names to the formats' tables (one copy of
// each, in src/formats). Built without ISA flags (see the header).
#include "kernels/aarch64/common/grid_tables.hpp"

#include <array>
#include <cstddef>

#include "formats/grid_bytes.hpp"
#include "formats/grid_iq3_tables.hpp"
#include "formats/grid_signs.hpp"

namespace skn_core::kernels::aarch64::grid_tables {

// The kernels step 8 bytes per point through the tables.
static_assert(sizeof(codec::GridMagnitudes) == 8 && sizeof(codec::kIq2sGrid) == 1024 * 8);
static_assert(sizeof(codec::GridTernary) == 8 && sizeof(codec::kIq1Grid) == 2048 * 8);

namespace {

// Byte j of entry b: -1 where bit j of bits(b) is set, else +1.
template <size_t N, class Bits>
constexpr std::array<int8_t, N * 8> widened_signs(Bits bits) {
    std::array<int8_t, N * 8> t{};
    for (size_t b = 0; b < N; ++b)
        for (unsigned j = 0; j < 8; ++j) t[8 * b + j] = ((bits(b) >> j) & 1u) != 0 ? -1 : 1;
    return t;
}

constexpr auto kSignsPm7Table = widened_signs<128>([](size_t s) { return unsigned(codec::grid::kSignPatterns[s]); });
constexpr auto kSignsPm8Table = widened_signs<256>([](size_t b) { return unsigned(b); });

}  // namespace

// constinit: bound before any static constructor could run a kernel.
constinit const uint8_t* const kIq2xxs = codec::kIq2xxsGrid[0].data();
constinit const uint8_t* const kIq2xs = codec::kIq2xsGrid[0].data();
constinit const uint8_t* const kIq2s = codec::kIq2sGrid[0].data();
constinit const int8_t* const kIq1 = codec::kIq1Grid[0].data();
constinit const uint32_t* const kIq3xxs = codec::kIq3xxsGrid;
constinit const uint32_t* const kIq3s = codec::kIq3sGrid;
constinit const uint8_t* const kSigns7 = codec::grid::kSignPatterns.data();
constinit const int8_t* const kSignsPm7 = kSignsPm7Table.data();
constinit const int8_t* const kSignsPm8 = kSignsPm8Table.data();

}  // namespace skn_core::kernels::aarch64::grid_tables
