// SPDX-License-Identifier: MIT
// The constant facts about every format, in one place that every layer may
// include, ISA translation units too: the id (the GGUF type id), the name,
// block elements and bytes, the activation format its integer kernels pair
// with, and the value tables of the non-linear formats (IQ4_NL's levels, the
// E2M1 grid of MXFP4 and NVFP4). The format table (formats/table.cpp) takes
// its rows' facts from here; kernels read them here instead of restating them.
//
// Everything here has internal linkage (namespace-scope constexpr variables,
// static constexpr functions): an ISA object that reads a fact defines no
// weak symbol the linker could pick for code that runs on every CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

#include "skn/skn.h"

namespace skn_core {

// Values are GGUF tensor type ids (below 1000) or skn-only ids (1000 and up)
// and never change (same numbers as skn_format).
enum class FormatId : int32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    Q8_K = 15,
    IQ2_XXS = 16,
    IQ2_XS = 17,
    IQ3_XXS = 18,
    IQ1_S = 19,
    IQ4_NL = 20,
    IQ3_S = 21,
    IQ2_S = 22,
    IQ4_XS = 23,
    IQ1_M = 29,
    BF16 = 30,
    TQ1_0 = 34,
    TQ2_0 = 35,
    I2_S = 36,
    MXFP4 = 39,
    NVFP4 = 40,
    Q1_0 = 41,
    Q2_0 = 42,
    // skn-only ids (1000 and up) are never GGUF type ids: a GGUF file stores
    // these formats under a GGUF type plus metadata (docs/gguf.md).
    // Row-interleaved re-encodings of the formats above (ik_llama.cpp's
    // GGUF type ids): a block covers block_rows output rows.
    Q4_0_R8 = 202,
    Q5_0_R4 = 206,
    Q8_0_R8 = 208,
    Q2_K_R4 = 210,
    Q3_K_R4 = 211,
    Q4_K_R4 = 212,
    Q5_K_R4 = 213,
    Q6_K_R4 = 214,
    IQ2_XXS_R4 = 216,
    IQ2_XS_R4 = 217,
    IQ3_XXS_R4 = 218,
    IQ4_NL_R4 = 220,
    IQ3_S_R4 = 221,
    IQ2_S_R4 = 222,
    IQ4_XS_R8 = 223,
    BF16_R16 = 230,
    MXFP4_R8 = 353,
    I2_S_G64 = 1036,
};

// Whether `id` is also the GGUF type id of the format (false for skn-only ids).
static constexpr bool is_gguf_type_id(int32_t id) { return id < 1000; }

struct FormatFacts {
    FormatId id;
    const char* name;
    int32_t block_elems;
    int32_t block_bytes;
    int32_t tensor_trailer_bytes;  // bytes after the last block of a tensor (I2_S)
    bool block_quantized;          // false for F32 / F16 / BF16
    FormatId activation;           // what integer kernels quantize activations to
    // Row-interleaved formats: a block spans block_rows output rows and
    // holds those rows' blocks of `interleaves` (the canonical format),
    // re-encoded losslessly. block_bytes stays one row's share (ggml's type
    // size: block_elems elements of one row), so every size computed from
    // element counts is the canonical one; a whole block, the unit of a
    // layout's grid, is block_rows * block_bytes bytes (tile_bytes).
    int32_t block_rows = 1;
    FormatId interleaves = FormatId::F32;  // meaningful when block_rows > 1
};

