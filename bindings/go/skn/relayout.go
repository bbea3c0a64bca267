// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
import "C"

// PackedToKernelOrder copies a ROW_MAJOR [rows, blocksPerRow] block grid of
// f into INPUT_BLOCK_MAJOR order (I2_S: the trailer follows unchanged).
func PackedToKernelOrder(f Format, src []byte, rows, blocksPerRow int64) ([]byte, error) {
	dst := make([]byte, len(src))
	err := check("skn_packed_to_kernel_order", func() C.skn_status {
		return C.skn_packed_to_kernel_order(C.skn_format(f), bytesPtr(src), C.size_t(len(src)), bytesPtr(dst),
			C.size_t(len(dst)), C.int64_t(rows), C.int64_t(blocksPerRow))
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// PackedToCanonicalOrder is the exact inverse of PackedToKernelOrder.
func PackedToCanonicalOrder(f Format, src []byte, rows, blocksPerRow int64) ([]byte, error) {
	dst := make([]byte, len(src))
	err := check("skn_packed_to_canonical_order", func() C.skn_status {
		return C.skn_packed_to_canonical_order(C.skn_format(f), bytesPtr(src), C.size_t(len(src)), bytesPtr(dst),
			C.size_t(len(dst)), C.int64_t(rows), C.int64_t(blocksPerRow))
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// RequireOutIn refuses a weight shape that looks labelled [in, out] (the
// message then contains "looks like [in, out]").
func RequireOutIn(rows, in int64, f Format) error {
	return check("skn_require_out_in", func() C.skn_status {
		return C.skn_require_out_in(C.int64_t(rows), C.int64_t(in), C.skn_format(f))
	})
}
