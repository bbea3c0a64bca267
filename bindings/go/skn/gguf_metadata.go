// SPDX-License-Identifier: MIT

package skn

// #include <stdlib.h>
// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// Metadata pairs are addressed by index, 0 <= key < KVCount. Getters take the
// exact stored type: no conversion (a different type is ErrInvalidArgument
// naming the actual one).

// KVCount is the number of metadata pairs (-1 after Close).
func (g *GGUF) KVCount() int {
	n := int(C.skn_gguf_kv_count(g.ptr))
	runtime.KeepAlive(g)
	return n
}

// Key is the key of pair index.
func (g *GGUF) Key(index int) (string, error) {
	var p *C.char
	var n C.size_t
	err := g.do("skn_gguf_kv_key", func() C.skn_status { return C.skn_gguf_kv_key(g.ptr, C.int64_t(index), &p, &n) })
	if err != nil {
		return "", err
	}
	return C.GoStringN(p, C.int(n)), nil
}

// FindKey is the index of the pair whose key is name, or -1 when there is none.
func (g *GGUF) FindKey(name string) (int, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var i C.int64_t
	err := g.do("skn_gguf_find_key", func() C.skn_status { return C.skn_gguf_find_key(g.ptr, cname, &i) })
	return int(i), err
}

// KVType is the value type of pair index.
func (g *GGUF) KVType(index int) (GGUFType, error) {
	var t C.skn_gguf_type
	err := g.do("skn_gguf_kv_type", func() C.skn_status { return C.skn_gguf_kv_type(g.ptr, C.int64_t(index), &t) })
	return GGUFType(t), err
}

func (g *GGUF) Uint8(key int) (uint8, error) {
	var v C.uint8_t
	err := g.do("skn_gguf_get_u8", func() C.skn_status { return C.skn_gguf_get_u8(g.ptr, C.int64_t(key), &v) })
	return uint8(v), err
}

func (g *GGUF) Int8(key int) (int8, error) {
	var v C.int8_t
	err := g.do("skn_gguf_get_i8", func() C.skn_status { return C.skn_gguf_get_i8(g.ptr, C.int64_t(key), &v) })
	return int8(v), err
}

func (g *GGUF) Uint16(key int) (uint16, error) {
	var v C.uint16_t
	err := g.do("skn_gguf_get_u16", func() C.skn_status { return C.skn_gguf_get_u16(g.ptr, C.int64_t(key), &v) })
	return uint16(v), err
}

func (g *GGUF) Int16(key int) (int16, error) {
	var v C.int16_t
	err := g.do("skn_gguf_get_i16", func() C.skn_status { return C.skn_gguf_get_i16(g.ptr, C.int64_t(key), &v) })
	return int16(v), err
}

func (g *GGUF) Uint32(key int) (uint32, error) {
	var v C.uint32_t
	err := g.do("skn_gguf_get_u32", func() C.skn_status { return C.skn_gguf_get_u32(g.ptr, C.int64_t(key), &v) })
	return uint32(v), err
}

func (g *GGUF) Int32(key int) (int32, error) {
	var v C.int32_t
	err := g.do("skn_gguf_get_i32", func() C.skn_status { return C.skn_gguf_get_i32(g.ptr, C.int64_t(key), &v) })
	return int32(v), err
}

func (g *GGUF) Uint64(key int) (uint64, error) {
	var v C.uint64_t
	err := g.do("skn_gguf_get_u64", func() C.skn_status { return C.skn_gguf_get_u64(g.ptr, C.int64_t(key), &v) })
	return uint64(v), err
}

func (g *GGUF) Int64(key int) (int64, error) {
	var v C.int64_t
	err := g.do("skn_gguf_get_i64", func() C.skn_status { return C.skn_gguf_get_i64(g.ptr, C.int64_t(key), &v) })
	return int64(v), err
}

func (g *GGUF) Float32(key int) (float32, error) {
	var v C.float
	err := g.do("skn_gguf_get_f32", func() C.skn_status { return C.skn_gguf_get_f32(g.ptr, C.int64_t(key), &v) })
	return float32(v), err
}

func (g *GGUF) Float64(key int) (float64, error) {
	var v C.double
	err := g.do("skn_gguf_get_f64", func() C.skn_status { return C.skn_gguf_get_f64(g.ptr, C.int64_t(key), &v) })
	return float64(v), err
}

func (g *GGUF) Bool(key int) (bool, error) {
	var v C.int
	err := g.do("skn_gguf_get_bool", func() C.skn_status { return C.skn_gguf_get_bool(g.ptr, C.int64_t(key), &v) })
	return v != 0, err
}

// StringValue is a string value, copied into Go.
func (g *GGUF) StringValue(key int) (string, error) {
	var p *C.char
	var n C.size_t
	err := g.do("skn_gguf_get_string", func() C.skn_status { return C.skn_gguf_get_string(g.ptr, C.int64_t(key), &p, &n) })
	if err != nil {
		return "", err
	}
	return C.GoStringN(p, C.int(n)), nil
}

// Arrays are named by an array id: a key's index for the array it holds,
// ArrayNested's ids for arrays inside arrays.

// ArrayInfo is the element type and count of array id.
func (g *GGUF) ArrayInfo(array uint64) (GGUFType, uint64, error) {
	var t C.skn_gguf_type
	var n C.uint64_t
	err := g.do("skn_gguf_array_info", func() C.skn_status { return C.skn_gguf_array_info(g.ptr, C.uint64_t(array), &t, &n) })
	return GGUFType(t), uint64(n), err
}

// ArrayData is the raw little-endian elements of a fixed-size-type array, a
// zero-copy slice over the file valid until Close (possibly unaligned: decode
// with encoding/binary), and the element count.
func (g *GGUF) ArrayData(array uint64) ([]byte, uint64, error) {
	t, _, err := g.ArrayInfo(array)
	if err != nil {
		return nil, 0, err
	}
	var p unsafe.Pointer
	var n C.uint64_t
	err = g.do("skn_gguf_array_data", func() C.skn_status { return C.skn_gguf_array_data(g.ptr, C.uint64_t(array), &p, &n) })
	if err != nil {
		return nil, 0, err
	}
	return bytesOver(p, uint64(n)*uint64(elementSize(t))), uint64(n), nil
}

// ArrayString is string i of a string array, copied into Go.
func (g *GGUF) ArrayString(array, i uint64) (string, error) {
	var p *C.char
	var n C.size_t
	err := g.do("skn_gguf_array_string", func() C.skn_status {
		return C.skn_gguf_array_string(g.ptr, C.uint64_t(array), C.uint64_t(i), &p, &n)
	})
	if err != nil {
		return "", err
	}
	return C.GoStringN(p, C.int(n)), nil
}

// ArrayNested is the array id of element i of an array of arrays.
func (g *GGUF) ArrayNested(array, i uint64) (uint64, error) {
	var id C.uint64_t
	err := g.do("skn_gguf_array_nested", func() C.skn_status {
		return C.skn_gguf_array_nested(g.ptr, C.uint64_t(array), C.uint64_t(i), &id)
	})
	return uint64(id), err
}

// elementSize is the byte size of one element of a fixed-size type (0 for
// strings and arrays).
func elementSize(t GGUFType) int {
	switch t {
	case GGUFUint8, GGUFInt8, GGUFBool:
		return 1
	case GGUFUint16, GGUFInt16:
		return 2
	case GGUFUint32, GGUFInt32, GGUFFloat32:
		return 4
	case GGUFUint64, GGUFInt64, GGUFFloat64:
		return 8
	}
	return 0
}
