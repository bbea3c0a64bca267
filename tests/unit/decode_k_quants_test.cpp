// SPDX-License-Identifier: MIT
// Hand-built K-quant super-blocks (Q2_K .. Q8_K) with known scales and codes.
//
// Every expected float below was worked out from the layout in
// docs/formats/k_quants.md (element -> sub-block -> scale/min, element ->
// byte/bit of its code), not by running a decoder. Each test decodes three
// super-blocks and checks, per block, one element of every sub-block (the
// "diagonal" e = 17*j for 16-element sub-blocks, the first/last-ish ones for
// 32-element sub-blocks) plus the elements whose bytes were specially set.
// Values are compared bit for bit, so the sign of a zero counts too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "formats/half.hpp"
#include "support/block_builder.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;
using test::put_fp16;

struct Expect {
    int element;  // index inside the super-block
    float value;
};

void expect_block(const std::vector<float>& v, int block, std::initializer_list<Expect> expected) {
    ASSERT_GE(v.size(), size_t(256 * (block + 1)));
    for (const Expect& e : expected) {
        const float got = v[size_t(256 * block + e.element)];
        EXPECT_EQ(f32_bits(got), f32_bits(e.value))
            << "block " << block << " element " << e.element << ": got " << got << ", expected " << e.value;
    }
}

void fill(std::vector<uint8_t>& b, size_t from, size_t count, uint8_t value) {
    std::fill(b.begin() + ptrdiff_t(from), b.begin() + ptrdiff_t(from + count), value);
}

void put_bytes(std::vector<uint8_t>& b, size_t at, std::initializer_list<uint8_t> bytes) {
    std::copy(bytes.begin(), bytes.end(), b.begin() + ptrdiff_t(at));
}

// ---------------------------------------------------------------------------
// Q2_K: scales[16] @0 (low nibble scale, high nibble min), qs[64] @16,
// d @80, dmin @82. Element e: sub-block e/16; code = bits 2k..2k+1 of
// qs[32*(e/128) + e%32] with k = (e%128)/32.
TEST(DecodeKQuants, Q2_KScalesMinsAndTwoBitPlanes) {
    constexpr size_t B = 84;
    std::vector<uint8_t> b(3 * B, 0);
    // Block 0: d = 0.5, dmin = 0.25, sub-block j has scale j and min 15 - j.
    // Plane bytes 0xE4 = codes (0,1,2,3) for k = 0..3 in the first half,
    // 0x1B = (3,2,1,0) in the second; bytes 5 and 41 are odd ones out.
    for (int j = 0; j < 16; ++j) b[size_t(j)] = uint8_t(j | ((15 - j) << 4));
    fill(b, 16, 32, 0xE4);
    fill(b, 48, 32, 0x1B);
    b[16 + 5] = 0x93;   // elements 5, 37, 69, 101 -> codes 3, 0, 1, 2
    b[16 + 41] = 0x6C;  // elements 137, 169, 201, 233 -> codes 0, 3, 2, 1
    put_fp16(b, 80, 0.5f);
    put_fp16(b, 82, 0.25f);
    // Block 1: negative d and dmin; scale 15 - j, min j; every code 3 except
    // plane byte 63 (elements 159, 191, 223, 255 -> code 0).
    for (int j = 0; j < 16; ++j) b[B + size_t(j)] = uint8_t((15 - j) | (j << 4));
    fill(b, B + 16, 64, 0xFF);
    b[B + 16 + 63] = 0x00;
    put_fp16(b, B + 80, -2.0f);
    put_fp16(b, B + 82, -1.0f);
    // Block 2: even sub-blocks scale 15 / min 0, odd ones scale 0 / min 1;
    // plane bytes 0x39 = codes (1,2,3,0).
    for (int j = 0; j < 16; ++j) b[2 * B + size_t(j)] = j % 2 == 0 ? 0x0F : 0x10;
    fill(b, 2 * B + 16, 64, 0x39);
    put_fp16(b, 2 * B + 80, 0.125f);
    put_fp16(b, 2 * B + 82, 8.0f);

    const auto v = decode_blocks(FormatId::Q2_K, b);
    ASSERT_EQ(v.size(), 768u);
    expect_block(v, 0, {{0, -3.75f},   {5, -3.75f},   {17, -3.5f},  {34, -2.25f},  {37, -3.25f},  {51, -1.5f},
                        {68, 1.25f},   {69, -0.75f},  {85, 2.5f},   {101, 3.75f},  {102, 6.75f},  {119, 8.5f},
                        {136, 10.25f}, {137, -1.75f}, {153, 12.0f}, {169, 13.75f}, {170, 8.75f},  {187, 10.0f},
                        {201, 11.25f}, {204, 5.25f},  {221, 6.0f},  {233, 6.75f},  {238, -0.25f}, {255, 0.0f}});
    expect_block(v, 1, {{0, -90.0f},  {17, -83.0f},  {34, -76.0f},  {51, -69.0f},  {68, -62.0f},
                        {85, -55.0f}, {102, -48.0f}, {119, -41.0f}, {136, -34.0f}, {153, -27.0f},
                        {158, -27.0f}, {159, 9.0f},  {170, -20.0f}, {187, -13.0f}, {191, 11.0f},
                        {204, -6.0f}, {221, 1.0f},   {223, 13.0f},  {238, 8.0f},   {255, 15.0f}});
    expect_block(v, 2, {{0, 1.875f},  {17, -8.0f},   {32, 3.75f},   {34, 3.75f},   {51, -8.0f},  {64, 5.625f},
                        {68, 5.625f}, {85, -8.0f},   {96, 0.0f},    {102, 0.0f},   {119, -8.0f}, {128, 1.875f},
                        {136, 1.875f}, {153, -8.0f}, {160, 3.75f},  {170, 3.75f},  {187, -8.0f}, {192, 5.625f},
                        {204, 5.625f}, {221, -8.0f}, {224, 0.0f},   {238, 0.0f},   {255, -8.0f}});
}

