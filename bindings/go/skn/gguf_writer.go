// SPDX-License-Identifier: MIT

package skn

// #include <stdlib.h>
// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// GGUFWriter builds a GGUF v3 file in memory (skn_gguf_writer), validating
// each addition; one goroutine at a time. Shapes are in FILE order (ggml's ne:
// a weight the model calls [out, in] is ne = [in, out]).
type GGUFWriter struct{ ptr *C.skn_gguf_writer }

// NewGGUFWriter creates an empty writer (alignment 32).
func NewGGUFWriter() (*GGUFWriter, error) {
	w := &GGUFWriter{}
	if err := check("skn_gguf_writer_create", func() C.skn_status { return C.skn_gguf_writer_create(&w.ptr) }); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(w, (*GGUFWriter).Close)
	return w, nil
}

// Close releases the writer and the copies it holds.
func (w *GGUFWriter) Close() {
	if w.ptr != nil {
		C.skn_gguf_writer_destroy(w.ptr)
		w.ptr = nil
	}
	runtime.SetFinalizer(w, nil)
}

func (w *GGUFWriter) do(op string, call func() C.skn_status) error {
	return onHandle(w, w.ptr, op, "the GGUF writer", call)
}

// withKey runs call with key as a C string.
func (w *GGUFWriter) withKey(op, key string, call func(k *C.char) C.skn_status) error {
	ckey := C.CString(key)
	defer C.free(unsafe.Pointer(ckey))
	return w.do(op, func() C.skn_status { return call(ckey) })
}

// SetAlignment sets the data alignment (a positive multiple of 8).
func (w *GGUFWriter) SetAlignment(alignment uint32) error {
	return w.do("skn_gguf_writer_set_alignment", func() C.skn_status {
		return C.skn_gguf_writer_set_alignment(w.ptr, C.uint32_t(alignment))
	})
}

func (w *GGUFWriter) AddUint8(key string, v uint8) error {
	return w.withKey("skn_gguf_writer_add_u8", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_u8(w.ptr, k, C.uint8_t(v)) })
}

func (w *GGUFWriter) AddInt8(key string, v int8) error {
	return w.withKey("skn_gguf_writer_add_i8", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_i8(w.ptr, k, C.int8_t(v)) })
}

func (w *GGUFWriter) AddUint16(key string, v uint16) error {
	return w.withKey("skn_gguf_writer_add_u16", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_u16(w.ptr, k, C.uint16_t(v)) })
}

func (w *GGUFWriter) AddInt16(key string, v int16) error {
	return w.withKey("skn_gguf_writer_add_i16", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_i16(w.ptr, k, C.int16_t(v)) })
}

func (w *GGUFWriter) AddUint32(key string, v uint32) error {
	return w.withKey("skn_gguf_writer_add_u32", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_u32(w.ptr, k, C.uint32_t(v)) })
}

func (w *GGUFWriter) AddInt32(key string, v int32) error {
	return w.withKey("skn_gguf_writer_add_i32", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_i32(w.ptr, k, C.int32_t(v)) })
}

func (w *GGUFWriter) AddUint64(key string, v uint64) error {
	return w.withKey("skn_gguf_writer_add_u64", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_u64(w.ptr, k, C.uint64_t(v)) })
}

func (w *GGUFWriter) AddInt64(key string, v int64) error {
	return w.withKey("skn_gguf_writer_add_i64", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_i64(w.ptr, k, C.int64_t(v)) })
}

func (w *GGUFWriter) AddFloat32(key string, v float32) error {
	return w.withKey("skn_gguf_writer_add_f32", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_f32(w.ptr, k, C.float(v)) })
}

func (w *GGUFWriter) AddFloat64(key string, v float64) error {
	return w.withKey("skn_gguf_writer_add_f64", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_f64(w.ptr, k, C.double(v)) })
}

func (w *GGUFWriter) AddBool(key string, v bool) error {
	b := C.int(0)
	if v {
		b = 1
	}
	return w.withKey("skn_gguf_writer_add_bool", key, func(k *C.char) C.skn_status { return C.skn_gguf_writer_add_bool(w.ptr, k, b) })
}

// AddString adds a string value (any bytes, NUL included).
func (w *GGUFWriter) AddString(key, value string) error {
	cval := C.CBytes([]byte(value))
	defer C.free(cval)
	return w.withKey("skn_gguf_writer_add_string", key, func(k *C.char) C.skn_status {
		return C.skn_gguf_writer_add_string(w.ptr, k, (*C.char)(cval), C.size_t(len(value)))
	})
}

// AddArray adds an array of a fixed-size element type from its raw
// little-endian bytes (len(data) a multiple of the element size).
func (w *GGUFWriter) AddArray(key string, element GGUFType, data []byte) error {
	const op = "skn_gguf_writer_add_array"
	size := elementSize(element)
	if size == 0 {
		return argError(op, "element type "+element.String()+" is not a fixed-size type: use AddStringArray")
	}
	if len(data)%size != 0 {
		return argError(op, itoa(int64(len(data)))+" bytes are not a whole number of "+itoa(int64(size))+"-byte elements")
	}
	return w.withKey(op, key, func(k *C.char) C.skn_status {
		return C.skn_gguf_writer_add_array(w.ptr, k, C.skn_gguf_type(element), bytesPtr(data), C.uint64_t(len(data)/size))
	})
}

