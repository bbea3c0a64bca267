// SPDX-License-Identifier: MIT
// Quantizer edge cases for Q4_0 Q4_1 Q5_0 Q5_1 Q8_1 IQ4_NL IQ4_XS MXFP4 NVFP4.
// Expected bytes were derived by hand from the algorithms in
// docs/formats/legacy.md and docs/formats/nonlinear.md, then confirmed
// against the GGUF reference quantizer.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "formats/format.hpp"

namespace skn_core {
namespace {

std::vector<uint8_t> quantize(FormatId id, const std::vector<float>& x) {
    const FormatTraits* f = find_format(id);
    EXPECT_NE(f, nullptr);
    EXPECT_EQ(x.size() % size_t(f->block_elems), 0u);
    std::vector<uint8_t> out(x.size() / size_t(f->block_elems) * size_t(f->block_bytes), 0xAB);
    f->quantize_row(x.data(), int64_t(x.size()), out.data());
    return out;
}

// `head` followed by `fill` up to `total` bytes.
std::vector<uint8_t> bytes(std::vector<uint8_t> head, size_t total, uint8_t fill) {
    head.resize(total, fill);
    return head;
}

// ------------------------------------------------------------------ Q4_0

TEST(QuantizeEdgeLegacy, Q4_0AllZeroHasNegativeZeroScale) {
    // d = max / -8 with max = +0 gives -0 (fp16 0x8000); codes are 8 (value 0).
    EXPECT_EQ(quantize(FormatId::Q4_0, std::vector<float>(32, 0.0f)), bytes({0x00, 0x80}, 18, 0x88));
}

TEST(QuantizeEdgeLegacy, Q4_0ScaleSignFollowsTheLargestMagnitude) {
    // Largest magnitude -8 at element 5: d = -8 / -8 = +1, element 5 -> code 0,
    // the ones -> trunc(1 + 8.5) = 9. Byte 5 holds elements 5 and 21.
    std::vector<float> x(32, 1.0f);
    x[5] = -8.0f;
    auto want = bytes({0x00, 0x3C}, 18, 0x99);
    want[2 + 5] = 0x90;
    EXPECT_EQ(quantize(FormatId::Q4_0, x), want);
    // Largest magnitude +8: d = -1 (0xBC00), element 5 -> code 0 again, ones -> 7.
    x[5] = 8.0f;
    want = bytes({0x00, 0xBC}, 18, 0x77);
    want[2 + 5] = 0x70;
    EXPECT_EQ(quantize(FormatId::Q4_0, x), want);
}

TEST(QuantizeEdgeLegacy, Q4_0HalvesRoundUp) {
    // d = 1: 0.5 -> trunc(9.0) = 9, -0.5 -> trunc(8.0) = 8, 1.5 -> 10.
    std::vector<float> x(32, 0.0f);
    x[0] = -8.0f;
    x[1] = 0.5f;
    x[2] = -0.5f;
    x[17] = 1.5f;
    auto want = bytes({0x00, 0x3C}, 18, 0x88);
    want[2] = 0x80;      // element 0 code 0, element 16 code 8
    want[3] = 0xA9;      // element 1 code 9, element 17 code 10
    EXPECT_EQ(quantize(FormatId::Q4_0, x), want);
}

TEST(QuantizeEdgeLegacy, Q4_0SingleHugeValue) {
    // d = -1.25e29 overflows fp16 to -inf (0xFC00); the huge element gets
    // code 0, zeros stay at 8.
    std::vector<float> x(32, 0.0f);
    x[0] = 1e30f;
    auto want = bytes({0x00, 0xFC}, 18, 0x88);
    want[2] = 0x80;
    EXPECT_EQ(quantize(FormatId::Q4_0, x), want);
}

TEST(QuantizeEdgeLegacy, Q4_0TinyValuesOverflowTheInverseScale) {
    // max = 2^-140: d = -2^-143 (fp16 -0), 1/d = -inf, every x * (1/d) is
    // +-inf or NaN and converts to the integer-indefinite value, whose low byte
    // is 0: all codes 0 (unlike the all-zero block's 8).
    std::vector<float> x(32, 0.0f);
    x[0] = 0x1p-140f;
    x[1] = -0x1p-141f;
    EXPECT_EQ(quantize(FormatId::Q4_0, x), bytes({0x00, 0x80}, 18, 0x00));
}

// ------------------------------------------------------------------ Q4_1

TEST(QuantizeEdgeLegacy, Q4_1ZeroAndConstantBlocks) {
    EXPECT_EQ(quantize(FormatId::Q4_1, std::vector<float>(32, 0.0f)), bytes({}, 20, 0x00));
    // Constant 3: d = 0, m = 3 (0x4200), codes 0.
    EXPECT_EQ(quantize(FormatId::Q4_1, std::vector<float>(32, 3.0f)), bytes({0x00, 0x00, 0x00, 0x42}, 20, 0x00));
}

TEST(QuantizeEdgeLegacy, Q4_1SingleHugeValue) {
    // d = 1e30 / 15 -> fp16 +inf, m = 0, the huge element gets code 15.
    std::vector<float> x(32, 0.0f);
    x[0] = 1e30f;
    EXPECT_EQ(quantize(FormatId::Q4_1, x), bytes({0x00, 0x7C, 0x00, 0x00, 0x0F}, 20, 0x00));
}

TEST(QuantizeEdgeLegacy, Q4_1TinyRange) {
    // Range 3 * 2^-141: d underflows fp16 to 0, 1/d = inf; the minimum is
    // fp16 -0 (0x8000) and every code is 0.
    std::vector<float> x(32, 0.0f);
    x[0] = 0x1p-140f;
    x[1] = -0x1p-141f;
    EXPECT_EQ(quantize(FormatId::Q4_1, x), bytes({0x00, 0x00, 0x00, 0x80}, 20, 0x00));
}

// ------------------------------------------------------------------ Q5_0 / Q5_1

TEST(QuantizeEdgeLegacy, Q5_0AllZeroSetsEveryHighBit) {
    // d = -0, code 16 = 0b10000 everywhere: nibbles 0, qh all ones.
    EXPECT_EQ(quantize(FormatId::Q5_0, std::vector<float>(32, 0.0f)),
              bytes({0x00, 0x80, 0xFF, 0xFF, 0xFF, 0xFF}, 22, 0x00));
}

TEST(QuantizeEdgeLegacy, Q5_0SingleHugeValue) {
    // d -> -inf; element 0 gets code 0 (its qh bit clear), the rest 16.
    std::vector<float> x(32, 0.0f);
    x[0] = 1e30f;
    EXPECT_EQ(quantize(FormatId::Q5_0, x), bytes({0x00, 0xFC, 0xFE, 0xFF, 0xFF, 0xFF}, 22, 0x00));
}

TEST(QuantizeEdgeLegacy, Q5_1RampUsesAllCodes) {
    // x = i: min 0, max 31, d = 1, code i: nibbles i & 15, qh = 0xFFFF0000.
    std::vector<float> x(32);
    for (int i = 0; i < 32; ++i) x[i] = float(i);
    auto want = bytes({0x00, 0x3C, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF}, 24, 0x00);
    for (int j = 0; j < 16; ++j) want[8 + j] = uint8_t(j | j << 4);
    EXPECT_EQ(quantize(FormatId::Q5_1, x), want);
    EXPECT_EQ(quantize(FormatId::Q5_1, std::vector<float>(32, 0.0f)), bytes({}, 24, 0x00));
}

TEST(QuantizeEdgeLegacy, Q5_1SingleHugeValue) {
    // d = 1e30 / 31 -> +inf; element 0 gets code 31: nibble 15 and qh bit 0.
    std::vector<float> x(32, 0.0f);
    x[0] = 1e30f;
    EXPECT_EQ(quantize(FormatId::Q5_1, x), bytes({0x00, 0x7C, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0F}, 24, 0x00));
}

// ------------------------------------------------------------------ Q8_1

TEST(QuantizeEdgeLegacy, Q8_1SumFieldAndRounding) {
    // amax 127 -> d = 1. q = round(x), halves away from zero: 2.5 -> 3,
    // -2.5 -> -3. sum = 127 + 3 - 3 + sum(i - 16, i = 3..31) = 156, s = 156 (0x58E0).
    std::vector<float> x(32);
    for (int i = 0; i < 32; ++i) x[i] = float(i - 16);
    x[0] = 127.0f;
    x[1] = 2.5f;
    x[2] = -2.5f;
    std::vector<uint8_t> want = {0x00, 0x3C, 0xE0, 0x58, 0x7F, 0x03, 0xFD};
    for (int i = 3; i < 32; ++i) want.push_back(uint8_t(int8_t(i - 16)));
    EXPECT_EQ(quantize(FormatId::Q8_1, x), want);
}

TEST(QuantizeEdgeLegacy, Q8_1ZeroHugeAndTiny) {
    EXPECT_EQ(quantize(FormatId::Q8_1, std::vector<float>(32, 0.0f)), bytes({}, 36, 0x00));
    // d = 1e30 / 127 and s = 127 * d both overflow fp16 to +inf.
    std::vector<float> x(32, 0.0f);
    x[0] = 1e30f;
    EXPECT_EQ(quantize(FormatId::Q8_1, x), bytes({0x00, 0x7C, 0x00, 0x7C, 0x7F}, 36, 0x00));
    // amax 2^-140: 1/d = inf, codes 0, d and s underflow to 0.
    x[0] = 0x1p-140f;
    x[1] = -0x1p-141f;
    EXPECT_EQ(quantize(FormatId::Q8_1, x), bytes({}, 36, 0x00));
}

// ------------------------------------------------------------------ IQ4_NL / IQ4_XS

constexpr int8_t kLevels[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

TEST(QuantizeEdgeLegacy, Iq4NlZeroAndNegligibleBlocks) {
    // No scale search below 1e-15: d = +0, every code is 8 (level 1, nearest to 0).
    EXPECT_EQ(quantize(FormatId::IQ4_NL, std::vector<float>(32, 0.0f)), bytes({0x00, 0x00}, 18, 0x88));
    EXPECT_EQ(quantize(FormatId::IQ4_NL, std::vector<float>(32, 1e-16f)), bytes({0x00, 0x00}, 18, 0x88));
}

TEST(QuantizeEdgeLegacy, Iq4NlRecoversAnExactGridBlock) {
    // x = 0.5 * level[i % 16]: the search's anchor -127 (t = 0) fits exactly,
    // d = 0.5 (0x3800), element i gets code i % 16. Negated: d = -0.5 (0xB800),
    // same codes.
    std::vector<float> x(32);
    for (int i = 0; i < 32; ++i) x[i] = 0.5f * float(kLevels[i % 16]);
    auto want = bytes({0x00, 0x38}, 18, 0x00);
    for (int j = 0; j < 16; ++j) want[2 + j] = uint8_t(j | j << 4);
    EXPECT_EQ(quantize(FormatId::IQ4_NL, x), want);
    for (auto& v : x) v = -v;
    want[1] = 0xB8;
    EXPECT_EQ(quantize(FormatId::IQ4_NL, x), want);
}

TEST(QuantizeEdgeLegacy, Iq4XsAllZeroBlock) {
    // Every sub-scale is 0, so d = -0 / 32 = -0 (0x8000); each 6-bit scale is
    // 0 + 32 (low nibbles 0, high bits 0b10 -> scales_h 0xAAAA); codes 8.
    auto want = bytes({0x00, 0x80, 0xAA, 0xAA, 0x00, 0x00, 0x00, 0x00}, 136, 0x88);
    EXPECT_EQ(quantize(FormatId::IQ4_XS, std::vector<float>(256, 0.0f)), want);
}

TEST(QuantizeEdgeLegacy, Iq4XsSubScaleLadder) {
    // Sub-block s = 0.5 (s + 1) * level[j % 16]: sub-scales 0.5 (s + 1), the
    // largest 4 maps onto -32, d = -4 / 32 = -0.125 (0xB000), 6-bit scales
    // -4 (s + 1) + 32 = 28, 24, ..., 0: low nibbles C 8 4 0 C 8 4 0,
    // high bits 1 1 1 1 0 0 0 0 -> scales_h 0x0055; codes j % 16.
    std::vector<float> x(256);
    for (int s = 0; s < 8; ++s)
        for (int j = 0; j < 32; ++j) x[32 * s + j] = 0.5f * float(s + 1) * float(kLevels[j % 16]);
    auto want = bytes({0x00, 0xB0, 0x55, 0x00, 0x8C, 0x04, 0x8C, 0x04}, 136, 0x00);
    for (int s = 0; s < 8; ++s)
        for (int j = 0; j < 16; ++j) want[8 + 16 * s + j] = uint8_t(j | j << 4);
    EXPECT_EQ(quantize(FormatId::IQ4_XS, x), want);
}

// ------------------------------------------------------------------ MXFP4

TEST(QuantizeEdgeLegacy, Mxfp4ExponentAndTies) {
    EXPECT_EQ(quantize(FormatId::MXFP4, std::vector<float>(32, 0.0f)), bytes({}, 17, 0x00));
    // amax 7: e = floor(log2 7) - 2 + 127 = 127 (scale 1). 7 -> 6 (code 7),
    // -7 -> -6 (code 15), 4 -> code 6; ties go to the lower code: 2.5 -> 2
    // (code 4), -2.5 -> -2 (code 12), +-0.25 -> 0 (code 0, not -0).
    std::vector<float> x(32, 0.0f);
    x[0] = 7.0f;
    x[16] = -7.0f;
    x[1] = 4.0f;
    x[2] = 2.5f;
    x[3] = -2.5f;
    x[4] = 0.25f;
    x[5] = -0.25f;
    EXPECT_EQ(quantize(FormatId::MXFP4, x), bytes({0x7F, 0xF7, 0x06, 0x04, 0x0C}, 17, 0x00));
}

TEST(QuantizeEdgeLegacy, Mxfp4ExtremeExponents) {
    std::vector<float> x(32, 0.0f);
    // Huge: floor(log2 3e38) = 127 -> e = 252; 3e38 / 2^125 = 7.05 -> 6 (code 7).
    x[3] = 3e38f;
    EXPECT_EQ(quantize(FormatId::MXFP4, x), bytes({0xFC, 0x00, 0x00, 0x00, 0x07}, 17, 0x00));
    // Tiny: -126 - 2 + 127 = -1 wraps to e = 255 (scale 2^128), every code 0.
    x[3] = 0x1p-126f;
    EXPECT_EQ(quantize(FormatId::MXFP4, x), bytes({0xFF}, 17, 0x00));
    // Smallest subnormal: -149 - 2 + 127 = -24 wraps to 0xE8.
    x[3] = 0x1p-149f;
    EXPECT_EQ(quantize(FormatId::MXFP4, x), bytes({0xE8}, 17, 0x00));
}

// ------------------------------------------------------------------ NVFP4

TEST(QuantizeEdgeLegacy, Nvfp4SubBlockScales) {
    EXPECT_EQ(quantize(FormatId::NVFP4, std::vector<float>(64, 0.0f)), bytes({}, 36, 0x00));
    // Sub-block 0: amax 6 -> 6/6 = 1 -> 0x38; 6 -> code 7.
    // Sub-block 1: amax 3000 -> 500, clamped to 448 -> 0x7E; 3000 / 448 = 6.7 -> 6 (code 7).
    // Sub-block 2: amax 1.5 * 2^-8 -> 2^-10, UE4M3 subnormal 0x01 (2^-9);
    //              1.5 * 2^-8 = 3 * 2^-9 -> code 5.
    // Sub-block 3: amax 6.375 -> 1.0625, rounded half up to 1.125 (0x39);
    //              6.375 / 1.125 = 5.67 -> 6 (code 7).
    std::vector<float> x(64, 0.0f);
    x[0] = 6.0f;
    x[16] = 3000.0f;
    x[32] = 1.5f * 0x1p-8f;
    x[48] = 6.375f;
    auto want = bytes({0x38, 0x7E, 0x01, 0x39}, 36, 0x00);
    want[4] = 0x07;
    want[12] = 0x07;
    want[20] = 0x05;
    want[28] = 0x07;
    EXPECT_EQ(quantize(FormatId::NVFP4, x), want);
}

TEST(QuantizeEdgeLegacy, Nvfp4SaturationSubnormalAndSigns) {
    // Sub-block 0: 0.03 / 6 = 0.005 -> trunc(0.005 * 512 + 0.5) = 3 (0x03);
    //              0.03 / (3 * 2^-9) = 5.12 -> 6 (code 7).
    // Sub-block 1: 1800 / 6 = 300 >= 256 -> 0x7E (448); +-1800 / 448 = 4.02 -> +-4 (codes 6, 14).
    // Sub-block 2: 1e-9 / 6 rounds to UE4M3 0: scale 0, codes 0.
    // Sub-block 3: amax 6 -> 0x38; -6 -> code 15, 3 -> code 5.
    std::vector<float> x(64, 0.0f);
    x[0] = 0.03f;
    x[16] = 1800.0f;
    x[17] = -1800.0f;
    x[32] = 1e-9f;
    x[48] = -6.0f;
    x[49] = 3.0f;
    auto want = bytes({0x03, 0x7E, 0x00, 0x38}, 36, 0x00);
    want[4] = 0x07;
    want[12] = 0x06;
    want[13] = 0x0E;
    want[28] = 0x0F;
    want[29] = 0x05;
    EXPECT_EQ(quantize(FormatId::NVFP4, x), want);
}

}  // namespace
}  // namespace skn_core