// ---------------------------------------------------------------------------
// Q3_K: hmask[32] @0, qs[64] @32, scales[12] @96, d @108. Sub-block j's
// 6-bit scale (biased by 32): low nibble in byte j (j < 8) or the high nibble
// of byte j-8, top two bits at bits 2*(j/4) of byte 8 + j%4. Code = low two
// bits (as in Q2_K) minus 4 unless bit e/32 of hmask[e%32] is set.
TEST(DecodeKQuants, Q3_KPackedScalesAndHighBitMask) {
    constexpr size_t B = 110;
    std::vector<uint8_t> b(3 * B, 0);
    // Block 0: biased scales {0,63,1,62, 17,46,32,31, 48,15,5,58, 33,30,16,47}
    // (signed -32,31,-31,30, -15,14,0,-1, 16,-17,-27,26, 1,-2,-16,15) exercise
    // every nibble and high-bit position. hmask 0x55: groups 0,2,4,6 of 32
    // elements have the high bit. Low codes 0..3 per group (0xE4 / 0x1B).
    fill(b, 0, 32, 0x55);
    fill(b, 32, 32, 0xE4);
    fill(b, 64, 32, 0x1B);
    put_bytes(b, 96, {0x00, 0xff, 0x51, 0xae, 0x11, 0xee, 0x00, 0xff, 0xb4, 0x4b, 0x48, 0xb7});
    put_fp16(b, 108, 0.25f);
    // Block 1: d = -1.5, signed scales j - 8; every high bit set except bits
    // 4-7 of hmask[3] (elements 131, 163, 195, 227); low codes all 0 except
    // plane bytes 3 (0xFF: elements 3, 35, 67, 99 -> 3) and 35 (0x9C:
    // elements 131, 163, 195, 227 -> 0, 3, 1, 2).
    fill(b, B, 32, 0xFF);
    b[B + 3] = 0x0F;
    b[B + 32 + 3] = 0xFF;
    b[B + 32 + 35] = 0x9C;
    put_bytes(b, B + 96, {0x08, 0x19, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 0x7f, 0xa5, 0xa5, 0xa5, 0xa5});
    put_fp16(b, B + 108, -1.5f);
    // Block 2: d = 2, biased scales 63 - 4j, no high bits, low codes all 3:
    // every element is -1 * d * (scale - 32).
    fill(b, 2 * B + 32, 64, 0xFF);
    put_bytes(b, 2 * B + 96, {0xff, 0xbb, 0x77, 0x33, 0xff, 0xbb, 0x77, 0x33, 0x1b, 0x1b, 0x1b, 0x1b});
    put_fp16(b, 2 * B + 108, 2.0f);

    const auto v = decode_blocks(FormatId::Q3_K, b);
    ASSERT_EQ(v.size(), 768u);
    expect_block(v, 0, {{0, -0.0f},    {15, -0.0f},   {17, 0.0f},    {31, 0.0f},    {34, 23.25f},  {47, 23.25f},
                        {51, -22.5f},  {63, -22.5f},  {68, -7.5f},   {79, -7.5f},   {85, 7.0f},    {95, 7.0f},
                        {102, -0.0f},  {111, -0.0f},  {119, 0.25f},  {127, 0.25f},  {136, 12.0f},  {143, 12.0f},
                        {153, -12.75f}, {159, -12.75f}, {170, 13.5f}, {175, 13.5f}, {187, -13.0f}, {191, -13.0f},
                        {204, 0.25f},  {207, 0.25f},  {221, -0.5f},  {223, -0.5f},  {238, 16.0f},  {239, 16.0f},
                        {255, -15.0f}});
    expect_block(v, 1, {{0, 0.0f},    {3, 36.0f},   {17, 0.0f},    {34, 0.0f},    {35, 27.0f},  {51, 0.0f},
                        {67, 18.0f},  {68, 0.0f},   {85, 0.0f},    {99, 9.0f},    {102, 0.0f},  {119, 0.0f},
                        {131, 0.0f},  {136, -0.0f}, {153, -0.0f},  {163, 3.0f},   {170, -0.0f}, {187, -0.0f},
                        {195, 18.0f}, {204, -0.0f}, {221, -0.0f},  {227, 18.0f},  {238, -0.0f}, {255, -0.0f}});
    expect_block(v, 2, {{0, -62.0f},  {17, -54.0f}, {34, -46.0f},  {51, -38.0f},  {68, -30.0f},  {85, -22.0f},
                        {102, -14.0f}, {119, -6.0f}, {136, 2.0f},  {153, 10.0f},  {170, 18.0f},  {187, 26.0f},
                        {204, 34.0f}, {221, 42.0f}, {238, 50.0f},  {255, 58.0f}});
}

