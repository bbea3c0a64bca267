// SPDX-License-Identifier: MIT

package skn

// #include <stdlib.h>
// #include <skn/skn.h>
import "C"

import "unsafe"

// Format is a weight format; its value is the GGUF tensor type id.
type Format int32

const (
	FormatF32     Format = C.SKN_FORMAT_F32
	FormatF16     Format = C.SKN_FORMAT_F16
	FormatQ4_0    Format = C.SKN_FORMAT_Q4_0
	FormatQ4_1    Format = C.SKN_FORMAT_Q4_1
	FormatQ5_0    Format = C.SKN_FORMAT_Q5_0
	FormatQ5_1    Format = C.SKN_FORMAT_Q5_1
	FormatQ8_0    Format = C.SKN_FORMAT_Q8_0
	FormatQ8_1    Format = C.SKN_FORMAT_Q8_1
	FormatQ2_K    Format = C.SKN_FORMAT_Q2_K
	FormatQ3_K    Format = C.SKN_FORMAT_Q3_K
	FormatQ4_K    Format = C.SKN_FORMAT_Q4_K
	FormatQ5_K    Format = C.SKN_FORMAT_Q5_K
	FormatQ6_K    Format = C.SKN_FORMAT_Q6_K
	FormatQ8_K    Format = C.SKN_FORMAT_Q8_K
	FormatIQ2_XXS Format = C.SKN_FORMAT_IQ2_XXS
	FormatIQ2_XS  Format = C.SKN_FORMAT_IQ2_XS
	FormatIQ3_XXS Format = C.SKN_FORMAT_IQ3_XXS
	FormatIQ1_S   Format = C.SKN_FORMAT_IQ1_S
	FormatIQ4_NL  Format = C.SKN_FORMAT_IQ4_NL
	FormatIQ3_S   Format = C.SKN_FORMAT_IQ3_S
	FormatIQ2_S   Format = C.SKN_FORMAT_IQ2_S
	FormatIQ4_XS  Format = C.SKN_FORMAT_IQ4_XS
	FormatIQ1_M   Format = C.SKN_FORMAT_IQ1_M
	FormatBF16    Format = C.SKN_FORMAT_BF16
	FormatTQ1_0   Format = C.SKN_FORMAT_TQ1_0
	FormatTQ2_0   Format = C.SKN_FORMAT_TQ2_0
	FormatI2_S    Format = C.SKN_FORMAT_I2_S
	FormatMXFP4   Format = C.SKN_FORMAT_MXFP4
	FormatNVFP4   Format = C.SKN_FORMAT_NVFP4
	FormatQ1_0    Format = C.SKN_FORMAT_Q1_0
	FormatQ2_0    Format = C.SKN_FORMAT_Q2_0
	// Row-interleaved re-encodings (ik_llama.cpp's _R4 / _R8 / _R16 types).
	FormatQ4_0_R8    Format = C.SKN_FORMAT_Q4_0_R8
	FormatQ5_0_R4    Format = C.SKN_FORMAT_Q5_0_R4
	FormatQ8_0_R8    Format = C.SKN_FORMAT_Q8_0_R8
	FormatQ2_K_R4    Format = C.SKN_FORMAT_Q2_K_R4
	FormatQ3_K_R4    Format = C.SKN_FORMAT_Q3_K_R4
	FormatQ4_K_R4    Format = C.SKN_FORMAT_Q4_K_R4
	FormatQ5_K_R4    Format = C.SKN_FORMAT_Q5_K_R4
	FormatQ6_K_R4    Format = C.SKN_FORMAT_Q6_K_R4
	FormatIQ2_XXS_R4 Format = C.SKN_FORMAT_IQ2_XXS_R4
	FormatIQ2_XS_R4  Format = C.SKN_FORMAT_IQ2_XS_R4
	FormatIQ3_XXS_R4 Format = C.SKN_FORMAT_IQ3_XXS_R4
	FormatIQ4_NL_R4  Format = C.SKN_FORMAT_IQ4_NL_R4
	FormatIQ3_S_R4   Format = C.SKN_FORMAT_IQ3_S_R4
	FormatIQ2_S_R4   Format = C.SKN_FORMAT_IQ2_S_R4
	FormatIQ4_XS_R8  Format = C.SKN_FORMAT_IQ4_XS_R8
	FormatBF16_R16   Format = C.SKN_FORMAT_BF16_R16
	FormatMXFP4_R8   Format = C.SKN_FORMAT_MXFP4_R8
	// I2_S in bitnet.cpp's arm64 layout (skn-only id; GGUF stores it as type 36).
	FormatI2_S_G64 Format = C.SKN_FORMAT_I2_S_G64
)

// FormatProps is what skn knows about a format (skn_format_props).
type FormatProps struct {
	Name               string
	BlockElems         int
	BlockBytes         int
	TensorTrailerBytes int
	BlockQuantized     bool
	ActivationFormat   Format
	BitsPerWeight      float64
	NeedsImportance    bool // quantizes only with importance weights (an imatrix)
	// Rows one block spans: R for a row-interleaved format (Q4_0_R8: 8), else 1.
	// BlockBytes stays one row's share: a whole block is BlockRows * BlockBytes.
	BlockRows int
	// The canonical format a row-interleaved format re-encodes (Q4_0 for
	// Q4_0_R8); the format itself for every other.
	Interleaves Format
}

// Info describes the format; ErrUnknownFormat for an id skn does not implement.
func (f Format) Info() (FormatProps, error) {
	var p C.skn_format_props
	p.struct_size = C.size_t(unsafe.Sizeof(p))
	if err := check("skn_format_info", func() C.skn_status { return C.skn_format_info(C.skn_format(f), &p) }); err != nil {
		return FormatProps{}, err
	}
	return FormatProps{
		Name:               C.GoString(p.name),
		BlockElems:         int(p.block_elems),
		BlockBytes:         int(p.block_bytes),
		TensorTrailerBytes: int(p.tensor_trailer_bytes),
		BlockQuantized:     p.is_block_quantized != 0,
		ActivationFormat:   Format(p.activation_format),
		BitsPerWeight:      float64(p.bits_per_weight),
		NeedsImportance:    p.needs_importance != 0,
		BlockRows:          int(p.block_rows),
		Interleaves:        Format(p.interleaves),
	}, nil
}

// String is the GGUF name ("Q4_K"), or "Format(n)" for an unknown id.
func (f Format) String() string {
	if p, err := f.Info(); err == nil {
		return p.Name
	}
	return "Format(" + itoa(int64(f)) + ")"
}

// Formats lists every format skn implements, in increasing id order.
func Formats() []Format {
	n := int(C.skn_format_count())
	out := make([]Format, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, Format(C.skn_format_at(C.int32_t(i))))
	}
	return out
}

// FormatFromName looks a format up by name, case-insensitively ("q4_k").
func FormatFromName(name string) (Format, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.skn_format
	err := check("skn_format_from_name", func() C.skn_status { return C.skn_format_from_name(cname, &f) })
	return Format(f), err
}
