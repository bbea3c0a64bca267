// SPDX-License-Identifier: MIT
// TQ1_0 and TQ2_0: 256-element blocks of ternary codes {-1, 0, +1} with one
// fp16 scale, the TriLM / BitNet b1.58 formats of the GGUF ecosystem.
// TQ1_0 packs five trits per byte in base 3 (1.6875 bits per weight); TQ2_0
// spends two bits per trit (2.0625 bits per weight). I2_S lives in i2_s.cpp.
#include <algorithm>
#include <array>
#include <cmath>

#include "formats/codecs.hpp"
#include "formats/half.hpp"

namespace skn_core::codec {

namespace {

constexpr int kBlockElems = 256;

// TQ1_0 block: 48 bytes of five trits each, 4 bytes of four trits each, fp16 scale.
constexpr int kTq1WideBytes = 32;    // first base-3 group: 160 elements, stride 32
constexpr int kTq1NarrowBytes = 16;  // second base-3 group: 80 elements, stride 16
constexpr int kTq1TailBytes = 4;     // last 16 elements, four trits per byte, stride 4
constexpr int kTq1TailOffset = kTq1WideBytes + kTq1NarrowBytes;  // 48
constexpr int kTq1ScaleOffset = kTq1TailOffset + kTq1TailBytes;  // 52
constexpr int kTq1BlockBytes = kTq1ScaleOffset + 2;              // 54

// TQ2_0 block: 64 bytes of four 2-bit codes each, then the fp16 scale.
constexpr int kTq2CodeBytes = 64;
constexpr int kTq2BlockBytes = kTq2CodeBytes + 2;  // 66

// The largest |x| of a block, the value a ternary block scales to +-1.
float block_absmax(const float* x) {
    float amax = 0.0f;
    for (int i = 0; i < kBlockElems; ++i) amax = std::max(amax, std::fabs(x[i]));
    return amax;
}

// The trit index 0, 1, 2 (for -1, 0, +1) of x scaled by `inv_scale`, rounding
// half away from zero. When a block's maximum is so small that 1/max
// overflows, the product is +-inf or NaN: the reference's lroundf then returns
// LONG_MIN on x86-64, which its int arithmetic turns into the zero trit, so
// that is what such products give here (on every host).
int trit_index(float x, float inv_scale) {
    const float scaled = x * inv_scale;
    if (!(std::fabs(scaled) <= 2.0f)) return 1;
    return int(std::lround(scaled)) + 1;
}

// ---- TQ1_0 ----------------------------------------------------------------

// Base-3 digits are stored as a fixed-point fraction of 243 so that a decoder
// can pull the n-th digit out with a multiply and a shift: the byte holds
// ceil(value * 256 / 243), value being the digits read most significant first.
uint8_t trits_to_fraction(unsigned value_base3) { return uint8_t((value_base3 * 256u + 242u) / 243u); }

// Digit n (0 = most significant) of a byte written by trits_to_fraction.
int fraction_trit(uint8_t byte, int n) {
    static constexpr std::array<uint8_t, 5> kPow3 = {1, 3, 9, 27, 81};
    const uint8_t shifted = uint8_t(byte * kPow3[size_t(n)]);  // drop the n leading digits (mod 256)
    return (int(shifted) * 3) >> 8;
}

// Pack `bytes` bytes of five trits: byte m holds elements m, m + stride, ...,
// m + 4 * stride (stride == bytes), the first one in the most significant digit.
void pack_five_trits(const float* x, float inv_scale, int bytes, uint8_t* dst) {
    for (int m = 0; m < bytes; ++m) {
        uint8_t value = 0;  // the reference accumulates in a byte; five trits never exceed 242
        for (int n = 0; n < 5; ++n) value = uint8_t(value * 3 + trit_index(x[m + n * bytes], inv_scale));
        dst[m] = trits_to_fraction(value);
    }
}

void quantize_block_tq1_0(const float* x, uint8_t* dst) {
    const float d = block_absmax(x);
    const float inv = d != 0.0f ? 1.0f / d : 0.0f;
    pack_five_trits(x, inv, kTq1WideBytes, dst);
    pack_five_trits(x + 5 * kTq1WideBytes, inv, kTq1NarrowBytes, dst + kTq1WideBytes);
    // The last 16 elements: four trits per byte, shifted up one digit so the
    // same five-digit decoder reads them as digits 0..3.
    const float* tail = x + 5 * (kTq1WideBytes + kTq1NarrowBytes);
    for (int j = 0; j < kTq1TailBytes; ++j) {
        uint8_t value = 0;
        for (int n = 0; n < 4; ++n) value = uint8_t(value * 3 + trit_index(tail[j + n * kTq1TailBytes], inv));
        dst[kTq1TailOffset + j] = trits_to_fraction(unsigned(uint8_t(value * 3)));
    }
    store_fp16(dst + kTq1ScaleOffset, d);
}

// Decode `bytes` bytes holding `digits` trits each; element n * bytes + m is
// digit n of byte m.
float* unpack_trits(const uint8_t* src, int bytes, int digits, float d, float* dst) {
    for (int n = 0; n < digits; ++n)
        for (int m = 0; m < bytes; ++m) *dst++ = float(fraction_trit(src[m], n) - 1) * d;
    return dst;
}

// ---- TQ2_0 ----------------------------------------------------------------

// Each 32-byte half holds 128 elements: element 32 * l + m is in byte m, bits 2l..2l+1.
void quantize_block_tq2_0(const float* x, uint8_t* dst) {
    const float d = block_absmax(x);
    const float inv = d != 0.0f ? 1.0f / d : 0.0f;
    for (int half = 0; half < 2; ++half, x += 128, dst += 32)
        for (int m = 0; m < 32; ++m) {
            unsigned byte = 0;
            for (int l = 0; l < 4; ++l) byte |= unsigned(trit_index(x[m + 32 * l], inv) & 3) << (2 * l);
            dst[m] = uint8_t(byte);
        }
    store_fp16(dst, d);  // dst now points at byte 64
}

}  // namespace

void decode_tq1_0(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += kTq1BlockBytes) {
        const float d = load_fp16(src + kTq1ScaleOffset);
        dst = unpack_trits(src, kTq1WideBytes, 5, d, dst);
        dst = unpack_trits(src + kTq1WideBytes, kTq1NarrowBytes, 5, d, dst);
        dst = unpack_trits(src + kTq1TailOffset, kTq1TailBytes, 4, d, dst);
    }
}

void quantize_row_tq1_0(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kBlockElems; ++b) quantize_block_tq1_0(src + b * kBlockElems, dst + b * kTq1BlockBytes);
}

void decode_tq2_0(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += kTq2BlockBytes) {
        const float d = load_fp16(src + kTq2CodeBytes);
        for (int half = 0; half < 2; ++half)
            for (int l = 0; l < 4; ++l)
                for (int m = 0; m < 32; ++m) *dst++ = float(((src[32 * half + m] >> (2 * l)) & 3) - 1) * d;
    }
}

void quantize_row_tq2_0(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kBlockElems; ++b) quantize_block_tq2_0(src + b * kBlockElems, dst + b * kTq2BlockBytes);
}

}  // namespace skn_core::codec
