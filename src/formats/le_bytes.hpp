// SPDX-License-Identifier: MIT
// Little-endian 16- and 32-bit fields of a block's bytes. Blocks are
// little-endian on every host (docs/formats.md), so the codecs read their
// multi-byte fields through these and never through a cast.
#pragma once

#include <cstdint>

namespace skn_core::codec {

inline uint16_t load_u16le(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
inline void store_u16le(uint8_t* p, uint16_t v) {
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
}

inline uint32_t load_u32le(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline void store_u32le(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

}  // namespace skn_core::codec
