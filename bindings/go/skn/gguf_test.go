// SPDX-License-Identifier: MIT

package skn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeModel builds a small GGUF file: one value of every scalar type, a
// string, arrays, and the golden Q4_K weight as tensor "w" (ne = [in, out]).
func writeModel(t *testing.T) ([]byte, golden) {
	t.Helper()
	g := loadGolden(t, FormatQ4_K)
	w, err := NewGGUFWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, err := range []error{
		w.AddUint8("u8", 200), w.AddInt8("i8", -100), w.AddUint16("u16", 60000), w.AddInt16("i16", -30000),
		w.AddUint32("u32", 4000000000), w.AddInt32("i32", -2000000000), w.AddUint64("u64", 1<<63),
		w.AddInt64("i64", -1<<62), w.AddFloat32("f32", 1.5), w.AddFloat64("f64", math.Pi), w.AddBool("bool", true),
		w.AddString("name", "skn\x00go"),
		w.AddArray("ints", GGUFInt32, []byte{1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 3, 0, 0, 0}),
		w.AddStringArray("vocab", []string{"a", "", "ccc"}),
		w.AddTensor("w", FormatQ4_K, []int64{g.shape.Cols, g.shape.Rows}, g.packed),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	file, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return file, g
}

func TestGGUFRoundTrip(t *testing.T) {
	file, g := writeModel(t)
	r, err := OpenGGUFMemory(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Version() != 3 || r.Alignment() != 32 || r.FileSize() != uint64(len(file)) || r.TensorCount() != 1 || r.KVCount() != 14 {
		t.Fatalf("version %d alignment %d size %d tensors %d kvs %d", r.Version(), r.Alignment(), r.FileSize(),
			r.TensorCount(), r.KVCount())
	}
	key := func(name string) int {
		i, err := r.FindKey(name)
		if err != nil || i < 0 {
			t.Fatalf("FindKey(%s) = %d, %v", name, i, err)
		}
		return i
	}
	u8, _ := r.Uint8(key("u8"))
	i8, _ := r.Int8(key("i8"))
	u16, _ := r.Uint16(key("u16"))
	i16, _ := r.Int16(key("i16"))
	u32, _ := r.Uint32(key("u32"))
	i32, _ := r.Int32(key("i32"))
	u64, _ := r.Uint64(key("u64"))
	i64, _ := r.Int64(key("i64"))
	f32, _ := r.Float32(key("f32"))
	f64, _ := r.Float64(key("f64"))
	b, _ := r.Bool(key("bool"))
	s, _ := r.StringValue(key("name"))
	if u8 != 200 || i8 != -100 || u16 != 60000 || i16 != -30000 || u32 != 4000000000 || i32 != -2000000000 ||
		u64 != 1<<63 || i64 != -1<<62 || f32 != 1.5 || f64 != math.Pi || !b || s != "skn\x00go" {
		t.Fatalf("values read back: %v %v %v %v %v %v %v %v %v %v %v %q", u8, i8, u16, i16, u32, i32, u64, i64, f32, f64, b, s)
	}
	if name, err := r.Key(key("f64")); err != nil || name != "f64" {
		t.Errorf("Key = %q, %v", name, err)
	}
	if typ, err := r.KVType(key("vocab")); err != nil || typ != GGUFArray {
		t.Errorf("KVType(vocab) = %v, %v", typ, err)
	}
	if _, err := r.Uint32(key("u8")); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "u8") {
		t.Errorf("u8 read as u32: %v", err)
	}
	if _, err := r.Uint8(r.KVCount()); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("key out of range: %v", err)
	}
	if i, err := r.FindKey("absent"); err != nil || i != -1 {
		t.Errorf("FindKey(absent) = %d, %v", i, err)
	}
	typ, count, err := r.ArrayInfo(uint64(key("ints")))
	if err != nil || typ != GGUFInt32 || count != 3 {
		t.Fatalf("ArrayInfo(ints) = %v %d %v", typ, count, err)
	}
	raw, n, err := r.ArrayData(uint64(key("ints")))
	if err != nil || n != 3 || len(raw) != 12 || int32(binary.LittleEndian.Uint32(raw[4:])) != -2 {
		t.Fatalf("ArrayData(ints) = %v %d %v", raw, n, err)
	}
	for i, want := range []string{"a", "", "ccc"} {
		if got, err := r.ArrayString(uint64(key("vocab")), uint64(i)); err != nil || got != want {
			t.Errorf("vocab[%d] = %q, %v", i, got, err)
		}
	}
	if _, err := r.ArrayString(uint64(key("vocab")), 3); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("vocab[3]: %v", err)
	}
	if _, _, err := r.ArrayData(uint64(key("vocab"))); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("ArrayData of strings: %v", err)
	}

	idx, err := r.FindTensor("w")
	if err != nil || idx != 0 {
		t.Fatalf("FindTensor(w) = %d, %v", idx, err)
	}
	info, err := r.TensorInfo(idx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "w" || info.Format != FormatQ4_K || !info.Supported || info.TypeName != "Q4_K" ||
		info.Shape[0] != g.shape.Rows || info.Shape[1] != g.shape.Cols || info.NE[0] != g.shape.Cols ||
		info.Size != uint64(len(g.packed)) || info.Offset%32 != 0 {
		t.Fatalf("tensor info %+v", info)
	}
	data, err := r.TensorData(idx)
	if err != nil || !sameBytes(data, g.packed) {
		t.Fatalf("TensorData differs from the bytes written (%v)", err)
	}
	if _, err := r.TensorInfo(1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("tensor 1 of 1: %v", err)
	}
	v, err := r.TensorView(idx)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	// The view owns its bytes: it decodes after the reader is closed.
	got, err := v.ToFloat()
	if err != nil || !sameBits(got, g.decoded) {
		t.Errorf("tensor view after Close: decode differs from golden DECODED (%v)", err)
	}
	v.Close()
	if _, err := r.TensorData(0); !errors.Is(err, ErrClosed) {
		t.Errorf("TensorData after Close: %v", err)
	}
	if _, err := r.Uint8(0); !errors.Is(err, ErrClosed) {
		t.Errorf("Uint8 after Close: %v", err)
	}
	if r.TensorCount() != -1 {
		t.Errorf("TensorCount after Close = %d", r.TensorCount())
	}
}