// One row per format, sorted by id. The activation column is the pairing the
// GGUF ecosystem uses, so a kernel and its activation quantizer agree on
// block size and scale layout.
constexpr FormatFacts kFormatFacts[] = {
    {FormatId::F32, "F32", 1, 4, 0, false, FormatId::F32},
    {FormatId::F16, "F16", 1, 2, 0, false, FormatId::F16},
    {FormatId::Q4_0, "Q4_0", 32, 18, 0, true, FormatId::Q8_0},
    {FormatId::Q4_1, "Q4_1", 32, 20, 0, true, FormatId::Q8_1},
    {FormatId::Q5_0, "Q5_0", 32, 22, 0, true, FormatId::Q8_0},
    {FormatId::Q5_1, "Q5_1", 32, 24, 0, true, FormatId::Q8_1},
    {FormatId::Q8_0, "Q8_0", 32, 34, 0, true, FormatId::Q8_0},
    {FormatId::Q8_1, "Q8_1", 32, 36, 0, true, FormatId::Q8_1},
    {FormatId::Q2_K, "Q2_K", 256, 84, 0, true, FormatId::Q8_K},
    {FormatId::Q3_K, "Q3_K", 256, 110, 0, true, FormatId::Q8_K},
    {FormatId::Q4_K, "Q4_K", 256, 144, 0, true, FormatId::Q8_K},
    {FormatId::Q5_K, "Q5_K", 256, 176, 0, true, FormatId::Q8_K},
    {FormatId::Q6_K, "Q6_K", 256, 210, 0, true, FormatId::Q8_K},
    {FormatId::Q8_K, "Q8_K", 256, 292, 0, true, FormatId::Q8_K},
    // The grid formats: eight weights per lattice index (formats/grid_points.hpp).
    {FormatId::IQ2_XXS, "IQ2_XXS", 256, 66, 0, true, FormatId::Q8_K},
    {FormatId::IQ2_XS, "IQ2_XS", 256, 74, 0, true, FormatId::Q8_K},
    {FormatId::IQ3_XXS, "IQ3_XXS", 256, 98, 0, true, FormatId::Q8_K},
    {FormatId::IQ1_S, "IQ1_S", 256, 50, 0, true, FormatId::Q8_K},
    {FormatId::IQ4_NL, "IQ4_NL", 32, 18, 0, true, FormatId::Q8_0},
    {FormatId::IQ3_S, "IQ3_S", 256, 110, 0, true, FormatId::Q8_K},
    {FormatId::IQ2_S, "IQ2_S", 256, 82, 0, true, FormatId::Q8_K},
    {FormatId::IQ4_XS, "IQ4_XS", 256, 136, 0, true, FormatId::Q8_K},
    {FormatId::IQ1_M, "IQ1_M", 256, 56, 0, true, FormatId::Q8_K},
    {FormatId::BF16, "BF16", 1, 2, 0, false, FormatId::BF16},
    {FormatId::TQ1_0, "TQ1_0", 256, 54, 0, true, FormatId::Q8_K},
    {FormatId::TQ2_0, "TQ2_0", 256, 66, 0, true, FormatId::Q8_K},
    // I2_S: 128 2-bit codes in 32 bytes; one float32 scale per tensor follows
    // the codes, padded to 32 bytes as bitnet.cpp writes it.
    {FormatId::I2_S, "I2_S", 128, 32, 32, true, FormatId::Q8_0},
    {FormatId::MXFP4, "MXFP4", 32, 17, 0, true, FormatId::Q8_0},
    {FormatId::NVFP4, "NVFP4", 64, 36, 0, true, FormatId::Q8_0},
    {FormatId::Q1_0, "Q1_0", 128, 18, 0, true, FormatId::Q8_0},
    {FormatId::Q2_0, "Q2_0", 64, 18, 0, true, FormatId::Q8_0},
    // I2_S_G64: I2_S in bitnet.cpp's arm64 layout, 64 codes in 16 bytes; the
    // same per-tensor trailer. Stored in GGUF as type 36 (I2_S) plus a key.
    // Row-interleaved (ik_llama.cpp's _R4 / _R8 / _R16 types). BF16_R16 is
    // dense BF16 in blocks of 16 rows x 2 inputs: blocked (it has the two
    // block orders) though not quantized.
    {FormatId::Q4_0_R8, "Q4_0_R8", 32, 18, 0, true, FormatId::Q8_0, 8, FormatId::Q4_0},
    {FormatId::Q5_0_R4, "Q5_0_R4", 32, 22, 0, true, FormatId::Q8_0, 4, FormatId::Q5_0},
    {FormatId::Q8_0_R8, "Q8_0_R8", 32, 34, 0, true, FormatId::Q8_0, 8, FormatId::Q8_0},
    {FormatId::Q2_K_R4, "Q2_K_R4", 256, 84, 0, true, FormatId::Q8_K, 4, FormatId::Q2_K},
    {FormatId::Q3_K_R4, "Q3_K_R4", 256, 110, 0, true, FormatId::Q8_K, 4, FormatId::Q3_K},
    {FormatId::Q4_K_R4, "Q4_K_R4", 256, 144, 0, true, FormatId::Q8_K, 4, FormatId::Q4_K},
    {FormatId::Q5_K_R4, "Q5_K_R4", 256, 176, 0, true, FormatId::Q8_K, 4, FormatId::Q5_K},
    {FormatId::Q6_K_R4, "Q6_K_R4", 256, 210, 0, true, FormatId::Q8_K, 4, FormatId::Q6_K},
    {FormatId::IQ2_XXS_R4, "IQ2_XXS_R4", 256, 66, 0, true, FormatId::Q8_K, 4, FormatId::IQ2_XXS},
    {FormatId::IQ2_XS_R4, "IQ2_XS_R4", 256, 74, 0, true, FormatId::Q8_K, 4, FormatId::IQ2_XS},
    {FormatId::IQ3_XXS_R4, "IQ3_XXS_R4", 256, 98, 0, true, FormatId::Q8_K, 4, FormatId::IQ3_XXS},
    {FormatId::IQ4_NL_R4, "IQ4_NL_R4", 32, 18, 0, true, FormatId::Q8_0, 4, FormatId::IQ4_NL},
    {FormatId::IQ3_S_R4, "IQ3_S_R4", 256, 110, 0, true, FormatId::Q8_K, 4, FormatId::IQ3_S},
    {FormatId::IQ2_S_R4, "IQ2_S_R4", 256, 82, 0, true, FormatId::Q8_K, 4, FormatId::IQ2_S},
    {FormatId::IQ4_XS_R8, "IQ4_XS_R8", 256, 136, 0, true, FormatId::Q8_K, 8, FormatId::IQ4_XS},
    {FormatId::BF16_R16, "BF16_R16", 2, 4, 0, true, FormatId::BF16, 16, FormatId::BF16},
    {FormatId::MXFP4_R8, "MXFP4_R8", 32, 17, 0, true, FormatId::Q8_0, 8, FormatId::MXFP4},
    {FormatId::I2_S_G64, "I2_S_G64", 64, 16, 32, true, FormatId::Q8_0},
};

