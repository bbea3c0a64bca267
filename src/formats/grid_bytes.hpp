// SPDX-License-Identifier: MIT
// The decode tables of the IQ2 and IQ1 grid formats: each lattice point of
// grid_points.hpp as the eight bytes its elements decode from (IQ2: the
// magnitudes 8, 25, 43; IQ1: -1, 0, +1). Defined once, in grid_iq2.cpp and
// grid_iq1.cpp, where the scalar decoders use them; the exact-precision
// SIMD decoders (src/kernels/x86_64/exact/decode.inc) read the same bytes.
#pragma once

#include <array>
#include <cstdint>

namespace skn_core::codec {

using GridMagnitudes = std::array<uint8_t, 8>;
using GridTernary = std::array<int8_t, 8>;

extern const std::array<GridMagnitudes, 256> kIq2xxsGrid;
extern const std::array<GridMagnitudes, 512> kIq2xsGrid;
extern const std::array<GridMagnitudes, 1024> kIq2sGrid;
extern const std::array<GridTernary, 2048> kIq1Grid;  // IQ1_S and IQ1_M

}  // namespace skn_core::codec