// ---------------------------------------------------------------------------
// Q4_K / Q5_K scale bytes (12 @4): pairs 0-3 in the low 6 bits of bytes 0-3
// (scale) and 4-7 (min); pairs 4-7 have their low nibbles in bytes 8-11
// (scale low, min high) and their top two bits in bits 6-7 of bytes 0-3
// (scale) and 4-7 (min).
//   A: scales {1,63,17,32, 48,5,63,16}  mins {0,2,63,40, 33,62,15,31}
//   B: scales {7,15,23,31, 39,47,55,63} mins {63,55,47,39, 31,23,15,7}
//   C: scales {40,0,40,0, 40,0,40,0}    mins all 63
//   D: scales all 3                     mins {1,2,3,4, 5,6,7,8}
constexpr std::initializer_list<uint8_t> kScalesA = {0xc1, 0x3f, 0xd1, 0x60, 0x80, 0xc2,
                                                     0x3f, 0x68, 0x10, 0xe5, 0xff, 0xf0};
constexpr std::initializer_list<uint8_t> kScalesB = {0x87, 0x8f, 0xd7, 0xdf, 0x7f, 0x77,
                                                     0x2f, 0x27, 0xf7, 0x7f, 0xf7, 0x7f};
constexpr std::initializer_list<uint8_t> kScalesC = {0xa8, 0x00, 0xa8, 0x00, 0xff, 0xff,
                                                     0xff, 0xff, 0xf8, 0xf0, 0xf8, 0xf0};
constexpr std::initializer_list<uint8_t> kScalesD = {0x03, 0x03, 0x03, 0x03, 0x01, 0x02,
                                                     0x03, 0x04, 0x53, 0x63, 0x73, 0x83};

