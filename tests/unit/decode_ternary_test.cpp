// SPDX-License-Identifier: MIT
// Hand-built blocks with known scales and codes: TQ1_0, TQ2_0, I2_S; and I2_S's
// per-tensor quantizer (one scale for all rows, in the trailer after the codes).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "formats/codecs.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "support/block_builder.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;

// TQ1_0 bytes used below, worked out by hand from the rule
// byte = ceil(v * 256 / 243), v = the trits read as a base-3 number, first
// trit most significant (trit 0, 1, 2 = -1, 0, +1):
//   (1,1,1,1,1) v=121 -> 128   (2,0,1,2,0) v=177 -> 187   (0,2,2,0,1) v=73 -> 77
//   (2,2,2,2,2) v=242 -> 255   (0,0,0,0,0) v=0 -> 0
// Tail bytes hold four trits shifted up one digit (v * 3):
//   (2,1,0,2) v=65 -> 206      (0,0,1,1) v=4 -> 13       (1,1,1,1) v=40 -> 127
constexpr size_t kTq1 = 54;

std::vector<uint8_t> tq1_block(float d, uint8_t wide, uint8_t narrow, uint8_t tail) {
    std::vector<uint8_t> b(kTq1);
    for (size_t i = 0; i < 32; ++i) b[i] = wide;
    for (size_t i = 32; i < 48; ++i) b[i] = narrow;
    for (size_t i = 48; i < 52; ++i) b[i] = tail;
    test::put_fp16(b, 52, d);
    return b;
}

TEST(Decode, Tq1_0EveryTritPositionAndGroup) {
    std::vector<uint8_t> b;
    // Block 0: d = 0.25, mostly zero trits.
    auto b0 = tq1_block(0.25f, 128, 128, 127);
    b0[0] = 187;   // wide byte 0: elements 0, 32, 64, 96, 128
    b0[31] = 77;   // wide byte 31: elements 31, 63, 95, 127, 159
    b0[32] = 255;  // narrow byte 0: elements 160, 176, 192, 208, 224
    b0[47] = 0;    // narrow byte 15: elements 175, 191, 207, 223, 239
    b0[48] = 206;  // tail byte 0: elements 240, 244, 248, 252
    b0[51] = 13;   // tail byte 3: elements 243, 247, 251, 255
    // Block 1: negative scale, +1 trits everywhere except wide byte 17 (-1) and a -1 tail.
    auto b1 = tq1_block(-3.0f, 255, 255, 0);
    b1[17] = 0;
    // Block 2: the largest fp16 scale, zero trits except one byte per group.
    auto b2 = tq1_block(65504.0f, 128, 128, 127);
    b2[5] = 255;
    b2[40] = 0;
    b2[50] = 206;
    for (const auto* blk : {&b0, &b1, &b2}) b.insert(b.end(), blk->begin(), blk->end());

    auto v = decode_blocks(FormatId::TQ1_0, b);
    ASSERT_EQ(v.size(), 768u);
    // Block 0, wide group: digit n of byte m is element 32n + m.
    EXPECT_EQ(v[0], 0.25f);
    EXPECT_EQ(v[32], -0.25f);
    EXPECT_EQ(v[64], 0.0f);
    EXPECT_EQ(v[96], 0.25f);
    EXPECT_EQ(v[128], -0.25f);
    EXPECT_EQ(v[31], -0.25f);
    EXPECT_EQ(v[63], 0.25f);
    EXPECT_EQ(v[95], 0.25f);
    EXPECT_EQ(v[127], -0.25f);
    EXPECT_EQ(v[159], 0.0f);
    EXPECT_EQ(v[1], 0.0f);
    EXPECT_EQ(v[158], 0.0f);
    // Narrow group: digit n of byte 32 + m is element 160 + 16n + m.
    for (int n = 0; n < 5; ++n) {
        EXPECT_EQ(v[size_t(160 + 16 * n)], 0.25f) << n;
        EXPECT_EQ(v[size_t(175 + 16 * n)], -0.25f) << n;
        EXPECT_EQ(v[size_t(161 + 16 * n)], 0.0f) << n;
    }
    // Tail: digit n of byte 48 + j is element 240 + 4n + j.
    EXPECT_EQ(v[240], 0.25f);
    EXPECT_EQ(v[244], 0.0f);
    EXPECT_EQ(v[248], -0.25f);
    EXPECT_EQ(v[252], 0.25f);
    EXPECT_EQ(v[243], -0.25f);
    EXPECT_EQ(v[247], -0.25f);
    EXPECT_EQ(v[251], 0.0f);
    EXPECT_EQ(v[255], 0.0f);
    EXPECT_EQ(v[241], 0.0f);
    EXPECT_EQ(v[254], 0.0f);
    // Block 1: trit +1 times -3 is -3; trit -1 is +3.
    EXPECT_EQ(v[256 + 0], -3.0f);
    EXPECT_EQ(v[256 + 17], 3.0f);
    EXPECT_EQ(v[256 + 49], 3.0f);
    EXPECT_EQ(v[256 + 145], 3.0f);
    EXPECT_EQ(v[256 + 18], -3.0f);
    EXPECT_EQ(v[256 + 239], -3.0f);
    EXPECT_EQ(v[256 + 240], 3.0f);
    EXPECT_EQ(v[256 + 255], 3.0f);
    // Block 2.
    for (int n = 0; n < 5; ++n) {
        EXPECT_EQ(v[size_t(512 + 5 + 32 * n)], 65504.0f) << n;
        EXPECT_EQ(v[size_t(512 + 168 + 16 * n)], -65504.0f) << n;
    }
    EXPECT_EQ(v[512 + 242], 65504.0f);
    EXPECT_EQ(v[512 + 246], 0.0f);
    EXPECT_EQ(v[512 + 250], -65504.0f);
    EXPECT_EQ(v[512 + 254], 65504.0f);
    EXPECT_EQ(v[512 + 4], 0.0f);
    EXPECT_EQ(v[512 + 243], 0.0f);
}

