// SPDX-License-Identifier: MIT
// The format table: ids are GGUF type ids, sizes are the GGUF block sizes.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "formats/format.hpp"

namespace skn_core {
namespace {

struct Expected {
    FormatId id;
    int32_t gguf_id;
    const char* name;
    int32_t elems;
    int32_t bytes;  // a row-interleaved format: one row's share (ggml's type size)
    FormatId activation;
    int32_t rows = 1;                       // block_rows
    FormatId interleaves = FormatId::F32;   // the canonical twin, when rows > 1
};

// Values from the GGUF type list and block structs, restated here so a change
// to the table cannot silently redefine a format.
const Expected kExpected[] = {
    {FormatId::F32, 0, "F32", 1, 4, FormatId::F32},       {FormatId::F16, 1, "F16", 1, 2, FormatId::F16},
    {FormatId::Q4_0, 2, "Q4_0", 32, 18, FormatId::Q8_0},  {FormatId::Q4_1, 3, "Q4_1", 32, 20, FormatId::Q8_1},
    {FormatId::Q5_0, 6, "Q5_0", 32, 22, FormatId::Q8_0},  {FormatId::Q5_1, 7, "Q5_1", 32, 24, FormatId::Q8_1},
    {FormatId::Q8_0, 8, "Q8_0", 32, 34, FormatId::Q8_0},  {FormatId::Q8_1, 9, "Q8_1", 32, 36, FormatId::Q8_1},
    {FormatId::Q2_K, 10, "Q2_K", 256, 84, FormatId::Q8_K}, {FormatId::Q3_K, 11, "Q3_K", 256, 110, FormatId::Q8_K},
    {FormatId::Q4_K, 12, "Q4_K", 256, 144, FormatId::Q8_K}, {FormatId::Q5_K, 13, "Q5_K", 256, 176, FormatId::Q8_K},
    {FormatId::Q6_K, 14, "Q6_K", 256, 210, FormatId::Q8_K}, {FormatId::Q8_K, 15, "Q8_K", 256, 292, FormatId::Q8_K},
    {FormatId::IQ2_XXS, 16, "IQ2_XXS", 256, 66, FormatId::Q8_K}, {FormatId::IQ2_XS, 17, "IQ2_XS", 256, 74, FormatId::Q8_K},
    {FormatId::IQ1_S, 19, "IQ1_S", 256, 50, FormatId::Q8_K}, {FormatId::IQ2_S, 22, "IQ2_S", 256, 82, FormatId::Q8_K},
    {FormatId::IQ1_M, 29, "IQ1_M", 256, 56, FormatId::Q8_K},
    {FormatId::IQ4_NL, 20, "IQ4_NL", 32, 18, FormatId::Q8_0}, {FormatId::IQ4_XS, 23, "IQ4_XS", 256, 136, FormatId::Q8_K},
    {FormatId::BF16, 30, "BF16", 1, 2, FormatId::BF16},   {FormatId::TQ1_0, 34, "TQ1_0", 256, 54, FormatId::Q8_K},
    {FormatId::TQ2_0, 35, "TQ2_0", 256, 66, FormatId::Q8_K}, {FormatId::I2_S, 36, "I2_S", 128, 32, FormatId::Q8_0},
    {FormatId::MXFP4, 39, "MXFP4", 32, 17, FormatId::Q8_0}, {FormatId::NVFP4, 40, "NVFP4", 64, 36, FormatId::Q8_0},
    {FormatId::Q1_0, 41, "Q1_0", 128, 18, FormatId::Q8_0}, {FormatId::Q2_0, 42, "Q2_0", 64, 18, FormatId::Q8_0},
    {FormatId::IQ3_XXS, 18, "IQ3_XXS", 256, 98, FormatId::Q8_K},
    {FormatId::IQ3_S, 21, "IQ3_S", 256, 110, FormatId::Q8_K},
    // Row-interleaved (ik_llama.cpp's type ids): R rows per block.
    {FormatId::Q4_0_R8, 202, "Q4_0_R8", 32, 18, FormatId::Q8_0, 8, FormatId::Q4_0},
    {FormatId::Q5_0_R4, 206, "Q5_0_R4", 32, 22, FormatId::Q8_0, 4, FormatId::Q5_0},
    {FormatId::Q8_0_R8, 208, "Q8_0_R8", 32, 34, FormatId::Q8_0, 8, FormatId::Q8_0},
    {FormatId::Q2_K_R4, 210, "Q2_K_R4", 256, 84, FormatId::Q8_K, 4, FormatId::Q2_K},
    {FormatId::Q3_K_R4, 211, "Q3_K_R4", 256, 110, FormatId::Q8_K, 4, FormatId::Q3_K},
    {FormatId::Q4_K_R4, 212, "Q4_K_R4", 256, 144, FormatId::Q8_K, 4, FormatId::Q4_K},
    {FormatId::Q5_K_R4, 213, "Q5_K_R4", 256, 176, FormatId::Q8_K, 4, FormatId::Q5_K},
    {FormatId::Q6_K_R4, 214, "Q6_K_R4", 256, 210, FormatId::Q8_K, 4, FormatId::Q6_K},
    {FormatId::IQ2_XXS_R4, 216, "IQ2_XXS_R4", 256, 66, FormatId::Q8_K, 4, FormatId::IQ2_XXS},
    {FormatId::IQ2_XS_R4, 217, "IQ2_XS_R4", 256, 74, FormatId::Q8_K, 4, FormatId::IQ2_XS},
    {FormatId::IQ3_XXS_R4, 218, "IQ3_XXS_R4", 256, 98, FormatId::Q8_K, 4, FormatId::IQ3_XXS},
    {FormatId::IQ3_S_R4, 221, "IQ3_S_R4", 256, 110, FormatId::Q8_K, 4, FormatId::IQ3_S},
    {FormatId::IQ2_S_R4, 222, "IQ2_S_R4", 256, 82, FormatId::Q8_K, 4, FormatId::IQ2_S},
    {FormatId::IQ4_NL_R4, 220, "IQ4_NL_R4", 32, 18, FormatId::Q8_0, 4, FormatId::IQ4_NL},
    {FormatId::IQ4_XS_R8, 223, "IQ4_XS_R8", 256, 136, FormatId::Q8_K, 8, FormatId::IQ4_XS},
    {FormatId::BF16_R16, 230, "BF16_R16", 2, 4, FormatId::BF16, 16, FormatId::BF16},
    {FormatId::MXFP4_R8, 353, "MXFP4_R8", 32, 17, FormatId::Q8_0, 8, FormatId::MXFP4},
    {FormatId::I2_S_G64, 1036, "I2_S_G64", 64, 16, FormatId::Q8_0},  // skn-only id: no GGUF type
};

TEST(FormatTable, EveryFormatHasItsGgufIdAndSizes) {
    ASSERT_EQ(all_formats().size(), std::size(kExpected));
    for (const auto& e : kExpected) {
        SCOPED_TRACE(e.name);
        EXPECT_EQ(static_cast<int32_t>(e.id), e.gguf_id);
        const FormatTraits* f = find_format(e.gguf_id);
        ASSERT_NE(f, nullptr);
        EXPECT_STREQ(f->name, e.name);
        EXPECT_EQ(f->block_elems, e.elems);
        EXPECT_EQ(f->block_bytes, e.bytes);
        EXPECT_EQ(f->activation, e.activation);
        EXPECT_EQ(f->block_quantized, e.elems > 1);
        EXPECT_NE(f->decode, nullptr);
        EXPECT_EQ(f->block_rows, e.rows);
        if (e.rows > 1) {
            // Quantized through the canonical twin, interleaved by its codec.
            EXPECT_EQ(f->interleaves, e.interleaves);
            ASSERT_NE(f->interleaved_codec, nullptr);
            EXPECT_EQ(f->interleaved_codec->rows, e.rows);
            EXPECT_EQ(f->quantize_row, nullptr);
            EXPECT_EQ(f->quantize_tensor, nullptr);
            continue;
        }
        EXPECT_EQ(f->interleaved_codec, nullptr);
        EXPECT_EQ(int(f->quantize_row != nullptr) + int(f->quantize_tensor != nullptr) + int(f->requires_importance()), 1)
            << "a format quantizes either per row, per tensor, or only per row with importance weights";
    }
}

TEST(FormatTable, UnknownIdsAreNotFound) {
    for (int32_t id : {-1, 4, 5, 24, 28, 31, 37, 38, 43, 201, 207, 209, 215, 219, 229, 1000})
        EXPECT_EQ(find_format(id), nullptr) << id;
}

TEST(FormatTable, NamesAreUniqueAndFoundCaseInsensitively) {
    std::set<std::string> seen;
    for (const auto& f : all_formats()) {
        EXPECT_TRUE(seen.insert(f.name).second) << f.name;
        std::string lower = f.name;
        for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
        EXPECT_EQ(find_format_by_name(lower.c_str()), &f);
        EXPECT_EQ(find_format_by_name(f.name), &f);
    }
    EXPECT_EQ(find_format_by_name("Q4"), nullptr);
    EXPECT_EQ(find_format_by_name("Q4_K_M"), nullptr);
    EXPECT_EQ(find_format_by_name(""), nullptr);
    EXPECT_EQ(find_format_by_name(nullptr), nullptr);
}

TEST(FormatTable, BitsPerWeight) {
    EXPECT_DOUBLE_EQ(find_format(FormatId::Q4_0)->bits_per_weight(), 4.5);
    EXPECT_DOUBLE_EQ(find_format(FormatId::Q4_K)->bits_per_weight(), 4.5);
    EXPECT_DOUBLE_EQ(find_format(FormatId::Q6_K)->bits_per_weight(), 6.5625);
    EXPECT_DOUBLE_EQ(find_format(FormatId::TQ1_0)->bits_per_weight(), 1.6875);
    EXPECT_DOUBLE_EQ(find_format(FormatId::I2_S)->bits_per_weight(), 2.0);
    EXPECT_DOUBLE_EQ(find_format(FormatId::BF16)->bits_per_weight(), 16.0);
}

}  // namespace
}  // namespace skn_core
