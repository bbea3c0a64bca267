// SPDX-License-Identifier: MIT
// The grid formats' row-interleaved twins, byte by byte, on hand-made
// canonical blocks: the places docs/formats/interleaved.md gives, and the two
// recodings (the sign indices as running XORs, IQ3_S's sign bits regrouped).
// The parameterised tests of interleaved_formats_test.cpp cover the round
// trips and decodes; byte identity with ik_llama.cpp is checked outside the
// repository.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "formats/format.hpp"

namespace skn_core {
namespace {

std::vector<uint8_t> interleave(FormatId id, const std::vector<std::vector<uint8_t>>& canonical) {
    const FormatTraits& f = *find_format(id);
    std::vector<const uint8_t*> rows;
    for (const auto& r : canonical) rows.push_back(r.data());
    std::vector<uint8_t> block(f.tile_bytes(), 0xEE);
    f.interleaved_codec->interleave(rows.data(), block.data());
    return block;
}

uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}

// IQ2_XXS: a sub-block's word holds four 7-bit sign indices and a 4-bit
// scale. The twin stores each index s as t with bit j = s_0 ^ ... ^ s_j,
// shifted up one, the scale's bit j below it: s = 1 -> t = 0x7F, s = 2 ->
// 0x7E, s = 3 -> 0x01, s = 4 -> 0x7C (the values ik_llama.cpp's table has).
TEST(InterleavedGrid, Iq2XxsR4SignWordsAndIndicesByHand) {
    std::vector<std::vector<uint8_t>> rows(4, std::vector<uint8_t>(66, 0));
    for (int k = 0; k < 4; ++k) {
        rows[size_t(k)][0] = uint8_t(0x20 + k);  // d
        for (int ib = 0; ib < 8; ++ib)
            for (int i = 0; i < 4; ++i) rows[size_t(k)][size_t(2 + 8 * ib + i)] = uint8_t(32 * k + 4 * ib + i);
    }
    // Row 2, sub-block 5: indices 1, 2, 3, 4 and scale 0b1010.
    const uint32_t w = 1u | 2u << 7 | 3u << 14 | 4u << 21 | 0xAu << 28;
    for (int j = 0; j < 4; ++j) rows[2][size_t(2 + 8 * 5 + 4 + j)] = uint8_t(w >> (8 * j));
    const std::vector<uint8_t> y = interleave(FormatId::IQ2_XXS_R4, rows);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(y[size_t(2 * k)], 0x20 + k);
    const size_t at = 8 + 4 * (4 * 5 + 2);
    EXPECT_EQ(y[at + 0], 0x7F << 1 | 0);
    EXPECT_EQ(y[at + 1], (0x7E << 1 | 1) & 0xFF);
    EXPECT_EQ(y[at + 2], 0x01 << 1 | 0);
    EXPECT_EQ(y[at + 3], (0x7C << 1 | 1) & 0xFF);
    EXPECT_EQ(u32_at(y, 8 + 4 * (4 * 5 + 1)), 0u) << "row 1's word is all zero: s = 0 -> t = 0, scale 0";
    for (int k = 0; k < 4; ++k)
        for (int ib = 0; ib < 8; ++ib)
            for (int i = 0; i < 4; ++i) EXPECT_EQ(y[size_t(136 + 16 * ib + 4 * k + i)], 32 * k + 4 * ib + i);
}

// The eighth sign of a group is the parity of the seven stored ones; in the
// twin it is t's top bit, so a decoder reads all eight signs from 2t as
// bit j ^ bit j + 1.
TEST(InterleavedGrid, RunningXorKeepsTheParitySignInTheTopBit) {
    for (uint32_t s = 0; s < 128; ++s) {
        std::vector<std::vector<uint8_t>> rows(4, std::vector<uint8_t>(74, 0));
        // IQ2_XS: code = 9-bit grid index | sign index << 9.
        const uint16_t code = uint16_t(0x155 | s << 9);
        rows[0][2] = uint8_t(code);
        rows[0][3] = uint8_t(code >> 8);
        const std::vector<uint8_t> y = interleave(FormatId::IQ2_XS_R4, rows);
        const uint16_t got = uint16_t(y[8] | y[9] << 8);
        EXPECT_EQ(got & 511, 0x155);
        const uint32_t twice_t = uint32_t(got >> 9) << 1;
        uint32_t signs = 0;
        for (int j = 0; j < 8; ++j) signs |= (((twice_t >> j) ^ (twice_t >> (j + 1))) & 1u) << j;
        // bit j of 2t is t_{j-1}: sign j = t_{j-1} ^ t_j with t_{-1} = 0.
        const uint32_t parity = uint32_t(__builtin_popcount(s) & 1);
        EXPECT_EQ(signs, s | parity << 7) << "s = " << s;
    }
}

// IQ3_S: the four sign bytes of a sub-block (bit b of byte m: element
// 8 m + b) regroup so that byte i of a row holds the signs of elements
// 8 m + i (bit 2 m) and 8 m + 4 + i (bit 2 m + 1); the index bytes pair i
// with i + 4 across the four rows; the scale nibbles spread by row.
TEST(InterleavedGrid, Iq3SR4SignsIndicesAndScalesByHand) {
    std::vector<std::vector<uint8_t>> rows(4, std::vector<uint8_t>(110, 0));
    for (int k = 0; k < 4; ++k)
        for (int e = 0; e < 64; ++e) rows[size_t(k)][size_t(2 + e)] = uint8_t(64 * k + e);
    rows[3][74 + 4 * 6 + 2] = 0x21;  // row 3, sub-block 6: elements 16 and 21 negative
    rows[1][106 + 2] = 0x9C;         // row 1: sub-block 4's scale 0xC, sub-block 5's 0x9
    const std::vector<uint8_t> y = interleave(FormatId::IQ3_S_R4, rows);
    for (int k = 0; k < 4; ++k)
        for (int ib = 0; ib < 8; ++ib)
            for (int i = 0; i < 4; ++i) {
                EXPECT_EQ(y[size_t(8 + 32 * ib + 8 * i + k)], 64 * k + 8 * ib + i);
                EXPECT_EQ(y[size_t(8 + 32 * ib + 8 * i + 4 + k)], 64 * k + 8 * ib + i + 4);
            }
    // Element 16 = 8 * 2 + 0 (i = 0, m = 2, low half); 21 = 8 * 2 + 4 + 1 (i = 1, high half).
    for (int i = 0; i < 4; ++i) {
        const uint8_t want = i == 0 ? 1u << 4 : i == 1 ? 1u << 5 : 0u;
        EXPECT_EQ(y[size_t(296 + 16 * 6 + 4 * 3 + i)], want) << "sign byte " << i;
    }
    // Scale byte 2 of row 1: j = 8 * 2 + 1 = 17 -> nibble 1 of byte 1; j + 4 = 21 -> nibble 1 of byte 5.
    EXPECT_EQ(y[424 + 1], 0xC0);
    EXPECT_EQ(y[424 + 5], 0x90);
}

}  // namespace
}  // namespace skn_core
