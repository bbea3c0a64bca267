// SPDX-License-Identifier: MIT
// Hand-built blocks with known scales and codes: Q4_0 Q4_1 Q5_0 Q5_1 Q8_1.
// Every expected float below was computed by hand from the block layout in
// docs/formats/legacy.md.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "support/block_builder.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;

// Compare decoded[at .. at+32) with 32 literal floats.
void expect_block(const std::vector<float>& decoded, size_t at, const std::array<float, 32>& want) {
    ASSERT_GE(decoded.size(), at + 32);
    for (size_t i = 0; i < 32; ++i) EXPECT_EQ(decoded[at + i], want[i]) << "element " << at + i;
}

TEST(DecodeLegacy, Q4_0OffsetBinaryNibbles) {
    // Block 0: d = 0.5, byte j = j | (15 - j) << 4: element j has code j and
    // element 16 + j code 15 - j; x = (code - 8) * d.
    // Block 1: d = -2 (negative scale), even bytes 0xF9, odd bytes 0xF0.
    // Block 2: d = 2^-24 (fp16 subnormal 0x0001), all bytes 0x08.
    std::vector<uint8_t> b(3 * 18, 0);
    test::put_fp16(b, 0, 0.5f);
    test::put_fp16(b, 18, -2.0f);
    test::put_u16(b, 36, 0x0001);
    for (int j = 0; j < 16; ++j) {
        b[2 + j] = uint8_t(j | (15 - j) << 4);
        b[18 + 2 + j] = (j % 2 == 0) ? 0xF9 : 0xF0;
        b[36 + 2 + j] = 0x08;
    }
    auto v = decode_blocks(FormatId::Q4_0, b);
    ASSERT_EQ(v.size(), 96u);
    expect_block(v, 0, {-4.0f, -3.5f, -3.0f, -2.5f, -2.0f, -1.5f, -1.0f, -0.5f, 0.0f, 0.5f, 1.0f,
                        1.5f,  2.0f,  2.5f,  3.0f,  3.5f,  3.5f,  3.0f,  2.5f,  2.0f, 1.5f, 1.0f,
                        0.5f,  0.0f,  -0.5f, -1.0f, -1.5f, -2.0f, -2.5f, -3.0f, -3.5f, -4.0f});
    expect_block(v, 32, {-2.0f,  16.0f,  -2.0f,  16.0f,  -2.0f,  16.0f,  -2.0f,  16.0f,  -2.0f,  16.0f,  -2.0f,
                         16.0f,  -2.0f,  16.0f,  -2.0f,  16.0f,  -14.0f, -14.0f, -14.0f, -14.0f, -14.0f, -14.0f,
                         -14.0f, -14.0f, -14.0f, -14.0f, -14.0f, -14.0f, -14.0f, -14.0f, -14.0f, -14.0f});
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[64 + i], 0.0f);
    for (int i = 16; i < 32; ++i) EXPECT_EQ(v[64 + i], -0x1p-21f);  // -8 * 2^-24
}

TEST(DecodeLegacy, Q4_1ScaleAndMinimum) {
    // Block 0: d = 0.25, m = -1, byte j = j | j << 4: x = code * d + m.
    // Block 1: d = -0.5, m = 3 (negative scale, positive minimum), bytes 0x5A.
    // Block 2: d = 0, m = -7.5: every element is the minimum.
    std::vector<uint8_t> b(3 * 20, 0);
    test::put_fp16(b, 0, 0.25f);
    test::put_fp16(b, 2, -1.0f);
    test::put_fp16(b, 20, -0.5f);
    test::put_fp16(b, 22, 3.0f);
    test::put_fp16(b, 40, 0.0f);
    test::put_fp16(b, 42, -7.5f);
    for (int j = 0; j < 16; ++j) {
        b[4 + j] = uint8_t(j | j << 4);
        b[20 + 4 + j] = 0x5A;
        b[40 + 4 + j] = uint8_t(0x10 * j + 15 - j);
    }
    auto v = decode_blocks(FormatId::Q4_1, b);
    ASSERT_EQ(v.size(), 96u);
    expect_block(v, 0, {-1.0f, -0.75f, -0.5f, -0.25f, 0.0f,  0.25f, 0.5f,  0.75f, 1.0f,  1.25f, 1.5f,
                        1.75f, 2.0f,   2.25f, 2.5f,   2.75f, -1.0f, -0.75f, -0.5f, -0.25f, 0.0f,  0.25f,
                        0.5f,  0.75f,  1.0f,  1.25f,  1.5f,  1.75f, 2.0f,  2.25f, 2.5f,  2.75f});
    // Low nibble 0xA = 10 -> -5 + 3; high nibble 5 -> -2.5 + 3.
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[32 + i], -2.0f);
    for (int i = 16; i < 32; ++i) EXPECT_EQ(v[32 + i], 0.5f);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(v[64 + i], -7.5f);
}

