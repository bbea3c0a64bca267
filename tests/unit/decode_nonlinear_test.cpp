// SPDX-License-Identifier: MIT
// Hand-built blocks with known scales and codes: IQ4_NL IQ4_XS MXFP4 NVFP4.
// Every expected float below was computed by hand from the grids and block
// layouts in docs/formats/nonlinear.md.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "formats/microscaling.hpp"
#include "support/block_builder.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;

template <size_t N>
void expect_run(const std::vector<float>& decoded, size_t at, const std::array<float, N>& want) {
    ASSERT_GE(decoded.size(), at + N);
    for (size_t i = 0; i < N; ++i) EXPECT_EQ(decoded[at + i], want[i]) << "element " << at + i;
}

TEST(DecodeNonlinear, Iq4NlIndexesTheLevelTable) {
    // Block 0: d = 1, byte j = j | (15 - j) << 4: element j is level[j],
    // element 16 + j is level[15 - j].
    // Block 1: d = -0.5, bytes 0x8F: level[15] = 113 low, level[8] = 1 high.
    // Block 2: d = 2^-10, bytes 0x70: level[0] = -127 low, level[7] = -10 high.
    std::vector<uint8_t> b(3 * 18, 0);
    test::put_fp16(b, 0, 1.0f);
    test::put_fp16(b, 18, -0.5f);
    test::put_fp16(b, 36, 0x1p-10f);
    for (int j = 0; j < 16; ++j) {
        b[2 + j] = uint8_t(j | (15 - j) << 4);
        b[18 + 2 + j] = 0x8F;
        b[36 + 2 + j] = 0x70;
    }
    auto v = decode_blocks(FormatId::IQ4_NL, b);
    ASSERT_EQ(v.size(), 96u);
    expect_run<32>(v, 0, {-127.0f, -104.0f, -83.0f, -65.0f, -49.0f, -35.0f, -22.0f, -10.0f, 1.0f,    13.0f,  25.0f,
                          38.0f,   53.0f,   69.0f,  89.0f,  113.0f, 113.0f, 89.0f,  69.0f,  53.0f,   38.0f,  25.0f,
                          13.0f,   1.0f,    -10.0f, -22.0f, -35.0f, -49.0f, -65.0f, -83.0f, -104.0f, -127.0f});
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[32 + i], -56.5f);
    for (int i = 16; i < 32; ++i) EXPECT_EQ(v[32 + i], -0.5f);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[64 + i], -0.1240234375f);  // -127 / 1024
    for (int i = 16; i < 32; ++i) EXPECT_EQ(v[64 + i], -0.009765625f);  // -10 / 1024
}