TEST(Quantize, Tq1_0PacksTritsMostSignificantFirst) {
    // Ternary input with a = 0.25: the reference writes exactly the bytes of
    // block 0 above for the same trits.
    std::vector<float> x(256, 0.0f);
    const float a = 0.25f;
    x[0] = a, x[32] = -a, x[64] = 0.0f, x[96] = a, x[128] = -a;  // (2,0,1,2,0) -> 187
    x[240] = a, x[244] = 0.0f, x[248] = -a, x[252] = a;         // tail (2,1,0,2) -> 206
    std::vector<uint8_t> q(kTq1, 0xEE);
    codec::quantize_row_tq1_0(x.data(), 256, q.data());
    EXPECT_EQ(q[0], 187);
    for (size_t i = 1; i < 48; ++i) EXPECT_EQ(q[i], 128) << i;
    EXPECT_EQ(q[48], 206);
    for (size_t i = 49; i < 52; ++i) EXPECT_EQ(q[i], 127) << i;
    EXPECT_EQ(q[52], 0x00);  // fp16 0.25 = 0x3400
    EXPECT_EQ(q[53], 0x34);
}

TEST(Decode, Tq2_0EveryCodeAndBitPair) {
    std::vector<uint8_t> b(3 * 66, 0);
    // Block 0: d = 0.5, every byte 0xE4: bit pairs l = 0..3 hold codes 0, 1, 2, 3.
    for (size_t i = 0; i < 64; ++i) b[i] = 0xE4;
    test::put_fp16(b, 64, 0.5f);
    // Block 1: d = -2; first half code 0 except byte 5, second half code 1 except byte 40.
    for (size_t i = 66 + 32; i < 66 + 64; ++i) b[i] = 0x55;
    b[66 + 5] = 0x1B;   // codes 3, 2, 1, 0 for l = 0..3
    b[66 + 40] = 0x96;  // codes 2, 1, 1, 2
    test::put_fp16(b, 66 + 64, -2.0f);
    // Block 2: the smallest fp16 subnormal scale, code 3 except the last byte.
    for (size_t i = 132; i < 132 + 63; ++i) b[i] = 0xFF;
    test::put_fp16(b, 132 + 64, 0x1p-24f);

    auto v = decode_blocks(FormatId::TQ2_0, b);
    ASSERT_EQ(v.size(), 768u);
    // Element 128h + 32l + m is bit pair l of byte 32h + m; value (code - 1) * d.
    EXPECT_EQ(v[0], -0.5f);
    EXPECT_EQ(v[31], -0.5f);
    EXPECT_EQ(v[32], 0.0f);
    EXPECT_EQ(v[63], 0.0f);
    EXPECT_EQ(v[64], 0.5f);
    EXPECT_EQ(v[95], 0.5f);
    EXPECT_EQ(v[96], 1.0f);  // code 3 = +2d
    EXPECT_EQ(v[127], 1.0f);
    EXPECT_EQ(v[128], -0.5f);
    EXPECT_EQ(v[160], 0.0f);
    EXPECT_EQ(v[192], 0.5f);
    EXPECT_EQ(v[255], 1.0f);
    // Block 1.
    EXPECT_EQ(v[256 + 0], 2.0f);
    EXPECT_EQ(v[256 + 127], 2.0f);
    EXPECT_EQ(v[256 + 5], -4.0f);
    EXPECT_EQ(v[256 + 37], -2.0f);
    EXPECT_EQ(v[256 + 69], 0.0f);
    EXPECT_EQ(v[256 + 101], 2.0f);
    EXPECT_EQ(v[256 + 128], 0.0f);
    EXPECT_EQ(v[256 + 136], -2.0f);
    EXPECT_EQ(v[256 + 168], 0.0f);
    EXPECT_EQ(v[256 + 200], 0.0f);
    EXPECT_EQ(v[256 + 232], -2.0f);
    EXPECT_EQ(v[256 + 255], 0.0f);
    // Block 2.
    EXPECT_EQ(v[512 + 0], 0x1p-23f);
    EXPECT_EQ(v[512 + 128 + 30], 0x1p-23f);
    for (int l = 0; l < 4; ++l) EXPECT_EQ(v[size_t(512 + 128 + 32 * l + 31)], -0x1p-24f) << l;
}

