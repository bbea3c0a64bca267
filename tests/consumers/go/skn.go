// SPDX-License-Identifier: MIT
// Package consumer binds the INSTALLED libskn through cgo and pkg-config, as a
// downstream Go program would: no modules are downloaded.
package consumer

// #cgo pkg-config: skn
// #include <stdlib.h>
// #include <skn/skn.h>
import "C"

import (
	"errors"
	"unsafe"
)

const FormatQ4K = C.SKN_FORMAT_Q4_K

func lastError() error { return errors.New(C.GoString(C.skn_last_error())) }

// Version is skn_version(): MAJOR*10000 + MINOR*100 + PATCH.
func Version() uint { return uint(C.skn_version()) }

// Fixture returns the tagged fixture grid; kernelOrder 0 = ROW_MAJOR, 1 = INPUT_BLOCK_MAJOR.
func Fixture(format C.skn_format, kernelOrder int, rows, blocks int64) ([]byte, error) {
	var n C.size_t
	if C.skn_fixture_bytes(format, C.int(kernelOrder), C.int64_t(rows), C.int64_t(blocks), nil, 0, &n) != C.SKN_OK {
		return nil, lastError()
	}
	buf := make([]byte, int(n))
	if C.skn_fixture_bytes(format, C.int(kernelOrder), C.int64_t(rows), C.int64_t(blocks),
		unsafe.Pointer(&buf[0]), n, &n) != C.SKN_OK {
		return nil, lastError()
	}
	return buf, nil
}

// Disagreement is "" when b is exactly the fixture, else skn's message.
func Disagreement(b []byte, format C.skn_format, kernelOrder int, rows, blocks int64) string {
	p := C.skn_fixture_disagreement(unsafe.Pointer(&b[0]), C.size_t(len(b)), format, C.int(kernelOrder),
		C.int64_t(rows), C.int64_t(blocks))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

func golden(format C.skn_format, part C.skn_golden_part) ([]byte, error) {
	var n C.size_t
	if C.skn_fixture_golden(format, part, nil, 0, &n) != C.SKN_OK {
		return nil, lastError()
	}
	buf := make([]byte, int(n))
	if C.skn_fixture_golden(format, part, unsafe.Pointer(&buf[0]), n, &n) != C.SKN_OK {
		return nil, lastError()
	}
	return buf, nil
}

// GoldenDecodedMatches reports whether the golden fixture's DECODED part of
// `format` equals skn_dequantize of its PACKED part, byte for byte.
func GoldenDecodedMatches(format C.skn_format) (bool, error) {
	var info C.skn_golden_info
	info.struct_size = C.size_t(unsafe.Sizeof(info))
	if C.skn_fixture_golden_info(format, &info) != C.SKN_OK {
		return false, lastError()
	}
	packed, err := golden(format, C.SKN_GOLDEN_PACKED)
	if err != nil {
		return false, err
	}
	decoded, err := golden(format, C.SKN_GOLDEN_DECODED)
	if err != nil {
		return false, err
	}
	count := int(info.rows * info.cols)
	mine := make([]float32, count)
	if C.skn_dequantize(format, unsafe.Pointer(&packed[0]), C.size_t(len(packed)), info.rows, info.cols,
		(*C.float)(unsafe.Pointer(&mine[0])), C.size_t(count)) != C.SKN_OK {
		return false, lastError()
	}
	mineBytes := unsafe.Slice((*byte)(unsafe.Pointer(&mine[0])), count*4)
	if len(mineBytes) != len(decoded) {
		return false, nil
	}
	for i := range decoded {
		if mineBytes[i] != decoded[i] {
			return false, nil
		}
	}
	return true, nil
}
