// SPDX-License-Identifier: MIT

package skn

import (
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	"testing"
)

func f32Bytes(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// An imatrix in llama-imatrix's GGUF form: weight "blk.0.w" of 64 columns and
// two experts, counts 4 and 0 (an expert never routed to: importance 1.0).
func writeImatrix(t *testing.T) []byte {
	t.Helper()
	w, err := NewGGUFWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sums := make([]float32, 128)
	for i := range sums {
		sums[i] = float32(i)
	}
	for _, err := range []error{
		w.AddString("general.type", "imatrix"),
		w.AddStringArray("imatrix.datasets", []string{"calibration.txt"}),
		w.AddUint32("imatrix.chunk_count", 7),
		w.AddUint32("imatrix.chunk_size", 512),
		w.AddTensor("blk.0.w.in_sum2", FormatF32, []int64{64, 2}, f32Bytes(sums...)),
		w.AddTensor("blk.0.w.counts", FormatF32, []int64{1, 2}, f32Bytes(4, 0)),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	file, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return file
}

func TestImatrix(t *testing.T) {
	file := writeImatrix(t)
	m, err := OpenImatrixMemory(file)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	info, err := m.Info()
	if err != nil || info.Form != ImatrixGGUF || info.Entries != 1 || info.Datasets != 1 || info.ChunkCount != 7 || info.ChunkSize != 512 {
		t.Fatalf("Info = %+v, %v", info, err)
	}
	if ds, err := m.Dataset(0); err != nil || ds != "calibration.txt" {
		t.Errorf("Dataset(0) = %q, %v", ds, err)
	}
	i, err := m.Find("blk.0.w")
	if err != nil || i != 0 {
		t.Fatalf("Find = %d, %v", i, err)
	}
	if j, err := m.Find("blk.1.w"); err != nil || j != -1 {
		t.Errorf("Find(absent) = %d, %v", j, err)
	}
	e, err := m.Entry(i)
	if err != nil || e.Name != "blk.0.w" || e.ValuesPerRow != 64 || e.Matrices != 2 || e.Count != 4 || e.UnusedMatrices != 1 {
		t.Fatalf("Entry = %+v, %v", e, err)
	}
	v0, err := m.Values(i, 0)
	if err != nil || len(v0) != 64 || v0[10] != 10.0/4 {
		t.Fatalf("Values(0) = %v, %v", v0, err)
	}
	v1, err := m.Values(i, 1)
	if err != nil || len(v1) != 64 || v1[0] != 1 || v1[63] != 1 {
		t.Fatalf("Values(1) of the unused expert = %v, %v", v1, err)
	}
	all, err := m.Values(i, AllMatrices)
	if err != nil || len(all) != 128 {
		t.Fatalf("Values(all) has %d values, %v", len(all), err)
	}
	if c, err := m.MatrixCount(i, 0); err != nil || c != 4 {
		t.Errorf("MatrixCount(0) = %d, %v", c, err)
	}
	if _, err := m.Values(i, 2); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("matrix 2 of 2: %v", err)
	}
	if _, err := m.Entry(1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("entry 1 of 1: %v", err)
	}
	// The values feed the quantizer as importance weights.
	src := make([]float32, 2*64)
	for k := range src {
		src[k] = float32(math.Sin(float64(k)))
	}
	if _, err := QuantizeWithOptions(FormatIQ4_NL, src, 2, 64, &QuantizeOptions{Importance: v0}); err != nil {
		t.Errorf("quantize with imatrix values: %v", err)
	}

	if _, err := OpenImatrixMemory(file[:len(file)-40]); !errors.Is(err, ErrFormat) {
		t.Errorf("truncated imatrix: %v", err)
	}
	if _, err := OpenImatrix(filepath.Join(t.TempDir(), "absent.imatrix")); !errors.Is(err, ErrNotFound) {
		t.Errorf("absent imatrix: %v", err)
	}
	m.Close()
	if _, err := m.Values(0, 0); !errors.Is(err, ErrClosed) {
		t.Errorf("Values after Close: %v", err)
	}
}
