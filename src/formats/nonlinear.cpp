// SPDX-License-Identifier: MIT
// IQ4_NL IQ4_XS MXFP4 NVFP4: 4-bit codes that index a fixed non-uniform grid
// (a learned 16-level table for the IQ4 pair, E2M1 for the microscaling pair)
// instead of an integer ramp. Layouts and algorithms: docs/formats/nonlinear.md.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "formats/codecs.hpp"
#include "formats/half.hpp"
#include "formats/microscaling.hpp"

namespace skn_core::codec {

namespace {

uint8_t pack_nibbles(uint8_t lo, uint8_t hi) { return uint8_t(lo | (hi << 4)); }

// ---------------------------------------------------------------- IQ4 family

// The 16 IQ4 levels: formats/facts.hpp.
constexpr const int8_t (&kIq4Levels)[16] = kIq4nlValues;
constexpr int kIq4Sub = 32;          // elements per scale
constexpr int kIq4SuperBlock = 256;  // IQ4_XS elements per block
constexpr float kNegligibleAmax = 1e-15f;
// The search tries anchors -127 + t for t in [-kScaleTries, kScaleTries].
constexpr int kScaleTries = 7;

// Index of the level nearest to x; an exact midpoint goes to the upper level.
// NaN lands on the top level (every "x < level" test is false), as in the
// reference's binary search.
int nearest_iq4_level(float x) {
    if (x <= float(kIq4Levels[0])) return 0;
    if (x >= float(kIq4Levels[15])) return 15;
    int upper = 1;
    while (upper < 15 && !(x < float(kIq4Levels[upper]))) ++upper;
    return x - float(kIq4Levels[upper - 1]) < float(kIq4Levels[upper]) - x ? upper - 1 : upper;
}

// Round to nearest, ties to even, by adding 1.5 * 2^23 so the FPU's rounding
// drops the fraction, then reading the integer back from the mantissa bits.
// Kept in this form (rather than nearbyint) because it is total: NaN gives 0
// and infinities give -2^22, exactly what the reference computes.
int round_via_mantissa(float v) {
    const float shifted = v + 12582912.0f;
    return int(std::bit_cast<uint32_t>(shifted) & 0x007FFFFFu) - 0x00400000;
}

// Weighted least-squares fit of a scale for one 32-element sub-block: with
// codes chosen by nearest level, the best scale for weights w is
// sum(w q x) / sum(w q^2); w = x^2 without importance weights. Seeds: the scale mapping the largest element onto
// +127 (clamped to 113 by the grid), then 15 scales mapping it onto
// -127 + t; the candidate with the largest sum(w q x)^2 / sum(w q^2) wins.
// Float operations and their order are the reference's: do not reassociate.
float fit_iq4_scale(const float* x, const float* weights) {
    float amax = 0.0f;
    float max = 0.0f;  // signed value of the first largest-magnitude element
    for (int j = 0; j < kIq4Sub; ++j) {
        const float ax = std::fabs(x[j]);
        if (ax > amax) {
            amax = ax;
            max = x[j];
        }
    }
    if (amax < kNegligibleAmax) return 0.0f;

    struct Moments {
        float sum_qx = 0.0f;
        float sum_q2 = 0.0f;
    };
    const auto moments_for = [x, weights](float inv_scale) {
        Moments m;
        for (int j = 0; j < kIq4Sub; ++j) {
            const float q = float(kIq4Levels[nearest_iq4_level(inv_scale * x[j])]);
            const float w = weights[j];
            m.sum_qx += w * q * x[j];
            m.sum_q2 += w * q * q;
        }
        return m;
    };

    const float seed = -max / float(kIq4Levels[0]);
    Moments m = moments_for(1.0f / seed);
    float d = m.sum_q2 > 0.0f ? m.sum_qx / m.sum_q2 : 0.0f;
    float best = d * m.sum_qx;
    for (int t = -kScaleTries; t <= kScaleTries; ++t) {
        m = moments_for(float(t + kIq4Levels[0]) / max);
        if (m.sum_q2 > 0.0f && m.sum_qx * m.sum_qx > best * m.sum_q2) {
            d = m.sum_qx / m.sum_q2;
            best = d * m.sum_qx;
        }
    }
    return d;
}

// The plain encoders weigh each element by its square.
float fit_iq4_scale(const float* x) {
    float weights[kIq4Sub];
    for (int j = 0; j < kIq4Sub; ++j) weights[j] = x[j] * x[j];
    return fit_iq4_scale(x, weights);
}

// With importance weights: importance * sqrt(sigma2 + x^2), where sigma2 is
// twice the mean square of the whole block (32 elements for IQ4_NL, 256 for
// IQ4_XS), computed as the reference does: sum, then times 2 / size.
float block_sigma2(const float* x, int size) {
    float sigma2 = 0.0f;
    for (int j = 0; j < size; ++j) sigma2 += x[j] * x[j];
    sigma2 *= 2.0f / float(size);
    return sigma2;
}

float fit_iq4_scale_weighted(const float* x, const float* importance, float sigma2) {
    float weights[kIq4Sub];
    for (int j = 0; j < kIq4Sub; ++j) weights[j] = importance[j] * std::sqrt(sigma2 + x[j] * x[j]);
    return fit_iq4_scale(x, weights);
}

// Codes for 32 elements at inverse scale `inv`, element j in the low nibble of
// byte j and element j + 16 in the high nibble.
void encode_iq4_sub_block(const float* x, float inv, uint8_t* qs) {
    for (int j = 0; j < kIq4Sub / 2; ++j)
        qs[j] = pack_nibbles(uint8_t(nearest_iq4_level(inv * x[j])),
                             uint8_t(nearest_iq4_level(inv * x[j + kIq4Sub / 2])));
}

void decode_iq4_sub_block(const uint8_t* qs, float d, float* dst) {
    for (int j = 0; j < kIq4Sub / 2; ++j) {
        dst[j] = d * float(kIq4Levels[qs[j] & 0x0F]);
        dst[j + kIq4Sub / 2] = d * float(kIq4Levels[qs[j] >> 4]);
    }
}

// ---------------------------------------------------------- microscaling FP4

// The E2M1 code whose value (grid * half_scale) is nearest to x; the lowest
// code wins ties, so zero encodes as +0 (code 0), never -0 (code 8).
uint8_t nearest_fp4_code(float x, float half_scale) {
    int best = 0;
    float best_err = std::fabs(float(kE2M1Doubled[0]) * half_scale - x);
    for (int c = 1; c < 16; ++c) {
        const float err = std::fabs(float(kE2M1Doubled[c]) * half_scale - x);
        if (err < best_err) {
            best = c;
            best_err = err;
        }
    }
    return uint8_t(best);
}

float absmax(const float* x, int n) {
    float amax = 0.0f;
    for (int j = 0; j < n; ++j)
        if (amax < std::fabs(x[j])) amax = std::fabs(x[j]);
    return amax;
}

// Codes for n elements: element j in the low nibble of byte j, element
// j + n/2 in the high nibble.
void encode_fp4(const float* x, int n, float half_scale, uint8_t* qs) {
    for (int j = 0; j < n / 2; ++j)
        qs[j] = pack_nibbles(nearest_fp4_code(x[j], half_scale), nearest_fp4_code(x[j + n / 2], half_scale));
}

void decode_fp4(const uint8_t* qs, int n, float half_scale, float* dst) {
    for (int j = 0; j < n / 2; ++j) {
        dst[j] = float(kE2M1Doubled[qs[j] & 0x0F]) * half_scale;
        dst[j + n / 2] = float(kE2M1Doubled[qs[j] >> 4]) * half_scale;
    }
}

// MXFP4 block exponent e = floor(log2(amax)) - 2 + 127, i.e. a scale of
// 2^(floor(log2 amax) - 2) that puts amax in [4, 8): the top of the E2M1 grid
// (largest value 6; anything above rounds down to 6). Computed in float with
// libm's log2f as the reference does, then truncated to an int whose low byte
// is kept: for amax < 2^-125 the value is negative and wraps (e.g. -1 -> 255),
// which we reproduce.
uint8_t mxfp4_exponent(float amax) {
    if (!(amax > 0.0f)) return 0;
    const float biased = std::floor(std::log2(amax)) - 2.0f + 127.0f;
    return uint8_t(uint32_t(int32_t(biased)));
}

constexpr int kMxfp4Block = 32;
constexpr int kNvfp4Block = 64;
constexpr int kNvfp4Sub = 16;

}  // namespace

// IQ4_NL: { fp16 d; u8 qs[16]; }  x[i] = d * level[code[i]]
void decode_iq4_nl(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 18, dst += kIq4Sub) decode_iq4_sub_block(src + 2, load_fp16(src), dst);
}