// AddStringArray adds an array of strings.
func (w *GGUFWriter) AddStringArray(key string, values []string) error {
	// One C buffer holds every string; the pointer and length arrays point
	// into it (C memory: a Go array of Go pointers may not be passed to C).
	total := 0
	for _, s := range values {
		total += len(s)
	}
	text := C.malloc(C.size_t(total + 1))
	ptrs := C.malloc(C.size_t(len(values)+1) * C.size_t(unsafe.Sizeof(uintptr(0))))
	lens := C.malloc(C.size_t(len(values)+1) * C.size_t(unsafe.Sizeof(C.size_t(0))))
	defer C.free(text)
	defer C.free(ptrs)
	defer C.free(lens)
	textBytes := unsafe.Slice((*byte)(text), total+1)
	ptrSlice := unsafe.Slice((**C.char)(ptrs), len(values)+1)
	lenSlice := unsafe.Slice((*C.size_t)(lens), len(values)+1)
	at := 0
	for i, s := range values {
		copy(textBytes[at:], s)
		ptrSlice[i] = (*C.char)(unsafe.Add(text, at))
		lenSlice[i] = C.size_t(len(s))
		at += len(s)
	}
	return w.withKey("skn_gguf_writer_add_string_array", key, func(k *C.char) C.skn_status {
		return C.skn_gguf_writer_add_string_array(w.ptr, k, (**C.char)(ptrs), (*C.size_t)(lens), C.uint64_t(len(values)))
	})
}

// AddTensor adds a tensor of format f with file-order dimensions ne and its
// ROW_MAJOR bytes (copied).
func (w *GGUFWriter) AddTensor(name string, f Format, ne []int64, data []byte) error {
	return w.withKey("skn_gguf_writer_add_tensor", name, func(k *C.char) C.skn_status {
		return C.skn_gguf_writer_add_tensor(w.ptr, k, C.skn_format(f), C.int32_t(len(ne)), int64sPtr(ne),
			bytesPtr(data), C.size_t(len(data)))
	})
}

// DeclareTensor declares a tensor whose bytes a GGUFStream will be given.
func (w *GGUFWriter) DeclareTensor(name string, f Format, ne []int64) error {
	return w.withKey("skn_gguf_writer_declare_tensor", name, func(k *C.char) C.skn_status {
		return C.skn_gguf_writer_declare_tensor(w.ptr, k, C.skn_format(f), C.int32_t(len(ne)), int64sPtr(ne))
	})
}

// Size is the size in bytes of the file the writer would write now.
func (w *GGUFWriter) Size() (uint64, error) {
	var n C.uint64_t
	err := w.do("skn_gguf_writer_size", func() C.skn_status { return C.skn_gguf_writer_size(w.ptr, &n) })
	return uint64(n), err
}

// Bytes writes the file into memory.
func (w *GGUFWriter) Bytes() ([]byte, error) {
	n, err := w.Size()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, n)
	err = w.do("skn_gguf_writer_write_memory", func() C.skn_status {
		return C.skn_gguf_writer_write_memory(w.ptr, bytesPtr(buf), C.size_t(len(buf)))
	})
	if err != nil {
		return nil, err
	}
	return buf, nil
}

// WriteFile writes the file at path atomically (a temporary file renamed over it).
func (w *GGUFWriter) WriteFile(path string) error {
	return w.withKey("skn_gguf_writer_write_file", path, func(p *C.char) C.skn_status {
		return C.skn_gguf_writer_write_file(w.ptr, p)
	})
}

// GGUFStream writes a file whose tensors were declared, tensor by tensor, in
// chunks (skn_gguf_stream): for files larger than memory. One goroutine at a
// time. Close abandons an unfinished stream and removes its temporary file.
type GGUFStream struct{ ptr *C.skn_gguf_stream }

// BeginStream starts writing the file the writer describes to path.
func (w *GGUFWriter) BeginStream(path string) (*GGUFStream, error) {
	s := &GGUFStream{}
	err := w.withKey("skn_gguf_stream_begin", path, func(p *C.char) C.skn_status {
		return C.skn_gguf_stream_begin(w.ptr, p, &s.ptr)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(s, (*GGUFStream).Close)
	return s, nil
}

func (s *GGUFStream) do(op string, call func() C.skn_status) error {
	return onHandle(s, s.ptr, op, "the GGUF stream", call)
}

// Write appends data to tensor name, the first declared tensor not yet written in full.
func (s *GGUFStream) Write(name string, data []byte) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return s.do("skn_gguf_stream_write", func() C.skn_status {
		return C.skn_gguf_stream_write(s.ptr, cname, bytesPtr(data), C.size_t(len(data)))
	})
}

// Position is the index of the tensor the next bytes belong to and how many
// of its bytes are written.
func (s *GGUFStream) Position() (tensor int, written uint64, err error) {
	var t C.int64_t
	var n C.uint64_t
	err = s.do("skn_gguf_stream_position", func() C.skn_status { return C.skn_gguf_stream_position(s.ptr, &t, &n) })
	return int(t), uint64(n), err
}

// Finish checks every tensor is complete, syncs and renames the file over
// its path. Close the stream afterwards either way.
func (s *GGUFStream) Finish() error {
	return s.do("skn_gguf_stream_finish", func() C.skn_status { return C.skn_gguf_stream_finish(s.ptr) })
}

// Close releases the stream (an unfinished one's temporary file is removed).
func (s *GGUFStream) Close() {
	if s.ptr != nil {
		C.skn_gguf_stream_destroy(s.ptr)
		s.ptr = nil
	}
	runtime.SetFinalizer(s, nil)
}
