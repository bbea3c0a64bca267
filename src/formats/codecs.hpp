// SPDX-License-Identifier: MIT
// Per-format decoders and quantizers, one family per source file:
//   dense.cpp      F32 F16 BF16
//   legacy.cpp     Q8_0 (legacy_rest.cpp: Q4_0 Q4_1 Q5_0 Q5_1 Q8_1)
//   legacy_weighted.cpp   Q4_0 Q4_1 Q5_0 Q5_1 with importance weights
//   k_quants.cpp   Q2_K Q3_K Q4_K Q5_K Q6_K Q8_K (Q6_K also with importance)
//   k_quants_weighted.cpp Q2_K Q3_K Q4_K Q5_K with importance weights
//   nonlinear.cpp  IQ4_NL IQ4_XS MXFP4 NVFP4
//   ternary.cpp    TQ1_0 TQ2_0
//   i2_s.cpp       I2_S (BitNet b1.58, x86 layout), I2_S_G64 (its arm64 layout)
//   low_bit.cpp    Q1_0 Q2_0
//   grid_iq3.cpp   IQ3_XXS IQ3_S (tables: grid_iq3_tables.cpp, search: grid_iq3_search.cpp)
//   grid_iq2.cpp   IQ2_XXS IQ2_XS IQ2_S  (lattices: grid_points.hpp, grid_search.cpp)
//   grid_iq1.cpp   IQ1_S IQ1_M
// Signatures are those of format.hpp's DecodeBlocksFn / QuantizeRowFn.
#pragma once

#include <cstdint>

namespace skn_core {
class RowRanges;
}

namespace skn_core::codec {

#define SKN_DECLARE_ROW_CODEC(fmt)                                                          \
    void decode_##fmt(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst); \
    void quantize_row_##fmt(const float* src, int64_t n, uint8_t* dst);

SKN_DECLARE_ROW_CODEC(f32)
SKN_DECLARE_ROW_CODEC(f16)
SKN_DECLARE_ROW_CODEC(bf16)
SKN_DECLARE_ROW_CODEC(q4_0)
SKN_DECLARE_ROW_CODEC(q4_1)
SKN_DECLARE_ROW_CODEC(q5_0)
SKN_DECLARE_ROW_CODEC(q5_1)
SKN_DECLARE_ROW_CODEC(q8_0)
SKN_DECLARE_ROW_CODEC(q8_1)
SKN_DECLARE_ROW_CODEC(q2_k)
SKN_DECLARE_ROW_CODEC(q3_k)
SKN_DECLARE_ROW_CODEC(q4_k)
SKN_DECLARE_ROW_CODEC(q5_k)
SKN_DECLARE_ROW_CODEC(q6_k)
SKN_DECLARE_ROW_CODEC(q8_k)
SKN_DECLARE_ROW_CODEC(iq4_nl)
SKN_DECLARE_ROW_CODEC(iq4_xs)
SKN_DECLARE_ROW_CODEC(mxfp4)
SKN_DECLARE_ROW_CODEC(nvfp4)
SKN_DECLARE_ROW_CODEC(tq1_0)
SKN_DECLARE_ROW_CODEC(tq2_0)
SKN_DECLARE_ROW_CODEC(q1_0)
SKN_DECLARE_ROW_CODEC(q2_0)
SKN_DECLARE_ROW_CODEC(iq3_xxs)
SKN_DECLARE_ROW_CODEC(iq3_s)
SKN_DECLARE_ROW_CODEC(iq2_s)
SKN_DECLARE_ROW_CODEC(iq1_m)

#undef SKN_DECLARE_ROW_CODEC

// The importance-weighted row quantizer of a format whose reference reads
// importance weights (format.hpp's QuantizeRowWeightedFn). A format that
// cannot quantize without them declares only its decoder and this.
#define SKN_DECLARE_WEIGHTED_QUANTIZER(fmt) \
    void quantize_row_weighted_##fmt(const float* src, int64_t n, uint8_t* dst, const float* importance);

SKN_DECLARE_WEIGHTED_QUANTIZER(q4_0)
SKN_DECLARE_WEIGHTED_QUANTIZER(q4_1)
SKN_DECLARE_WEIGHTED_QUANTIZER(q5_0)
SKN_DECLARE_WEIGHTED_QUANTIZER(q5_1)
SKN_DECLARE_WEIGHTED_QUANTIZER(q2_k)
SKN_DECLARE_WEIGHTED_QUANTIZER(q3_k)
SKN_DECLARE_WEIGHTED_QUANTIZER(q4_k)
SKN_DECLARE_WEIGHTED_QUANTIZER(q5_k)
SKN_DECLARE_WEIGHTED_QUANTIZER(q6_k)
SKN_DECLARE_WEIGHTED_QUANTIZER(iq4_nl)
SKN_DECLARE_WEIGHTED_QUANTIZER(iq4_xs)
// IQ3_XXS and IQ3_S: the reference reads importance weights when given and
// quantizes without them too (their plain codecs are in the list above).
SKN_DECLARE_WEIGHTED_QUANTIZER(iq3_xxs)
SKN_DECLARE_WEIGHTED_QUANTIZER(iq3_s)
// The grid formats. IQ2_XXS, IQ2_XS and IQ1_S cannot be quantized without
// importance weights (the reference aborts); IQ2_S and IQ1_M can (their row
// codecs are declared above).
void decode_iq2_xxs(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);
SKN_DECLARE_WEIGHTED_QUANTIZER(iq2_xxs)
void decode_iq2_xs(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);
SKN_DECLARE_WEIGHTED_QUANTIZER(iq2_xs)
void decode_iq1_s(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);
SKN_DECLARE_WEIGHTED_QUANTIZER(iq1_s)
SKN_DECLARE_WEIGHTED_QUANTIZER(iq2_s)
SKN_DECLARE_WEIGHTED_QUANTIZER(iq1_m)

// I2_S: the scale is per tensor, so quantization sees the whole tensor.
void decode_i2_s(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);
void quantize_tensor_i2_s(const float* src, int64_t rows, int64_t n_per_row, uint8_t* dst, const RowRanges& ranges);
float read_tensor_scale_i2_s(const uint8_t* trailer);
// I2_S_G64: the same codes and trailer in bitnet.cpp's arm64 block layout
// (read_tensor_scale_i2_s reads its trailer too).
void decode_i2_s_g64(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);
void quantize_tensor_i2_s_g64(const float* src, int64_t rows, int64_t n_per_row, uint8_t* dst,
                              const RowRanges& ranges);
// A whole tensor of `elements` (a multiple of 128) moved between the two
// layouts, trailer copied: elements / 4 + 32 bytes each way. Exact inverses.
void i2_s_to_g64(const uint8_t* src, int64_t elements, uint8_t* dst);
void i2_s_g64_to_i2_s(const uint8_t* src, int64_t elements, uint8_t* dst);

}  // namespace skn_core::codec
