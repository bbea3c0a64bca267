// SPDX-License-Identifier: MIT
// Scale searches shared by the K-quant quantizers (k_quants.cpp).
//
// Each routine picks a scale (and, for the affine one, a minimum) for one
// sub-block and the integer codes that go with it. They reproduce the GGUF
// reference quantizer's arithmetic operation for operation, because the
// codes and scales they produce end up in the bytes and must match the
// reference exactly; see docs/formats/k_quants.md for the algorithms.
#pragma once

#include <cstdint>

#include "formats/half.hpp"

namespace skn_core::codec::kquant {

// Sub-blocks whose largest magnitude is below this are treated as all zero.
inline constexpr float kAllZeroBelow = 1e-15f;

// Round to nearest integer, ties to even, the way the reference does it:
// adding 1.5 * 2^23 leaves the rounded integer in the low mantissa bits.
// Only meaningful for |v| <= 2^22 - 1; outside that (and for NaN) it still
// returns the same garbage the reference gets, which is what byte identity needs.
inline int round_to_int(float v) {
    const float shifted = v + 12582912.0f;
    return int(f32_bits(shifted) & 0x007fffffu) - 0x00400000;
}

// How the affine search sweeps candidate scales: it tries the inverse scales
// (nmax + first_offset + offset_step * k) / (max - min) for k = 0 .. steps.
struct AffineSweep {
    float first_offset;
    float offset_step;
    int steps;
    bool absolute_error;  // weigh |error| instead of error^2
};

// Fit x[i] ~ scale * code[i] - min_offset with codes in [0, nmax] and
// min_offset >= 0, minimising the weighted error over a sweep of scales.
// Writes n codes and the offset (a non-negative amount to subtract); returns
// the scale (0 for a constant sub-block).
float fit_affine(int n, int nmax, const float* x, const float* weights, const AffineSweep& sweep, uint8_t* codes,
                 float* min_offset);

// Fit x[i] ~ scale * (code[i] - nmax) with codes in [0, 2 * nmax), weighting
// each element by weights[i] (x[i]^2 when weights is null) and trying 19
// scales around the one that maps the largest-magnitude element to -nmax.
// Returns the (signed) scale; an all-zero sub-block gets scale 0 and codes 0.
float fit_symmetric_sweep(int n, int nmax, const float* x, int8_t* codes, const float* weights = nullptr);

// Same model as fit_symmetric_sweep, but refines one code at a time (up to 5
// passes) instead of sweeping the scale. Used by Q3_K.
float fit_symmetric_refine(int n, int nmax, const float* x, int8_t* codes);

// Fit x[i] ~ scale * code[i] with codes capped at nmax, for non-negative x
// (sub-block scales and mins), weighting element i by weights[i]: a sweep of
// 9 inverse scales (nmax + 0.1 k) / max, then up to 5 passes that re-pick one
// code at a time. The importance-weighted K-quants quantize their sub-block
// scales with it. Returns the scale; an all-zero input gets 0 and codes 0.
float fit_positive(int n, int nmax, const float* x, const float* weights, uint8_t* codes);

}  // namespace skn_core::codec::kquant