// The canonical format `id` re-encodes (itself unless row-interleaved).
static constexpr FormatId canonical_format(FormatId id) {
    for (const FormatFacts& f : kFormatFacts)
        if (f.id == id) return f.block_rows > 1 ? f.interleaves : id;
    return id;
}

// The facts of `id` (which must be a FormatId enumerator).
static constexpr const FormatFacts& facts_of(FormatId id) {
    for (const FormatFacts& f : kFormatFacts)
        if (f.id == id) return f;
    return kFormatFacts[0];  // unreachable for an enumerator; static_asserts below check every one has a row
}

// The 16 IQ4_NL (and IQ4_XS) levels, ascending, skewed so that -127 (the most
// negative) is the anchor the scale search aims the block's largest element at.
constexpr int8_t kIq4nlValues[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

// E2M1 values times two (MXFP4 and NVFP4 elements), indexed by the 4-bit code:
// bit 3 is the sign, bits 0..2 the magnitude {0, 0.5, 1, 1.5, 2, 3, 4, 6}.
// Code 8 is "-0" and decodes to 0. Doubled so every value is an integer.
constexpr int8_t kE2M1Doubled[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

namespace facts_detail {
constexpr bool rows_sorted_and_unique() {
    for (size_t i = 1; i < std::size(kFormatFacts); ++i)
        if (static_cast<int32_t>(kFormatFacts[i - 1].id) >= static_cast<int32_t>(kFormatFacts[i].id)) return false;
    return true;
}
constexpr bool has_row(FormatId id) {
    for (const FormatFacts& f : kFormatFacts)
        if (f.id == id) return true;
    return false;
}
}  // namespace facts_detail
static_assert(facts_detail::rows_sorted_and_unique(), "kFormatFacts rows must be sorted by GGUF id");

// The internal ids are the public ones, and each has a row.
#define SKN_SAME_FORMAT(X)                                                                          \
    static_assert(static_cast<int32_t>(FormatId::X) == static_cast<int32_t>(SKN_FORMAT_##X),       \
                  "FormatId::" #X " differs from SKN_FORMAT_" #X);                                 \
    static_assert(facts_detail::has_row(FormatId::X), "FormatId::" #X " has no row in kFormatFacts");
SKN_SAME_FORMAT(F32)
SKN_SAME_FORMAT(F16)
SKN_SAME_FORMAT(Q4_0)
SKN_SAME_FORMAT(Q4_1)
SKN_SAME_FORMAT(Q5_0)
SKN_SAME_FORMAT(Q5_1)
SKN_SAME_FORMAT(Q8_0)
SKN_SAME_FORMAT(Q8_1)
SKN_SAME_FORMAT(Q2_K)
SKN_SAME_FORMAT(Q3_K)
SKN_SAME_FORMAT(Q4_K)
SKN_SAME_FORMAT(Q5_K)
SKN_SAME_FORMAT(Q6_K)
SKN_SAME_FORMAT(Q8_K)
SKN_SAME_FORMAT(IQ2_XXS)
SKN_SAME_FORMAT(IQ2_XS)
SKN_SAME_FORMAT(IQ3_XXS)
SKN_SAME_FORMAT(IQ1_S)
SKN_SAME_FORMAT(IQ4_NL)
SKN_SAME_FORMAT(IQ3_S)
SKN_SAME_FORMAT(IQ2_S)
SKN_SAME_FORMAT(IQ4_XS)
SKN_SAME_FORMAT(IQ1_M)
SKN_SAME_FORMAT(BF16)
SKN_SAME_FORMAT(TQ1_0)
SKN_SAME_FORMAT(TQ2_0)
SKN_SAME_FORMAT(I2_S)
SKN_SAME_FORMAT(MXFP4)
SKN_SAME_FORMAT(NVFP4)
SKN_SAME_FORMAT(Q1_0)
SKN_SAME_FORMAT(Q2_0)
SKN_SAME_FORMAT(Q4_0_R8)
SKN_SAME_FORMAT(Q5_0_R4)
SKN_SAME_FORMAT(Q8_0_R8)
SKN_SAME_FORMAT(Q2_K_R4)
SKN_SAME_FORMAT(Q3_K_R4)
SKN_SAME_FORMAT(Q4_K_R4)
SKN_SAME_FORMAT(Q5_K_R4)
SKN_SAME_FORMAT(Q6_K_R4)
SKN_SAME_FORMAT(IQ2_XXS_R4)
SKN_SAME_FORMAT(IQ2_XS_R4)
SKN_SAME_FORMAT(IQ3_XXS_R4)
SKN_SAME_FORMAT(IQ4_NL_R4)
SKN_SAME_FORMAT(IQ3_S_R4)
SKN_SAME_FORMAT(IQ2_S_R4)
SKN_SAME_FORMAT(IQ4_XS_R8)
SKN_SAME_FORMAT(BF16_R16)
SKN_SAME_FORMAT(MXFP4_R8)
SKN_SAME_FORMAT(I2_S_G64)
#undef SKN_SAME_FORMAT

}  // namespace skn_core
