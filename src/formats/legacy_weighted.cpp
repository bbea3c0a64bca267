// SPDX-License-Identifier: MIT
// Q4_0 Q4_1 Q5_0 Q5_1 with importance weights (an imatrix). Without them
// these formats take a block's extreme value as the scale (legacy_rest.cpp);
// with them the reference searches the scale instead, borrowing the K-quant
// fits (k_quants_search.hpp): a symmetric sweep for _0, an affine sweep for
// _1. Each element counts importance * sqrt(sigma2 + x^2), where sigma2 is
// the mean square of the whole row (not of the block).
//
// Float operations and their order are the reference's; built with
// -ffp-contract=off. Q8_0 and Q8_1 ignore importance weights.
#include <cmath>
#include <cstdint>

#include "formats/codecs.hpp"
#include "formats/half.hpp"
#include "formats/k_quants_search.hpp"

namespace skn_core::codec {

namespace {

constexpr int kQK = 32;
constexpr int kHalf = kQK / 2;
constexpr kquant::AffineSweep kAffineSweep{-0.9f, 0.05f, 36, false};

float row_mean_square(const float* x, int64_t n) {
    float sum = 0.0f;
    for (int64_t j = 0; j < n; ++j) sum += x[j] * x[j];
    return sum / float(n);
}

void block_weights(const float* x, const float* importance, float sigma2, float* weights) {
    for (int j = 0; j < kQK; ++j) weights[j] = importance[j] * std::sqrt(sigma2 + x[j] * x[j]);
}

// Codes 0..15 (or the low nibble of 0..31): element j low, j + 16 high.
void pack_low_nibbles(const uint8_t* codes, uint8_t* qs) {
    for (int j = 0; j < kHalf; ++j) qs[j] = uint8_t((codes[j] & 0x0F) | ((codes[j + kHalf] & 0x0F) << 4));
}

// Bit 4 of element i's code is bit i of a little-endian uint32.
void store_fifth_bits(const uint8_t* codes, uint8_t* qh) {
    uint32_t bits = 0;
    for (int i = 0; i < kQK; ++i) bits |= uint32_t((codes[i] >> 4) & 1) << i;
    for (int k = 0; k < 4; ++k) qh[k] = uint8_t(bits >> (8 * k));
}

// _0 formats: symmetric codes 0 .. 2*nmax-1 around nmax; returns the scale.
float symmetric_block(const float* x, const float* importance, float sigma2, int nmax, uint8_t* codes) {
    float weights[kQK];
    block_weights(x, importance, sigma2, weights);
    int8_t signed_codes[kQK];
    const float d = kquant::fit_symmetric_sweep(kQK, nmax, x, signed_codes, weights);
    for (int j = 0; j < kQK; ++j) codes[j] = uint8_t(signed_codes[j]);
    return d;
}

// _1 formats: codes 0..nmax with x ~ d * code - min_offset.
float affine_block(const float* x, const float* importance, float sigma2, int nmax, uint8_t* codes,
                   float* min_offset) {
    float weights[kQK];
    block_weights(x, importance, sigma2, weights);
    return kquant::fit_affine(kQK, nmax, x, weights, kAffineSweep, codes, min_offset);
}

}  // namespace

void quantize_row_weighted_q4_0(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    const float sigma2 = row_mean_square(src, n);
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, importance += kQK, dst += 18) {
        uint8_t codes[kQK];
        store_fp16(dst, symmetric_block(src, importance, sigma2, 8, codes));
        pack_low_nibbles(codes, dst + 2);
    }
}

void quantize_row_weighted_q4_1(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    const float sigma2 = row_mean_square(src, n);
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, importance += kQK, dst += 20) {
        uint8_t codes[kQK];
        float min_offset = 0.0f;
        store_fp16(dst, affine_block(src, importance, sigma2, 15, codes, &min_offset));
        store_fp16(dst + 2, -min_offset);
        pack_low_nibbles(codes, dst + 4);
    }
}

void quantize_row_weighted_q5_0(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    const float sigma2 = row_mean_square(src, n);
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, importance += kQK, dst += 22) {
        uint8_t codes[kQK];
        store_fp16(dst, symmetric_block(src, importance, sigma2, 16, codes));
        store_fifth_bits(codes, dst + 2);
        pack_low_nibbles(codes, dst + 6);
    }
}

void quantize_row_weighted_q5_1(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    const float sigma2 = row_mean_square(src, n);
    for (int64_t b = 0; b < n / kQK; ++b, src += kQK, importance += kQK, dst += 24) {
        uint8_t codes[kQK];
        float min_offset = 0.0f;
        store_fp16(dst, affine_block(src, importance, sigma2, 31, codes, &min_offset));
        store_fp16(dst + 2, -min_offset);
        store_fifth_bits(codes, dst + 4);
        pack_low_nibbles(codes, dst + 8);
    }
}

}  // namespace skn_core::codec
