// SPDX-License-Identifier: MIT
// Q1_0 and Q2_0: one fp16 scale followed by 1-bit (128 elements) or 2-bit
// (64 elements) codes, packed from the least significant bit up.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "formats/codecs.hpp"
#include "formats/half.hpp"

namespace skn_core::codec {

namespace {

constexpr int kQ1Elems = 128;
constexpr int kQ1Bytes = 2 + kQ1Elems / 8;  // 18
constexpr int kQ2Elems = 64;
constexpr int kQ2Bytes = 2 + kQ2Elems / 4;  // 18

// ---- Q1_0: sign bits, scale = mean |x| ------------------------------------

void quantize_block_q1_0(const float* x, uint8_t* dst) {
    // The mean absolute value is the L2-optimal magnitude for +-d codes; the
    // sum runs left to right in float, exactly as the reference sums it.
    float sum_abs = 0.0f;
    for (int i = 0; i < kQ1Elems; ++i) sum_abs += std::fabs(x[i]);
    store_fp16(dst, sum_abs / float(kQ1Elems));
    uint8_t* bits = dst + 2;
    std::memset(bits, 0, kQ1Elems / 8);
    // x >= 0 (so -0.0 too) is +d: zero gets a bit like any non-negative value.
    for (int i = 0; i < kQ1Elems; ++i)
        if (x[i] >= 0.0f) bits[i / 8] = uint8_t(bits[i / 8] | (1u << (i % 8)));
}

// ---- Q2_0: codes 0..3 for -1, 0, +1, +2 times d, d = max |x| ---------------

// Code for x scaled by `inv_scale`: round half away from zero, shift by one,
// clamp to 0..3. When 1/max overflows (a block of tiny values) the product is
// +-inf or NaN; the reference's float->int conversion then yields INT_MIN on
// x86-64, which clamps to code 0, so such products give code 0 here on every host.
int q2_code(float x, float inv_scale) {
    const float scaled = x * inv_scale;
    if (!(std::fabs(scaled) <= 8.0f)) return 0;
    return std::clamp(int(std::roundf(scaled)) + 1, 0, 3);
}

void quantize_block_q2_0(const float* x, uint8_t* dst) {
    float amax = 0.0f;
    for (int i = 0; i < kQ2Elems; ++i) amax = std::max(amax, std::fabs(x[i]));
    const float inv = amax > 0.0f ? 1.0f / amax : 0.0f;
    store_fp16(dst, amax);
    uint8_t* codes = dst + 2;
    std::memset(codes, 0, kQ2Elems / 4);
    for (int i = 0; i < kQ2Elems; ++i) codes[i / 4] = uint8_t(codes[i / 4] | (q2_code(x[i], inv) << (2 * (i % 4))));
}

}  // namespace

// Q1_0: { fp16 d; uint8 bits[16]; }  element i is +d when bit i % 8 of byte i / 8 is set, else -d.
void decode_q1_0(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += kQ1Bytes, dst += kQ1Elems) {
        const float d = load_fp16(src);
        const float neg_d = -d;
        for (int i = 0; i < kQ1Elems; ++i) dst[i] = ((src[2 + i / 8] >> (i % 8)) & 1) ? d : neg_d;
    }
}

void quantize_row_q1_0(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQ1Elems; ++b) quantize_block_q1_0(src + b * kQ1Elems, dst + b * kQ1Bytes);
}

// Q2_0: { fp16 d; uint8 codes[16]; }  element i = (c - 1) * d with c = bits 2(i%4)..2(i%4)+1 of byte i / 4.
void decode_q2_0(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += kQ2Bytes, dst += kQ2Elems) {
        const float d = load_fp16(src);
        for (int i = 0; i < kQ2Elems; ++i) dst[i] = float(((src[2 + i / 4] >> (2 * (i % 4))) & 3) - 1) * d;
    }
}

void quantize_row_q2_0(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQ2Elems; ++b) quantize_block_q2_0(src + b * kQ2Elems, dst + b * kQ2Bytes);
}

}  // namespace skn_core::codec
