// SPDX-License-Identifier: MIT
// The grid formats' decode tables as the NEON code sees them: the scalar
// decoders' own copies (formats/grid_bytes.hpp, formats/grid_iq3_tables.hpp,
// formats/grid_signs.hpp), named as plain pointers bound in
// common/grid_tables.cpp, which is built without ISA flags. The aarch64 twin
// of x86_64/common/grid_tables.hpp: an ISA translation unit may not include
// the formats' headers (tests/arch/check_includes.py), and plain pointers
// keep std::array's inline members out of the tier objects.
#pragma once

#include <cstdint>

namespace skn_core::kernels::aarch64::grid_tables {

// Lattice points, 8 bytes per point back to back, byte j = element j.
extern const uint8_t* const kIq2xxs;  // 256 points, magnitudes 8, 25, 43
extern const uint8_t* const kIq2xs;   // 512 points
extern const uint8_t* const kIq2s;    // 1024 points
extern const int8_t* const kIq1;      // 2048 points of -1, 0, +1 (IQ1_S and IQ1_M)
// Four magnitudes per entry, element 0 in the low byte.
extern const uint32_t* const kIq3xxs;  // 256 entries
extern const uint32_t* const kIq3s;    // 512 entries
// A 7-bit sign field widened to eight sign bits, the eighth making the
// number of minus signs even (IQ2_XXS, IQ2_XS, IQ3_XXS): 128 entries.
extern const uint8_t* const kSigns7;
// The same signs as 8 multipliers per entry, +1 or -1 (-1 where the bit is
// set), so a MUL applies them: entry s of kSignsPm7 is kSigns7[s] widened,
// entry b of kSignsPm8 the sign byte b (IQ2_S, IQ3_S) widened.
extern const int8_t* const kSignsPm7;  // 128 entries of 8 bytes
extern const int8_t* const kSignsPm8;  // 256 entries of 8 bytes

}  // namespace skn_core::kernels::aarch64::grid_tables
