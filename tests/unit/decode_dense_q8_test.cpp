// SPDX-License-Identifier: MIT
// Hand-built blocks with known scales and codes: F32, F16, BF16, Q8_0.
#include <gtest/gtest.h>

#include <limits>

#include "support/block_builder.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;

TEST(Decode, F32IsLittleEndianIeee) {
    std::vector<uint8_t> b = {0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc1, 0x01, 0x00, 0x00, 0x00};
    auto v = decode_blocks(FormatId::F32, b);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0], 1.0f);
    EXPECT_EQ(v[1], -10.0f);
    EXPECT_EQ(v[2], 0x1p-149f);
}

TEST(Decode, F16AndBf16) {
    std::vector<uint8_t> h = {0x00, 0x3c, 0x00, 0xc5, 0x01, 0x00, 0xff, 0x7b};
    auto v = decode_blocks(FormatId::F16, h);
    EXPECT_EQ(v[0], 1.0f);
    EXPECT_EQ(v[1], -5.0f);
    EXPECT_EQ(v[2], 0x1p-24f);
    EXPECT_EQ(v[3], 65504.0f);
    std::vector<uint8_t> bf = {0x80, 0x3f, 0x49, 0x40, 0x80, 0xff};
    auto w = decode_blocks(FormatId::BF16, bf);
    EXPECT_EQ(w[0], 1.0f);
    EXPECT_EQ(w[1], 3.140625f);
    EXPECT_EQ(w[2], -std::numeric_limits<float>::infinity());
}

TEST(Decode, Q8_0ScalesSignedCodes) {
    // Three blocks: d = 0.5, -0.25, 0; codes q[i] = i - 16 (block 0), 127 - 8i ...
    std::vector<uint8_t> b(3 * 34, 0);
    test::put_fp16(b, 0, 0.5f);
    test::put_fp16(b, 34, -0.25f);
    test::put_fp16(b, 68, 0.0f);
    for (int i = 0; i < 32; ++i) {
        b[2 + i] = uint8_t(int8_t(i - 16));
        b[34 + 2 + i] = uint8_t(int8_t(127 - 8 * i));
        b[68 + 2 + i] = uint8_t(int8_t(-128 + i));
    }
    auto v = decode_blocks(FormatId::Q8_0, b);
    ASSERT_EQ(v.size(), 96u);
    EXPECT_EQ(v[0], -8.0f);
    EXPECT_EQ(v[16], 0.0f);
    EXPECT_EQ(v[31], 7.5f);
    EXPECT_EQ(v[32 + 0], -31.75f);
    EXPECT_EQ(v[32 + 31], 30.25f);  // 127 - 248 = -121 -> 30.25
    for (int i = 0; i < 32; ++i) EXPECT_EQ(v[64 + i], 0.0f);
}

}  // namespace
}  // namespace skn_core