func TestGGUFAsStoredAndFiles(t *testing.T) {
	file, g := writeModel(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "model.gguf")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []*GGUFOptions{nil, {ReadIntoMemory: true}} {
		r, err := OpenGGUF(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		data, err := r.TensorData(0)
		if err != nil || !sameBytes(data, g.packed) {
			t.Errorf("mapped TensorData differs (%v)", err)
		}
		runtime.KeepAlive(r) // data is a slice over r's mapping
		r.Close()
	}
	stored, err := OpenGGUF(path, &GGUFOptions{AsStored: true})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := stored.TensorInfo(0)
	if info.Shape[0] != g.shape.Cols {
		t.Errorf("AS_STORED shape %v, want ne order", info.Shape)
	}
	if _, err := stored.TensorView(0); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "looks like [in, out]") {
		t.Errorf("packed tensor viewed AS_STORED: %v", err)
	}
	stored.Close()

	if _, err := OpenGGUF(filepath.Join(dir, "absent.gguf"), nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("absent file: %v", err)
	}
	if _, err := OpenGGUF(dir, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("a directory: %v", err)
	}
	if _, err := OpenGGUFMemory(file[:len(file)-100], nil); !errors.Is(err, ErrFormat) {
		t.Errorf("truncated file: %v", err)
	}
	if _, err := OpenGGUFMemory([]byte("GGUF"), nil); !errors.Is(err, ErrFormat) {
		t.Errorf("4 bytes: %v", err)
	}
	if _, err := OpenGGUFMemory(nil, nil); err == nil {
		t.Error("no bytes: accepted")
	}
}

