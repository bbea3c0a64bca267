// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// BlockOrder is where block (o, b) of an [out, in] weight sits: ROW_MAJOR
// (files, quantizers) or INPUT_BLOCK_MAJOR (packed kernels).
type BlockOrder int32

const (
	RowMajor        BlockOrder = C.SKN_ORDER_ROW_MAJOR
	InputBlockMajor BlockOrder = C.SKN_ORDER_INPUT_BLOCK_MAJOR
)

func (o BlockOrder) String() string {
	switch o {
	case RowMajor:
		return "ROW_MAJOR"
	case InputBlockMajor:
		return "INPUT_BLOCK_MAJOR"
	}
	return "BlockOrder(" + itoa(int64(o)) + ")"
}

// LayoutClass is how a view's bytes are laid out, as kernels are chosen by it.
type LayoutClass int32

const (
	LayoutContiguous        LayoutClass = C.SKN_LAYOUT_CONTIGUOUS
	LayoutStrided           LayoutClass = C.SKN_LAYOUT_STRIDED
	LayoutBlockedRowMajor   LayoutClass = C.SKN_LAYOUT_BLOCKED_ROW_MAJOR
	LayoutBlockedInputMajor LayoutClass = C.SKN_LAYOUT_BLOCKED_INPUT_MAJOR
)

// Scope is an arena prepacked copies are allocated in (skn_scope). Memory a
// view still reads outlives the scope's Close.
type Scope struct{ ptr *C.skn_scope }

// NewScope creates an empty scope.
func NewScope() (*Scope, error) {
	s := &Scope{}
	if err := check("skn_scope_create", func() C.skn_status { return C.skn_scope_create(&s.ptr) }); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(s, (*Scope).Close)
	return s, nil
}

// Close gives back the scope's hold on its memory (views over it keep theirs).
func (s *Scope) Close() {
	if s.ptr != nil {
		C.skn_scope_destroy(s.ptr)
		s.ptr = nil
	}
	runtime.SetFinalizer(s, nil)
}

// Allocated is the total of bytes ever allocated in the scope.
func (s *Scope) Allocated() (uint64, error) {
	var n C.uint64_t
	err := onHandle(s, s.ptr, "skn_scope_allocated", "the scope", func() C.skn_status {
		return C.skn_scope_allocated(s.ptr, &n)
	})
	return uint64(n), err
}

// cptr is the scope for C, NULL for a nil or closed scope (skn then says a
// scope is needed if it is).
func (s *Scope) cptr() *C.skn_scope {
	if s == nil {
		return nil
	}
	return s.ptr
}

// View is a layout (format, shape, block order) over packed bytes (skn_view).
// Views are immutable and safe to share between goroutines.
type View struct {
	ptr  *C.skn_view
	keep *cBytes // the C copy of Go bytes the view reads, if any
}

func newView(ptr *C.skn_view, keep *cBytes) *View {
	v := &View{ptr: ptr, keep: keep}
	runtime.SetFinalizer(v, (*View).Close)
	return v
}

// ViewFromBytes wraps packed bytes as a view of shape (block axis last: a
// weight is [out, in]) in the stated order; skn never guesses the order. The
// bytes are copied once into C memory the view (and views derived from it)
// keep alive, so data may be reused at once.
func ViewFromBytes(data []byte, f Format, shape []int64, order BlockOrder) (*View, error) {
	keep := copyToC(data)
	var out *C.skn_view
	err := check("skn_view_from_bytes", func() C.skn_status {
		return C.skn_view_from_bytes(keep.p, C.size_t(keep.n), C.skn_format(f), int64sPtr(shape), C.int(len(shape)),
			C.skn_block_order(order), &out)
	})
	if err != nil {
		return nil, err
	}
	return newView(out, keep), nil
}

// Close releases the view's reference. Views derived from it stay valid.
func (v *View) Close() {
	if v.ptr != nil {
		C.skn_view_release(v.ptr)
		v.ptr = nil
	}
	runtime.SetFinalizer(v, nil)
}

// derive runs one C call that makes a new view from v.
func (v *View) derive(op string, call func(out **C.skn_view) C.skn_status) (*View, error) {
	var out *C.skn_view
	if err := onHandle(v, v.ptr, op, "the view", func() C.skn_status { return call(&out) }); err != nil {
		return nil, err
	}
	return newView(out, v.keep), nil
}

// Format is the view's format (-1 after Close).
func (v *View) Format() Format {
	f := Format(C.skn_view_format(v.ptr))
	runtime.KeepAlive(v)
	return f
}