// ---- I2_S -------------------------------------------------------------------

TEST(Decode, I2_SUsesTheTensorScaleAndMapsCode3ToZero) {
    std::vector<uint8_t> b(3 * 32, 0);
    // Block 0: every byte 0x1B: codes 0, 1, 2, 3 for the quarters 0..3.
    for (size_t i = 0; i < 32; ++i) b[i] = 0x1B;
    // Block 1: code 1 (zero) except bytes 7 and 31.
    for (size_t i = 32; i < 64; ++i) b[i] = 0x55;
    b[32 + 7] = 0x9C;   // codes 2, 1, 3, 0
    b[32 + 31] = 0x60;  // codes 1, 2, 0, 0
    // Block 2: code 2 (+1) everywhere.
    for (size_t i = 64; i < 96; ++i) b[i] = 0xAA;

    auto v = decode_blocks(FormatId::I2_S, b, 1.5f);
    ASSERT_EQ(v.size(), 384u);
    // Element 32g + p is bits 7-2g..6-2g of byte p.
    EXPECT_EQ(v[0], -1.5f);
    EXPECT_EQ(v[31], -1.5f);
    EXPECT_EQ(v[32], 0.0f);
    EXPECT_EQ(v[64], 1.5f);
    EXPECT_EQ(v[95], 1.5f);
    EXPECT_EQ(v[96], 0.0f);  // code 3 decodes to 0, as bitnet.cpp's dequantizer does
    EXPECT_EQ(v[127], 0.0f);
    EXPECT_EQ(v[128 + 7], 1.5f);
    EXPECT_EQ(v[128 + 39], 0.0f);
    EXPECT_EQ(v[128 + 71], 0.0f);
    EXPECT_EQ(v[128 + 103], -1.5f);
    EXPECT_EQ(v[128 + 31], 0.0f);
    EXPECT_EQ(v[128 + 63], 1.5f);
    EXPECT_EQ(v[128 + 95], -1.5f);
    EXPECT_EQ(v[128 + 127], -1.5f);
    EXPECT_EQ(v[128 + 6], 0.0f);
    EXPECT_EQ(v[256 + 0], 1.5f);
    EXPECT_EQ(v[256 + 127], 1.5f);

    auto w = decode_blocks(FormatId::I2_S, b, -0.5f);
    EXPECT_EQ(w[0], 0.5f);
    EXPECT_EQ(w[64], -0.5f);
    EXPECT_EQ(w[256 + 100], -0.5f);
}

