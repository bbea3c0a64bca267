// SPDX-License-Identifier: MIT

package skn

// #include <stdlib.h>
// #include <string.h>
import "C"

import (
	"runtime"
	"strconv"
	"unsafe"
)

// cBytes is a C copy of Go bytes that C may keep pointing at (cgo forbids C
// holding Go pointers past a call). Every Go handle whose C object reads it
// refers to it, so it is freed only when none of them is reachable.
type cBytes struct {
	p unsafe.Pointer
	n int
}

func copyToC(b []byte) *cBytes {
	n := len(b)
	alloc := n
	if alloc == 0 {
		alloc = 1 // malloc(0) may return NULL, which skn reads as a missing argument
	}
	c := &cBytes{p: C.malloc(C.size_t(alloc)), n: n}
	if c.p == nil {
		panic("skn: out of memory copying " + strconv.Itoa(n) + " bytes for C")
	}
	if n > 0 {
		C.memcpy(c.p, unsafe.Pointer(&b[0]), C.size_t(n))
	}
	runtime.SetFinalizer(c, func(c *cBytes) { C.free(c.p) })
	return c
}

// bytesPtr and floatsPtr give C the first element, or NULL for an empty slice.
func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

func floatsPtr(f []float32) *C.float {
	if len(f) == 0 {
		return nil
	}
	return (*C.float)(unsafe.Pointer(&f[0]))
}

func int64sPtr(v []int64) *C.int64_t {
	if len(v) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&v[0]))
}

// bytesOver is a slice over n bytes of C memory (nil for none): no copy.
func bytesOver(p unsafe.Pointer, n uint64) []byte {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), int(n))
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
