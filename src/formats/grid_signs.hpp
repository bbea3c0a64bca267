// SPDX-License-Identifier: MIT
// The sign patterns of IQ2_XXS and IQ2_XS: a group of eight stores seven sign
// bits; the eighth is their parity, so an even number of elements is negated
// (the quantizer makes it so). This is ggml-common.h's ksigns_iq2xs table,
// derived instead of carried: entry s is s with bit 7 set when s has an odd
// number of set bits (grid_tables_test checks it against the table's hash).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace skn_core::codec::grid {

inline constexpr std::array<uint8_t, 128> kSignPatterns = [] {
    std::array<uint8_t, 128> t{};
    for (unsigned s = 0; s < 128; ++s) t[s] = uint8_t(s | ((std::popcount(s) & 1u) << 7));
    return t;
}();

}  // namespace skn_core::codec::grid
