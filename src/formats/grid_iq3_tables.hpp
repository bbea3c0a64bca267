// SPDX-License-Identifier: MIT
// The tables that define the IQ3 grid formats (grid_iq3_tables.cpp holds the
// data, copied from the GGUF reference). Shared by the decoder, which reads
// the decode grids, and the quantizer, which searches the coordinate lists.
#pragma once

#include <cstdint>

namespace skn_core::codec {

extern const uint32_t kIq3xxsGrid[256];
extern const uint32_t kIq3sGrid[512];
extern const uint16_t kIq3xxsCoords[256];
extern const uint16_t kIq3sCoords[512];

// Level l (0..7) of a coordinate list entry; the point's element is 2l + 1.
constexpr int iq3_coord_level(uint16_t packed, int element) { return (packed >> (3 * element)) & 7; }

}  // namespace skn_core::codec