TEST(Quantize, I2_SOneScalePerTensorInTheTrailer) {
    // 3 rows x 256: six blocks (192 code bytes), then the 32-byte trailer.
    const int64_t rows = 3, cols = 256;
    const FormatTraits& f = *find_format(FormatId::I2_S);
    const size_t n = quantized_size(f, rows, cols);
    ASSERT_EQ(n, 224u);
    // Quarter g of every block holds +0.5, 0, -0.5, +0.5: codes 2, 1, 0, 2 = byte 0x92.
    std::vector<float> w(size_t(rows * cols));
    const float quarter_value[4] = {0.5f, 0.0f, -0.5f, 0.5f};
    for (size_t i = 0; i < w.size(); ++i) w[i] = quarter_value[(i % 128) / 32];
    w[2 * 256 + 200] = -4.0f;  // the tensor's max |w| is in the LAST row: scale 4
    w[0 * 256 + 5] = 3e-7f;    // below 1e-6: code 1 although non-zero
    w[1 * 256 + 0] = 1e-6f;    // the float nearest 1e-6 is below the double 1e-6: code 1
    w[1 * 256 + 33] = -1.01e-6f;  // above the threshold: its sign, code 0
    w[0 * 256 + 128] = -0.0f;  // zero of either sign is code 1

    std::vector<uint8_t> q(n, 0xEE);
    quantize_tensor(f, w.data(), rows, cols, q.data(), q.size());
    for (size_t i = 0; i < 192; ++i) {
        uint8_t expect = 0x92;
        if (i == 5 || i == 64 || i == 32) expect = 0x52;  // quarter 0 -> code 1
        if (i == 65) expect = 0x82;                        // quarter 1 -> code 0
        EXPECT_EQ(q[i], expect) << "byte " << i;
    }
    // Trailer: float32 4.0 little-endian, then zeros.
    EXPECT_EQ(q[192], 0x00);
    EXPECT_EQ(q[193], 0x00);
    EXPECT_EQ(q[194], 0x80);
    EXPECT_EQ(q[195], 0x40);
    for (size_t i = 196; i < 224; ++i) EXPECT_EQ(q[i], 0) << "trailer byte " << i;
    EXPECT_EQ(codec::read_tensor_scale_i2_s(q.data() + 192), 4.0f);

    std::vector<float> d(w.size());
    dequantize_tensor(f, q.data(), q.size(), rows, cols, d.data(), d.size());
    EXPECT_EQ(d[0], 4.0f);
    EXPECT_EQ(d[5], 0.0f);
    EXPECT_EQ(d[32], 0.0f);
    EXPECT_EQ(d[64], -4.0f);
    EXPECT_EQ(d[96], 4.0f);
    EXPECT_EQ(d[128], 0.0f);
    EXPECT_EQ(d[256 + 0], 0.0f);
    EXPECT_EQ(d[256 + 33], -4.0f);
    EXPECT_EQ(d[512 + 200], -4.0f);
    EXPECT_EQ(d[512 + 255], 4.0f);
}

TEST(Quantize, I2_SAllZeroTensor) {
    const FormatTraits& f = *find_format(FormatId::I2_S);
    std::vector<float> w(2 * 128, 0.0f);
    std::vector<uint8_t> q(quantized_size(f, 2, 128), 0xEE);
    ASSERT_EQ(q.size(), 96u);
    quantize_tensor(f, w.data(), 2, 128, q.data(), q.size());
    for (size_t i = 0; i < 64; ++i) EXPECT_EQ(q[i], 0x55) << i;
    for (size_t i = 64; i < 96; ++i) EXPECT_EQ(q[i], 0) << i;
}

}  // namespace
}  // namespace skn_core
