// SPDX-License-Identifier: MIT
// The non-linear formats' value tables as 16-byte shuffle tables, made at
// compile time from the one copy in formats/facts.hpp (IQ4_NL levels, the
// doubled E2M1 grid of MXFP4 and NVFP4), with the offset a kernel's unsigned
// code arithmetic wants. Internal linkage throughout: no weak symbols in the
// ISA objects that include this.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "formats/facts.hpp"

namespace skn_core::kernels::x86_64 {

struct Table16 {
    alignas(16) uint8_t v[16];
};

// t[i] + offset, as the byte a pshufb lookup returns (wrapping mod 256).
static constexpr Table16 offset_table(const int8_t (&t)[16], int offset) {
    Table16 r{};
    for (int i = 0; i < 16; ++i) r.v[i] = static_cast<uint8_t>(t[i] + offset);
    return r;
}

constexpr Table16 kIq4nlLevels = offset_table(kIq4nlValues, 0);          // signed levels
constexpr Table16 kIq4nlLevelsPlus128 = offset_table(kIq4nlValues, 128);  // level + 128: 1 .. 241
constexpr Table16 kE2M1DoubledBytes = offset_table(kE2M1Doubled, 0);      // signed doubled E2M1
constexpr Table16 kE2M1DoubledPlus12 = offset_table(kE2M1Doubled, 12);    // doubled E2M1 + 12: 0 .. 24

static inline __m128i load_table(const Table16& t) { return _mm_load_si128(reinterpret_cast<const __m128i*>(t.v)); }

}  // namespace skn_core::kernels::x86_64
