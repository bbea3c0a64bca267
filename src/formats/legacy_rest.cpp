// SPDX-License-Identifier: MIT
// Q4_0 Q4_1 Q5_0 Q5_1 Q8_1: the 32-element legacy blocks other than Q8_0
// (which lives in legacy.cpp). Layouts and algorithms: docs/formats/legacy.md.
//
// The quantizers reproduce the GGUF reference byte for byte, including its
// behaviour on degenerate input (tiny or huge values whose inverse scale
// overflows): see truncate_like_x86 below.
#include <cfloat>
#include <cstdint>
#include <cmath>

#include "formats/codecs.hpp"
#include "formats/float_to_int.hpp"
#include "formats/half.hpp"
#include "formats/le_bytes.hpp"

namespace skn_core::codec {

namespace {

constexpr int kQK = 32;
constexpr int kHalf = kQK / 2;  // element j and j + 16 share a byte: j in the low nibble

// Reference rounding for the offset formats: trunc(x + bias) as a signed byte,
// capped at `top` (the cap is a signed compare, so a wrapped negative byte
// passes through unchanged).
uint8_t offset_code(float x, float bias, int top) {
    const int v = low_byte_signed(truncate_like_x86(x + bias));
    return uint8_t(v < top ? v : top);
}

uint8_t pack_nibbles(uint8_t lo, uint8_t hi) { return uint8_t(lo | (hi << 4)); }

// The signed element of largest magnitude; the first one wins ties, and an
// all-zero block gives +0.
float signed_absmax(const float* x) {
    float amax = 0.0f;
    float max = 0.0f;
    for (int i = 0; i < kQK; ++i) {
        if (amax < std::fabs(x[i])) {
            amax = std::fabs(x[i]);
            max = x[i];
        }
    }
    return max;
}

struct Range {
    float min;
    float max;
};
Range value_range(const float* x) {
    Range r{FLT_MAX, -FLT_MAX};
    for (int i = 0; i < kQK; ++i) {
        if (x[i] < r.min) r.min = x[i];
        if (x[i] > r.max) r.max = x[i];
    }
    return r;
}

float inverse_or_zero(float d) { return d != 0.0f ? 1.0f / d : 0.0f; }

// The 5-bit formats store bit 4 of element i's code as bit i of a
// little-endian uint32 and bits 0..3 in the nibbles.
int five_bit_code(const uint8_t* nibbles, uint32_t qh, int i) {
    const uint8_t byte = nibbles[i % kHalf];
    const int nibble = i < kHalf ? (byte & 0x0F) : (byte >> 4);
    return nibble | int((qh >> i) & 1u) << 4;
}

}  // namespace

// Q4_0: { fp16 d; u8 qs[16]; }  x[i] = d * (code[i] - 8)
void decode_q4_0(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 18, dst += kQK) {
        const float d = load_fp16(src);
        const uint8_t* qs = src + 2;
        for (int j = 0; j < kHalf; ++j) {
            dst[j] = float((qs[j] & 0x0F) - 8) * d;
            dst[j + kHalf] = float((qs[j] >> 4) - 8) * d;
        }
    }
}

// The scale is the signed max-magnitude element divided by -8, so that
// element maps to code 0 (-8) exactly and the asymmetric side gets +7.
void quantize_row_q4_0(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, dst += 18) {
        const float d = signed_absmax(src) / -8.0f;
        const float inv = inverse_or_zero(d);
        store_fp16(dst, d);
        for (int j = 0; j < kHalf; ++j) {
            const uint8_t lo = offset_code(src[j] * inv, 8.5f, 15);
            const uint8_t hi = offset_code(src[j + kHalf] * inv, 8.5f, 15);
            dst[2 + j] = pack_nibbles(lo, hi);
        }
    }
}

// Q4_1: { fp16 d; fp16 m; u8 qs[16]; }  x[i] = d * code[i] + m
void decode_q4_1(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 20, dst += kQK) {
        const float d = load_fp16(src);
        const float m = load_fp16(src + 2);
        const uint8_t* qs = src + 4;
        for (int j = 0; j < kHalf; ++j) {
            dst[j] = float(qs[j] & 0x0F) * d + m;
            dst[j + kHalf] = float(qs[j] >> 4) * d + m;
        }
    }
}