// Order is the view's block order.
func (v *View) Order() BlockOrder {
	o := BlockOrder(C.skn_view_order(v.ptr))
	runtime.KeepAlive(v)
	return o
}

// LayoutClass is the view's layout class.
func (v *View) LayoutClass() LayoutClass {
	c := LayoutClass(C.skn_view_layout_class(v.ptr))
	runtime.KeepAlive(v)
	return c
}

// Shape is the view's shape (nil after Close).
func (v *View) Shape() []int64 {
	var shape [4]C.int64_t
	rank := int(C.skn_view_rank(v.ptr))
	if rank == 0 || C.skn_view_shape(v.ptr, &shape[0]) != C.SKN_OK {
		runtime.KeepAlive(v)
		return nil
	}
	runtime.KeepAlive(v)
	out := make([]int64, rank)
	for i := range out {
		out[i] = int64(shape[i])
	}
	return out
}

// String is skn's one-line description of the view.
func (v *View) String() string {
	s := C.GoString(C.skn_view_describe(v.ptr))
	runtime.KeepAlive(v)
	return s
}

// Narrow is the view of [start, start+length) along dim, sharing the bytes.
func (v *View) Narrow(dim int, start, length int64) (*View, error) {
	return v.derive("skn_view_narrow", func(out **C.skn_view) C.skn_status {
		return C.skn_view_narrow(v.ptr, C.int(dim), C.int64_t(start), C.int64_t(length), out)
	})
}

// Select is the slice at index of dim, that dimension dropped (expert e of a
// stacked [E, out, in] weight is Select(0, e)).
func (v *View) Select(dim int, index int64) (*View, error) {
	return v.derive("skn_view_select", func(out **C.skn_view) C.skn_status {
		return C.skn_view_select(v.ptr, C.int(dim), C.int64_t(index), out)
	})
}

// Transpose swaps two dimensions of a dense view (a packed one is refused:
// use Context.MatmulWt, which reads W as stored).
func (v *View) Transpose(dim0, dim1 int) (*View, error) {
	return v.derive("skn_view_transpose", func(out **C.skn_view) C.skn_status {
		return C.skn_view_transpose(v.ptr, C.int(dim0), C.int(dim1), out)
	})
}

// Unsqueeze inserts a dimension of extent 1 before dim.
func (v *View) Unsqueeze(dim int) (*View, error) {
	return v.derive("skn_view_unsqueeze", func(out **C.skn_view) C.skn_status {
		return C.skn_view_unsqueeze(v.ptr, C.int(dim), out)
	})
}

// Prepack returns the view in order: the same C view (one more reference)
// when it already is, else a copy in scope.
func (v *View) Prepack(order BlockOrder, scope *Scope) (*View, error) {
	p, err := v.derive("skn_view_prepack", func(out **C.skn_view) C.skn_status {
		return C.skn_view_prepack(v.ptr, C.skn_block_order(order), scope.cptr(), nil, nil, out)
	})
	runtime.KeepAlive(scope)
	return p, err
}

// Get decodes the element at indices (one per dimension), through the layout.
func (v *View) Get(indices ...int64) (float32, error) {
	var f C.float
	err := onHandle(v, v.ptr, "skn_view_get", "the view", func() C.skn_status {
		return C.skn_view_get(v.ptr, int64sPtr(indices), C.int(len(indices)), &f)
	})
	return float32(f), err
}

// ToFloat decodes the whole view to row-major floats.
func (v *View) ToFloat() ([]float32, error) {
	if v.ptr == nil {
		return nil, closedError("skn_view_to_float", "the view")
	}
	count := int64(1)
	for _, d := range v.Shape() {
		if d > int64(^uint(0)>>3)/count {
			return nil, argError("skn_view_to_float", v.String()+" has more elements than a Go slice of floats can hold")
		}
		count *= d
	}
	dst := make([]float32, count)
	if err := v.ToFloatInto(dst); err != nil {
		return nil, err
	}
	return dst, nil
}

// ToFloatInto decodes the whole view into dst (ErrBufferTooSmall if short).
func (v *View) ToFloatInto(dst []float32) error {
	var one [1]float32 // a non-NULL pointer for an empty dst, so skn reports its size
	p := floatsPtr(dst)
	if p == nil {
		p = (*C.float)(unsafe.Pointer(&one[0]))
	}
	return onHandle(v, v.ptr, "skn_view_to_float", "the view", func() C.skn_status {
		return C.skn_view_to_float(v.ptr, p, C.size_t(len(dst)))
	})
}
