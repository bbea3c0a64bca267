// SPDX-License-Identifier: MIT
// Q2_K Q3_K Q4_K Q5_K with importance weights (an imatrix): the reference's
// quantize_row_<type>_impl path, which differs from the plain encoders in
// k_quants.cpp in how much each element counts (importance times the
// element's magnitude against the super-block's RMS) and, for Q2_K Q4_K
// Q5_K, in how the sub-block scales are themselves quantized (fit_positive
// weighted by each sub-block's total weight instead of max / levels).
// Q6_K's weighted path is a one-line change and lives with its plain one.
//
// Every float operation and its order is the reference's (the file is built
// with -ffp-contract=off): 2 * s / 256 is not s / 128 in float.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "formats/codecs.hpp"
#include "formats/half.hpp"
#include "formats/k_quants_layout.hpp"
#include "formats/k_quants_search.hpp"

namespace skn_core::codec {

namespace {

using namespace kblock;
using kquant::round_to_int;

// The sub-block search the weighted affine formats share.
constexpr kquant::AffineSweep kWeightedSweep{-0.9f, 0.05f, 36, false};

float sum_of_squares(const float* x) {
    float s = 0.0f;
    for (int j = 0; j < kSuper; ++j) s += x[j] * x[j];
    return s;
}

// Element weights: importance * sqrt(sigma2 + x^2), and their sum.
float element_weights(int n, const float* x, const float* importance, float sigma2, float* weights) {
    for (int l = 0; l < n; ++l) weights[l] = importance[l] * std::sqrt(sigma2 + x[l] * x[l]);
    float sum = 0.0f;
    for (int l = 0; l < n; ++l) sum += weights[l];
    return sum;
}

// Q4_K and Q5_K share everything but the code range and the cap on the
// quantized sub-block scales (Q5_K clamps them to 63, Q4_K does not, and an
// out-of-range one keeps its wrapped bits as in the reference).
void quantize_affine_32_weighted(const float* x, const float* importance, int nmax, bool cap_scales,
                                 uint8_t* block, uint8_t* codes) {
    const float sigma2 = 2 * sum_of_squares(x) / kSuper;
    float scales[8], mins[8], sub_weights[8];
    for (int j = 0; j < 8; ++j) {
        float weights[32];
        sub_weights[j] = element_weights(32, x + 32 * j, importance + 32 * j, sigma2, weights);
        scales[j] = kquant::fit_affine(32, nmax, x + 32 * j, weights, kWeightedSweep, codes + 32 * j, &mins[j]);
    }
    uint8_t q_scales[8], q_mins[8];
    const float d_block = kquant::fit_positive(8, 63, scales, sub_weights, q_scales);
    const float m_block = kquant::fit_positive(8, 63, mins, sub_weights, q_mins);
    if (cap_scales) {
        for (int j = 0; j < 8; ++j) {
            q_scales[j] = std::min<uint8_t>(63, q_scales[j]);
            q_mins[j] = std::min<uint8_t>(63, q_mins[j]);
        }
    }
    pack_scale_mins(q_scales, q_mins, block + q4k::kScales);
    store_fp16(block + q4k::kD, d_block);
    store_fp16(block + q4k::kDmin, m_block);
    const float d = load_fp16(block + q4k::kD);
    const float dmin = load_fp16(block + q4k::kDmin);
    for (int j = 0; j < 8; ++j) {
        const ScaleMin sm = unpack_scale_min(block + q4k::kScales, j);
        const float step = d * float(sm.scale);
        if (step == 0.0f) continue;  // keeps the codes the sub-block search chose
        const float offset = dmin * float(sm.min);
        for (int l = 0; l < 32; ++l)
            codes[32 * j + l] = uint8_t(clamp_int(round_to_int((x[32 * j + l] + offset) / step), 0, nmax));
    }
}

}  // namespace

void quantize_row_weighted_q2_k(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, importance += kSuper, dst += q2k::kBytes) {
        // Q2_K's variance has no factor 2, unlike the other K-quants.
        const float sigma2 = sum_of_squares(src) / kSuper;
        uint8_t codes[kSuper];
        float scales[16], mins[16], sub_weights[16];
        for (int j = 0; j < 16; ++j) {
            float weights[16];
            sub_weights[j] = element_weights(16, src + 16 * j, importance + 16 * j, sigma2, weights);
            scales[j] = kquant::fit_affine(16, 3, src + 16 * j, weights, kWeightedSweep, codes + 16 * j, &mins[j]);
        }
        uint8_t q_scales[16], q_mins[16];
        const float d_block = kquant::fit_positive(16, 15, scales, sub_weights, q_scales);
        const float m_block = kquant::fit_positive(16, 15, mins, sub_weights, q_mins);
        store_fp16(dst + q2k::kD, d_block);
        store_fp16(dst + q2k::kDmin, m_block);
        uint8_t* packed = dst + q2k::kScales;
        for (int j = 0; j < 16; ++j) packed[j] = uint8_t(q_scales[j] | (q_mins[j] << 4));
        const float d = load_fp16(dst + q2k::kD);
        const float dmin = load_fp16(dst + q2k::kDmin);
        for (int j = 0; j < 16; ++j) {
            const float step = d * float(packed[j] & 0xF);
            if (step == 0.0f) continue;
            const float offset = dmin * float(packed[j] >> 4);
            for (int l = 0; l < 16; ++l)
                codes[16 * j + l] = uint8_t(clamp_int(round_to_int((src[16 * j + l] + offset) / step), 0, 3));
        }
        pack_two_bit_fields(codes, dst + q2k::kQs);
    }
}