// Q4_K: d @0, dmin @2, scales @4, qs[128] @16. Element e: sub-block e/32;
// code = low (e%64 < 32) or high nibble of qs[32*(e/64) + e%32].
TEST(DecodeKQuants, Q4_KSixBitScaleMinPacking) {
    constexpr size_t B = 144;
    std::vector<uint8_t> b(3 * B, 0);
    // Block 0: d = 0.5, dmin = 0.125, scales A, qs[i] = i.
    put_fp16(b, 0, 0.5f);
    put_fp16(b, 2, 0.125f);
    put_bytes(b, 4, kScalesA);
    for (int i = 0; i < 128; ++i) b[16 + size_t(i)] = uint8_t(i);
    // Block 1: negative d and dmin, scales B, codes 0 / 15 in alternate sub-blocks.
    put_fp16(b, B, -1.0f);
    put_fp16(b, B + 2, -0.5f);
    put_bytes(b, B + 4, kScalesB);
    fill(b, B + 16, 128, 0xF0);
    // Block 2: dmin = 0, scales C (odd sub-blocks have scale 0), codes 10 / 5.
    put_fp16(b, 2 * B, 0.25f);
    put_fp16(b, 2 * B + 2, 0.0f);
    put_bytes(b, 2 * B + 4, kScalesC);
    fill(b, 2 * B + 16, 128, 0x5A);

    const auto v = decode_blocks(FormatId::Q4_K, b);
    ASSERT_EQ(v.size(), 768u);
    expect_block(v, 0, {{0, 0.0f},      {31, 7.5f},     {33, -0.25f},  {63, 31.25f},  {66, 9.125f},  {95, 119.625f},
                        {99, 27.0f},    {127, 43.0f},   {132, 91.875f}, {159, 355.875f}, {165, 2.25f}, {191, 4.75f},
                        {198, 187.125f}, {223, 470.625f}, {231, 44.125f}, {255, 52.125f}});
    expect_block(v, 1, {{0, 31.5f},     {31, 31.5f},    {33, -197.5f},  {63, -197.5f},  {66, 23.5f},   {95, 23.5f},
                        {99, -445.5f},  {127, -445.5f}, {132, 15.5f},   {159, 15.5f},   {165, -693.5f}, {191, -693.5f},
                        {198, 7.5f},    {223, 7.5f},    {231, -941.5f}, {255, -941.5f}});
    expect_block(v, 2, {{0, 100.0f},  {31, 100.0f}, {33, 0.0f},  {63, 0.0f},  {66, 100.0f},  {95, 100.0f},
                        {99, 0.0f},   {127, 0.0f},  {132, 100.0f}, {159, 100.0f}, {165, 0.0f}, {191, 0.0f},
                        {198, 100.0f}, {223, 100.0f}, {231, 0.0f}, {255, 0.0f}});
}

