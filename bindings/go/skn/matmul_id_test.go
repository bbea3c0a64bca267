// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Each routed slot equals gate * MatmulWt of that row alone against its
// expert's slice (with that expert's bias), bit for bit, for shared and
// per-slot inputs, in either block order of the stacked weight.
func TestMatmulWtIDAgreesWithMatmulWtPerExpert(t *testing.T) {
	const experts, out, in, rows, k = 3, 5, 96, 4, 2
	src := make([]float32, experts*out*in)
	for i := range src {
		src[i] = float32(math.Sin(0.37*float64(i)) * (1 + float64(i%11)))
	}
	packed, err := Quantize(FormatQ8_0, src, experts*out, in)
	if err != nil {
		t.Fatal(err)
	}
	rm, err := ViewFromBytes(packed, FormatQ8_0, []int64{experts, out, in}, RowMajor)
	if err != nil {
		t.Fatal(err)
	}
	defer rm.Close()
	scope, _ := NewScope()
	defer scope.Close()
	ibm, err := rm.Prepack(InputBlockMajor, scope)
	if err != nil {
		t.Fatal(err)
	}
	defer ibm.Close()
	ctx, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()

	ids := []int32{0, 2, 1, 1, 2, 0, 1, 2} // row 1 names expert 1 twice
	gates := []float32{0.5, 1.5, 1, 0.25, 2, 0.75, 1.25, 3}
	bias := make([]float32, experts*out)
	for i := range bias {
		bias[i] = float32(i) / 8
	}
	x := make([]float32, rows*k*in)
	for i := range x {
		x[i] = float32(math.Cos(0.11 * float64(i)))
	}
	for _, perSlot := range []bool{false, true} {
		for _, w := range []*View{rm, ibm} {
			y := make([]float32, rows*k*out)
			r := Routing{IDs: ids, K: k, Gates: gates, PerSlotInput: perSlot}
			if err := ctx.MatmulWtID(x, w, r, bias, y, nil); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < rows; i++ {
				for s := 0; s < k; s++ {
					e := int64(ids[i*k+s])
					slice, err := w.Select(0, e)
					if err != nil {
						t.Fatal(err)
					}
					xi := x[i*in : (i+1)*in]
					if perSlot {
						xi = x[(i*k+s)*in : (i*k+s+1)*in]
					}
					want := make([]float32, out)
					if err := ctx.MatmulWt(xi, slice, bias[e*out:(e+1)*out], want, nil); err != nil {
						t.Fatal(err)
					}
					slice.Close()
					for o := 0; o < out; o++ {
						g := gates[i*k+s] * want[o]
						if got := y[(i*k+s)*out+o]; math.Float32bits(got) != math.Float32bits(g) {
							t.Fatalf("perSlot=%v %v: y[%d,%d,%d] = %g, gate * MatmulWt = %g", perSlot, w.Order(), i, s, o, got, g)
						}
					}
				}
			}
		}
	}

	y := make([]float32, rows*k*out)
	bad := append([]int32(nil), ids...)
	bad[5] = experts
	err = ctx.MatmulWtID(x, rm, Routing{IDs: bad, K: k}, nil, y, nil)
	if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "row 2, slot 1: expert id 3") {
		t.Errorf("expert id %d of %d at row 2, slot 1: %v", experts, experts, err)
	}
	for name, err := range map[string]error{
		"rank-2 weight":      ctx.MatmulWtID(x, mustSelect(t, rm, 0), Routing{IDs: ids, K: k}, nil, y, nil),
		"ids not whole rows": ctx.MatmulWtID(x, rm, Routing{IDs: ids[:3], K: k}, nil, y, nil),
		"y one short":        ctx.MatmulWtID(x, rm, Routing{IDs: ids, K: k}, nil, y[:len(y)-1], nil),
		"gates one short":    ctx.MatmulWtID(x, rm, Routing{IDs: ids, K: k, Gates: gates[:7]}, nil, y, nil),
		"bias of one expert": ctx.MatmulWtID(x, rm, Routing{IDs: ids, K: k}, bias[:out], y, nil),
		"x one row short":    ctx.MatmulWtID(x[:(rows*k-1)*in], rm, Routing{IDs: ids, K: k, PerSlotInput: true}, nil, y, nil),
	} {
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
}

func mustSelect(t *testing.T, v *View, e int64) *View {
	t.Helper()
	s, err := v.Select(0, e)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
