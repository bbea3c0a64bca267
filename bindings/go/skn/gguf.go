// SPDX-License-Identifier: MIT

package skn

// #include <stdlib.h>
// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// GGUFType is a metadata value type (skn_gguf_type): the file format's numbers.
type GGUFType int32

const (
	GGUFUint8   GGUFType = C.SKN_GGUF_TYPE_U8
	GGUFInt8    GGUFType = C.SKN_GGUF_TYPE_I8
	GGUFUint16  GGUFType = C.SKN_GGUF_TYPE_U16
	GGUFInt16   GGUFType = C.SKN_GGUF_TYPE_I16
	GGUFUint32  GGUFType = C.SKN_GGUF_TYPE_U32
	GGUFInt32   GGUFType = C.SKN_GGUF_TYPE_I32
	GGUFFloat32 GGUFType = C.SKN_GGUF_TYPE_F32
	GGUFBool    GGUFType = C.SKN_GGUF_TYPE_BOOL
	GGUFString  GGUFType = C.SKN_GGUF_TYPE_STRING
	GGUFArray   GGUFType = C.SKN_GGUF_TYPE_ARRAY
	GGUFUint64  GGUFType = C.SKN_GGUF_TYPE_U64
	GGUFInt64   GGUFType = C.SKN_GGUF_TYPE_I64
	GGUFFloat64 GGUFType = C.SKN_GGUF_TYPE_F64
)

// String is the lower-case type name ("u32", "string").
func (t GGUFType) String() string { return C.GoString(C.skn_gguf_type_name(C.skn_gguf_type(t))) }

// GGUFOptions are skn_gguf_options (nil: the defaults).
type GGUFOptions struct {
	// AsStored labels shapes in the file's order (ggml's ne) instead of
	// [out, in]; packed tensors then cannot be viewed.
	AsStored bool
	// AllowUnsupported opens files holding tensor types skn does not
	// implement (listed, not decodable) instead of refusing them.
	AllowUnsupported bool
	// ReadIntoMemory reads the file into memory instead of mapping it, so the
	// file may be truncated or rewritten while the reader is open.
	ReadIntoMemory bool
	// I2SLayout is the layout of I2_S (type 36) tensors in a file without
	// the "skn.i2_s_layout" key: which bitnet.cpp build wrote it. With the
	// default, I2SLayoutFromFile, such tensors are listed unsupported and
	// TensorData / TensorView refuse them (ErrFormat); a layout the file's
	// key contradicts is refused at open (ErrInvalidArgument).
	I2SLayout I2SLayout
}

// I2SLayout is skn_i2_s_layout.
type I2SLayout int32

const (
	I2SLayoutFromFile I2SLayout = C.SKN_I2_S_LAYOUT_FROM_FILE // the file's key decides
	I2SLayoutX86      I2SLayout = C.SKN_I2_S_LAYOUT_X86       // type 36 is FormatI2_S
	I2SLayoutArm64    I2SLayout = C.SKN_I2_S_LAYOUT_ARM64     // type 36 is FormatI2_S_G64
)

func (o *GGUFOptions) toC() C.skn_gguf_options {
	var c C.skn_gguf_options
	c.struct_size = C.size_t(unsafe.Sizeof(c))
	if o != nil {
		if o.AsStored {
			c.orientation = C.SKN_GGUF_AS_STORED
		}
		if o.AllowUnsupported {
			c.allow_unsupported = 1
		}
		if o.ReadIntoMemory {
			c.read_into_memory = 1
		}
		c.i2_s_layout = C.int32_t(o.I2SLayout)
	}
	return c
}

// GGUF is an open GGUF file (skn_gguf): immutable, safe to read from several
// goroutines. Strings are copied into Go; TensorData and ArrayData are
// zero-copy slices valid until Close (see the package documentation).
type GGUF struct {
	ptr  *C.skn_gguf
	keep *cBytes // OpenGGUFMemory's C copy of the caller's bytes
}

// OpenGGUF opens and validates the GGUF file at path (mapped read-only unless
// opts.ReadIntoMemory).
func OpenGGUF(path string, opts *GGUFOptions) (*GGUF, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	o := opts.toC()
	g := &GGUF{}
	if err := check("skn_gguf_open", func() C.skn_status { return C.skn_gguf_open(cpath, &o, &g.ptr) }); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(g, (*GGUF).Close)
	return g, nil
}

// OpenGGUFMemory opens a GGUF file held in data. The bytes are copied once
// into C memory the reader and its tensor views keep alive.
func OpenGGUFMemory(data []byte, opts *GGUFOptions) (*GGUF, error) {
	o := opts.toC()
	g := &GGUF{keep: copyToC(data)}
	err := check("skn_gguf_open_memory", func() C.skn_status {
		return C.skn_gguf_open_memory(g.keep.p, C.size_t(g.keep.n), &o, &g.ptr)
	})
	if err != nil {
		return nil, err
	}
	runtime.SetFinalizer(g, (*GGUF).Close)
	return g, nil
}

