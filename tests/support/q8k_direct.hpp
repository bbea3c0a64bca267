// SPDX-License-Identifier: MIT
// Calling a Q8_K-activation kernel directly, past the dispatcher: extreme
// activation rows the activation quantizer would never write, and a runner
// that splits the output rows into calls of a chosen size. Shared by the
// K-quant and grid kernel tests.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "dispatch/kernel.hpp"
#include "layout/view.hpp"

namespace skn_core::test {

inline constexpr int kQ8kElems = 256;
inline constexpr int kQ8kBytes = 292;  // f32 d, int8 qs[256], int16 bsums[16]

// n rows of bpr Q8_K blocks: per block all -128, all 127, alternating
// -128 / 127, or random codes; d of either sign; bsums consistent with the
// codes.
std::vector<uint8_t> extreme_q8k_activations(int64_t n, int64_t bpr, std::mt19937& rng);

// y [n, out] = xq * W^T by k.fn, called on row ranges of rows_per_call
// (the last one ragged). Rows the kernel leaves unwritten stay NaN.
std::vector<float> run_q8k_kernel_direct(const Kernel& k, const View& w, int64_t out, int64_t in,
                                         const std::vector<uint8_t>& xq, int64_t n, int64_t rows_per_call);

// Bit-for-bit equality (NaNs included).
bool same_bits(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace skn_core::test