void quantize_row_iq4_nl(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kIq4Sub; ++b, src += kIq4Sub, dst += 18) {
        const float d = fit_iq4_scale(src);
        store_fp16(dst, d);
        // Codes are re-chosen against the float scale (not its fp16 rounding).
        encode_iq4_sub_block(src, d != 0.0f ? 1.0f / d : 0.0f, dst + 2);
    }
}

void quantize_row_weighted_iq4_nl(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kIq4Sub; ++b, src += kIq4Sub, importance += kIq4Sub, dst += 18) {
        const float d = fit_iq4_scale_weighted(src, importance, block_sigma2(src, kIq4Sub));
        store_fp16(dst, d);
        encode_iq4_sub_block(src, d != 0.0f ? 1.0f / d : 0.0f, dst + 2);
    }
}

// IQ4_XS: { fp16 d; u16le scales_h; u8 scales_l[4]; u8 qs[128]; }
// sub-block s has a 6-bit scale ls = (low nibble s of scales_l) | (2 bits s of
// scales_h) << 4, and x = d * (ls - 32) * level[code].
void decode_iq4_xs(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 136) {
        const float d = load_fp16(src);
        const uint16_t scales_h = load_u16le(src + 2);
        const uint8_t* scales_l = src + 4;
        const uint8_t* qs = src + 8;
        for (int s = 0; s < kIq4SuperBlock / kIq4Sub; ++s, qs += 16, dst += kIq4Sub) {
            const int ls = ((scales_l[s / 2] >> (4 * (s % 2))) & 0x0F) | ((scales_h >> (2 * s)) & 3) << 4;
            decode_iq4_sub_block(qs, d * float(ls - 32), dst);
        }
    }
}