// Close releases the file. Slices from TensorData and ArrayData become
// invalid; Views from TensorView stay valid.
func (g *GGUF) Close() {
	if g.ptr != nil {
		C.skn_gguf_close(g.ptr)
		g.ptr = nil
	}
	runtime.SetFinalizer(g, nil)
}

func (g *GGUF) do(op string, call func() C.skn_status) error {
	return onHandle(g, g.ptr, op, "the GGUF reader", call)
}

// Version is the file's GGUF version (0 after Close).
func (g *GGUF) Version() uint32 { defer runtime.KeepAlive(g); return uint32(C.skn_gguf_version(g.ptr)) }

// Alignment is the data section's alignment.
func (g *GGUF) Alignment() uint32 {
	defer runtime.KeepAlive(g)
	return uint32(C.skn_gguf_alignment(g.ptr))
}

// DataOffset is the file offset of the data section.
func (g *GGUF) DataOffset() uint64 {
	defer runtime.KeepAlive(g)
	return uint64(C.skn_gguf_data_offset(g.ptr))
}

// FileSize is the size in bytes of the file.
func (g *GGUF) FileSize() uint64 {
	defer runtime.KeepAlive(g)
	return uint64(C.skn_gguf_file_size(g.ptr))
}

// TensorCount is the number of tensors (-1 after Close).
func (g *GGUF) TensorCount() int {
	defer runtime.KeepAlive(g)
	return int(C.skn_gguf_tensor_count(g.ptr))
}

// UnsupportedCount is the number of tensors of types skn does not implement.
func (g *GGUF) UnsupportedCount() int {
	defer runtime.KeepAlive(g)
	return int(C.skn_gguf_unsupported_count(g.ptr))
}

// TensorInfo is what the file says about one tensor.
type TensorInfo struct {
	Name      string
	TypeID    int32  // the GGUF type id as stored
	TypeName  string // "Q4_K", "IQ4_NL_4_4", "unknown"
	Supported bool   // skn implements the type; then Format is it (Format(TypeID), but FormatI2_S_G64 for type 36 in the arm64 layout)
	Format    Format
	Shape     []int64 // labelled per the orientation
	NE        []int64 // the file's order (ggml's ne)
	Offset    uint64  // file offset of the first byte
	Size      uint64  // bytes (I2_S trailer included); 0 when unknown
}

// TensorInfo describes tensor index (0 <= index < TensorCount).
func (g *GGUF) TensorInfo(index int) (TensorInfo, error) {
	var p C.skn_gguf_tensor_props
	p.struct_size = C.size_t(unsafe.Sizeof(p))
	err := g.do("skn_gguf_tensor_info", func() C.skn_status { return C.skn_gguf_tensor_info(g.ptr, C.int64_t(index), &p) })
	if err != nil {
		return TensorInfo{}, err
	}
	rank := int(p.rank)
	info := TensorInfo{
		Name:      C.GoStringN(p.name, C.int(p.name_len)),
		TypeID:    int32(p.type_id),
		TypeName:  C.GoString(p.type_name),
		Supported: p.supported != 0,
		Format:    Format(p.format),
		Shape:     make([]int64, rank),
		NE:        make([]int64, rank),
		Offset:    uint64(p.offset),
		Size:      uint64(p.size),
	}
	for i := 0; i < rank; i++ {
		info.Shape[i] = int64(p.shape[i])
		info.NE[i] = int64(p.ne[i])
	}
	runtime.KeepAlive(g)
	return info, nil
}

// FindTensor is the index of the tensor named name, or -1 when there is none.
func (g *GGUF) FindTensor(name string) (int, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var i C.int64_t
	err := g.do("skn_gguf_find_tensor", func() C.skn_status { return C.skn_gguf_find_tensor(g.ptr, cname, &i) })
	return int(i), err
}

// TensorData is tensor index's bytes: a slice over the file mapping, no copy.
// Valid until Close; keep g reachable while using it (runtime.KeepAlive).
func (g *GGUF) TensorData(index int) ([]byte, error) {
	var p unsafe.Pointer
	var n C.size_t
	err := g.do("skn_gguf_tensor_data", func() C.skn_status { return C.skn_gguf_tensor_data(g.ptr, C.int64_t(index), &p, &n) })
	if err != nil {
		return nil, err
	}
	return bytesOver(p, uint64(n)), nil
}

// TensorView is tensor index as a zero-copy ROW_MAJOR view, labelled as the
// file was opened ([out, in] by default). The view keeps the file's bytes
// alive: it stays valid after Close.
func (g *GGUF) TensorView(index int) (*View, error) {
	var out *C.skn_view
	err := g.do("skn_gguf_tensor_view", func() C.skn_status { return C.skn_gguf_tensor_view(g.ptr, C.int64_t(index), &out) })
	if err != nil {
		return nil, err
	}
	return newView(out, g.keep), nil
}
