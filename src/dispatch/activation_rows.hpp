// SPDX-License-Identifier: MIT
// Fast precision's activation preparation for one matmul call: check x is
// finite, quantize each row to the kernel's activation format and, for
// kernels that read floats, decode it back. Done once per call, split over
// the context's threads by (row, block range) so a large batch does not
// quantize on one thread while the others wait.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dispatch/context.hpp"
#include "formats/format.hpp"

namespace skn_core {

struct QuantizedActivations {
    const uint8_t* xq = nullptr;  // n rows of row_bytes each
    size_t row_bytes = 0;
    const float* xf = nullptr;    // n rows of `in` floats (decode_too only)
};

// True when no element of p[0, n) is an infinity or a NaN (vectorized: a
// per-element std::isfinite costs as much as a Q4_0 GEMV).
bool all_finite(const float* p, int64_t n);

// Refuses activation [row, col] (`slot`: "" or " of slot s") holding a NaN
// or an infinity: fast precision cannot quantize it.
[[noreturn]] void refuse_non_finite_activation(int64_t row, int64_t col, const std::string& slot, float value);

// Throws SKN_E_INVALID_ARGUMENT naming the first non-finite activation
// (lowest row, then lowest column), whatever the thread split.
QuantizedActivations quantize_activations(Context& ctx, const FormatTraits& act, const float* x, int64_t n,
                                          int64_t x_stride, int64_t in, bool decode_too);

}  // namespace skn_core
