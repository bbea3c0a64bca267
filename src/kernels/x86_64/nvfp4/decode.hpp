// SPDX-License-Identifier: MIT
// NVFP4 block pieces shared by the NVFP4 kernel translation units (AVX2 and
// up). Include only from kernel TUs: everything lives in an anonymous
// namespace, one private copy per TU (see common/int8_dot.hpp for why).
//
// Codes: E2M1 doubled (-12..12, docs/formats/nonlinear.md) plus 12, so that
// they are the unsigned operand of the u8 x s8 dot; the offset is removed
// exactly by adding -12 * sum(q) over the same lanes.
// Scales: UE4M3 bytes to HALF their value (the grid is doubled), exactly as
// ue4m3_to_f32_half in src/formats/microscaling.hpp, without touching a
// float subnormal (so it also holds with DAZ / FTZ set).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "kernels/x86_64/common/value_tables.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

constexpr int64_t kNvfp4Bytes = 36;  // { u8 scale[4]; u8 qs[32] }
constexpr int64_t kQ80Bytes = 34;    // { f16 d; i8 q[32] }
constexpr int kNvfp4CodeOffset = 12;

// Per 128-bit lane: code -> 12 + doubled E2M1 value (code 8, "-0", is 12 too).
inline __m128i nvfp4_code_table() { return load_table(kE2M1DoubledPlus12); }

// Four UE4M3 bytes (little-endian in `packed`) -> four half scales.
// Bit 7 is ignored; with v = u & 0x7F = E << 3 | M:
//   E >= 1: (1 + M/8) * 2^(E-8) = float with exponent field E + 119, mantissa M << 20,
//           i.e. the bits (v << 20) + (119 << 23);
//   E == 0: M * 2^-10 (v == M), from a float conversion;
//   u == 0x7F (the E4M3 NaN): 0.
inline __m128 nvfp4_half_scales(uint32_t packed) {
    const __m128i u = _mm_cvtepu8_epi32(_mm_cvtsi32_si128(int(packed)));
    const __m128i v = _mm_and_si128(u, _mm_set1_epi32(0x7F));
    const __m128 normal = _mm_castsi128_ps(_mm_add_epi32(_mm_slli_epi32(v, 20), _mm_set1_epi32(119 << 23)));
    const __m128 subnormal = _mm_mul_ps(_mm_cvtepi32_ps(v), _mm_set1_ps(0x1p-10f));
    const __m128 s = _mm_blendv_ps(subnormal, normal, _mm_castsi128_ps(_mm_cmpgt_epi32(v, _mm_set1_epi32(7))));
    return _mm_andnot_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(u, _mm_set1_epi32(0x7F))), s);
}

inline uint32_t nvfp4_load_u32(const uint8_t* p) {
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

inline float nvfp4_load_h(const uint8_t* p) {
    uint16_t h;
    __builtin_memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}

}  // namespace
}  // namespace skn_core::kernels::x86_64