void quantize_row_weighted_q3_k(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, importance += kSuper, dst += q3k::kBytes) {
        const float sigma2 = 2 * sum_of_squares(src) / kSuper;
        int8_t codes[kSuper];
        float scales[16], sub_weights[16];
        for (int j = 0; j < 16; ++j) {
            float weights[16];
            sub_weights[j] = element_weights(16, src + 16 * j, importance + 16 * j, sigma2, weights);
            scales[j] = kquant::fit_symmetric_sweep(16, 4, src + 16 * j, codes + 16 * j, weights);
        }
        // The sub-block scales are signed: they get the symmetric fit too,
        // with 6-bit codes biased by 32.
        int8_t q_scales[16];
        const float d_block = kquant::fit_symmetric_sweep(16, 32, scales, q_scales, sub_weights);
        uint8_t* packed = dst + q3k::kScales;
        std::memset(packed, 0, 12);
        for (int j = 0; j < 16; ++j) pack_q3_scale(packed, j, uint8_t(q_scales[j]));
        store_fp16(dst + q3k::kD, d_block);
        const float d = load_fp16(dst + q3k::kD);
        for (int j = 0; j < 16; ++j) {
            const float step = d * float(unpack_q3_scale(packed, j));
            if (step == 0.0f) continue;
            for (int l = 0; l < 16; ++l)
                codes[16 * j + l] = int8_t(clamp_int(round_to_int(src[16 * j + l] / step), -4, 3) + 4);
        }
        pack_q3_k_codes(codes, dst + q3k::kHmask, dst + q3k::kQs);
    }
}

void quantize_row_weighted_q4_k(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, importance += kSuper, dst += q4k::kBytes) {
        uint8_t codes[kSuper];
        quantize_affine_32_weighted(src, importance, 15, false, dst, codes);
        pack_q4_k_codes(codes, dst + q4k::kQs);
    }
}

void quantize_row_weighted_q5_k(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, importance += kSuper, dst += q5k::kBytes) {
        uint8_t codes[kSuper];
        quantize_affine_32_weighted(src, importance, 31, true, dst, codes);
        pack_q5_k_codes(codes, dst + q5k::kQh, dst + q5k::kQs);
    }
}

}  // namespace skn_core::codec
