// SPDX-License-Identifier: MIT
// Scalar conversions between float32 and IEEE binary16 / bfloat16, and
// little-endian loads and stores. (E8M0 and UE4M3 are in microscaling.hpp.)
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace skn_core {

inline uint32_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }
inline float f32_from_bits(uint32_t u) { return std::bit_cast<float>(u); }

// binary16 -> float32, exact for every finite input and infinities. A NaN
// keeps its payload and comes out quiet, as a hardware conversion (and the
// GGUF reference decoder) delivers it.
inline float fp16_to_f32(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return f32_from_bits(sign | 0x7f800000u | (mant << 13) | (mant != 0 ? 0x400000u : 0u));
    if (exp != 0) return f32_from_bits(sign | ((exp + 112u) << 23) | (mant << 13));
    if (mant == 0) return f32_from_bits(sign);
    // Subnormal: normalise the mantissa into a float32 normal.
    int e = -1;
    do {
        ++e;
        mant <<= 1;
    } while ((mant & 0x400u) == 0);
    return f32_from_bits(sign | uint32_t(112 - e) << 23 | ((mant & 0x3ffu) << 13));
}

// float32 -> binary16 with IEEE round-to-nearest-even: overflow gives infinity,
// tiny values round into subnormals or to signed zero, NaN stays a (quiet) NaN.
inline uint16_t f32_to_fp16(float f) {
    const uint32_t u = f32_bits(f);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    const uint32_t au = u & 0x7fffffffu;
    if (au > 0x7f800000u) return uint16_t(sign | 0x7e00u | ((au >> 13) & 0x1ffu));  // NaN, kept quiet
    if (au >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds to or beyond 65520 -> inf
    if (au >= 0x38800000u) {                                 // normal binary16 range
        const uint32_t round = 0xfffu + ((au >> 13) & 1u);
        return uint16_t(sign | ((au - 0x38000000u + round) >> 13));
    }
    if (au < 0x33000000u) return sign;  // below half the smallest subnormal: zero
    // Subnormal result: shift the full significand right, rounding to nearest even.
    const uint32_t exp = au >> 23;
    const uint32_t mant = (au & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - exp;  // 14 .. 24
    uint32_t v = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (v & 1u))) ++v;
    return uint16_t(sign | v);
}

inline float bf16_to_f32(uint16_t h) { return f32_from_bits(uint32_t(h) << 16); }

// float32 -> bfloat16, round-to-nearest-even; NaN forced quiet; subnormals kept.
inline uint16_t f32_to_bf16(float f) {
    const uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// Little-endian loads/stores: block bytes are little-endian on every host.
inline uint16_t load_u16le(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
inline void store_u16le(uint8_t* p, uint16_t v) {
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
}
inline float load_f32le(const uint8_t* p) {
    uint32_t u = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    return f32_from_bits(u);
}
inline void store_f32le(uint8_t* p, float f) {
    const uint32_t u = f32_bits(f);
    p[0] = uint8_t(u);
    p[1] = uint8_t(u >> 8);
    p[2] = uint8_t(u >> 16);
    p[3] = uint8_t(u >> 24);
}
inline float load_fp16(const uint8_t* p) { return fp16_to_f32(load_u16le(p)); }
inline void store_fp16(uint8_t* p, float f) { store_u16le(p, f32_to_fp16(f)); }

}  // namespace skn_core
