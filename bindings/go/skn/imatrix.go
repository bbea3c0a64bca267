// SPDX-License-Identifier: MIT

package skn

// #include <stdlib.h>
// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// ImatrixForm is the form of an importance-matrix file.
type ImatrixForm int32

const (
	ImatrixGGUF   ImatrixForm = C.SKN_IMATRIX_GGUF   // llama-imatrix's GGUF output
	ImatrixLegacy ImatrixForm = C.SKN_IMATRIX_LEGACY // the binary .dat form
)

// AllMatrices passed to Imatrix.Values gives every matrix of an entry at once.
const AllMatrices = C.SKN_IMATRIX_ALL_MATRICES

// Imatrix is an importance-matrix file read into memory (skn_imatrix):
// immutable, safe to read from several goroutines.
type Imatrix struct{ ptr *C.skn_imatrix }

func newImatrix(op string, open func(out **C.skn_imatrix) C.skn_status) (*Imatrix, error) {
	m := &Imatrix{}
	if err := check(op, func() C.skn_status { return open(&m.ptr) }); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(m, (*Imatrix).Close)
	return m, nil
}

// OpenImatrix reads the imatrix file at path (either form).
func OpenImatrix(path string) (*Imatrix, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return newImatrix("skn_imatrix_open", func(out **C.skn_imatrix) C.skn_status { return C.skn_imatrix_open(cpath, out) })
}

// OpenImatrixMemory reads an imatrix file held in data (read during the call only).
func OpenImatrixMemory(data []byte) (*Imatrix, error) {
	return newImatrix("skn_imatrix_open_memory", func(out **C.skn_imatrix) C.skn_status {
		return C.skn_imatrix_open_memory(bytesPtr(data), C.size_t(len(data)), out)
	})
}

// Close releases the imatrix; slices from Values become invalid.
func (m *Imatrix) Close() {
	if m.ptr != nil {
		C.skn_imatrix_close(m.ptr)
		m.ptr = nil
	}
	runtime.SetFinalizer(m, nil)
}

func (m *Imatrix) do(op string, call func() C.skn_status) error {
	return onHandle(m, m.ptr, op, "the imatrix", call)
}

// ImatrixInfo describes the file as a whole.
type ImatrixInfo struct {
	Form       ImatrixForm
	Entries    int
	Datasets   int
	ChunkCount int64 // -1 when the file does not say
	ChunkSize  int64 // -1 for the legacy form
}

// Info describes the file.
func (m *Imatrix) Info() (ImatrixInfo, error) {
	var p C.skn_imatrix_props
	p.struct_size = C.size_t(unsafe.Sizeof(p))
	err := m.do("skn_imatrix_info", func() C.skn_status { return C.skn_imatrix_info(m.ptr, &p) })
	return ImatrixInfo{Form: ImatrixForm(p.form), Entries: int(p.entry_count), Datasets: int(p.dataset_count),
		ChunkCount: int64(p.chunk_count), ChunkSize: int64(p.chunk_size)}, err
}

// ImatrixEntry is one weight tensor's entry.
type ImatrixEntry struct {
	Name           string
	ValuesPerRow   int64 // the weight's row length (ggml's ne0)
	Matrices       int64 // experts of a 3-D weight; 1 for a 2-D one
	Count          int64
	UnusedMatrices int64 // matrices with count 0 (importance 1.0 everywhere)
}

// Entry describes entry index (0 <= index < Info().Entries).
func (m *Imatrix) Entry(index int) (ImatrixEntry, error) {
	var p C.skn_imatrix_entry_props
	p.struct_size = C.size_t(unsafe.Sizeof(p))
	err := m.do("skn_imatrix_entry_info", func() C.skn_status { return C.skn_imatrix_entry_info(m.ptr, C.int64_t(index), &p) })
	if err != nil {
		return ImatrixEntry{}, err
	}
	e := ImatrixEntry{Name: C.GoStringN(p.name, C.int(p.name_len)), ValuesPerRow: int64(p.values_per_row),
		Matrices: int64(p.matrices), Count: int64(p.count), UnusedMatrices: int64(p.unused_matrices)}
	runtime.KeepAlive(m)
	return e, nil
}

// Find is the entry for weight tensor name, or -1 when there is none.
func (m *Imatrix) Find(name string) (int, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var i C.int64_t
	err := m.do("skn_imatrix_find", func() C.skn_status { return C.skn_imatrix_find(m.ptr, cname, &i) })
	return int(i), err
}

// Values is the importance vector of matrix `matrix` of entry index (or every
// matrix with AllMatrices): a zero-copy slice valid until Close.
func (m *Imatrix) Values(index int, matrix int64) ([]float32, error) {
	var p *C.float
	var n C.size_t
	err := m.do("skn_imatrix_values", func() C.skn_status {
		return C.skn_imatrix_values(m.ptr, C.int64_t(index), C.int64_t(matrix), &p, &n)
	})
	if err != nil || p == nil || n == 0 {
		return nil, err
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(p)), int(n)), nil
}

// MatrixCount is the count of one matrix of entry index.
func (m *Imatrix) MatrixCount(index int, matrix int64) (int64, error) {
	var n C.int64_t
	err := m.do("skn_imatrix_matrix_count", func() C.skn_status {
		return C.skn_imatrix_matrix_count(m.ptr, C.int64_t(index), C.int64_t(matrix), &n)
	})
	return int64(n), err
}

// Dataset is dataset name i, copied into Go.
func (m *Imatrix) Dataset(i int) (string, error) {
	var p *C.char
	var n C.size_t
	err := m.do("skn_imatrix_dataset", func() C.skn_status { return C.skn_imatrix_dataset(m.ptr, C.int64_t(i), &p, &n) })
	if err != nil {
		return "", err
	}
	return C.GoStringN(p, C.int(n)), nil
}