void quantize_row_q4_1(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, dst += 20) {
        const Range r = value_range(src);
        const float d = (r.max - r.min) / 15.0f;
        const float inv = inverse_or_zero(d);
        store_fp16(dst, d);
        store_fp16(dst + 2, r.min);
        for (int j = 0; j < kHalf; ++j) {
            const uint8_t lo = offset_code((src[j] - r.min) * inv, 0.5f, 15);
            const uint8_t hi = offset_code((src[j + kHalf] - r.min) * inv, 0.5f, 15);
            dst[4 + j] = pack_nibbles(lo, hi);
        }
    }
}

// Q5_0: { fp16 d; u32le qh; u8 qs[16]; }  x[i] = d * (code[i] - 16)
void decode_q5_0(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 22, dst += kQK) {
        const float d = load_fp16(src);
        const uint32_t qh = load_u32le(src + 2);
        for (int i = 0; i < kQK; ++i) dst[i] = float(five_bit_code(src + 6, qh, i) - 16) * d;
    }
}

void quantize_row_q5_0(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, dst += 22) {
        const float d = signed_absmax(src) / -16.0f;
        const float inv = inverse_or_zero(d);
        store_fp16(dst, d);
        uint32_t qh = 0;
        for (int j = 0; j < kHalf; ++j) {
            const uint8_t lo = offset_code(src[j] * inv, 16.5f, 31);
            const uint8_t hi = offset_code(src[j + kHalf] * inv, 16.5f, 31);
            dst[6 + j] = pack_nibbles(lo & 0x0F, hi & 0x0F);
            qh |= uint32_t((lo >> 4) & 1) << j;
            qh |= uint32_t((hi >> 4) & 1) << (j + kHalf);
        }
        store_u32le(dst + 2, qh);
    }
}

// Q5_1: { fp16 d; fp16 m; u32le qh; u8 qs[16]; }  x[i] = d * code[i] + m
void decode_q5_1(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 24, dst += kQK) {
        const float d = load_fp16(src);
        const float m = load_fp16(src + 2);
        const uint32_t qh = load_u32le(src + 4);
        for (int i = 0; i < kQK; ++i) dst[i] = float(five_bit_code(src + 8, qh, i)) * d + m;
    }
}

void quantize_row_q5_1(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, dst += 24) {
        const Range r = value_range(src);
        const float d = (r.max - r.min) / 31.0f;
        const float inv = inverse_or_zero(d);
        store_fp16(dst, d);
        store_fp16(dst + 2, r.min);
        uint32_t qh = 0;
        for (int j = 0; j < kHalf; ++j) {
            // No cap here (the reference has none): trunc(x + 0.5) as an unsigned byte.
            const uint8_t lo = low_byte(truncate_like_x86((src[j] - r.min) * inv + 0.5f));
            const uint8_t hi = low_byte(truncate_like_x86((src[j + kHalf] - r.min) * inv + 0.5f));
            dst[8 + j] = pack_nibbles(lo & 0x0F, hi & 0x0F);
            qh |= uint32_t((lo >> 4) & 1) << j;
            qh |= uint32_t((hi >> 4) & 1) << (j + kHalf);
        }
        store_u32le(dst + 4, qh);
    }
}

// Q8_1: { fp16 d; fp16 s; i8 qs[32]; }  x[i] = d * qs[i]
// s = fp16(d * sum(qs)) is a precomputed term for dot-product kernels; it
// carries no information the codes lack, so decoding ignores it.
void decode_q8_1(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 36, dst += kQK) {
        const float d = load_fp16(src);
        for (int i = 0; i < kQK; ++i) dst[i] = float(int8_t(src[4 + i])) * d;
    }
}

void quantize_row_q8_1(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, dst += 36) {
        float amax = 0.0f;
        for (int i = 0; i < kQK; ++i) amax = std::fmax(amax, std::fabs(src[i]));
        const float d = amax / 127.0f;
        const float inv = inverse_or_zero(d);
        store_fp16(dst, d);
        int sum = 0;
        for (int i = 0; i < kQK; ++i) {
            const int8_t q = low_byte_signed(truncate_like_x86(std::round(src[i] * inv)));
            dst[4 + i] = uint8_t(q);
            sum += q;
        }
        // The sum is taken over the stored (wrapped, if ever) codes, then scaled
        // by the unrounded float scale.
        store_fp16(dst + 2, float(sum) * d);
    }
}

}  // namespace skn_core::codec