TEST(DecodeNonlinear, Iq4XsSixBitSubScales) {
    // Block 0: d = 0.5; sub-block s has ls = {0, 1, 31, 32, 33, 63, 40, 16},
    // i.e. ls - 32 = {-32, -31, -1, 0, 1, 31, 8, -16}. Low nibbles in
    // scales_l = 10 0F F1 08, high two bits in scales_h = 0x6E90. Every
    // sub-block's 16 bytes are j | (15 - j) << 4.
    // Block 1: d = -0.25, every ls = 63 (scales_l FF.., scales_h FFFF), bytes 0x80.
    std::vector<uint8_t> b(2 * 136, 0);
    test::put_fp16(b, 0, 0.5f);
    test::put_u16(b, 2, 0x6E90);
    b[4] = 0x10;
    b[5] = 0x0F;
    b[6] = 0xF1;
    b[7] = 0x08;
    for (int s = 0; s < 8; ++s)
        for (int j = 0; j < 16; ++j) b[8 + 16 * s + j] = uint8_t(j | (15 - j) << 4);
    test::put_fp16(b, 136, -0.25f);
    test::put_u16(b, 138, 0xFFFF);
    for (int i = 0; i < 4; ++i) b[140 + i] = 0xFF;
    for (int i = 0; i < 128; ++i) b[144 + i] = 0x80;

    auto v = decode_blocks(FormatId::IQ4_XS, b);
    ASSERT_EQ(v.size(), 512u);
    // Sub-block 0: 0.5 * -32 = -16 times the levels.
    expect_run<32>(v, 0, {2032.0f,  1664.0f,  1328.0f,  1040.0f,  784.0f,   560.0f,   352.0f,  160.0f,
                          -16.0f,   -208.0f,  -400.0f,  -608.0f,  -848.0f,  -1104.0f, -1424.0f, -1808.0f,
                          -1808.0f, -1424.0f, -1104.0f, -848.0f,  -608.0f,  -400.0f,  -208.0f,  -16.0f,
                          160.0f,   352.0f,   560.0f,   784.0f,   1040.0f,  1328.0f,  1664.0f,  2032.0f});
    // Sub-block 1 (-15.5), spot checks at both nibbles.
    EXPECT_EQ(v[32 + 0], 1968.5f);
    EXPECT_EQ(v[32 + 16], -1751.5f);
    // Sub-block 2 (-0.5).
    EXPECT_EQ(v[64 + 8], -0.5f);
    EXPECT_EQ(v[64 + 31], 63.5f);
    // Sub-block 3 (ls = 32): all zero.
    for (int i = 96; i < 128; ++i) EXPECT_EQ(v[i], 0.0f);
    // Sub-block 4 (0.5).
    EXPECT_EQ(v[128 + 15], 56.5f);
    EXPECT_EQ(v[128 + 16], 56.5f);
    // Sub-block 5 (15.5): ls 63 uses both high bits.
    EXPECT_EQ(v[160 + 0], -1968.5f);
    EXPECT_EQ(v[160 + 15], 1751.5f);
    // Sub-block 6 (4).
    EXPECT_EQ(v[192 + 7], -40.0f);
    EXPECT_EQ(v[192 + 31], -508.0f);
    // Sub-block 7 (-8).
    EXPECT_EQ(v[224 + 0], 1016.0f);
    EXPECT_EQ(v[224 + 24], 80.0f);
    // Block 1: -0.25 * 31 = -7.75 times level[0] = -127 (low nibble 0) and level[8] = 1 (high nibble 8).
    for (int s = 0; s < 8; ++s) {
        for (int j = 0; j < 16; ++j) {
            EXPECT_EQ(v[256 + 32 * s + j], 984.25f);
            EXPECT_EQ(v[256 + 32 * s + 16 + j], -7.75f);
        }
    }
}

TEST(DecodeNonlinear, Mxfp4E8m0Exponent) {
    // Block 0: e = 127 (scale 1), byte j = j | (15 - j) << 4: the E2M1 grid.
    // Block 1: e = 130 (scale 8), bytes 0x7F: -6 * 8 low, 6 * 8 high.
    // Block 2: e = 0 (scale 2^-127), bytes 0x11: 0.5 * 2^-127 = 2^-128, a float subnormal.
    // Block 3: e = 255 (not NaN here: scale 2^128), bytes 0x91: 0.5 * 2^128 low, -0.5 * 2^128 high.
    std::vector<uint8_t> b(4 * 17, 0);
    b[0] = 127;
    b[17] = 130;
    b[34] = 0;
    b[51] = 255;
    for (int j = 0; j < 16; ++j) {
        b[1 + j] = uint8_t(j | (15 - j) << 4);
        b[17 + 1 + j] = 0x7F;
        b[34 + 1 + j] = 0x11;
        b[51 + 1 + j] = 0x91;
    }
    auto v = decode_blocks(FormatId::MXFP4, b);
    ASSERT_EQ(v.size(), 128u);
    expect_run<32>(v, 0, {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,  0.0f,  -0.5f, -1.0f,
                          -1.5f, -2.0f, -3.0f, -4.0f, -6.0f, -6.0f, -4.0f, -3.0f, -2.0f, -1.5f, -1.0f,
                          -0.5f, 0.0f,  6.0f,  4.0f,  3.0f,  2.0f,  1.5f,  1.0f,  0.5f,  0.0f});
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[32 + i], -48.0f);
    for (int i = 16; i < 32; ++i) EXPECT_EQ(v[32 + i], 48.0f);
    for (int i = 0; i < 32; ++i) EXPECT_EQ(v[64 + i], 0x1p-128f);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[96 + i], 0x1p127f);
    for (int i = 16; i < 32; ++i) EXPECT_EQ(v[96 + i], -0x1p127f);
}