TEST(DecodeLegacy, Q5_0HighBitsComeFromLittleEndianQh) {
    // Block 0: d = 1, qh = 0xFFFF0000 (bit 4 set for elements 16..31), byte j =
    // j | j << 4: element j has code j, element 16 + j code 16 + j; x = code - 16.
    // Block 1: d = -0.5, qh = 0x0000FFFF, bytes 0x0F: element j code 31,
    // element 16 + j code 0.
    // Block 2: d = 0.25, qh bytes 01 00 00 80 (elements 0 and 31 only), bytes 0.
    std::vector<uint8_t> b(3 * 22, 0);
    test::put_fp16(b, 0, 1.0f);
    b[4] = b[5] = 0xFF;
    test::put_fp16(b, 22, -0.5f);
    b[24] = b[25] = 0xFF;
    test::put_fp16(b, 44, 0.25f);
    b[46] = 0x01;
    b[49] = 0x80;
    for (int j = 0; j < 16; ++j) {
        b[6 + j] = uint8_t(j | j << 4);
        b[22 + 6 + j] = 0x0F;
    }
    auto v = decode_blocks(FormatId::Q5_0, b);
    ASSERT_EQ(v.size(), 96u);
    expect_block(v, 0, {-16.0f, -15.0f, -14.0f, -13.0f, -12.0f, -11.0f, -10.0f, -9.0f, -8.0f, -7.0f, -6.0f,
                        -5.0f,  -4.0f,  -3.0f,  -2.0f,  -1.0f,  0.0f,   1.0f,   2.0f,  3.0f,  4.0f,  5.0f,
                        6.0f,   7.0f,   8.0f,   9.0f,   10.0f,  11.0f,  12.0f,  13.0f, 14.0f, 15.0f});
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[32 + i], -7.5f);  // (31 - 16) * -0.5
    for (int i = 16; i < 32; ++i) EXPECT_EQ(v[32 + i], 8.0f);  // (0 - 16) * -0.5
    EXPECT_EQ(v[64], 0.0f);
    for (int i = 1; i < 31; ++i) EXPECT_EQ(v[64 + i], -4.0f);
    EXPECT_EQ(v[64 + 31], 0.0f);
}

TEST(DecodeLegacy, Q5_1HighBitsScaleAndMinimum) {
    // Block 0: d = 0.5, m = -8, qh = 0xFFFF0000, byte j = j | (15 - j) << 4:
    // element j has code j, element 16 + j code 31 - j; x = code * d + m.
    // Block 1: d = -1, m = 0.5, qh = 0, bytes 0xFF: code 15 everywhere.
    // Block 2: d = 2, m = 0, qh = 0x00000100 (element 8 only), bytes 0.
    std::vector<uint8_t> b(3 * 24, 0);
    test::put_fp16(b, 0, 0.5f);
    test::put_fp16(b, 2, -8.0f);
    b[6] = b[7] = 0xFF;
    test::put_fp16(b, 24, -1.0f);
    test::put_fp16(b, 26, 0.5f);
    test::put_fp16(b, 48, 2.0f);
    b[48 + 5] = 0x01;
    for (int j = 0; j < 16; ++j) {
        b[8 + j] = uint8_t(j | (15 - j) << 4);
        b[24 + 8 + j] = 0xFF;
    }
    auto v = decode_blocks(FormatId::Q5_1, b);
    ASSERT_EQ(v.size(), 96u);
    expect_block(v, 0, {-8.0f, -7.5f, -7.0f, -6.5f, -6.0f, -5.5f, -5.0f, -4.5f, -4.0f, -3.5f, -3.0f,
                        -2.5f, -2.0f, -1.5f, -1.0f, -0.5f, 7.5f,  7.0f,  6.5f,  6.0f,  5.5f,  5.0f,
                        4.5f,  4.0f,  3.5f,  3.0f,  2.5f,  2.0f,  1.5f,  1.0f,  0.5f,  0.0f});
    for (int i = 0; i < 32; ++i) EXPECT_EQ(v[32 + i], -14.5f);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(v[64 + i], i == 8 ? 32.0f : 0.0f);
}

TEST(DecodeLegacy, Q8_1IgnoresTheSumField) {
    // Block 0: d = 0.5, s = 123 (deliberately inconsistent), q[i] = i - 16.
    // Block 1: d = -0.125, q alternates 127 / -128.
    // Block 2: d = 0, s = 7: all zero whatever s says.
    std::vector<uint8_t> b(3 * 36, 0);
    test::put_fp16(b, 0, 0.5f);
    test::put_fp16(b, 2, 123.0f);
    test::put_fp16(b, 36, -0.125f);
    test::put_fp16(b, 38, -1.0f);
    test::put_fp16(b, 72, 0.0f);
    test::put_fp16(b, 74, 7.0f);
    for (int i = 0; i < 32; ++i) {
        b[4 + i] = uint8_t(int8_t(i - 16));
        b[36 + 4 + i] = (i % 2 == 0) ? 0x7F : 0x80;
        b[72 + 4 + i] = uint8_t(int8_t(i * 3 - 50));
    }
    auto v = decode_blocks(FormatId::Q8_1, b);
    ASSERT_EQ(v.size(), 96u);
    expect_block(v, 0, {-8.0f, -7.5f, -7.0f, -6.5f, -6.0f, -5.5f, -5.0f, -4.5f, -4.0f, -3.5f, -3.0f,
                        -2.5f, -2.0f, -1.5f, -1.0f, -0.5f, 0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  2.5f,
                        3.0f,  3.5f,  4.0f,  4.5f,  5.0f,  5.5f,  6.0f,  6.5f,  7.0f,  7.5f});
    for (int i = 0; i < 32; ++i) EXPECT_EQ(v[32 + i], i % 2 == 0 ? -15.875f : 16.0f);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(v[64 + i], 0.0f);
}

}  // namespace
}  // namespace skn_core