namespace {
// `importance` null: the plain encoder; else the weighted one.
void quantize_iq4_xs(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    constexpr int kSubs = kIq4SuperBlock / kIq4Sub;
    for (int64_t b = 0; b < n / kIq4SuperBlock; ++b, src += kIq4SuperBlock, dst += 136) {
        std::array<float, kSubs> scales{};
        float max_scale = 0.0f;  // signed, first of largest magnitude
        float amax_scale = 0.0f;
        const float sigma2 = importance != nullptr ? block_sigma2(src, kIq4SuperBlock) : 0.0f;
        for (int s = 0; s < kSubs; ++s) {
            scales[s] = importance != nullptr
                            ? fit_iq4_scale_weighted(src + s * kIq4Sub, importance + b * kIq4SuperBlock + s * kIq4Sub,
                                                     sigma2)
                            : fit_iq4_scale(src + s * kIq4Sub);
            if (std::fabs(scales[s]) > amax_scale) {
                amax_scale = std::fabs(scales[s]);
                max_scale = scales[s];
            }
        }
        // The block scale maps the largest sub-scale onto -32, the most
        // negative 6-bit value. An all-negligible block gives d = -0.0.
        const float d = -max_scale / 32.0f;
        const float inv_d = d != 0.0f ? 1.0f / d : 0.0f;
        store_fp16(dst, d);
        uint16_t scales_h = 0;
        uint8_t* scales_l = dst + 4;
        for (int s = 0; s < kSubs / 2; ++s) scales_l[s] = 0;
        for (int s = 0; s < kSubs; ++s) {
            int l = round_via_mantissa(inv_d * scales[s]);
            l = l < -32 ? -32 : (l > 31 ? 31 : l);
            const float dl = d * float(l);
            encode_iq4_sub_block(src + s * kIq4Sub, dl != 0.0f ? 1.0f / dl : 0.0f, dst + 8 + 16 * s);
            const int biased = l + 32;  // 0..63
            scales_l[s / 2] = uint8_t(scales_l[s / 2] | (biased & 0x0F) << (4 * (s % 2)));
            scales_h = uint16_t(scales_h | (biased >> 4) << (2 * s));
        }
        store_u16le(dst + 2, scales_h);
    }
}
}  // namespace

void quantize_row_iq4_xs(const float* src, int64_t n, uint8_t* dst) { quantize_iq4_xs(src, n, dst, nullptr); }

void quantize_row_weighted_iq4_xs(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_iq4_xs(src, n, dst, importance);
}

// MXFP4: { u8 e (E8M0); u8 qs[16]; }  x[i] = e2m1[code[i]] * 2^(e - 127)
void decode_mxfp4(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 17, dst += kMxfp4Block)
        decode_fp4(src + 1, kMxfp4Block, e8m0_to_f32_half(src[0]), dst);
}

void quantize_row_mxfp4(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kMxfp4Block; ++b, src += kMxfp4Block, dst += 17) {
        const uint8_t e = mxfp4_exponent(absmax(src, kMxfp4Block));
        dst[0] = e;
        encode_fp4(src, kMxfp4Block, e8m0_to_f32_half(e), dst + 1);
    }
}

// NVFP4: { u8 scale[4] (UE4M3); u8 qs[32]; } four 16-element sub-blocks,
// sub-block s uses scale[s] and bytes qs[8s .. 8s+7]:
// x = e2m1[code] * ue4m3(scale[s]).
void decode_nvfp4(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 36)
        for (int s = 0; s < kNvfp4Block / kNvfp4Sub; ++s, dst += kNvfp4Sub)
            decode_fp4(src + 4 + s * (kNvfp4Sub / 2), kNvfp4Sub, ue4m3_to_f32_half(src[s]), dst);
}

void quantize_row_nvfp4(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kNvfp4Block; ++b, dst += 36) {
        for (int s = 0; s < kNvfp4Block / kNvfp4Sub; ++s, src += kNvfp4Sub) {
            // Scale so the largest magnitude maps onto E2M1's largest value, 6.
            const uint8_t scale = f32_to_ue4m3(absmax(src, kNvfp4Sub) / 6.0f);
            dst[s] = scale;
            encode_fp4(src, kNvfp4Sub, ue4m3_to_f32_half(scale), dst + 4 + s * (kNvfp4Sub / 2));
        }
    }
}

}  // namespace skn_core::codec
