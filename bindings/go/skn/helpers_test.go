// SPDX-License-Identifier: MIT

package skn

import (
	"bytes"
	"math"
	"testing"
)

// blockFormats is every block-quantized format skn implements.
func blockFormats(t *testing.T) []Format {
	t.Helper()
	var out []Format
	for _, f := range Formats() {
		p, err := f.Info()
		if err != nil {
			t.Fatal(err)
		}
		if p.BlockQuantized {
			out = append(out, f)
		}
	}
	return out
}

type golden struct {
	shape                     GoldenShape
	source, decoded, x, y     []float32
	packed, packedKernelOrder []byte
}

func loadGolden(t *testing.T, f Format) golden {
	t.Helper()
	var g golden
	var err error
	must := func(e error) {
		if e != nil {
			t.Fatalf("%v golden: %v", f, e)
		}
	}
	g.shape, err = GoldenInfo(f)
	must(err)
	g.source, err = GoldenFloats(f, GoldenSource)
	must(err)
	g.decoded, err = GoldenFloats(f, GoldenDecoded)
	must(err)
	g.x, err = GoldenFloats(f, GoldenX)
	must(err)
	g.y, err = GoldenFloats(f, GoldenY)
	must(err)
	g.packed, err = Golden(f, GoldenPacked)
	must(err)
	g.packedKernelOrder, err = Golden(f, GoldenPackedKernelOrder)
	must(err)
	if int64(len(g.decoded)) != g.shape.Rows*g.shape.Cols || int64(len(g.y)) != g.shape.XRows*g.shape.Rows {
		t.Fatalf("%v golden sizes disagree with its shape %+v", f, g.shape)
	}
	return g
}

// sameBits compares floats bit for bit (NaN payloads included).
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func sameBytes(a, b []byte) bool { return bytes.Equal(a, b) }
