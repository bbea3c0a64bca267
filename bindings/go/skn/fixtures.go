// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// The default tagged-fixture grid: 4 rows by 3 blocks per row, non-square so
// that swapping rows and blocks is caught too.
const (
	FixtureDefaultRows         = C.SKN_FIXTURE_DEFAULT_ROWS
	FixtureDefaultBlocksPerRow = C.SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW
)

// FixtureBytes is the tagged fixture: a [rows, blocksPerRow] grid of f in
// order whose every byte of block (o, b) derives from (o, b), so a block in
// the wrong place is named. rows >= 2 and blocksPerRow >= 3 (at one row or
// one block per row both orders coincide).
func FixtureBytes(f Format, order BlockOrder, rows, blocksPerRow int64) ([]byte, error) {
	const op = "skn_fixture_bytes"
	var n C.size_t
	err := check(op, func() C.skn_status {
		return C.skn_fixture_bytes(C.skn_format(f), C.int(order), C.int64_t(rows), C.int64_t(blocksPerRow), nil, 0, &n)
	})
	if err != nil {
		return nil, err
	}
	buf := make([]byte, int(n))
	err = check(op, func() C.skn_status {
		return C.skn_fixture_bytes(C.skn_format(f), C.int(order), C.int64_t(rows), C.int64_t(blocksPerRow),
			bytesPtr(buf), n, &n)
	})
	if err != nil {
		return nil, err
	}
	return buf, nil
}

// FixtureDisagreement checks data against the tagged fixture of the same
// format, order and grid: "" when every byte agrees, else skn's message
// naming the first block found in the wrong place.
func FixtureDisagreement(data []byte, f Format, order BlockOrder, rows, blocksPerRow int64) string {
	// The message lives in per-thread storage until the next call on that
	// thread: copy it before the goroutine can move.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p := C.skn_fixture_disagreement(bytesPtr(data), C.size_t(len(data)), C.skn_format(f), C.int(order),
		C.int64_t(rows), C.int64_t(blocksPerRow))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// GoldenPart names one part of a golden fixture.
type GoldenPart int32

const (
	GoldenSource            GoldenPart = C.SKN_GOLDEN_SOURCE              // float32 W [rows, cols]
	GoldenPacked            GoldenPart = C.SKN_GOLDEN_PACKED              // quantized bytes, ROW_MAJOR
	GoldenPackedKernelOrder GoldenPart = C.SKN_GOLDEN_PACKED_KERNEL_ORDER // the same, INPUT_BLOCK_MAJOR
	GoldenDecoded           GoldenPart = C.SKN_GOLDEN_DECODED             // float32 decode of the packed bytes
	GoldenX                 GoldenPart = C.SKN_GOLDEN_X                   // float32 activation [xRows, cols]
	GoldenY                 GoldenPart = C.SKN_GOLDEN_Y                   // float32 x * decoded(W)^T [xRows, rows]
)

// GoldenShape is a golden fixture's shape: W [Rows, Cols], x [XRows, Cols].
type GoldenShape struct{ Rows, Cols, XRows int64 }

// GoldenInfo is the shape of f's golden fixture.
func GoldenInfo(f Format) (GoldenShape, error) {
	var info C.skn_golden_info
	info.struct_size = C.size_t(unsafe.Sizeof(info))
	err := check("skn_fixture_golden_info", func() C.skn_status { return C.skn_fixture_golden_info(C.skn_format(f), &info) })
	return GoldenShape{Rows: int64(info.rows), Cols: int64(info.cols), XRows: int64(info.x_rows)}, err
}

// Golden is one part of f's golden fixture as bytes (float32 parts are
// little-endian floats: GoldenFloats decodes them).
func Golden(f Format, part GoldenPart) ([]byte, error) {
	const op = "skn_fixture_golden"
	var n C.size_t
	err := check(op, func() C.skn_status { return C.skn_fixture_golden(C.skn_format(f), C.skn_golden_part(part), nil, 0, &n) })
	if err != nil {
		return nil, err
	}
	buf := make([]byte, int(n))
	err = check(op, func() C.skn_status {
		return C.skn_fixture_golden(C.skn_format(f), C.skn_golden_part(part), bytesPtr(buf), n, &n)
	})
	if err != nil {
		return nil, err
	}
	return buf, nil
}

// GoldenFloats is a float32 part of f's golden fixture.
func GoldenFloats(f Format, part GoldenPart) ([]float32, error) {
	b, err := Golden(f, part)
	if err != nil {
		return nil, err
	}
	if part == GoldenPacked || part == GoldenPackedKernelOrder {
		return nil, argError("skn_fixture_golden", "the packed parts are bytes, not floats: use Golden")
	}
	out := make([]float32, len(b)/4)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), len(out)*4), b)
	return out, nil
}