// Q5_K: d @0, dmin @2, scales @4, qh[32] @16, qs[128] @48. Code = Q4_K's
// nibble + 16 if bit e/32 of qh[e%32] is set.
TEST(DecodeKQuants, Q5_KHighBitsOnTopOfNibbles) {
    constexpr size_t B = 176;
    std::vector<uint8_t> b(3 * B, 0);
    // Block 0: as Q4_K block 0, plus qh[l] = 1 << (l % 8): element e has the
    // high bit iff e/32 == (e%32) % 8 (e.g. 0, 8, 33, 41, 66, 74, ...).
    put_fp16(b, 0, 0.5f);
    put_fp16(b, 2, 0.125f);
    put_bytes(b, 4, kScalesA);
    for (int l = 0; l < 32; ++l) b[16 + size_t(l)] = uint8_t(1u << (l % 8));
    for (int i = 0; i < 128; ++i) b[48 + size_t(i)] = uint8_t(i);
    // Block 1: scales B, negative d and dmin, every high bit set, codes 31 / 16.
    put_fp16(b, B, -1.0f);
    put_fp16(b, B + 2, -0.5f);
    put_bytes(b, B + 4, kScalesB);
    fill(b, B + 16, 32, 0xFF);
    fill(b, B + 48, 128, 0x0F);
    // Block 2: scales D, high bit only in odd sub-blocks (qh = 0xAA), low nibbles 0.
    put_fp16(b, 2 * B, 0.25f);
    put_fp16(b, 2 * B + 2, 0.0625f);
    put_bytes(b, 2 * B + 4, kScalesD);
    fill(b, 2 * B + 16, 32, 0xAA);

    const auto v = decode_blocks(FormatId::Q5_K, b);
    ASSERT_EQ(v.size(), 768u);
    expect_block(v, 0, {{0, 8.0f},       {8, 12.0f},      {31, 7.5f},      {33, 503.75f},  {41, 503.75f},
                        {63, 31.25f},    {66, 145.125f},  {74, 213.125f},  {95, 119.625f}, {99, 283.0f},
                        {107, 283.0f},   {127, 43.0f},    {132, 475.875f}, {140, 667.875f}, {159, 355.875f},
                        {165, 42.25f},   {173, 42.25f},   {191, 4.75f},    {198, 691.125f}, {206, 943.125f},
                        {223, 470.625f}, {231, 172.125f}, {239, 172.125f}, {255, 180.125f}});
    expect_block(v, 1, {{0, -185.5f},   {31, -185.5f},   {33, -212.5f},  {63, -212.5f},  {66, -689.5f},
                        {95, -689.5f},  {99, -476.5f},   {127, -476.5f}, {132, -1193.5f}, {159, -1193.5f},
                        {165, -740.5f}, {191, -740.5f},  {198, -1697.5f}, {223, -1697.5f}, {231, -1004.5f},
                        {255, -1004.5f}});
    expect_block(v, 2, {{0, -0.0625f},  {31, -0.0625f},  {33, 11.875f},  {63, 11.875f},  {66, -0.1875f},
                        {95, -0.1875f}, {99, 11.75f},    {127, 11.75f},  {132, -0.3125f}, {159, -0.3125f},
                        {165, 11.625f}, {191, 11.625f},  {198, -0.4375f}, {223, -0.4375f}, {231, 11.5f},
                        {255, 11.5f}});
}

// ---------------------------------------------------------------------------
// Q6_K: ql[128] @0, qh[64] @128, int8 scales[16] @192, d @208. In each
// 128-element half, element 32k + l takes its low nibble from
// ql[64*half + 32*(k&1) + l] (low nibble for k < 2, high for k >= 2) and its
// top two bits from bits 2k of qh[32*half + l]; value d * scale * (code - 32).
TEST(DecodeKQuants, Q6_KNibblesHighPairsAndSignedScales) {
    constexpr size_t B = 210;
    std::vector<uint8_t> b(3 * B, 0);
    // Block 0: d = 0.5, extreme and signed scales, ql[i] = i, qh all 0xE4
    // (top bits = k: 0, 1, 2, 3 for the four 32-element groups of a half).
    for (int i = 0; i < 128; ++i) b[size_t(i)] = uint8_t(i);
    fill(b, 128, 64, 0xE4);
    const int8_t scales0[16] = {-128, 127, 1, -1, 2, -2, 64, -64, 3, -3, 10, -10, 100, -100, 5, 0};
    for (int j = 0; j < 16; ++j) b[192 + size_t(j)] = uint8_t(scales0[j]);
    put_fp16(b, 208, 0.5f);
    // Block 1: every code 63 (-> +31), scales j + 1, d = -0.25.
    fill(b, B, 192, 0xFF);
    for (int j = 0; j < 16; ++j) b[B + 192 + size_t(j)] = uint8_t(j + 1);
    put_fp16(b, B + 208, -0.25f);
    // Block 2: codes 0 (-> -32) except ql[70] = 0x5A (elements 134 and 198
    // get low nibbles 10 and 5) and qh[40] = 0x1B (elements 136, 168, 200,
    // 232 get top bits 3, 2, 1, 0).
    b[2 * B + 70] = 0x5A;
    b[2 * B + 128 + 40] = 0x1B;
    fill(b, 2 * B + 192, 16, 1);
    put_fp16(b, 2 * B + 208, 1.0f);

    const auto v = decode_blocks(FormatId::Q6_K, b);
    ASSERT_EQ(v.size(), 768u);
    expect_block(v, 0, {{0, 2048.0f},  {15, 1088.0f},  {17, -1968.5f}, {31, -1079.5f}, {34, -7.0f},   {47, -0.5f},
                        {51, 6.5f},    {63, 0.5f},     {68, 0.0f},     {79, 0.0f},     {85, -1.0f},   {95, -1.0f},
                        {102, 576.0f}, {111, 576.0f},  {119, -608.0f}, {127, -608.0f}, {136, -36.0f}, {143, -25.5f},
                        {153, 34.5f},  {159, 25.5f},   {170, -30.0f},  {175, -5.0f},   {187, 25.0f},  {191, 5.0f},
                        {204, 200.0f}, {207, 200.0f},  {221, -250.0f}, {223, -250.0f}, {238, 55.0f},  {239, 55.0f},
                        {255, 0.0f}});
    expect_block(v, 1, {{0, -7.75f},    {17, -15.5f},   {34, -23.25f},  {51, -31.0f},   {68, -38.75f},
                        {85, -46.5f},   {102, -54.25f}, {119, -62.0f},  {136, -69.75f}, {153, -77.5f},
                        {170, -85.25f}, {187, -93.0f},  {204, -100.75f}, {221, -108.5f}, {238, -116.25f},
                        {255, -124.0f}});
    expect_block(v, 2, {{0, -32.0f},   {6, -32.0f},   {17, -32.0f},  {34, -32.0f},  {38, -32.0f},  {51, -32.0f},
                        {68, -32.0f},  {70, -32.0f},  {85, -32.0f},  {102, -32.0f}, {119, -32.0f}, {134, -22.0f},
                        {136, 16.0f},  {153, -32.0f}, {166, -32.0f}, {168, 0.0f},   {170, -32.0f}, {187, -32.0f},
                        {198, -27.0f}, {200, -16.0f}, {204, -32.0f}, {221, -32.0f}, {230, -32.0f}, {232, -32.0f},
                        {238, -32.0f}, {255, -32.0f}});
}

