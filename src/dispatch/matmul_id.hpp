// SPDX-License-Identifier: MIT
// matmul_wt_id: matmul_wt routed per row to experts of a stacked weight
// [E, out, in] (llama.cpp's mul_mat_id). Slot s of row i computes
// x[i, s] * W[ids[i, s]]^T (+ bias[ids[i, s]]), times its gate if given.
// The slots routed to one expert are gathered into one batch, in (row, slot)
// order, and that batch runs through the kernel matmul_wt chooses for the
// expert's [out, in] slice: each expert's weight is read once per call, and a
// slot's bits are those matmul_wt gives for that batch.
#pragma once

#include <cstdint>

#include "dispatch/matmul.hpp"

namespace skn_core {

// Where each (row, slot) goes and what scales its output.
struct ExpertRouting {
    const int32_t* ids = nullptr;  // ids[i * ids_stride + s]: the expert slot s of row i is routed to
    int64_t k = 0;                 // slots per row
    int64_t ids_stride = 0;        // int32 elements from one row's ids to the next
    const float* gates = nullptr;  // null, or gates[i * gates_stride + s] multiplies slot (i, s)'s output
    int64_t gates_stride = 0;
};

// Strides in floats. Slot s of row i reads x + i * x_row_stride + s * x_slot_stride
// (x_slot_stride 0: every slot reads row i) and writes y + i * y_row_stride +
// s * y_slot_stride. bias: null or [E, out]. The C API has checked that the
// strides' products do not overflow.
void matmul_wt_id(Context& ctx, const float* x, int64_t n, int64_t x_row_stride, int64_t x_slot_stride,
                  const ExpertRouting& route, const View& w, const float* bias, float* y, int64_t y_row_stride,
                  int64_t y_slot_stride, const MatmulOptions& opts);

}  // namespace skn_core
