// SPDX-License-Identifier: MIT
// Hand-built blocks of the grid formats (IQ2_XXS IQ2_XS IQ2_S IQ1_S IQ1_M),
// three blocks wide, with the expected floats computed by hand from the
// layouts in docs/formats/grid.md. The lattice bytes quoted below are ggml's
// own tables (ggml-common.h), not skn's derivation of them:
//   iq2xxs_grid[0] = iq2xs_grid[0] = iq2s_grid[0] = 8 8 8 8 8 8 8 8
//   iq2*_grid[1]                                 = 43 8 8 8 8 8 8 8
//   iq2xxs_grid[255]                             = 8 25 8 8 25 43 43 43
//   iq2xs_grid[511] = iq2s_grid[1023]            = 43 x 8
//   iq1s_grid[0] = -1 x 8, iq1s_grid[1] = 1 -1 -1 -1 -1 -1 -1 -1, iq1s_grid[2047] = 1 x 8
//   iq2s_grid[513] = 25 8 8 25 25 8 8 25, iq1s_grid[1025] = -1 -1 0 0 0 0 0 0
// and ksigns_iq2xs[1] = 0x81, [3] = 0x03, [127] = 0xFF.
// The whole derived lattices are checked against ggml's tables by hash.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "formats/grid_points.hpp"
#include "formats/grid_signs.hpp"
#include "support/block_builder.hpp"
#include "support/golden_file.hpp"

