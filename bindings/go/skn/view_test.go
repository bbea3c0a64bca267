// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"strings"
	"testing"
)

// A view means the same matrix in either order: its decode is the golden
// DECODED part whether built over the ROW_MAJOR bytes, over the golden
// kernel-order bytes, or prepacked from one to the other.
func TestViewDecodesTheSameInEitherOrder(t *testing.T) {
	scope, err := NewScope()
	if err != nil {
		t.Fatal(err)
	}
	defer scope.Close()
	for _, f := range []Format{FormatQ4_0, FormatQ4_K, FormatQ6_K, FormatIQ4_NL, FormatI2_S} {
		g := loadGolden(t, f)
		shape := []int64{g.shape.Rows, g.shape.Cols}
		rm, err := ViewFromBytes(g.packed, f, shape, RowMajor)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		ibm, err := ViewFromBytes(g.packedKernelOrder, f, shape, InputBlockMajor)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		packed, err := rm.Prepack(InputBlockMajor, scope)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if packed.Order() != InputBlockMajor || packed.LayoutClass() != LayoutBlockedInputMajor || rm.Order() != RowMajor {
			t.Errorf("%v: orders %v/%v class %v", f, rm.Order(), packed.Order(), packed.LayoutClass())
		}
		for name, v := range map[string]*View{"row-major": rm, "kernel-order": ibm, "prepacked": packed} {
			got, err := v.ToFloat()
			if err != nil || !sameBits(got, g.decoded) {
				t.Errorf("%v %s view: decode differs from golden DECODED (%v)", f, name, err)
			}
			last := []int64{g.shape.Rows - 1, g.shape.Cols - 1}
			x, err := v.Get(last...)
			if err != nil || x != g.decoded[len(g.decoded)-1] {
				t.Errorf("%v %s view: Get(%v) = %v, %v", f, name, last, x, err)
			}
		}
		same, err := packed.Prepack(InputBlockMajor, nil) // same order: no copy, no scope needed
		if err != nil || same.ptr != packed.ptr {
			t.Errorf("%v: prepack to its own order copied (%v)", f, err)
		}
		for _, v := range []*View{rm, ibm, packed, same} {
			v.Close()
		}
	}
	if n, err := scope.Allocated(); err != nil || n == 0 {
		t.Errorf("scope allocated %d bytes (%v), want the prepacked copies", n, err)
	}
}

func TestViewDerivedAndErrors(t *testing.T) {
	g := loadGolden(t, FormatQ8_0)
	rows, cols := g.shape.Rows, g.shape.Cols
	v, err := ViewFromBytes(g.packed, FormatQ8_0, []int64{rows, cols}, RowMajor)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if s := v.Shape(); len(s) != 2 || s[0] != rows || s[1] != cols || v.Format() != FormatQ8_0 {
		t.Fatalf("shape %v format %v", s, v.Format())
	}
	if !strings.Contains(v.String(), "Q8_0") {
		t.Errorf("String() = %q", v.String())
	}
	// narrow to the second block column: element (r, 32+c) of the original.
	n, err := v.Narrow(1, 32, 32)
	if err != nil {
		t.Fatal(err)
	}
	if x, err := n.Get(rows-1, 3); err != nil || x != g.decoded[(rows-1)*cols+35] {
		t.Errorf("narrowed Get = %v, %v", x, err)
	}
	if _, err := v.Narrow(1, 16, 32); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("narrow splitting a block: %v", err)
	}
	if _, err := v.Select(0, rows); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("select past the end: %v", err)
	}
	row, err := v.Select(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if x, err := row.Get(cols - 1); err != nil || x != g.decoded[2*cols-1] {
		t.Errorf("row 1 last element = %v, %v", x, err)
	}
	if _, err := v.Transpose(0, 1); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "matmul_wt") {
		t.Errorf("transpose of a packed view: %v", err)
	}
	if _, err := v.Get(0); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Get with one index on a rank-2 view: %v", err)
	}
	if _, err := v.Get(0, cols); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Get out of range: %v", err)
	}
	if err := v.ToFloatInto(make([]float32, 3)); !errors.Is(err, ErrBufferTooSmall) {
		t.Errorf("ToFloatInto 3 floats: %v", err)
	}
	if _, err := v.Prepack(InputBlockMajor, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("prepack that copies without a scope: %v", err)
	}
	if _, err := ViewFromBytes(g.packed[:len(g.packed)-1], FormatQ8_0, []int64{rows, cols}, RowMajor); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("bytes one short: %v", err)
	}
	if _, err := ViewFromBytes(g.packed, FormatQ8_0, []int64{cols, rows}, RowMajor); err == nil ||
		!strings.Contains(err.Error(), "looks like [in, out]") {
		t.Errorf("[in, out] labelled shape: %v", err)
	}
	if err := RequireOutIn(cols, 3, FormatQ8_0); err == nil || !strings.Contains(err.Error(), "looks like [in, out]") {
		t.Errorf("RequireOutIn swapped: %v", err)
	}
	if err := RequireOutIn(rows, cols, FormatQ8_0); err != nil {
		t.Errorf("RequireOutIn(%d, %d): %v", rows, cols, err)
	}
	// A derived view keeps the bytes alive after its parent is closed, and the
	// caller's slice may change: the view reads skn's own copy.
	data := append([]byte(nil), g.packed...)
	parent, err := ViewFromBytes(data, FormatQ8_0, []int64{rows, cols}, RowMajor)
	if err != nil {
		t.Fatal(err)
	}
	child, err := parent.Narrow(0, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	parent.Close()
	for i := range data {
		data[i] = 0
	}
	if x, err := child.Get(0, 0); err != nil || x != g.decoded[cols] {
		t.Errorf("child after parent closed = %v, %v", x, err)
	}
	child.Close()
}

func TestViewUseAfterClose(t *testing.T) {
	g := loadGolden(t, FormatQ4_0)
	v, err := ViewFromBytes(g.packed, FormatQ4_0, []int64{g.shape.Rows, g.shape.Cols}, RowMajor)
	if err != nil {
		t.Fatal(err)
	}
	v.Close()
	v.Close() // idempotent
	if _, err := v.Get(0, 0); !errors.Is(err, ErrClosed) || !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Get after Close: %v", err)
	}
	if _, err := v.ToFloat(); !errors.Is(err, ErrClosed) {
		t.Errorf("ToFloat after Close: %v", err)
	}
	if _, err := v.Narrow(0, 0, 1); !errors.Is(err, ErrClosed) {
		t.Errorf("Narrow after Close: %v", err)
	}
	if v.Shape() != nil || v.Format() != Format(-1) {
		t.Errorf("closed view: shape %v format %v", v.Shape(), v.Format())
	}
	s, _ := NewScope()
	s.Close()
	if _, err := s.Allocated(); !errors.Is(err, ErrClosed) {
		t.Errorf("scope after Close: %v", err)
	}
}
