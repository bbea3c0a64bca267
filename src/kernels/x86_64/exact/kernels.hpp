// SPDX-License-Identifier: MIT
// Exact-precision matmul_wt kernels (float32 activations) for every block
// format, one shared driver per x86 tier over vectorized block decoders.
// The kernels live in exact/<isa>.cpp (built with that ISA's flags) and see
// only the plain PackedArgs (kernels/common/packed_args.hpp: the weight, its
// format, the float activation rows xf); exact/register.cpp (built without
// ISA flags) fills it from MatmulArgs. See docs/kernels/exact.md.
//
// Accumulation order (docs/kernels/exact.md), identical for both block
// orders and any split of the output rows; w[k] is the decoded weight,
// bit-identical to the format's scalar decoder. For each (i, o):
//   n < 4 (input elements in the lanes): vector p of L decoded weights
//     (inputs pL .. pL + L - 1, L = 8 avx2 / 16 avx512) goes into
//     accumulator p % 4 with one fma per lane, in increasing p; then
//     (a0 + a1) + (a2 + a3), whose lanes are summed in a halving tree.
//   n >= 4 (output rows in the lanes): acc = 0; acc = fma(w[k], x[i, k], acc)
//     for k = 0, 1, ..., in - 1: the plain serial order, the same at both tiers.
// Then y = sum (+ bias[o]).
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/facts.hpp"
#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::x86_64 {


// From this many activation rows on, the batched path (output rows in the
// lanes) runs; below it the small-n path (input elements in the lanes).
constexpr int kExactBatchedMinN = 4;

// Decodes `nblocks` blocks, `block_stride` bytes apart, into consecutive floats.
using ExactDecodeFn = void (*)(const uint8_t* src, int64_t block_stride, int64_t nblocks, float tensor_scale,
                               float* dst);

// Whether the driver serves `f`: every block format, and every
// row-interleaved twin of one (exact/driver.inc takes a row's canonical
// block out of the twin's tile); not the dense formats or BF16_R16.
constexpr bool exact_driver_serves(FormatId f) {
    const FormatFacts& facts = facts_of(f);
    return facts.block_quantized && facts_of(canonical_format(f)).block_quantized;
}

// One kernel per tier for every format exact_driver_serves (each block
// format has a decoder in exact/decode.inc); any other
// format is a programming error reported through exact_unknown_format, never
// a silent no-write of y.
void exact_matmul_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void exact_matmul_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// The tier's block decoder for a format, or null when it has none.
ExactDecodeFn exact_decoder_avx2(FormatId format);
ExactDecodeFn exact_decoder_avx512(FormatId format);

// Throws SKN_E_INTERNAL naming the format: an exact kernel was asked for a
// format it has no decoder for (defined in exact/register.cpp, built without
// ISA flags).
[[noreturn]] void exact_unknown_format(FormatId format);

}  // namespace skn_core::kernels::x86_64
