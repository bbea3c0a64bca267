// SPDX-License-Identifier: MIT
// Little-endian 16-, 32- and 64-bit fields of a block's bytes. Blocks are
// little-endian on every host (docs/formats.md), so the codecs read their
// multi-byte fields through these and never through a cast. On a
// little-endian host the wider ones are a memcpy: compilers do not always
// fuse the byte loop of a store whose value is the top half of a wider word
// into one store (the Q2_K / Q3_K repacks' transposes store such halves).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

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
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(p, &v, 4);
    } else {
        for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
    }
}

inline uint64_t load_u64le(const uint8_t* p) { return uint64_t(load_u32le(p)) | uint64_t(load_u32le(p + 4)) << 32; }
inline void store_u64le(uint8_t* p, uint64_t v) {
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(p, &v, 8);
    } else {
        store_u32le(p, uint32_t(v));
        store_u32le(p + 4, uint32_t(v >> 32));
    }
}

}  // namespace skn_core::codec
