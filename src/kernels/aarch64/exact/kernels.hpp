// SPDX-License-Identifier: MIT
// Exact-precision matmul_wt kernels (float32 activations) for every block
// format on aarch64: one driver (exact/neon.cpp) serving every format and
// both block orders through byte strides, over NEON block decoders for the
// common formats (exact/decode.inc) and the format's own scalar decoder for
// the rest, handed in as PackedArgs::scalar_decode by packed_args (built
// without ISA flags). Either way a decoded weight is bit-identical to the
// scalar decoder's. See docs/kernels/exact.md ("arm64").
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
#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

// Which formats the driver serves: every block format with a scalar decoder
// whose block holds a multiple of 16 elements (the accumulation order below
// ends each block on A3) and divides the 1024-element decode chunk, and
// every row-interleaved twin of one (the driver decodes the twin's tile and
// takes its row, the canonical decoder's floats; BF16_R16's two-element
// share is not served). exact/register.cpp registers each at the neon tier.
constexpr bool exact_driver_serves(bool block_quantized, bool has_decoder, int64_t block_elems) {
    return block_quantized && has_decoder && block_elems % 16 == 0 && 1024 % block_elems == 0;
}

// Decodes `nblocks` blocks, `block_stride` bytes apart, into consecutive floats.
using ExactDecodeFn = void (*)(const uint8_t* src, int64_t block_stride, int64_t nblocks, float tensor_scale,
                               float* dst);

// Armv8.0 NEON: FMLA over decoded weights.
void exact_matmul_neon(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// The tier's vectorized block decoder for a format, or null when it has none
// (the driver then calls PackedArgs::scalar_decode).
ExactDecodeFn exact_decoder_neon(FormatId format);

}  // namespace skn_core::kernels::aarch64
