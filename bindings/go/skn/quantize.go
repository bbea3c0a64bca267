// SPDX-License-Identifier: MIT

package skn

// #include <skn/skn.h>
//
// /* The options struct is built here, in C memory, because it holds a
//    pointer to the importance weights: a Go struct holding a Go pointer may
//    not be passed to C. */
// static skn_status skn_go_quantize_with_options(skn_format format, const float* src, int64_t rows,
//         int64_t per_row, void* dst, size_t dst_size, const float* importance, int64_t importance_count,
//         int32_t threads) {
//     skn_quantize_options o = {0};
//     o.struct_size = sizeof o;
//     o.importance = importance;
//     o.importance_count = importance_count;
//     o.threads = threads;
//     return skn_quantize_with_options(format, src, rows, per_row, dst, dst_size, &o);
// }
import "C"

// QuantizedSize is the bytes a row-major [rows, perRow] tensor takes in f,
// trailer included.
func QuantizedSize(f Format, rows, perRow int64) (int, error) {
	var n C.size_t
	err := check("skn_quantized_size", func() C.skn_status {
		return C.skn_quantized_size(C.skn_format(f), C.int64_t(rows), C.int64_t(perRow), &n)
	})
	return int(n), err
}

// QuantizeOptions are skn_quantize_options: importance weights (one per
// column, e.g. an Imatrix entry's values) and the threads sharing the rows
// (0: one). The bytes never depend on Threads.
type QuantizeOptions struct {
	Importance []float32
	Threads    int
}

// checkFloats refuses a slice shorter than the rows*perRow floats C will
// read: C trusts the pointer, so Go must check the length.
func checkFloats(op, what string, got int, rows, perRow int64) error {
	if rows > 0 && perRow > 0 && (perRow > int64(^uint(0)>>1)/rows || int64(got) < rows*perRow) {
		return argError(op, what+" holds "+itoa(int64(got))+" floats but ["+itoa(rows)+", "+itoa(perRow)+
			"] needs "+itoa(rows)+"*"+itoa(perRow)+": pass a slice of that length")
	}
	return nil
}

// Quantize turns a row-major [rows, perRow] float tensor into ROW_MAJOR
// blocks of f, byte-identical to the GGUF reference quantizers.
func Quantize(f Format, src []float32, rows, perRow int64) ([]byte, error) {
	return QuantizeWithOptions(f, src, rows, perRow, nil)
}

// QuantizeWithOptions is Quantize with importance weights and threads
// (opts nil: Quantize).
func QuantizeWithOptions(f Format, src []float32, rows, perRow int64, opts *QuantizeOptions) ([]byte, error) {
	const op = "skn_quantize_with_options"
	n, err := QuantizedSize(f, rows, perRow)
	if err != nil {
		return nil, err
	}
	if err := checkFloats(op, "src", len(src), rows, perRow); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &QuantizeOptions{}
	}
	dst := make([]byte, n)
	err = check(op, func() C.skn_status {
		return C.skn_go_quantize_with_options(C.skn_format(f), floatsPtr(src), C.int64_t(rows), C.int64_t(perRow),
			bytesPtr(dst), C.size_t(n), floatsPtr(opts.Importance), C.int64_t(len(opts.Importance)),
			C.int32_t(opts.Threads))
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// Dequantize decodes a ROW_MAJOR [rows, perRow] tensor of f to floats.
func Dequantize(f Format, src []byte, rows, perRow int64) ([]float32, error) {
	if rows <= 0 || perRow <= 0 || perRow > int64(^uint(0)>>1)/rows/4 {
		// No Go slice can hold it: let skn name the bad size (or, if skn
		// accepts it, say the slice could not be made).
		var one [1]float32
		err := check("skn_dequantize", func() C.skn_status {
			return C.skn_dequantize(C.skn_format(f), bytesPtr(src), C.size_t(len(src)), C.int64_t(rows),
				C.int64_t(perRow), floatsPtr(one[:]), 0)
		})
		if err == nil {
			err = argError("skn_dequantize", "["+itoa(rows)+", "+itoa(perRow)+"] floats do not fit in a Go slice")
		}
		return nil, err
	}
	dst := make([]float32, rows*perRow)
	err := check("skn_dequantize", func() C.skn_status {
		return C.skn_dequantize(C.skn_format(f), bytesPtr(src), C.size_t(len(src)), C.int64_t(rows),
			C.int64_t(perRow), floatsPtr(dst), C.size_t(len(dst)))
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}
