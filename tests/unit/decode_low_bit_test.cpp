// SPDX-License-Identifier: MIT
// Hand-built blocks with known scales and codes: Q1_0 and Q2_0.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "formats/codecs.hpp"
#include "formats/format.hpp"
#include "support/block_builder.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;

TEST(Decode, Q1_0SignBitsEveryPosition) {
    std::vector<uint8_t> b(3 * 18, 0);
    // Block 0: d = 0.75; byte k has only bit k % 8 set -> element 8k + k % 8 is +d.
    test::put_fp16(b, 0, 0.75f);
    for (size_t k = 0; k < 16; ++k) b[2 + k] = uint8_t(1u << (k % 8));
    // Block 1: d = -2.5; every bit set except bit 7 of the last byte.
    test::put_fp16(b, 18, -2.5f);
    for (size_t k = 0; k < 16; ++k) b[18 + 2 + k] = 0xFF;
    b[18 + 17] = 0x7F;
    // Block 2: d = 0; alternate bits.
    test::put_fp16(b, 36, 0.0f);
    for (size_t k = 0; k < 16; ++k) b[36 + 2 + k] = 0xAA;

    auto v = decode_blocks(FormatId::Q1_0, b);
    ASSERT_EQ(v.size(), 384u);
    EXPECT_EQ(v[0], 0.75f);
    EXPECT_EQ(v[1], -0.75f);
    EXPECT_EQ(v[8], -0.75f);
    EXPECT_EQ(v[9], 0.75f);
    EXPECT_EQ(v[18], 0.75f);
    EXPECT_EQ(v[27], 0.75f);
    EXPECT_EQ(v[36], 0.75f);
    EXPECT_EQ(v[45], 0.75f);
    EXPECT_EQ(v[54], 0.75f);
    EXPECT_EQ(v[63], 0.75f);
    EXPECT_EQ(v[62], -0.75f);
    EXPECT_EQ(v[64], 0.75f);
    EXPECT_EQ(v[65], -0.75f);
    EXPECT_EQ(v[127], 0.75f);
    EXPECT_EQ(v[126], -0.75f);
    EXPECT_EQ(v[128 + 0], -2.5f);
    EXPECT_EQ(v[128 + 126], -2.5f);
    EXPECT_EQ(v[128 + 127], 2.5f);
    // A clear bit is -d: with d = +0 that is -0.0, as the reference writes it.
    EXPECT_EQ(v[256 + 1], 0.0f);
    EXPECT_FALSE(std::signbit(v[256 + 1]));
    EXPECT_TRUE(std::signbit(v[256 + 0]));
    EXPECT_TRUE(std::signbit(v[256 + 126]));
}

TEST(Quantize, Q1_0ScaleIsMeanAbsAndZeroIsPositive) {
    std::vector<float> x(128, 0.0f);
    // |x| sums to 64 -> d = 0.5. Element 3 is -0.0 and element 4 is +0: both set their bit.
    for (int i = 0; i < 64; ++i) x[size_t(64 + i)] = (i % 2) ? -1.0f : 1.0f;
    x[3] = -0.0f;
    std::vector<uint8_t> q(18, 0xEE);
    codec::quantize_row_q1_0(x.data(), 128, q.data());
    EXPECT_EQ(q[0], 0x00);  // fp16 0.5 = 0x3800
    EXPECT_EQ(q[1], 0x38);
    for (size_t k = 0; k < 8; ++k) EXPECT_EQ(q[2 + k], 0xFF) << k;  // elements 0..63 are zeros: >= 0
    for (size_t k = 8; k < 16; ++k) EXPECT_EQ(q[2 + k], 0x55) << k;  // +1, -1, +1, ...
}

TEST(Decode, Q2_0EveryCodeAndBitPair) {
    std::vector<uint8_t> b(3 * 18, 0);
    // Block 0: d = 1.25; byte 0xE4: element 4k + j holds code j.
    test::put_fp16(b, 0, 1.25f);
    for (size_t k = 0; k < 16; ++k) b[2 + k] = 0xE4;
    // Block 1: d = -0.5; code 1 except byte 9 = codes 3, 2, 1, 0.
    test::put_fp16(b, 18, -0.5f);
    for (size_t k = 0; k < 16; ++k) b[18 + 2 + k] = 0x55;
    b[18 + 2 + 9] = 0x1B;
    // Block 2: the smallest fp16 subnormal; code 3 except the last byte (code 0).
    test::put_fp16(b, 36, 0x1p-24f);
    for (size_t k = 0; k < 15; ++k) b[36 + 2 + k] = 0xFF;

    auto v = decode_blocks(FormatId::Q2_0, b);
    ASSERT_EQ(v.size(), 192u);
    for (size_t k : {0u, 7u, 15u}) {
        EXPECT_EQ(v[4 * k + 0], -1.25f) << k;
        EXPECT_EQ(v[4 * k + 1], 0.0f) << k;
        EXPECT_EQ(v[4 * k + 2], 1.25f) << k;
        EXPECT_EQ(v[4 * k + 3], 2.5f) << k;  // code 3 = +2d
    }
    EXPECT_EQ(v[64 + 35], 0.0f);
    EXPECT_EQ(v[64 + 36], -1.0f);
    EXPECT_EQ(v[64 + 37], -0.5f);
    EXPECT_EQ(v[64 + 38], 0.0f);
    EXPECT_EQ(v[64 + 39], 0.5f);
    EXPECT_EQ(v[64 + 40], 0.0f);
    EXPECT_EQ(v[128 + 0], 0x1p-23f);
    EXPECT_EQ(v[128 + 59], 0x1p-23f);
    for (size_t i = 60; i < 64; ++i) EXPECT_EQ(v[128 + i], -0x1p-24f) << i;
}

TEST(Quantize, Q2_0RoundsHalfAwayFromZero) {
    std::vector<float> x(64, 0.0f);
    x[0] = 2.0f;    // max |x|: d = 2, code round(1) + 1 = 2
    x[1] = 1.0f;    // round(0.5) = 1 -> code 2
    x[2] = -1.0f;   // round(-0.5) = -1 -> code 0
    x[3] = -0.9f;   // round(-0.45) = 0 -> code 1
    x[4] = -2.0f;   // -> code 0
    x[5] = 0.98f;   // round(0.49) = 0 -> code 1
    std::vector<uint8_t> q(18, 0xEE);
    codec::quantize_row_q2_0(x.data(), 64, q.data());
    EXPECT_EQ(q[0], 0x00);  // fp16 2.0 = 0x4000
    EXPECT_EQ(q[1], 0x40);
    EXPECT_EQ(q[2], 0x4A);  // codes 2, 2, 0, 1 -> 0b01'00'10'10
    EXPECT_EQ(q[3], 0x54);  // codes 0, 1, 1, 1 -> 0b01'01'01'00
    for (size_t k = 4; k < 18; ++k) EXPECT_EQ(q[k], 0x55) << k;
}

}  // namespace
}  // namespace skn_core
