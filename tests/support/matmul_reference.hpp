// SPDX-License-Identifier: MIT
// The f64 reference the matmul kernels are tested against, and the error
// bounds docs/kernels.md documents.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/format.hpp"

namespace skn_core::test {

struct Reference {
    std::vector<double> y;      // [n, out], from the activations the kernel saw
    std::vector<double> bound;  // [n, out], allowed |y_kernel - y|
};

// y = x_eff * w^T (+ bias) in double, where x_eff is x itself (exact) or x
// quantized to `activation` and decoded (fast). The bound is the float
// accumulation error of a sum of `in` products: (in + 2) * 2^-23 * sum |w x|
// plus the same for the bias.
Reference reference_matmul(const std::vector<float>& w_decoded, int64_t out, int64_t in, const float* x, int64_t n,
                           int64_t x_stride, const float* bias, FormatId activation);

// Error of fast precision against exact, per output: sum_k |w_k| * e_k where
// e_k is the activation quantization error bound of element k (half a step
// of its block's scale, plus the rounding of the scale itself).
std::vector<double> activation_error_bound(const std::vector<float>& w_decoded, int64_t out, int64_t in,
                                           const float* x, int64_t n, int64_t x_stride, FormatId activation);

}  // namespace skn_core::test
