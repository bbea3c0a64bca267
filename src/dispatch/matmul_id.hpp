// SPDX-License-Identifier: MIT
// matmul_wt_id: matmul_wt routed per row to experts of a stacked weight
// [E, out, in] (llama.cpp's mul_mat_id), the routed front on the steps of
// matmul_call.hpp. Slot s of row i computes x[i, s % x_slots] * W[ids[i, s]]^T
// (+ bias[ids[i, s]]), times its gate if given. The slots routed to one
// expert are gathered into one batch, in (row, slot) order, and that batch
// runs through the kernel matmul_wt chooses for the expert's [out, in]
// slice: each expert's weight is read once per call, and a slot's bits are
// those matmul_wt gives for that batch.
#pragma once

#include "dispatch/context.hpp"
#include "dispatch/matmul_call.hpp"
#include "layout/view.hpp"

namespace skn_core {

// `call.routed` is set; bias is null or [E, out]. validate_call checks the
// rest.
void matmul_wt_id(Context& ctx, const MatmulCall& call, const View& w, const MatmulOptions& opts);

}  // namespace skn_core
