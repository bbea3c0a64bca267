// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// Routing says which experts each row of a mixture-of-experts layer goes to.
type Routing struct {
	// IDs holds K expert ids per row: row i, slot s at IDs[i*K+s].
	IDs []int32
	K   int
	// Gates is nil, or one factor per id (same indexing) multiplying that
	// slot's output.
	Gates []float32
	// PerSlotInput: x holds one input row per slot, [rows, K, in] (the down
	// projection); false: every slot of row i reads x row i, [rows, in].
	PerSlotInput bool
}

// MatmulWtID is the expert-routed matmul_wt (llama.cpp's mul_mat_id) over a
// stacked expert weight w [E, out, in]: for row i and slot s with expert
// e = IDs[i*K+s], y[i, s, :] = gate * (x_is · W[e]ᵀ + bias[e*out:]). y is
// [rows, K, out]; bias is nil or E*out floats. The bits equal MatmulWt of
// that row and expert slice under the same options (docs/kernels.md says
// where batching changes them).
func (c *Context) MatmulWtID(x []float32, w *View, r Routing, bias []float32, y []float32, opts *MatmulOptions) error {
	const op = "skn_matmul_wt_id"
	if err := weightView(op, w); err != nil {
		return err
	}
	shape := w.Shape()
	if len(shape) != 3 {
		return argError(op, "the weight has rank "+itoa(int64(len(shape)))+", not 3: matmul_wt_id takes [E, out, in]")
	}
	experts, out, in := shape[0], shape[1], shape[2]
	k := int64(r.K)
	if k < 1 || len(r.IDs) == 0 || int64(len(r.IDs))%k != 0 {
		return argError(op, itoa(int64(len(r.IDs)))+" ids are not a positive number of rows of K = "+itoa(k))
	}
	rows := int64(len(r.IDs)) / k
	xSlot, xRow := int64(0), in
	if r.PerSlotInput {
		xSlot, xRow = in, k*in
	}
	if int64(len(x)) < rows*xRow {
		return argError(op, "x holds "+itoa(int64(len(x)))+" floats but "+itoa(rows)+" rows need "+itoa(rows*xRow))
	}
	if int64(len(y)) < rows*k*out {
		return argError(op, "y holds "+itoa(int64(len(y)))+" floats but "+itoa(rows)+" rows of "+itoa(k)+
			" slots of out = "+itoa(out)+" need "+itoa(rows*k*out))
	}
	if r.Gates != nil && len(r.Gates) != len(r.IDs) {
		return argError(op, "gates holds "+itoa(int64(len(r.Gates)))+" factors, not one per id ("+itoa(int64(len(r.IDs)))+")")
	}
	if bias != nil && int64(len(bias)) != experts*out {
		return argError(op, "bias holds "+itoa(int64(len(bias)))+" floats, not E*out = "+itoa(experts*out))
	}
	ids := (*C.int32_t)(unsafe.Pointer(&r.IDs[0]))
	o := matmulOptions(opts)
	err := c.do(op, func() C.skn_status {
		return C.skn_matmul_wt_id(c.ptr, floatsPtr(x), C.int64_t(rows), C.int64_t(xRow), C.int64_t(xSlot), ids,
			C.int64_t(k), C.int64_t(k), floatsPtr(r.Gates), C.int64_t(k), w.ptr, floatsPtr(bias), floatsPtr(y),
			C.int64_t(k*out), C.int64_t(out), &o)
	})
	runtime.KeepAlive(w)
	if opts != nil {
		runtime.KeepAlive(opts.Scope)
	}
	return err
}
