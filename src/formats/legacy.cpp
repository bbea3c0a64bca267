// SPDX-License-Identifier: MIT
// Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q8_1: 32-element blocks with one fp16 scale
// (and, for the _1 variants, an fp16 minimum or sum).
#include <cmath>

#include "formats/codecs.hpp"
#include "formats/float_to_int.hpp"
#include "formats/half.hpp"

namespace skn_core::codec {

namespace {
constexpr int kQK = 32;
}

// Q8_0: { fp16 d; int8 q[32]; }  x = d * q
void decode_q8_0(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 34, dst += kQK) {
        const float d = load_fp16(src);
        for (int i = 0; i < kQK; ++i) dst[i] = d * float(int8_t(src[2 + i]));
    }
}

void quantize_row_q8_0(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, dst += 34) {
        float amax = 0.0f;
        for (int i = 0; i < kQK; ++i) amax = std::fmax(amax, std::fabs(src[i]));
        const float d = amax / 127.0f;
        const float inv = d != 0.0f ? 1.0f / d : 0.0f;
        store_fp16(dst, d);
        // roundf of an overflowed product is +-inf or NaN: convert as the
        // reference's x86 build does instead of relying on undefined behaviour.
        for (int i = 0; i < kQK; ++i) dst[2 + i] = low_byte(truncate_like_x86(std::roundf(src[i] * inv)));
    }
}

}  // namespace skn_core::codec
