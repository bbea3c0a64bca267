// SPDX-License-Identifier: MIT

package skn

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// The golden decode check of the C consumer, for every block format: the
// DECODED part is Dequantize of the PACKED part, bit for bit.
func TestGoldenDecodeEveryFormat(t *testing.T) {
	for _, f := range blockFormats(t) {
		g := loadGolden(t, f)
		if g.shape.Cols%256 != 0 && g.shape.Cols/32 < 3 {
			t.Errorf("%v golden is narrower than three blocks: %+v", f, g.shape)
		}
		got, err := Dequantize(f, g.packed, g.shape.Rows, g.shape.Cols)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if !sameBits(got, g.decoded) {
			t.Errorf("%v: Dequantize(PACKED) differs from the golden DECODED", f)
		}
	}
}

// Quantizing the golden SOURCE writes the golden PACKED bytes (the formats
// that quantize only with importance weights are checked elsewhere).
func TestQuantizeReproducesGoldenPacked(t *testing.T) {
	for _, f := range blockFormats(t) {
		if p, _ := f.Info(); p.NeedsImportance {
			continue
		}
		g := loadGolden(t, f)
		for _, threads := range []int{1, 3} {
			got, err := QuantizeWithOptions(f, g.source, g.shape.Rows, g.shape.Cols, &QuantizeOptions{Threads: threads})
			if err != nil {
				t.Fatalf("%v: %v", f, err)
			}
			if !sameBytes(got, g.packed) {
				t.Errorf("%v with %d threads: Quantize(SOURCE) differs from the golden PACKED", f, threads)
			}
		}
	}
}

func TestQuantizeWithImportance(t *testing.T) {
	g := loadGolden(t, FormatQ4_K)
	rows, cols := g.shape.Rows, g.shape.Cols
	if _, err := Quantize(FormatIQ2_XXS, g.source, rows, cols); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("IQ2_XXS without importance: %v, want ErrInvalidArgument", err)
	}
	importance := make([]float32, cols)
	for i := range importance {
		importance[i] = 1 + float32(i%7)
	}
	packed, err := QuantizeWithOptions(FormatIQ2_XXS, g.source, rows, cols, &QuantizeOptions{Importance: importance})
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := Dequantize(FormatIQ2_XXS, packed, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	// 2.06 bits per weight on noise-like data: only a mean error clearly
	// below the data's own magnitude (what all-zero weights would give).
	var errSum, srcSum float64
	for i := range decoded {
		errSum += math.Abs(float64(decoded[i] - g.source[i]))
		srcSum += math.Abs(float64(g.source[i]))
	}
	if !(errSum < 0.85*srcSum) {
		t.Fatalf("IQ2_XXS with importance: mean error %g against mean magnitude %g", errSum, srcSum)
	}
	threaded, err := QuantizeWithOptions(FormatIQ2_XXS, g.source, rows, cols, &QuantizeOptions{Importance: importance, Threads: 3})
	if err != nil || !sameBytes(threaded, packed) {
		t.Fatalf("IQ2_XXS with 3 threads differs from 1 thread (%v)", err)
	}
	weighted, err := QuantizeWithOptions(FormatQ4_K, g.source, rows, cols, &QuantizeOptions{Importance: importance})
	if err != nil {
		t.Fatal(err)
	}
	if sameBytes(weighted, g.packed) {
		t.Fatal("Q4_K reads importance weights, but the bytes equal those quantized without")
	}
	_, err = QuantizeWithOptions(FormatQ4_K, g.source, rows, cols, &QuantizeOptions{Importance: importance[:cols-1]})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("importance one short: %v, want ErrInvalidArgument", err)
	}
	importance[5] = -1
	_, err = QuantizeWithOptions(FormatQ4_K, g.source, rows, cols, &QuantizeOptions{Importance: importance})
	if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "5") {
		t.Fatalf("negative importance at 5: %v", err)
	}
}

func TestQuantizeErrors(t *testing.T) {
	src := make([]float32, 4*256)
	if _, err := Quantize(FormatQ4_K, src, 4, 100); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("unaligned row: %v", err)
	}
	if _, err := Quantize(FormatQ4_K, src[:256*3], 4, 256); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "768") {
		t.Errorf("src shorter than the shape: %v", err)
	}
	src[300] = float32(math.Inf(1))
	if _, err := Quantize(FormatQ4_K, src, 4, 256); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("infinity: %v", err)
	}
	if _, err := Quantize(Format(26), src, 4, 256); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("format 26: %v", err)
	}
	if _, err := QuantizeWithOptions(FormatQ8_0, src[:64], 1, 64, &QuantizeOptions{Threads: 5000}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("5000 threads: %v", err)
	}
}

func TestDequantizeErrors(t *testing.T) {
	g := loadGolden(t, FormatQ8_0)
	_, err := Dequantize(FormatQ8_0, g.packed[:len(g.packed)-1], g.shape.Rows, g.shape.Cols)
	if !errors.Is(err, ErrBufferTooSmall) {
		t.Errorf("one byte short: %v, want ErrBufferTooSmall", err)
	}
	if _, err := Dequantize(FormatQ8_0, g.packed, 0, g.shape.Cols); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("zero rows: %v", err)
	}
	if _, err := Dequantize(FormatQ8_0, nil, 1, 32); err == nil {
		t.Error("no bytes: accepted")
	}
	n, err := QuantizedSize(FormatQ8_0, g.shape.Rows, g.shape.Cols)
	if err != nil || n != len(g.packed) {
		t.Errorf("QuantizedSize = %d, %v; golden has %d bytes", n, err, len(g.packed))
	}
}
