// SPDX-License-Identifier: MIT
// I2_S_G64 (bitnet.cpp's arm64 I2_S layout) against hand-placed codes, and
// the conversion between it and I2_S (the x86 layout): the same codes and
// trailer in another order, never one read as the other.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/codecs.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "skn/skn.h"  // SKN_FORMAT_I2_S_G64
#include "support/block_builder.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;

// Element e of a tensor in each layout: (byte, shift) of its code.
std::pair<size_t, int> g64_place(size_t e) { return {e / 64 * 16 + e % 16, 6 - 2 * int((e % 64) / 16)}; }
std::pair<size_t, int> x86_place(size_t e) { return {e / 128 * 32 + e % 32, 6 - 2 * int((e % 128) / 32)}; }

// A code per element that differs between neighbours and between quarters.
int code_of(size_t e) { return int((e * 7 + e / 16) % 3); }

std::vector<uint8_t> pack(size_t elements, std::pair<size_t, int> (*place)(size_t), float scale) {
    std::vector<uint8_t> b(elements / 4 + 32, 0);
    for (size_t e = 0; e < elements; ++e) {
        const auto [byte, shift] = place(e);
        b[byte] = uint8_t(b[byte] | code_of(e) << shift);
    }
    std::memcpy(b.data() + elements / 4, &scale, 4);
    for (size_t i = elements / 4 + 4; i < b.size(); ++i) b[i] = uint8_t(0xC0 + i % 32);  // trailer padding is copied too
    return b;
}

TEST(I2sG64, FormatRow) {
    const FormatTraits& f = *find_format(FormatId::I2_S_G64);
    EXPECT_STREQ(f.name, "I2_S_G64");
    EXPECT_EQ(f.block_elems, 64);
    EXPECT_EQ(f.block_bytes, 16);
    EXPECT_EQ(f.tensor_trailer_bytes, 32);
    EXPECT_EQ(f.activation, FormatId::Q8_0);
    EXPECT_EQ(int(FormatId::I2_S_G64), int(SKN_FORMAT_I2_S_G64));
    EXPECT_FALSE(is_gguf_type_id(int32_t(FormatId::I2_S_G64)));
    // Same size as I2_S for any whole tensor: why a GGUF file must say which.
    EXPECT_EQ(quantized_size(f, 3, 384), quantized_size(*find_format(FormatId::I2_S), 3, 384));
}

TEST(I2sG64, ByteKHoldsElementsKKPlus16KPlus32KPlus48TopFirst) {
    // Three blocks: byte 0 of block 0 = elements 0, 16, 32, 48 = codes 2, 1, 0, 2.
    std::vector<uint8_t> b(48, 0x55);  // all code 1 (zero)
    b[0] = 0x92;
    b[15] = 0x09;        // elements 15, 31, 47, 63 = codes 0, 0, 2, 1
    b[16 + 3] = 0x2a;    // block 1: elements 3, 19, 35, 51 = 0, 2, 2, 2
    b[32 + 8] = 0xff;    // block 2: code 3 everywhere in byte 8: decodes to 0
    const auto v = decode_blocks(FormatId::I2_S_G64, b, 2.0f);
    ASSERT_EQ(v.size(), 192u);
    EXPECT_EQ(v[0], 2.0f);
    EXPECT_EQ(v[16], 0.0f);
    EXPECT_EQ(v[32], -2.0f);
    EXPECT_EQ(v[48], 2.0f);
    EXPECT_EQ(v[15], -2.0f);
    EXPECT_EQ(v[31], -2.0f);
    EXPECT_EQ(v[47], 2.0f);
    EXPECT_EQ(v[63], 0.0f);
    EXPECT_EQ(v[64 + 3], -2.0f);
    EXPECT_EQ(v[64 + 19], 2.0f);
    EXPECT_EQ(v[64 + 51], 2.0f);
    EXPECT_EQ(v[128 + 8], 0.0f);
    EXPECT_EQ(v[128 + 56], 0.0f);
    EXPECT_EQ(v[1], 0.0f);
}

TEST(I2sG64, DecodesHandPackedCodesAndMatchesI2sOfTheSameCodes) {
    const size_t elements = 3 * 256;  // three rows of 256: 12 blocks of 64
    const auto g64 = pack(elements, g64_place, 0.75f);
    const auto x86 = pack(elements, x86_place, 0.75f);
    std::vector<float> a(elements), b(elements);
    dequantize_tensor(*find_format(FormatId::I2_S_G64), g64.data(), g64.size(), 3, 256, a.data(), a.size());
    dequantize_tensor(*find_format(FormatId::I2_S), x86.data(), x86.size(), 3, 256, b.data(), b.size());
    const float value[3] = {-0.75f, 0.0f, 0.75f};
    for (size_t e = 0; e < elements; ++e) {
        ASSERT_EQ(a[e], value[code_of(e)]) << "element " << e;
        ASSERT_EQ(a[e], b[e]) << "element " << e;
    }
}

TEST(I2sG64, ChangeLayoutBothWaysIsExact) {
    const size_t elements = 2 * 384;
    const auto g64 = pack(elements, g64_place, -1.25f);
    const auto x86 = pack(elements, x86_place, -1.25f);
    std::vector<uint8_t> out(g64.size(), 0xEE);
    codec::i2_s_to_g64(x86.data(), int64_t(elements), out.data());
    EXPECT_EQ(out, g64);
    std::fill(out.begin(), out.end(), 0xEE);
    codec::i2_s_g64_to_i2_s(g64.data(), int64_t(elements), out.data());
    EXPECT_EQ(out, x86);
}

TEST(I2sG64, QuantizerIsI2sQuantizerInTheArmLayout) {
    // bitnet.cpp's arm64 quantize_i2_s differs from its x86 one in the packing only.
    const int64_t rows = 5, cols = 384;
    std::vector<float> w(size_t(rows * cols));
    sample_weight(w.data(), rows, cols, 7);
    w[17] = 3e-7f;  // below the zero threshold
    w[300] = -0.0f;
    const FormatTraits& x86 = *find_format(FormatId::I2_S);
    const FormatTraits& g64 = *find_format(FormatId::I2_S_G64);
    std::vector<uint8_t> qx(quantized_size(x86, rows, cols)), qg(quantized_size(g64, rows, cols), 0xEE);
    quantize_tensor(x86, w.data(), rows, cols, qx.data(), qx.size());
    quantize_tensor(g64, w.data(), rows, cols, qg.data(), qg.size());
    std::vector<uint8_t> converted(qx.size());
    codec::i2_s_to_g64(qx.data(), rows * cols, converted.data());
    EXPECT_EQ(qg, converted);
}

}  // namespace
}  // namespace skn_core
