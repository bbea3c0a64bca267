// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// Context holds threads, the ISA cap and scratch reused between matmul calls
// (skn_context). One goroutine at a time: use one Context per goroutine.
type Context struct {
	ptr   *C.skn_context
	trace *traceSink // SetTrace's sink, or nil
}

// NewContext creates a context: one thread, the ISA cap from SKN_ISA or the best the CPU has.
func NewContext() (*Context, error) {
	c := &Context{}
	if err := check("skn_context_create", func() C.skn_status { return C.skn_context_create(&c.ptr) }); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(c, (*Context).Close)
	return c, nil
}

// Close destroys the context and its threads.
func (c *Context) Close() {
	if c.ptr != nil {
		C.skn_context_destroy(c.ptr)
		c.ptr = nil
	}
	c.dropTrace()
	runtime.SetFinalizer(c, nil)
}

func (c *Context) do(op string, call func() C.skn_status) error {
	err := onHandle(c, c.ptr, op, "the context", call)
	if c.trace != nil {
		c.trace.rethrow()
	}
	return err
}

// SetThreads uses threads (1..1024) of the context's pool for matmul work.
func (c *Context) SetThreads(threads int) error {
	return c.do("skn_context_set_threads", func() C.skn_status { return C.skn_context_set_threads(c.ptr, C.int(threads)) })
}

// SetISA caps the ISA kernels may use.
func (c *Context) SetISA(limit ISA) error {
	return c.do("skn_context_set_isa", func() C.skn_status { return C.skn_context_set_isa(c.ptr, C.skn_isa(limit)) })
}

// Precision of matmul_wt: Fast quantizes activations per block (the GGUF
// ecosystem's way), Exact multiplies float32 activations by decoded weights.
type Precision int32

const (
	PrecisionFast  Precision = C.SKN_PRECISION_FAST
	PrecisionExact Precision = C.SKN_PRECISION_EXACT
)

// MatmulOptions are skn_matmul_options (nil: the defaults).
type MatmulOptions struct {
	Precision Precision
	// PrepackWeights relayouts a weight whose order has no kernel here into
	// Scope on every call (prefer PrepackForMatmul once at load).
	PrepackWeights bool
	Strict         bool // a fallback to the reference kernel is an error
	Scope          *Scope
}

// MatmulWt computes y[n, out] = x[n, in] * W[out, in]^T (+ bias) for the
// rank-2 weight w; n = len(x)/in, and y must hold n*out floats. bias is nil or
// out floats.
func (c *Context) MatmulWt(x []float32, w *View, bias []float32, y []float32, opts *MatmulOptions) error {
	const op = "skn_matmul_wt"
	if err := weightView(op, w); err != nil {
		return err
	}
	shape := w.Shape()
	if len(shape) != 2 {
		return argError(op, "the weight has rank "+itoa(int64(len(shape)))+", not 2: matmul_wt takes [out, in]")
	}
	out, in := shape[0], shape[1]
	if len(x) == 0 || int64(len(x))%in != 0 {
		return argError(op, "x holds "+itoa(int64(len(x)))+" floats, not a positive multiple of in = "+itoa(in))
	}
	n := int64(len(x)) / in
	if int64(len(y)) < n*out {
		return argError(op, "y holds "+itoa(int64(len(y)))+" floats but "+itoa(n)+" rows of out = "+itoa(out)+
			" need "+itoa(n*out))
	}
	if bias != nil && int64(len(bias)) != out {
		return argError(op, "bias holds "+itoa(int64(len(bias)))+" floats, not out = "+itoa(out))
	}
	o := matmulOptions(opts)
	err := c.do(op, func() C.skn_status {
		return C.skn_matmul_wt(c.ptr, floatsPtr(x), C.int64_t(n), C.int64_t(in), w.ptr, floatsPtr(bias), floatsPtr(y),
			C.int64_t(out), &o)
	})
	runtime.KeepAlive(w)
	if opts != nil {
		runtime.KeepAlive(opts.Scope)
	}
	return err
}

func matmulOptions(opts *MatmulOptions) C.skn_matmul_options {
	var o C.skn_matmul_options
	o.struct_size = C.size_t(unsafe.Sizeof(o))
	if opts != nil {
		o.precision = C.skn_precision(opts.Precision)
		if opts.PrepackWeights {
			o.prepack_weights = 1
		}
		if opts.Strict {
			o.strict = 1
		}
		o.scope = opts.Scope.cptr()
	}
	return o
}

// PrepackForMatmul returns w in the block order fastest for this context
// (the same view when it already is; else a copy in scope). Call it once per
// weight at load.
func (c *Context) PrepackForMatmul(w *View, scope *Scope) (*View, error) {
	const op = "skn_prepack_for_matmul"
	if err := weightView(op, w); err != nil {
		return nil, err
	}
	var out *C.skn_view
	err := c.do(op, func() C.skn_status { return C.skn_prepack_for_matmul(c.ptr, w.ptr, scope.cptr(), &out) })
	runtime.KeepAlive(w)
	runtime.KeepAlive(scope)
	if err != nil {
		return nil, err
	}
	return newView(out, w.keep), nil
}
