// SPDX-License-Identifier: MIT
// Small-float pieces of the OCP microscaling family as the GGUF ecosystem
// encodes them: the E2M1 element grid shared by MXFP4 and NVFP4, the E8M0
// block exponent of MXFP4 and the UE4M3 sub-block scale of NVFP4.
//
// Convention: every scale here is returned HALVED, because the element grid
// is stored doubled (integers -12..12 instead of -6..6). Element value =
// grid[code] * half_scale, which is exact in float32 for every code and scale.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "formats/facts.hpp"

namespace skn_core {

// The E2M1 grid, doubled (kE2M1Doubled), is a format fact: formats/facts.hpp.

// E8M0 exponent byte e -> 2^(e - 128), i.e. half of 2^(e - 127). Every byte
// maps to a finite power of two: 0 and 1 land in the float32 subnormal range,
// 255 (NaN in OCP) is treated as 2^127, as the reference decoder does.
inline float e8m0_to_f32_half(uint8_t e) {
    const uint32_t bits = e < 2 ? (0x00200000u << e) : (uint32_t(e) - 1u) << 23;
    return std::bit_cast<float>(bits);
}

// UE4M3 byte -> half its value. Bits 3..6 are the exponent (bias 7), bits
// 0..2 the mantissa; bit 7 is ignored (the scale is unsigned). 0x00 and 0x7F
// (the E4M3 NaN) decode to 0. 0xFF is not special: with bit 7 dropped it is
// exponent 15, mantissa 7, i.e. 480 (240 halved), as the reference decodes it.
inline float ue4m3_to_f32_half(uint8_t u) {
    if (u == 0x00 || u == 0x7F) return 0.0f;
    const int exp = (u >> 3) & 0xF;
    const int man = u & 0x7;
    // Subnormal: man * 2^-9; normal: (8 + man) * 2^(exp - 10). Halved: one less.
    if (exp == 0) return std::ldexp(float(man), -10);
    return std::ldexp(float(8 + man), exp - 11);
}

// float32 -> UE4M3 as the reference encoder rounds it (not IEEE rounding):
// non-positive and NaN give 0; values are clamped to 448; normals keep the
// top three mantissa bits and round half up on the fourth, saturating to 0x7E;
// results with a UE4M3 exponent field of 15 before rounding also saturate to
// 0x7E (so everything >= 256 encodes as 448); subnormals are
// trunc(x * 512 + 0.5) clamped to 7 (evaluated in float32, as written).
inline uint8_t f32_to_ue4m3(float x) {
    if (!(x > 0.0f)) return 0;
    if (x > 448.0f) x = 448.0f;
    const uint32_t bits = std::bit_cast<uint32_t>(x);
    int exp = int((bits >> 23) & 0xFF) - 127 + 7;
    if (exp <= 0) {
        int man = int(x * 512.0f + 0.5f);
        if (man > 7) man = 7;
        return man < 1 ? 0 : uint8_t(man);
    }
    constexpr uint8_t kSaturated = 0x7E;  // 1.75 * 2^8 = 448, the largest finite UE4M3
    if (exp >= 15) return kSaturated;
    int man = int((bits >> 20) & 0x7) + int((bits >> 19) & 1);
    if (man > 7) {
        man = 0;
        if (++exp >= 15) return kSaturated;
    }
    return uint8_t(exp << 3 | man);
}

}  // namespace skn_core
