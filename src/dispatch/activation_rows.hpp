// SPDX-License-Identifier: MIT
// Step 3 of a matmul call (matmul_call.hpp): the activation rows of its
// batch, once per call. Fast precision checks that they are finite,
// quantizes each to the kernel's activation format and, for kernels that
// read floats, decodes it back; exact precision reads x as it is (dense) or
// gathers the routed rows. The work is split over the context's threads by
// (batch position, block range), so a large batch does not quantize on one
// thread while the others wait. A dense batch's positions are x's rows; a
// routed one's are the slots grouped by expert (BatchRows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dispatch/context.hpp"
#include "dispatch/matmul_call.hpp"
#include "formats/format.hpp"

namespace skn_core {

// The batch's activations as kernels read them (MatmulArgs): position p's
// row at xf + p * xf_stride and xq + p * xq_stride.
struct PreparedActivations {
    const float* xf = nullptr;  // exact: x or the gathered rows; fast: decoded rows (decode_too only)
    int64_t xf_stride = 0;      // floats
    const uint8_t* xq = nullptr;  // fast: rows quantized to the activation format
    size_t xq_stride = 0;         // bytes
};

// True when no element of p[0, n) is an infinity or a NaN (vectorized: a
// per-element std::isfinite costs as much as a Q4_0 GEMV).
bool all_finite(const float* p, int64_t n);

// Refuses activation [row, col] (`slot`: "" or " of slot s") holding a NaN
// or an infinity: fast precision cannot quantize it.
[[noreturn]] void refuse_non_finite_activation(int64_t row, int64_t col, const std::string& slot, float value);

// `act` is the kernels' activation format (F32: exact precision). Fast
// precision throws SKN_E_INVALID_ARGUMENT naming the first non-finite
// activation (lowest row, then activation slot, then column; the slot is
// named when the call has more than one per row), whatever the thread split.
// Scratch is the context's; a dense exact call copies nothing.
PreparedActivations prepare_activations(Context& ctx, FormatId act, const BatchRows& rows, int64_t in,
                                        bool decode_too);

}  // namespace skn_core
