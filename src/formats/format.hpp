// SPDX-License-Identifier: MIT
// The format table: one row per weight format skn knows to the byte.
//
// Nothing in src/formats knows a kernel exists (dependencies point one way:
// formats <- layout <- kernels <- dispatch <- capi <- tools).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/facts.hpp"

namespace skn_core {

class RowRanges;

// Decode `nblocks` consecutive blocks at `src` into nblocks * block_elems floats
// (row-interleaved formats: nblocks * block_rows * block_elems, see
// InterleavedCodec::decode).
// `tensor_scale` is the per-tensor scale of formats that have one (I2_S), 1.0f
// for every other format (which ignore it).
using DecodeBlocksFn = void (*)(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst);

// Quantize one row of `n` floats (n a multiple of block_elems, all finite for
// block formats) into n / block_elems blocks at `dst`.
using QuantizeRowFn = void (*)(const float* src, int64_t n, uint8_t* dst);

// Quantize one row as the reference does when given importance weights:
// `importance` holds one non-negative float per element of the row (the
// imatrix column weights), never null. Only formats whose reference quantizer
// reads importance weights have one; the others ignore them.
using QuantizeRowWeightedFn = void (*)(const float* src, int64_t n, uint8_t* dst, const float* importance);

// Quantize a whole row-major tensor, trailer included; only formats whose
// encoding depends on the whole tensor (I2_S) have one. Work is spread over
// `ranges` (runtime/row_ranges.hpp); the bytes must not depend on how many
// ranges there are.
using QuantizeTensorFn = void (*)(const float* src, int64_t rows, int64_t n_per_row, uint8_t* dst,
                                  const RowRanges& ranges);

// Read the per-tensor scale from a whole tensor's trailer.
using ReadTensorScaleFn = float (*)(const uint8_t* trailer);

// A row-interleaved format's block holds R rows' canonical bytes for one
// input block: rows[k] points at row k's share (the canonical block, or for
// BF16_R16 the two canonical BF16 values), block_bytes bytes. The two are
// exact inverses for any bytes; they move bits and compute nothing.
using InterleaveFn = void (*)(const uint8_t* const* rows, uint8_t* block);
using DeinterleaveFn = void (*)(const uint8_t* block, uint8_t* const* rows);

struct InterleavedCodec {
    int32_t rows;  // R, as FormatFacts::block_rows
    InterleaveFn interleave;
    DeinterleaveFn deinterleave;
    // Decodes nblocks consecutive blocks, each into R rows of block_elems
    // floats ([R][block_elems], rows of one block consecutive), through the
    // canonical decoder. The format row's `decode` is this function.
    DecodeBlocksFn decode;
};

struct FormatTraits {
    FormatId id;
    const char* name;
    int32_t block_elems;
    int32_t block_bytes;
    int32_t tensor_trailer_bytes;  // bytes after the last block of a tensor (I2_S)
    bool block_quantized;          // false for F32 / F16 / BF16
    FormatId activation;           // what integer kernels quantize activations to
    DecodeBlocksFn decode;
    QuantizeRowFn quantize_row;         // null when quantize_tensor is set or importance is required
    QuantizeTensorFn quantize_tensor;   // null unless the encoding is per tensor
    ReadTensorScaleFn read_tensor_scale;  // null unless the format has a tensor trailer
    QuantizeRowWeightedFn quantize_row_weighted = nullptr;  // null when the reference ignores importance
    // Row-interleaved formats (facts.hpp): rows per block, the canonical
    // format, and the codec. Canonical formats: 1, themselves, null. An
    // interleaved format has no row quantizer: formats/tensor_codec
    // quantizes to the canonical format and interleaves.
    int32_t block_rows = 1;
    FormatId interleaves = FormatId::F32;
    const InterleavedCodec* interleaved_codec = nullptr;

    bool interleaved() const { return block_rows > 1; }
    // Bytes of one block of the layout grid: R rows' shares.
    size_t tile_bytes() const { return size_t(block_rows) * size_t(block_bytes); }

    // The reference refuses to quantize these without importance weights
    // (it aborts the process); skn refuses the call instead. A
    // row-interleaved format is quantized by its canonical format's
    // quantizer, so it asks that one (formats/table.cpp).
    bool requires_importance() const;

    double bits_per_weight() const { return double(block_bytes) * 8.0 / double(block_elems); }
};

// Every format, in increasing id order.
std::span<const FormatTraits> all_formats();

// The row for `id`, or nullptr for an id skn does not implement.
const FormatTraits* find_format(int32_t id);
inline const FormatTraits* find_format(FormatId id) { return find_format(static_cast<int32_t>(id)); }

// Case-insensitive lookup by GGUF name; nullptr when unknown.
const FormatTraits* find_format_by_name(const char* name);

}  // namespace skn_core
