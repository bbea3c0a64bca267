// SPDX-License-Identifier: MIT
// The grid formats' decode tables as the ISA code sees them: the scalar
// decoders' own copies (formats/grid_bytes.hpp, formats/grid_iq3_tables.hpp),
// named through references defined in common/grid_tables.cpp, which is built
// without ISA flags. An ISA translation unit may not include the formats'
// headers (tests/arch/check_includes.py): an inline table or function of
// theirs instantiated with AVX-512 flags could be the copy the linker keeps
// for every caller.
#pragma once

#include <array>
#include <cstdint>

namespace skn_core::kernels::x86_64::grid_tables {

using Point8 = std::array<uint8_t, 8>;   // an IQ2 lattice point: eight magnitudes 8, 25 or 43
using Ternary8 = std::array<int8_t, 8>;  // an IQ1 lattice point: eight of -1, 0, +1

extern const std::array<Point8, 256>& kIq2xxs;
extern const std::array<Point8, 512>& kIq2xs;
extern const std::array<Point8, 1024>& kIq2s;
extern const std::array<Ternary8, 2048>& kIq1;  // IQ1_S and IQ1_M
// The IQ1 points as the kernels' biased weights: entry (s << 11) + i holds
// 64 + 8 * g + 1 (s = 0) or 64 + 8 * g - 1 (s = 1, the delta sign set) for
// byte g of kIq1[i], so one look-up gives point, delta and offset (55 .. 73).
extern const std::array<Point8, 4096>& kIq1Biased;
extern const uint32_t (&kIq3xxs)[256];          // four magnitudes per entry, element 0 in the low byte
extern const uint32_t (&kIq3s)[512];
// A 7-bit sign field widened to eight sign bits, the eighth making the
// number of minus signs even (IQ2_XXS, IQ2_XS, IQ3_XXS).
extern const uint8_t* const kSigns7;  // 128 entries

// The kernels read a table of points as 8 bytes per point, back to back.
static_assert(sizeof(Point8) == 8 && sizeof(std::array<Point8, 256>) == 256 * 8);
static_assert(sizeof(Ternary8) == 8 && sizeof(std::array<Ternary8, 2048>) == 2048 * 8);
static_assert(sizeof(std::array<Point8, 4096>) == 4096 * 8);

}  // namespace skn_core::kernels::x86_64::grid_tables
