// SPDX-License-Identifier: MIT
// Byte layout helpers shared by the K-quant quantizers (k_quants.cpp without
// importance weights, k_quants_weighted.cpp with them): where codes, scales
// and mins sit inside each super-block. docs/formats/k_quants.md has the
// layouts in prose.
#pragma once

#include <algorithm>
#include <cstdint>

namespace skn_core::codec::kblock {

constexpr int kSuper = 256;

inline int clamp_int(int v, int lo, int hi) { return std::max(lo, std::min(hi, v)); }

// ---------------------------------------------------------------------------
// Code planes shared between formats.
//
// Q2_K, Q3_K (low bits) and Q6_K (high bits) store 2-bit fields in 32-byte
// planes: within each 128-element half, element 32*k + l lives in bits
// 2k..2k+1 of byte l of that half's 32-byte plane.

inline uint8_t two_bit_field(const uint8_t* plane, int e) {
    const int half = e / 128, k = (e % 128) / 32, l = e % 32;
    return uint8_t((plane[32 * half + l] >> (2 * k)) & 3);
}

inline void pack_two_bit_fields(const uint8_t* codes, uint8_t* plane) {
    for (int half = 0; half < 2; ++half) {
        const uint8_t* c = codes + 128 * half;
        for (int l = 0; l < 32; ++l)
            plane[32 * half + l] = uint8_t(c[l] | (c[l + 32] << 2) | (c[l + 64] << 4) | (c[l + 96] << 6));
    }
}

// Q4_K and Q5_K store 4-bit fields per 64-element chunk: element 32*h + l of
// chunk c is the low (h = 0) or high (h = 1) nibble of byte 32*c + l.
inline uint8_t nibble_field(const uint8_t* qs, int e) {
    const int chunk = e / 64, h = (e % 64) / 32, l = e % 32;
    const uint8_t byte = qs[32 * chunk + l];
    return h ? uint8_t(byte >> 4) : uint8_t(byte & 0xF);
}

// One bit per element in a 32-byte mask: element e is bit e / 32 of byte e % 32
// (Q3_K's hmask and Q5_K's qh share this arrangement).
inline bool mask_bit(const uint8_t* mask, int e) { return (mask[e % 32] >> (e / 32)) & 1; }

// ---------------------------------------------------------------------------
// Q4_K / Q5_K: eight 6-bit (scale, min) pairs packed into 12 bytes.
// Pairs 0-3 use the low 6 bits of bytes 0-3 (scale) and 4-7 (min); pairs 4-7
// put their low nibbles in bytes 8-11 (scale low, min high) and their top two
// bits in bits 6-7 of bytes 0-3 (scale) and 4-7 (min).

struct ScaleMin {
    uint8_t scale;
    uint8_t min;
};

inline ScaleMin unpack_scale_min(const uint8_t* packed, int j) {
    if (j < 4) return {uint8_t(packed[j] & 63), uint8_t(packed[j + 4] & 63)};
    return {uint8_t((packed[j + 4] & 0xF) | ((packed[j - 4] >> 6) << 4)),
            uint8_t((packed[j + 4] >> 4) | ((packed[j] >> 6) << 4))};
}

inline void pack_scale_mins(const uint8_t* scales, const uint8_t* mins, uint8_t* packed) {
    for (int j = 0; j < 4; ++j) {
        packed[j] = scales[j];
        packed[j + 4] = mins[j];
    }
    for (int j = 4; j < 8; ++j) {
        packed[j + 4] = uint8_t((scales[j] & 0xF) | ((mins[j] & 0xF) << 4));
        packed[j - 4] |= uint8_t((scales[j] >> 4) << 6);
        packed[j] |= uint8_t((mins[j] >> 4) << 6);
    }
}

// Q3_K: sixteen 6-bit scales (stored biased by 32) packed into 12 bytes: the
// low nibble of scale j is the low (j < 8) or high (j >= 8) nibble of byte
// j % 8; its top two bits are bits 2*(j/4)..+1 of byte 8 + j % 4.
inline int unpack_q3_scale(const uint8_t* packed, int j) {
    const int low = j < 8 ? packed[j] & 0xF : packed[j - 8] >> 4;
    const int high = (packed[8 + j % 4] >> (2 * (j / 4))) & 3;
    return (low | (high << 4)) - 32;
}

inline void pack_q3_scale(uint8_t* packed, int j, uint8_t biased) {
    if (j < 8)
        packed[j] = uint8_t(biased & 0xF);
    else
        packed[j - 8] |= uint8_t((biased & 0xF) << 4);
    packed[8 + j % 4] |= uint8_t((biased >> 4) << (2 * (j / 4)));
}

// Final codes into a super-block's code bytes.
// Q3_K: 3-bit codes (0..7) split into the high bit (hmask) and the low two
// bits (a 2-bit plane).
inline void pack_q3_k_codes(const int8_t* codes, uint8_t* hmask, uint8_t* qs) {
    for (int e = 0; e < 32; ++e) hmask[e] = 0;
    uint8_t low[kSuper];
    for (int e = 0; e < kSuper; ++e) {
        low[e] = uint8_t(codes[e]);
        if (codes[e] > 3) {
            hmask[e % 32] |= uint8_t(1u << (e / 32));
            low[e] = uint8_t(codes[e] - 4);
        }
    }
    pack_two_bit_fields(low, qs);
}

// Q4_K: 4-bit codes, two per byte (nibble_field's arrangement).
inline void pack_q4_k_codes(const uint8_t* codes, uint8_t* qs) {
    for (int chunk = 0; chunk < 4; ++chunk)
        for (int l = 0; l < 32; ++l)
            qs[32 * chunk + l] = uint8_t(codes[64 * chunk + l] | (codes[64 * chunk + 32 + l] << 4));
}

// Q5_K: 5-bit codes, bit 4 in the qh mask (mask_bit's arrangement), the low
// nibble as Q4_K's.
inline void pack_q5_k_codes(const uint8_t* codes, uint8_t* qh, uint8_t* qs) {
    for (int e = 0; e < 32; ++e) qh[e] = 0;
    for (int e = 0; e < kSuper; ++e) {
        if (codes[e] > 15) qh[e % 32] |= uint8_t(1u << (e / 32));
    }
    for (int chunk = 0; chunk < 4; ++chunk)
        for (int l = 0; l < 32; ++l) {
            const int lo = codes[64 * chunk + l] & 0xF;
            const int hi = codes[64 * chunk + 32 + l] & 0xF;
            qs[32 * chunk + l] = uint8_t(lo | (hi << 4));
        }
}

// ---------------------------------------------------------------------------
// Byte offsets inside each super-block.

namespace q2k {
constexpr int kScales = 0, kQs = 16, kD = 80, kDmin = 82, kBytes = 84;
}
namespace q3k {
constexpr int kHmask = 0, kQs = 32, kScales = 96, kD = 108, kBytes = 110;
}
namespace q4k {
constexpr int kD = 0, kDmin = 2, kScales = 4, kQs = 16, kBytes = 144;
}
namespace q5k {
constexpr int kD = 0, kDmin = 2, kScales = 4, kQh = 16, kQs = 48, kBytes = 176;
}
namespace q6k {
constexpr int kQl = 0, kQh = 128, kScales = 192, kD = 208, kBytes = 210;
}
namespace q8k {
constexpr int kD = 0, kQs = 4, kBsums = 260, kBytes = 292;
}

}  // namespace skn_core::codec::kblock
