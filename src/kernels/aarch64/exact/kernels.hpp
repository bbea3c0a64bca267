// SPDX-License-Identifier: MIT
// Exact-precision matmul_wt kernels (float32 activations) for every block
// format on aarch64: one driver (exact/neon.cpp) serving every format and
// both block orders through byte strides, over NEON block decoders for the
// common formats (exact/decode.inc) and the format's own scalar decoder for
// the rest, handed in through ExactArgs by exact/register.cpp (built without
// ISA flags). Either way a decoded weight is bit-identical to the scalar
// decoder's. See docs/kernels/exact.md ("arm64").
//
// Accumulation order, identical for both block orders, any split of the
// output rows and any n; w[k] is the decoded weight. For each (i, o): four
// 4-lane accumulators A0..A3 = 0; for k = 0, 1, ..., in - 1 in order,
// lane k % 4 of A[(k / 4) % 4] = fma(w[k], x[i, k], that lane) (every block
// holds a multiple of 16 elements, so each row ends on A3); then
// s = (A0 + A1) + (A2 + A3) lane-wise, v = (s0 + s1) + (s2 + s3),
// y = v (+ bias[o]).
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/facts.hpp"

namespace skn_core::kernels::aarch64 {

// The formats' scalar decoder (formats/format.hpp's DecodeBlocksFn): nblocks
// consecutive blocks at src into nblocks * block_elems floats.
using ScalarDecodeFn = void (*)(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);

struct ExactArgs {
    FormatId format = FormatId::F32;      // the weight's format
    ScalarDecodeFn scalar_decode = nullptr;  // its scalar decoder (formats that have no NEON decoder)
    int64_t block_elems = 0, block_bytes = 0;
    const uint8_t* w = nullptr;  // block (0, 0) of the weight (view data + layout offset)
    int64_t so = 0, sb = 0;      // byte strides: output row, input block
    int64_t bpr = 0;             // blocks per row
    float tensor_scale = 1.0f;   // I2_S's per-tensor scale (1 for other formats)
    int64_t n = 0;               // activation rows
    const float* xf = nullptr;   // float activation rows
    int64_t xf_stride = 0;       // floats
    const float* bias = nullptr;
    float* y = nullptr;
    int64_t y_stride = 0;
};

// Every block format (exact/register.cpp registers each at the neon tier).
constexpr FormatId kExactFormats[] = {
    FormatId::Q4_0,  FormatId::Q4_1,  FormatId::Q5_0,   FormatId::Q5_1,   FormatId::Q8_0,  FormatId::Q8_1,
    FormatId::Q2_K,  FormatId::Q3_K,  FormatId::Q4_K,   FormatId::Q5_K,   FormatId::Q6_K,  FormatId::Q8_K,
    FormatId::IQ4_NL, FormatId::IQ4_XS, FormatId::TQ1_0, FormatId::TQ2_0, FormatId::I2_S, FormatId::MXFP4,
    FormatId::NVFP4, FormatId::Q1_0,  FormatId::Q2_0,   FormatId::IQ2_XXS, FormatId::IQ2_XS, FormatId::IQ2_S,
    FormatId::IQ3_XXS, FormatId::IQ3_S, FormatId::IQ1_S, FormatId::IQ1_M, FormatId::I2_S_G64};

// Decodes `nblocks` blocks, `block_stride` bytes apart, into consecutive floats.
using ExactDecodeFn = void (*)(const uint8_t* src, int64_t block_stride, int64_t nblocks, float tensor_scale,
                               float* dst);

// Armv8.0 NEON: FMLA over decoded weights.
void exact_matmul_neon(const ExactArgs& a, int64_t out_begin, int64_t out_end);

// The tier's vectorized block decoder for a format, or null when it has none
// (the driver then calls ExactArgs::scalar_decode).
ExactDecodeFn exact_decoder_neon(FormatId format);

}  // namespace skn_core::kernels::aarch64