func TestGGUFWriterFileStreamAndErrors(t *testing.T) {
	g := loadGolden(t, FormatQ8_0)
	ne := []int64{g.shape.Cols, g.shape.Rows}
	dir := t.TempDir()
	w, err := NewGGUFWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.AddUint32("a", 1); err != nil {
		t.Fatal(err)
	}
	if err := w.AddUint32("a", 2); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("repeated key: %v", err)
	}
	if err := w.AddString("", "x"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("empty key: %v", err)
	}
	if err := w.AddTensor("w", FormatQ8_0, ne, g.packed[:len(g.packed)-1]); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("tensor one byte short: %v", err)
	}
	if err := w.AddTensor("w", FormatQ8_0, []int64{g.shape.Rows, g.shape.Cols}, g.packed); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("ne in [out, in] order: %v", err)
	}
	if err := w.AddArray("bad", GGUFInt32, []byte{1, 2, 3}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("3 bytes of int32: %v", err)
	}
	if err := w.SetAlignment(12); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("alignment 12: %v", err)
	}
	if err := w.AddTensor("w", FormatQ8_0, ne, g.packed); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.gguf")
	if err := w.WriteFile(whole); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(filepath.Join(dir, "no", "such", "dir.gguf")); !errors.Is(err, ErrIO) {
		t.Errorf("write into a missing directory: %v", err)
	}

	// The same file streamed in chunks is byte-for-byte the same.
	d, err := NewGGUFWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.AddUint32("a", 1); err != nil {
		t.Fatal(err)
	}
	if err := d.DeclareTensor("w", FormatQ8_0, ne); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Bytes(); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Bytes with a declared tensor: %v", err)
	}
	streamed := filepath.Join(dir, "streamed.gguf")
	s, err := d.BeginStream(streamed)
	if err != nil {
		t.Fatal(err)
	}
	half := len(g.packed) / 2
	if err := s.Write("w", g.packed[:half]); err != nil {
		t.Fatal(err)
	}
	if tensor, written, err := s.Position(); err != nil || tensor != 0 || written != uint64(half) {
		t.Errorf("Position = %d, %d, %v", tensor, written, err)
	}
	if err := s.Finish(); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("finish with half a tensor: %v", err)
	}
	if err := s.Write("other", g.packed[half:]); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("write to an unknown tensor: %v", err)
	}
	if err := s.Write("w", append(append([]byte(nil), g.packed[half:]...), 0)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("write past the end: %v", err)
	}
	if err := s.Write("w", g.packed[half:]); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Write("w", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("write after Close: %v", err)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(streamed)
	if len(a) == 0 || !sameBytes(a, b) {
		t.Errorf("streamed file (%d bytes) differs from the written one (%d bytes)", len(b), len(a))
	}
	w.Close()
	if err := w.AddUint8("x", 1); !errors.Is(err, ErrClosed) {
		t.Errorf("writer after Close: %v", err)
	}
}

// GGUF type 36 has two byte layouts; the writer names its own in the
// "skn.i2_s_layout" key. Renamed in place (same length, every offset stays),
// the file no longer says which, and I2SLayout must.
func TestGGUFI2SLayout(t *testing.T) {
	src := make([]float32, 2*128)
	for i := range src {
		src[i] = float32(i%3 - 1)
	}
	packed, err := Quantize(FormatI2_S, src, 2, 128)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewGGUFWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.AddTensor("t", FormatI2_S, []int64{128, 2}, packed); err != nil {
		t.Fatal(err)
	}
	keyed, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(keyed, []byte("skn.i2_s_layout")) != 1 {
		t.Fatal("the writer did not add skn.i2_s_layout once")
	}
	keyless := bytes.Replace(keyed, []byte("skn.i2_s_layout"), []byte("xyz.i2_s_layout"), 1)

	r, err := OpenGGUFMemory(keyless, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := r.TensorInfo(0); err != nil || info.Supported {
		t.Errorf("keyless type 36 listed as supported: %+v, %v", info, err)
	}
	if _, err := r.TensorData(0); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "i2_s_layout") {
		t.Errorf("TensorData of a keyless I2_S tensor: %v", err)
	}
	r.Close()
	for _, c := range []struct {
		layout I2SLayout
		format Format
	}{{I2SLayoutX86, FormatI2_S}, {I2SLayoutArm64, FormatI2_S_G64}} {
		r, err := OpenGGUFMemory(keyless, &GGUFOptions{I2SLayout: c.layout})
		if err != nil {
			t.Fatal(err)
		}
		info, err := r.TensorInfo(0)
		if err != nil || !info.Supported || info.Format != c.format {
			t.Errorf("layout %d: tensor info %+v, %v", c.layout, info, err)
		}
		if data, err := r.TensorData(0); err != nil || !sameBytes(data, packed) {
			t.Errorf("layout %d: TensorData differs from the bytes written (%v)", c.layout, err)
		}
		r.Close()
	}
	if _, err := OpenGGUFMemory(keyed, &GGUFOptions{I2SLayout: I2SLayoutArm64}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("an arm64 layout for an x86 file: %v", err)
	}
}