namespace skn_core {
namespace {

using test::decode_blocks;

using Group = std::array<float, 8>;

// Eight decoded values: scale * magnitude, negated where `neg` has a bit.
Group scaled(float scale, const std::array<int, 8>& magnitudes, uint8_t neg = 0) {
    Group g{};
    for (int j = 0; j < 8; ++j) g[size_t(j)] = scale * float(magnitudes[size_t(j)]) * ((neg >> j) & 1 ? -1.f : 1.f);
    return g;
}

void expect_group(const std::vector<float>& v, size_t at, const Group& want, const char* what) {
    ASSERT_GE(v.size(), at + 8);
    for (size_t j = 0; j < 8; ++j) EXPECT_EQ(v[at + j], want[j]) << what << ": element " << at + j;
}

constexpr std::array<int, 8> kAll8 = {8, 8, 8, 8, 8, 8, 8, 8};
constexpr std::array<int, 8> kFirst43 = {43, 8, 8, 8, 8, 8, 8, 8};
constexpr std::array<int, 8> kXxsLast = {8, 25, 8, 8, 25, 43, 43, 43};
constexpr std::array<int, 8> kAll43 = {43, 43, 43, 43, 43, 43, 43, 43};

TEST(DecodeGrid, Iq2xxsIndexesSignsAndScales) {
    std::vector<uint8_t> b(3 * 66, 0);
    // Block 0, d = 1. Sub-block 0: points 0, 1, 255, 0; sign fields 0, 1, 127,
    // 3; scale nibble 15 (db = 1 * 15.5 / 4). Other sub-blocks: point 0, no
    // signs, nibble 0 (db = 1 / 8).
    test::put_fp16(b, 0, 1.0f);
    b[2 + 0] = 0;
    b[2 + 1] = 1;
    b[2 + 2] = 255;
    b[2 + 3] = 0;
    const uint32_t aux = 0u | (1u << 7) | (127u << 14) | (3u << 21) | (15u << 28);
    for (int i = 0; i < 4; ++i) b[2 + 4 + size_t(i)] = uint8_t(aux >> (8 * i));
    // Block 1, d = 0.5: sub-block 7 holds point 255 in its last group, nibble 1.
    test::put_fp16(b, 66, 0.5f);
    b[66 + 2 + 56 + 3] = 255;
    b[66 + 2 + 56 + 7] = 1 << 4;
    // Block 2, d = -2: all point 0 (db = -0.25).
    test::put_fp16(b, 132, -2.0f);

    const auto v = decode_blocks(FormatId::IQ2_XXS, b);
    ASSERT_EQ(v.size(), 768u);
    expect_group(v, 0, scaled(3.875f, kAll8), "block 0 group 0");
    expect_group(v, 8, scaled(3.875f, kFirst43, 0x81), "block 0 group 1 (sign field 1: elements 0 and 7)");
    expect_group(v, 16, scaled(3.875f, kXxsLast, 0xFF), "block 0 group 2 (sign field 127: all)");
    expect_group(v, 24, scaled(3.875f, kAll8, 0x03), "block 0 group 3");
    expect_group(v, 32, scaled(0.125f, kAll8), "block 0 sub-block 1");
    expect_group(v, 256 + 224, scaled(0.5f * 1.5f * 0.25f, kAll8), "block 1 sub-block 7 group 0 (shares the nibble)");
    expect_group(v, 256 + 248, scaled(0.5f * 1.5f * 0.25f, kXxsLast), "block 1 sub-block 7 group 3");
    expect_group(v, 512 + 100, scaled(-0.25f, kAll8), "block 2");
}

TEST(DecodeGrid, Iq2xsNineBitIndexSevenSignBitsTwoScalesPerSubBlock) {
    std::vector<uint8_t> b(3 * 74, 0);
    test::put_fp16(b, 0, 1.0f);
    // Block 0, sub-block 0: groups 0..3 = point 511 signs 1, point 1 signs 127,
    // point 0 signs 3, point 511 signs 0; scales: low nibble 3 (groups 0, 1),
    // high nibble 12 (groups 2, 3).
    test::put_u16(b, 2 + 0, uint16_t(511 | (1 << 9)));
    test::put_u16(b, 2 + 2, uint16_t(1 | (127 << 9)));
    test::put_u16(b, 2 + 4, uint16_t(0 | (3 << 9)));
    test::put_u16(b, 2 + 6, uint16_t(511));
    b[66] = uint8_t(3 | (12 << 4));
    // Block 1, d = 0.25: sub-block 7, group 3 = point 1; high nibble 15.
    test::put_fp16(b, 74, 0.25f);
    test::put_u16(b, 74 + 2 + 2 * 31, 1);
    b[74 + 66 + 7] = 15 << 4;
    // Block 2, d = 4: everything point 0, nibbles 0.
    test::put_fp16(b, 148, 4.0f);

    const auto v = decode_blocks(FormatId::IQ2_XS, b);
    ASSERT_EQ(v.size(), 768u);
    expect_group(v, 0, scaled(3.5f * 0.25f, kAll43, 0x81), "block 0 group 0");
    expect_group(v, 8, scaled(3.5f * 0.25f, kFirst43, 0xFF), "block 0 group 1");
    expect_group(v, 16, scaled(12.5f * 0.25f, kAll8, 0x03), "block 0 group 2");
    expect_group(v, 24, scaled(12.5f * 0.25f, kAll43), "block 0 group 3");
    expect_group(v, 256 + 240, scaled(0.25f * 15.5f * 0.25f, kAll8), "block 1 sub-block 7 group 2 (high nibble too)");
    expect_group(v, 256 + 248, scaled(0.25f * 15.5f * 0.25f, kFirst43), "block 1 sub-block 7 group 3");
    expect_group(v, 512 + 8, scaled(4.0f * 0.5f * 0.25f, kAll8), "block 2");
}

TEST(DecodeGrid, Iq2sTenBitIndexAndEightSignBits) {
    std::vector<uint8_t> b(3 * 82, 0);
    // Block 0, d = 1: group 0 = point 1023 (low byte 0xFF, high bits 3 in
    // qh[0] bits 0..1), signs 0x80 (element 7 only: no parity rule here);
    // group 3 = point 1 with high bits 0 and signs 0x01; scales 1 and 2.
    test::put_fp16(b, 0, 1.0f);
    b[2 + 0] = 0xFF;
    b[66 + 0] = 0x03;
    b[2 + 32 + 0] = 0x80;
    b[2 + 3] = 1;
    b[2 + 32 + 3] = 0x01;
    b[74 + 0] = uint8_t(1 | (2 << 4));
    // Block 1, d = 2: sub-block 5, group 2 = point 512 + 1 (high bits 2 in qh[5] bits 4..5).
    test::put_fp16(b, 82, 2.0f);
    b[82 + 2 + 4 * 5 + 2] = 1;
    b[82 + 66 + 5] = uint8_t(2 << 4);
    // Block 2, d = 0.5: point 0 everywhere, signs 0xFF in group 0.
    test::put_fp16(b, 164, 0.5f);
    b[164 + 2 + 32] = 0xFF;

    const auto v = decode_blocks(FormatId::IQ2_S, b);
    ASSERT_EQ(v.size(), 768u);
    expect_group(v, 0, scaled(1.5f * 0.25f, kAll43, 0x80), "block 0 group 0 (point 1023)");
    expect_group(v, 8, scaled(1.5f * 0.25f, kAll8), "block 0 group 1");
    expect_group(v, 24, scaled(2.5f * 0.25f, kFirst43, 0x01), "block 0 group 3");
    // iq2s_grid[513] from ggml-common.h: 0x1908081919080819.
    expect_group(v, 256 + 5 * 32 + 16, scaled(2.0f * 0.5f * 0.25f, {25, 8, 8, 25, 25, 8, 8, 25}),
                 "block 1 sub-block 5 group 2 (point 513)");
    expect_group(v, 512, scaled(0.5f * 0.5f * 0.25f, kAll8, 0xFF), "block 2 group 0");
}

TEST(DecodeGrid, Iq1sElevenBitIndexScaleAndDeltaSign) {
    std::vector<uint8_t> b(3 * 50, 0);
    // Block 0, d = 1: sub-block 0 = points 2047, 1, 0, 0 (group 0's high bits
    // 7 in qh bits 0..2), scale code 3 (dl = 7), delta +1/8.
    test::put_fp16(b, 0, 1.0f);
    b[2 + 0] = 0xFF;
    b[2 + 1] = 1;
    test::put_u16(b, 34, uint16_t(7 | (3 << 12)));
    // Sub-block 1: point 0, scale code 0 (dl = 1), delta -1/8 (bit 15).
    test::put_u16(b, 34 + 2, 0x8000);
    // Block 1, d = 0.5: sub-block 7 group 3 = point 1024 + 1 (high bits 4 at qh bits 9..11).
    test::put_fp16(b, 50, 0.5f);
    b[50 + 2 + 28 + 3] = 1;
    test::put_u16(b, 50 + 34 + 14, uint16_t(4 << 9));
    // Block 2, d = -1: point 0, delta -1/8, scale code 7 (dl = -15).
    test::put_fp16(b, 100, -1.0f);
    test::put_u16(b, 100 + 34, uint16_t(0x8000 | (7 << 12)));

    const auto v = decode_blocks(FormatId::IQ1_S, b);
    ASSERT_EQ(v.size(), 768u);
    const auto iq1 = [](float dl, const std::array<float, 8>& grid, float delta) {
        Group g{};
        for (size_t j = 0; j < 8; ++j) g[j] = dl * (grid[j] + delta);
        return g;
    };
    const Group ones = {1, 1, 1, 1, 1, 1, 1, 1};
    const Group minus = {-1, -1, -1, -1, -1, -1, -1, -1};
    const Group first = {1, -1, -1, -1, -1, -1, -1, -1};
    expect_group(v, 0, iq1(7, ones, 0.125f), "block 0 group 0 (point 2047)");
    expect_group(v, 8, iq1(7, first, 0.125f), "block 0 group 1");
    expect_group(v, 16, iq1(7, minus, 0.125f), "block 0 group 2");
    expect_group(v, 32, iq1(1, minus, -0.125f), "block 0 sub-block 1 (negative delta)");
    // iq1s_grid[1025] from ggml-common.h: 0x000000000000ffff -> -1 -1 0 0 0 0 0 0.
    expect_group(v, 256 + 248, iq1(0.5f, {-1, -1, 0, 0, 0, 0, 0, 0}, 0.125f), "block 1 sub-block 7 group 3");
    expect_group(v, 512, iq1(-15, minus, -0.125f), "block 2");
}

TEST(DecodeGrid, Iq1mSplitScaleTwoDeltasPerSubBlock) {
    std::vector<uint8_t> b(3 * 56, 0);
    // The fp16 block scale is spread over the top nibbles of the four scale
    // words. Block 0: d = 1 (0x3C00): nibbles 0, 0, C, 3.
    const auto put_scales = [&b](size_t block, uint16_t d16, const std::array<uint16_t, 4>& codes) {
        for (size_t i = 0; i < 4; ++i)
            test::put_u16(b, block * 56 + 48 + 2 * i, uint16_t(codes[i] | (((d16 >> (4 * i)) & 0xF) << 12)));
    };
    // 16-element sub-block 0: code 2 (dl 5), sub-block 1: code 7 (dl 15).
    put_scales(0, 0x3C00, {uint16_t(2 | (7 << 3)), 0, 0, 0});
    // Sub-block 0: group 0 = point 2047 (qh[0] low bits 7), delta +; group 1 =
    // point 1, delta - (qh[0] bit 7).
    b[0] = 0xFF;
    b[1] = 1;
    b[32] = uint8_t(7 | 0x80);
    // Sub-block 1: group 0 delta - (bit 3), point 0.
    b[33] = 0x08;
    // Block 1: d = 0.5 (0x3800), sub-block 15 group 1 = point 1024 + 1 (high
    // bits 4 at qh[15] bits 4..6), scale code 1 (dl 3) at word 3 bits 9..11.
    put_scales(1, 0x3800, {0, 0, 0, uint16_t(1 << 9)});
    b[56 + 31] = 1;
    b[56 + 32 + 15] = uint8_t(4 << 4);
    // Block 2: d = -2 (0xC000), everything point 0, code 0.
    put_scales(2, 0xC000, {0, 0, 0, 0});

    const auto v = decode_blocks(FormatId::IQ1_M, b);
    ASSERT_EQ(v.size(), 768u);
    const auto iq1 = [](float dl, const std::array<float, 8>& grid, float delta) {
        Group g{};
        for (size_t j = 0; j < 8; ++j) g[j] = dl * (grid[j] + delta);
        return g;
    };
    const Group ones = {1, 1, 1, 1, 1, 1, 1, 1};
    const Group minus = {-1, -1, -1, -1, -1, -1, -1, -1};
    const Group first = {1, -1, -1, -1, -1, -1, -1, -1};
    expect_group(v, 0, iq1(5, ones, 0.125f), "block 0 group 0");
    expect_group(v, 8, iq1(5, first, -0.125f), "block 0 group 1");
    expect_group(v, 16, iq1(15, minus, -0.125f), "block 0 sub-block 1 group 0");
    expect_group(v, 24, iq1(15, minus, 0.125f), "block 0 sub-block 1 group 1");
    expect_group(v, 32, iq1(1, minus, 0.125f), "block 0 sub-block 2");
    expect_group(v, 256 + 248, iq1(1.5f, {-1, -1, 0, 0, 0, 0, 0, 0}, 0.125f), "block 1 sub-block 15 group 1");
    expect_group(v, 512 + 64, iq1(-2, minus, 0.125f), "block 2");
}

// skn derives ggml-common.h's decode tables from the lattice points (level
// -> byte); their bytes must hash as ggml's own tables do. The hashes were
// taken by the generator of docs/formats/grid.md over iq2xxs_grid,
// iq2xs_grid, iq2s_grid, iq1s_grid and ksigns_iq2xs as compiled from
// ggml-common.h (little-endian uint64 / uint8 arrays).
template <size_t N>
uint64_t hash_of_derived(const uint16_t (&points)[N], const std::array<int, 3>& level_bytes) {
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i < N; ++i)
        for (int j = 0; j < 8; ++j) bytes.push_back(uint8_t(level_bytes[size_t((points[i] >> (2 * j)) & 3)]));
    return test::fnv1a64(bytes.data(), bytes.size());
}

TEST(DecodeGrid, DerivedLatticeBytesAreGgmlTables) {
    EXPECT_EQ(hash_of_derived(codec::grid::kIq2xxsPoints, {8, 25, 43}), 0x5bd45ef8a547a7e8ull);
    EXPECT_EQ(hash_of_derived(codec::grid::kIq2xsPoints, {8, 25, 43}), 0xa3e52388268ca2a3ull);
    EXPECT_EQ(hash_of_derived(codec::grid::kIq2sPoints, {8, 25, 43}), 0xcdb5ae5bcfe7fb32ull);
    EXPECT_EQ(hash_of_derived(codec::grid::kIq1sPoints, {0xFF, 0x00, 0x01}), 0x31aaba1fc89a41d0ull);
    EXPECT_EQ(test::fnv1a64(codec::grid::kSignPatterns.data(), codec::grid::kSignPatterns.size()),
              0x100b4e510a867c83ull);
}

}  // namespace
}  // namespace skn_core
