// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"math"
	"testing"
)

// closeTo compares y against the golden Y (accumulated in double) within a
// bound scaled by the row's magnitude.
func closeTo(t *testing.T, what string, got, want []float32, relative float64) {
	t.Helper()
	var scale float64
	for _, w := range want {
		scale = math.Max(scale, math.Abs(float64(w)))
	}
	for i := range want {
		if d := math.Abs(float64(got[i] - want[i])); !(d <= relative*scale) {
			t.Fatalf("%s: y[%d] = %g, golden %g (|diff| %g > %g)", what, i, got[i], want[i], d, relative*scale)
		}
	}
}

// MatmulWt reproduces the golden Y in both precisions, bit-identically for a
// weight in either block order and for any thread count.
func TestMatmulWtMatchesGoldenY(t *testing.T) {
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	scope, _ := NewScope()
	defer scope.Close()
	for _, f := range []Format{FormatQ4_0, FormatQ8_0, FormatQ4_K, FormatQ6_K, FormatIQ4_XS, FormatMXFP4} {
		g := loadGolden(t, f)
		w, err := ViewFromBytes(g.packed, f, []int64{g.shape.Rows, g.shape.Cols}, RowMajor)
		if err != nil {
			t.Fatal(err)
		}
		ibm, err := w.Prepack(InputBlockMajor, scope)
		if err != nil {
			t.Fatal(err)
		}
		best, err := ctx.PrepackForMatmul(w, scope)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			precision Precision
			bound     float64
		}{{PrecisionExact, 1e-5}, {PrecisionFast, 2e-2}} {
			var first []float32
			for _, threads := range []int{1, 2} {
				if err := ctx.SetThreads(threads); err != nil {
					t.Fatal(err)
				}
				for _, v := range []*View{w, ibm, best} {
					y := make([]float32, g.shape.XRows*g.shape.Rows)
					if err := ctx.MatmulWt(g.x, v, nil, y, &MatmulOptions{Precision: p.precision}); err != nil {
						t.Fatalf("%v %v: %v", f, v.Order(), err)
					}
					if first == nil {
						first = y
						closeTo(t, f.String(), y, g.y, p.bound)
					} else if !sameBits(y, first) {
						t.Errorf("%v precision %d: %v order, %d threads differs from the first result", f, p.precision, v.Order(), threads)
					}
				}
			}
		}
		for _, v := range []*View{w, ibm, best} {
			v.Close()
		}
	}
}

func TestMatmulWtBiasAndErrors(t *testing.T) {
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	g := loadGolden(t, FormatQ8_0)
	rows, cols, xRows := g.shape.Rows, g.shape.Cols, g.shape.XRows
	w, err := ViewFromBytes(g.packed, FormatQ8_0, []int64{rows, cols}, RowMajor)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	bias := make([]float32, rows)
	for i := range bias {
		bias[i] = float32(i) + 0.5
	}
	exact := &MatmulOptions{Precision: PrecisionExact}
	plain := make([]float32, xRows*rows)
	biased := make([]float32, xRows*rows)
	if err := ctx.MatmulWt(g.x, w, nil, plain, exact); err != nil {
		t.Fatal(err)
	}
	if err := ctx.MatmulWt(g.x, w, bias, biased, exact); err != nil {
		t.Fatal(err)
	}
	for i := range plain {
		if biased[i] != plain[i]+bias[int64(i)%rows] {
			t.Fatalf("y[%d] with bias = %g, without %g + %g", i, biased[i], plain[i], bias[int64(i)%rows])
		}
	}
	y := make([]float32, xRows*rows)
	for name, err := range map[string]error{
		"y one short":      ctx.MatmulWt(g.x, w, nil, y[:len(y)-1], nil),
		"x not whole rows": ctx.MatmulWt(g.x[:cols+1], w, nil, y, nil),
		"bias one short":   ctx.MatmulWt(g.x, w, bias[:rows-1], y, nil),
		"no weight":        ctx.MatmulWt(g.x, nil, nil, y, nil),
		"zero threads":     ctx.SetThreads(0),
	} {
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
	x := append([]float32(nil), g.x...)
	x[7] = float32(math.NaN())
	if err := ctx.MatmulWt(x, w, nil, y, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NaN activation in fast precision: %v", err)
	}
	ctx.Close()
	if err := ctx.MatmulWt(g.x, w, nil, y, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("MatmulWt after Close: %v", err)
	}
	if err := ctx.SetThreads(1); !errors.Is(err, ErrClosed) {
		t.Errorf("SetThreads after Close: %v", err)
	}
}

// Capped at the scalar tier the reference kernel is what was asked for, not
// a fallback: Strict (a fallback is an error) must let it run, and it must
// still reproduce the golden Y.
func TestMatmulWtScalarCap(t *testing.T) {
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	if err := ctx.SetISA(ISAScalar); err != nil {
		t.Fatal(err)
	}
	g := loadGolden(t, FormatQ4_K)
	w, _ := ViewFromBytes(g.packed, FormatQ4_K, []int64{g.shape.Rows, g.shape.Cols}, RowMajor)
	defer w.Close()
	y := make([]float32, g.shape.XRows*g.shape.Rows)
	if err := ctx.MatmulWt(g.x, w, nil, y, &MatmulOptions{Precision: PrecisionExact, Strict: true}); err != nil {
		t.Fatal(err)
	}
	closeTo(t, "Q4_K scalar exact", y, g.y, 1e-5)
}