// ---------------------------------------------------------------------------
// Q8_K: float32 d @0, int8 qs[256] @4, int16 bsums[16] @260 (not used to decode).
TEST(DecodeKQuants, Q8_KFloatScaleSignedCodes) {
    constexpr size_t B = 292;
    std::vector<uint8_t> b(3 * B, 0);
    test::put_f32(b, 0, 0.5f);
    test::put_f32(b, B, -3.0f);
    test::put_f32(b, 2 * B, 0.0078125f);
    for (int e = 0; e < 256; ++e) {
        b[4 + size_t(e)] = uint8_t(e - 128);
        b[B + 4 + size_t(e)] = uint8_t(127 - e);
        b[2 * B + 4 + size_t(e)] = uint8_t(e * 37);
    }
    fill(b, 260, 32, 0x5A);  // bsums are ignored by the decoder

    const auto v = decode_blocks(FormatId::Q8_K, b);
    ASSERT_EQ(v.size(), 768u);
    expect_block(v, 0, {{0, -64.0f},  {17, -55.5f}, {34, -47.0f},  {51, -38.5f},  {68, -30.0f}, {85, -21.5f},
                        {102, -13.0f}, {119, -4.5f}, {136, 4.0f},  {153, 12.5f},  {170, 21.0f}, {187, 29.5f},
                        {204, 38.0f}, {221, 46.5f}, {238, 55.0f},  {255, 63.5f}});
    expect_block(v, 1, {{0, -381.0f}, {17, -330.0f}, {34, -279.0f}, {51, -228.0f}, {68, -177.0f}, {85, -126.0f},
                        {102, -75.0f}, {119, -24.0f}, {136, 27.0f}, {153, 78.0f},  {170, 129.0f}, {187, 180.0f},
                        {204, 231.0f}, {221, 282.0f}, {238, 333.0f}, {255, 384.0f}});
    expect_block(v, 2, {{0, 0.0f},        {17, 0.9140625f}, {34, -0.171875f}, {51, 0.7421875f},
                        {68, -0.34375f},  {85, 0.5703125f}, {102, -0.515625f}, {119, 0.3984375f},
                        {136, -0.6875f},  {153, 0.2265625f}, {170, -0.859375f}, {187, 0.0546875f},
                        {204, 0.96875f},  {221, -0.1171875f}, {238, 0.796875f}, {255, -0.2890625f}});
}

}  // namespace
}  // namespace skn_core