TEST(DecodeNonlinear, Nvfp4Ue4m3SubBlockScales) {
    // Block 0 scales: 0x38 = 1.0, 0x3C = 1.5, 0x01 = 2^-9 (subnormal), 0x7E = 448.
    // Sub-block s's bytes 8s..8s+7 are j | (15 - j) << 4: element 16s + j has
    // code j, element 16s + 8 + j code 15 - j.
    // Block 1 scales: 0x00 and 0x7F (both zero), 0x80 (sign bit ignored: zero),
    // 0xFF (not special: 480); bytes 0x77 (code 7 = 6 in both nibbles).
    std::vector<uint8_t> b(2 * 36, 0);
    b[0] = 0x38;
    b[1] = 0x3C;
    b[2] = 0x01;
    b[3] = 0x7E;
    for (int s = 0; s < 4; ++s)
        for (int j = 0; j < 8; ++j) b[4 + 8 * s + j] = uint8_t(j | (15 - j) << 4);
    b[36] = 0x00;
    b[37] = 0x7F;
    b[38] = 0x80;
    b[39] = 0xFF;
    for (int i = 0; i < 32; ++i) b[40 + i] = 0x77;

    auto v = decode_blocks(FormatId::NVFP4, b);
    ASSERT_EQ(v.size(), 128u);
    expect_run<16>(v, 0, {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f, -6.0f, -4.0f, -3.0f, -2.0f, -1.5f,
                          -1.0f, -0.5f, 0.0f});
    expect_run<16>(v, 16, {0.0f, 0.75f, 1.5f, 2.25f, 3.0f, 4.5f, 6.0f, 9.0f, -9.0f, -6.0f, -4.5f, -3.0f, -2.25f,
                           -1.5f, -0.75f, 0.0f});
    expect_run<16>(v, 32, {0.0f, 0x1p-10f, 0x1p-9f, 0x1.8p-9f, 0x1p-8f, 0x1.8p-8f, 0x1p-7f, 0x1.8p-7f,
                           -0x1.8p-7f, -0x1p-7f, -0x1.8p-8f, -0x1p-8f, -0x1.8p-9f, -0x1p-9f, -0x1p-10f, 0.0f});
    expect_run<16>(v, 48, {0.0f, 224.0f, 448.0f, 672.0f, 896.0f, 1344.0f, 1792.0f, 2688.0f, -2688.0f, -1792.0f,
                           -1344.0f, -896.0f, -672.0f, -448.0f, -224.0f, 0.0f});
    for (int i = 64; i < 112; ++i) EXPECT_EQ(v[i], 0.0f);
    for (int i = 112; i < 128; ++i) EXPECT_EQ(v[i], 2880.0f);  // 6 * 480
}

TEST(DecodeNonlinear, MicroscalingScaleHelpers) {
    // The halved-scale convention: grid values are doubled, so scales are halved.
    EXPECT_EQ(e8m0_to_f32_half(127), 0.5f);
    EXPECT_EQ(e8m0_to_f32_half(0), 0x1p-128f);
    EXPECT_EQ(e8m0_to_f32_half(1), 0x1p-127f);
    EXPECT_EQ(e8m0_to_f32_half(2), 0x1p-126f);
    EXPECT_EQ(e8m0_to_f32_half(254), 0x1p126f);
    EXPECT_EQ(ue4m3_to_f32_half(0x38), 0.5f);
    EXPECT_EQ(ue4m3_to_f32_half(0x07), 0x1.cp-8f);   // 7 * 2^-9, halved
    EXPECT_EQ(ue4m3_to_f32_half(0x08), 0x1p-7f);     // smallest normal 2^-6, halved
    EXPECT_EQ(ue4m3_to_f32_half(0x7F), 0.0f);
    // The encoder rounds half up on the first dropped mantissa bit (1.0625 -> 1.125,
    // where IEEE would give 1.0), saturates at 0x7E from 256 up, and handles subnormals.
    EXPECT_EQ(f32_to_ue4m3(1.0f), 0x38);
    EXPECT_EQ(f32_to_ue4m3(1.0625f), 0x39);
    EXPECT_EQ(f32_to_ue4m3(1.9375f), 0x40);  // mantissa carry into the exponent: 2.0
    EXPECT_EQ(f32_to_ue4m3(240.0f), 0x77);
    EXPECT_EQ(f32_to_ue4m3(256.0f), 0x7E);
    EXPECT_EQ(f32_to_ue4m3(1e9f), 0x7E);
    EXPECT_EQ(f32_to_ue4m3(0x1p-9f), 0x01);
    EXPECT_EQ(f32_to_ue4m3(0x1.ep-7f), 0x07);  // 7.5 * 2^-9 rounds to 8, clamped to 7
    EXPECT_EQ(f32_to_ue4m3(0x1p-11f), 0x00);   // 0.25 * 2^-9 rounds to 0
    EXPECT_EQ(f32_to_ue4m3(-3.0f), 0x00);
    EXPECT_EQ(f32_to_ue4m3(0.0f), 0x00);
}

}  // namespace
}  // namespace skn_core
