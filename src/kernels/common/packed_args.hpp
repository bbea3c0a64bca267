// SPDX-License-Identifier: MIT
// What a matmul_wt kernel of an architecture provider reads, as one plain
// struct for every family of every architecture. The tier sources (built with
// ISA flags) see only this, never View or MatmulArgs, so no inline function
// of the library is compiled with a tier's flags; packed_args (built without
// them, kernels/common/packed_args.cpp) fills it from MatmulArgs.
//
// The weight is a grid of blocks addressed through byte strides, so one
// kernel reads both block orders (and narrowed or selected views, where its
// registration allows them): block (o, b) is at w + o * so + b * sb. o counts
// the grid's rows: output rows, or groups of R output rows for a format whose
// block covers R rows. A dense weight (F32, F16, BF16) is a grid of
// one-element blocks: so is its row stride in bytes and bpr == in.
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/facts.hpp"

namespace skn_core {
struct MatmulArgs;
}

namespace skn_core::kernels {

// The format's scalar decoder (formats/format.hpp's DecodeBlocksFn, which ISA
// code may not include): nblocks consecutive blocks into nblocks * block_elems floats.
using ScalarDecodeFn = void (*)(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);

// A row-interleaved format's codec step (formats/format.hpp's DeinterleaveFn):
// one block of R rows into the R canonical blocks it holds, rows[k] for row k.
using DeinterleaveRowsFn = void (*)(const uint8_t* block, uint8_t* const* rows);

struct PackedArgs {
    // What every packed kernel reads, first: the hot kernels' fields keep
    // the offsets they had in the per-architecture structs this one
    // replaced, and with them the code compiled for those kernels.
    const uint8_t* w = nullptr;       // block (0, 0) of the weight
    int64_t so = 0, sb = 0;           // bytes between blocks (o, b) and (o + 1, b) / (o, b + 1)
    int64_t bpr = 0;                  // weight blocks per row
    int64_t n = 0;                    // activation rows
    const uint8_t* xq = nullptr;      // quantized activation rows (fast precision), xq_stride bytes apart
    size_t xq_stride = 0;
    const float* bias = nullptr;      // [out] or null
    float* y = nullptr;               // y[i, o] at y + i * y_stride + o
    int64_t y_stride = 0;
    float tensor_scale = 1.0f;        // per-tensor scale (I2_S), 1 otherwise
    // A streaming choice fixed by the registered variant (x86 q32: Q8_0's
    // "ahead" variant sets it; the tuning table, dispatch/tuning.hpp, picks
    // the variant per core): whether the few-row ROW_MAJOR walk prefetches
    // the next row tile in software. Never changes a result.
    bool row_tile_ahead = true;
    // Dense and exact kernels read these too.
    int64_t out = 0, in = 0;          // the whole weight's output rows (a call covers some) and inputs
    const float* xf = nullptr;        // float activation rows (exact precision), xf_stride floats apart
    int64_t xf_stride = 0;
    FormatId format = FormatId::F32;  // the weight's (one function may serve several: exact)
    int64_t block_elems = 0, block_bytes = 0;
    ScalarDecodeFn scalar_decode = nullptr;  // for a kernel with no decoder of its own for the format
    // A row-interleaved format (block_rows > 1): its codec's deinterleave,
    // for a kernel that reads the canonical blocks (the exact drivers).
    int64_t block_rows = 1;
    DeinterleaveRowsFn deinterleave = nullptr;
};

// A kernel over output rows out_begin .. out_end - 1 (MatmulKernelFn's
// contract: the same bits for any split of the rows).
using PackedKernelFn = void (*)(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// Built without ISA flags (kernels/common/packed_args.cpp).
PackedArgs packed_args(const MatmulArgs& m);

// Activation row i as bytes: the float row (xf) for a kernel whose
// activations are F32, else the row the activation quantizer wrote (xq).
// Always inlined: no weak symbol in an ISA object.
template <bool kFloat>
[[gnu::always_inline]] inline const uint8_t* activation_row(const PackedArgs& a, int64_t i) {
    if constexpr (kFloat)
        return reinterpret_cast<const uint8_t*>(a.xf + i * a.xf_stride);
    else
        return a.xq + size_t(i) * a.xq_stride;
}

}  // namespace skn_core::kernels
