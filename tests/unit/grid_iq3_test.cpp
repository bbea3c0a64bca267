// SPDX-License-Identifier: MIT
// IQ3_XXS and IQ3_S beyond the golden sample: hand-built blocks decoded
// against values derived from the layout in docs/formats/grid_iq3.md (grid
// index extremes, every sign rule, IQ3_S's ninth index bit and both scale
// nibbles), the quantizers on edge rows against the reference's bytes
// (tests/golden/quant/grid_iq3_edges), and the search tables' invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "formats/format.hpp"
#include "formats/grid_iq3_search.hpp"
#include "formats/grid_iq3_tables.hpp"
#include "formats/grid_signs.hpp"
#include "formats/half.hpp"
#include "formats/tensor_codec.hpp"
#include "support/block_builder.hpp"
#include "support/golden_file.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"
#include "unit/grid_iq3_edge_rows.hpp"

namespace skn_core {
namespace {

using codec::iq3_coord_level;
using codec::kIq3sCoords;
using codec::kIq3xxsCoords;

// The magnitude level l stands for in each format's decode grid.
constexpr int kXxsMagnitude[8] = {4, 12, 20, 28, 36, 44, 52, 62};
int s_magnitude(int l) { return 2 * l + 1; }

void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}

// ---------------------------------------------------------------- tables

TEST(GridIq3Tables, DecodeGridsAreTheCoordinateListsInEachFormatsUnits) {
    for (int k = 0; k < 256; ++k)
        for (int j = 0; j < 4; ++j)
            ASSERT_EQ(int(uint8_t(codec::kIq3xxsGrid[k] >> (8 * j))), kXxsMagnitude[iq3_coord_level(kIq3xxsCoords[k], j)])
                << "IQ3_XXS point " << k << " element " << j;
    for (int k = 0; k < 512; ++k)
        for (int j = 0; j < 4; ++j)
            ASSERT_EQ(int(uint8_t(codec::kIq3sGrid[k] >> (8 * j))), s_magnitude(iq3_coord_level(kIq3sCoords[k], j)))
                << "IQ3_S point " << k << " element " << j;
    // Coordinate lists are strictly increasing (hence distinct points).
    EXPECT_TRUE(std::is_sorted(std::begin(kIq3xxsCoords), std::end(kIq3xxsCoords), std::less_equal<>()));
    EXPECT_TRUE(std::is_sorted(std::begin(kIq3sCoords), std::end(kIq3sCoords), std::less_equal<>()));
}

TEST(GridIq3Tables, SignTableCompletesSevenBitsToEvenParity) {
    for (int i = 0; i < 128; ++i) {
        const uint8_t s = codec::grid::kSignPatterns[size_t(i)];
        EXPECT_EQ(s & 127, i);
        EXPECT_EQ(std::popcount(unsigned(s)) % 2, 0) << i;
    }
}

void expect_search_invariants(const codec::Iq3Search& s, int grid_size, int rings) {
    ASSERT_EQ(s.points.size(), size_t(4 * grid_size));
    int on_grid = 0;
    for (int u = 0; u < 4096; ++u) {
        auto dist = [&](int g) {
            int d2 = 0;
            for (int i = 0; i < 4; ++i) {
                const int diff = s.points[size_t(4 * g + i)] - (2 * iq3_coord_level(uint16_t(u), i) + 1);
                d2 += diff * diff;
            }
            return d2;
        };
        if (s.index_of[size_t(u)] >= 0) {
            ++on_grid;
            EXPECT_EQ(dist(s.index_of[size_t(u)]), 0) << u;
            continue;
        }
        const int n = s.count[size_t(u)];
        ASSERT_GT(n, 0) << "off-grid point " << u << " has no neighbours";
        const uint16_t* nb = s.neighbours.data() + s.first[size_t(u)];
        int rings_seen = 1;
        for (int j = 1; j < n; ++j) {
            const int a = dist(nb[j - 1]), b = dist(nb[j]);
            ASSERT_TRUE(a < b || (a == b && nb[j - 1] < nb[j])) << "neighbours of " << u << " out of order";
            rings_seen += a < b ? 1 : 0;
        }
        EXPECT_EQ(rings_seen, rings) << u;
        // Nothing closer than the first ring was left out.
        int nearest = 1 << 30;
        for (int g = 0; g < grid_size; ++g) nearest = std::min(nearest, dist(g));
        EXPECT_EQ(dist(nb[0]), nearest) << u;
    }
    EXPECT_EQ(on_grid, grid_size);
}

TEST(GridIq3Search, NeighbourListsHoldTheNearestRingsInOrder) {
    expect_search_invariants(codec::iq3xxs_search(), 256, 2);
    expect_search_invariants(codec::iq3s_search(), 512, 3);
    EXPECT_EQ(&codec::iq3s_search(), &codec::iq3s_search()) << "built once";
}

// The sizes docs/formats/grid_iq3.md states.
TEST(GridIq3Search, TablesHaveTheDocumentedSize) {
    EXPECT_EQ(codec::iq3xxs_search().neighbours.size(), 18985u);
    EXPECT_EQ(codec::iq3xxs_search().bytes(), 79954u);
    EXPECT_EQ(codec::iq3s_search().neighbours.size(), 24733u);
    EXPECT_EQ(codec::iq3s_search().bytes(), 92474u);
}

TEST(GridIq3Formats, QuantizeWithOrWithoutImportance) {
    for (FormatId id : {FormatId::IQ3_XXS, FormatId::IQ3_S}) {
        const FormatTraits* f = find_format(id);
        ASSERT_NE(f, nullptr);
        EXPECT_NE(f->quantize_row, nullptr) << f->name;
        EXPECT_NE(f->quantize_row_weighted, nullptr) << f->name;
        EXPECT_FALSE(f->requires_importance()) << f->name;
    }
}

// ---------------------------------------------------------------- decode

// IQ3_XXS by the layout: d, 64 grid indices (8 per 32 elements), then per
// 32 elements a word: 4 x 7 sign bits (one per 8 elements, the eighth sign
// makes the count even) and a 4-bit scale s in bits 28..31, db = d (s + 1/2) / 2.
std::vector<float> expect_xxs(const std::vector<uint8_t>& b) {
    std::vector<float> out;
    for (size_t blk = 0; blk < b.size() / 98; ++blk) {
        const uint8_t* p = b.data() + 98 * blk;
        const float d = fp16_to_f32(uint16_t(p[0] | p[1] << 8));
        for (int ib = 0; ib < 8; ++ib) {
            const uint8_t* w = p + 66 + 4 * ib;
            const uint32_t word = uint32_t(w[0]) | uint32_t(w[1]) << 8 | uint32_t(w[2]) << 16 | uint32_t(w[3]) << 24;
            const float db = d * (0.5f + float(word >> 28)) * 0.5f;
            for (int e = 0; e < 32; ++e) {
                const int idx = p[2 + 8 * ib + e / 4];
                const int bits7 = int(word >> (7 * (e / 8))) & 127;
                const bool neg = (e % 8) < 7 ? ((bits7 >> (e % 8)) & 1) : (std::popcount(unsigned(bits7)) % 2);
                const float mag = float(kXxsMagnitude[iq3_coord_level(kIq3xxsCoords[idx], e % 4)]);
                out.push_back(db * mag * (neg ? -1.f : 1.f));
            }
        }
    }
    return out;
}

// IQ3_S by the layout: d, qs[64] (low 8 index bits), qh[8] (bit k of qh[ib]
// is the ninth bit of group k of sub-block ib), signs[32] (one bit per
// element), scales[4] (low nibble even sub-block, high odd), db = d (1 + 2s).
std::vector<float> expect_s(const std::vector<uint8_t>& b) {
    std::vector<float> out;
    for (size_t blk = 0; blk < b.size() / 110; ++blk) {
        const uint8_t* p = b.data() + 110 * blk;
        const float d = fp16_to_f32(uint16_t(p[0] | p[1] << 8));
        for (int ib = 0; ib < 8; ++ib) {
            const int nib = ib % 2 ? p[106 + ib / 2] >> 4 : p[106 + ib / 2] & 15;
            const float db = d * float(1 + 2 * nib);
            for (int e = 0; e < 32; ++e) {
                const int g = e / 4;
                const int idx = p[2 + 8 * ib + g] | ((p[66 + ib] >> g) & 1) << 8;
                const bool neg = (p[74 + 4 * ib + e / 8] >> (e % 8)) & 1;
                const float mag = float(s_magnitude(iq3_coord_level(kIq3sCoords[idx], e % 4)));
                out.push_back(db * mag * (neg ? -1.f : 1.f));
            }
        }
    }
    return out;
}

void expect_same(const std::vector<float>& got, const std::vector<float>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i]) << "element " << i << " (block " << i / 256 << ")";
}

TEST(DecodeGridIq3, Iq3xxsHandBuiltBlocks) {
    std::vector<uint8_t> b(3 * 98, 0);
    // Block 0: d = 1; sub-block 0 alternates grid index 0 and 255 with sign
    // words 0 (all +), 127 (all -), 1 (elements 0 and 7 -), 0x55; scale 15.
    test::put_fp16(b, 0, 1.0f);
    for (int g = 0; g < 8; ++g) b[2 + size_t(g)] = g % 2 ? 255 : 0;
    put_u32(b, 66, 0u | 127u << 7 | 1u << 14 | 0x55u << 21 | 15u << 28);
    // Sub-blocks 1..7: indices spread over the grid, scales 0..6, mixed signs.
    for (int ib = 1; ib < 8; ++ib) {
        for (int g = 0; g < 8; ++g) b[2 + size_t(8 * ib + g)] = uint8_t(37 * ib + 11 * g);
        put_u32(b, size_t(66 + 4 * ib), (uint32_t(ib * 0x2468ACE) & 0x0FFFFFFFu) | uint32_t(ib - 1) << 28);
    }
    // Block 1: negative d; block 2: the smallest normal fp16 d, every index 255.
    test::put_fp16(b, 98, -0.5f);
    for (int i = 0; i < 96; ++i) b[98 + 2 + size_t(i)] = uint8_t(i * 53 + 7);
    test::put_fp16(b, 196, 0x1p-14f);
    for (int i = 0; i < 64; ++i) b[196 + 2 + size_t(i)] = 255;
    for (int ib = 0; ib < 8; ++ib) put_u32(b, size_t(196 + 66 + 4 * ib), 0x5A5A5A5Au);
    const auto v = test::decode_blocks(FormatId::IQ3_XXS, b);
    expect_same(v, expect_xxs(b));
    // Spot checks by hand: grid 0 is (4,4,4,4), grid 255 is (4,28,52,62);
    // db = 7.75 in block 0's first sub-block.
    EXPECT_EQ(v[0], 31.0f);
    EXPECT_EQ(v[4], 31.0f);     // index 255 element 0, sign word 0
    EXPECT_EQ(v[7], 480.5f);    // index 255 element 3: 7.75 * 62
    EXPECT_EQ(v[8], -31.0f);    // sign index 127: all eight negative
    EXPECT_EQ(v[15], -480.5f);
    EXPECT_EQ(v[16], -31.0f);   // sign index 1: element 0 negative ...
    EXPECT_EQ(v[23], -480.5f);  // ... and the implied eighth
    EXPECT_EQ(v[17], 31.0f);
}

TEST(DecodeGridIq3, Iq3sHandBuiltBlocks) {
    std::vector<uint8_t> b(3 * 110, 0);
    // Block 0: d = 1; sub-block 0 has scale nibble 0, sub-block 1 nibble 15.
    // Sub-block 0: qs = 255, ninth bits 0b10101010: groups alternate
    // indices 255 and 511. Signs 0x00, 0xFF, 0x81, 0x5A.
    test::put_fp16(b, 0, 1.0f);
    for (int g = 0; g < 8; ++g) b[2 + size_t(g)] = 255;
    b[66] = 0xAA;
    b[74] = 0x00, b[75] = 0xFF, b[76] = 0x81, b[77] = 0x5A;
    b[106] = 0xF0;
    for (int ib = 1; ib < 8; ++ib) {
        for (int g = 0; g < 8; ++g) b[2 + size_t(8 * ib + g)] = uint8_t(41 * ib + 13 * g);
        b[66 + size_t(ib)] = uint8_t(0x35 * ib);
        for (int k = 0; k < 4; ++k) b[74 + size_t(4 * ib + k)] = uint8_t(29 * ib + 71 * k);
    }
    b[107] = 0x21, b[108] = 0x9C, b[109] = 0x7E;
    // Block 1: negative d, arbitrary bytes; block 2: index 0 everywhere, all
    // ninth bits set (index 256), every sign negative, both nibbles 15.
    test::put_fp16(b, 110, -0.25f);
    for (int i = 2; i < 110; ++i) b[110 + size_t(i)] = uint8_t(i * 97 + 3);
    test::put_fp16(b, 220, 0x1p-14f);
    for (int i = 66; i < 106; ++i) b[220 + size_t(i)] = 0xFF;
    for (int i = 106; i < 110; ++i) b[220 + size_t(i)] = 0xFF;
    const auto v = test::decode_blocks(FormatId::IQ3_S, b);
    expect_same(v, expect_s(b));
    // By hand: grid 255 = coords 1296 -> levels (0,2,4,2) -> (1,5,9,5);
    // grid 511 = coords 4032 -> (0,0,7,7) -> (1,1,15,15).
    EXPECT_EQ(std::vector<float>(v.begin(), v.begin() + 8), (std::vector<float>{1, 5, 9, 5, 1, 1, 15, 15}));
    EXPECT_EQ(v[8], -1.0f);  // signs[1] = 0xFF
    // Sub-block 1, group 0: index 41 | (bit 0 of qh[1] = 0x35) << 8 = 297,
    // whose element 0 is 7; sign bit 0 of 29 is set; db = 31.
    EXPECT_EQ(v[32], -217.0f);
}

// ---------------------------------------------------------------- quantize

const FormatTraits& format(FormatId id) { return *find_format(id); }

struct EdgeCase {
    FormatId id;
    bool with_importance;
};

class GridIq3Edges : public ::testing::TestWithParam<EdgeCase> {};

std::string label(const EdgeCase& c) {
    std::string s = c.id == FormatId::IQ3_XXS ? "iq3_xxs" : "iq3_s";
    return c.with_importance ? s + "_imatrix" : s;
}

TEST_P(GridIq3Edges, QuantizeMatchesTheReferenceByteForByte) {
    const EdgeCase& c = GetParam();
    const FormatTraits& f = format(c.id);
    const auto manifest = test::read_quant_manifest("quant/grid_iq3_edges");
    const auto it = std::find_if(manifest.begin(), manifest.end(), [&](const auto& e) { return e.format == label(c); });
    ASSERT_NE(it, manifest.end()) << "no line for " << label(c) << " in tests/golden/quant/grid_iq3_edges/MANIFEST";
    const auto golden = test::read_golden("quant/grid_iq3_edges/" + label(c) + ".q");
    ASSERT_TRUE(golden.has_value());
    ASSERT_EQ(test::fnv1a64(golden->data(), golden->size()), it->quantized_hash) << "golden file corrupted";

    const auto x = test::iq3_edge_rows();
    const auto importance = test::golden_importance(test::kIq3EdgeCols);
    const size_t n = quantized_size(f, test::kIq3EdgeRows, test::kIq3EdgeCols);
    ASSERT_EQ(n, golden->size());
    std::vector<uint8_t> mine(n, 0xAB);
    quantize_tensor(f, x.data(), test::kIq3EdgeRows, test::kIq3EdgeCols, mine.data(), n,
                    c.with_importance ? importance.data() : nullptr);
    const size_t row_bytes = n / size_t(test::kIq3EdgeRows);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(int(mine[i]), int((*golden)[i]))
            << f.name << ": edge row " << i / row_bytes << ", block " << (i % row_bytes) / size_t(f.block_bytes)
            << ", byte " << (i % row_bytes) % size_t(f.block_bytes);

    std::vector<float> decoded(size_t(test::kIq3EdgeRows * test::kIq3EdgeCols));
    dequantize_tensor(f, golden->data(), golden->size(), test::kIq3EdgeRows, test::kIq3EdgeCols, decoded.data(),
                      decoded.size());
    ASSERT_TRUE(it->decoded_hash.has_value());
    EXPECT_EQ(test::fnv1a64(decoded.data(), decoded.size() * sizeof(float)), *it->decoded_hash);
}

INSTANTIATE_TEST_SUITE_P(BothFormats, GridIq3Edges,
                         ::testing::Values(EdgeCase{FormatId::IQ3_XXS, false}, EdgeCase{FormatId::IQ3_XXS, true},
                                           EdgeCase{FormatId::IQ3_S, false}, EdgeCase{FormatId::IQ3_S, true}),
                         [](const auto& param_info) { return label(param_info.param); });

// What the reference guarantees on the edge rows, spelled out so a golden
// regenerated wrongly would also be caught.
TEST(QuantizeGridIq3, ZeroAndNegligibleInputGiveZeroBlocks) {
    const auto x = test::iq3_edge_rows();
    for (FormatId id : {FormatId::IQ3_XXS, FormatId::IQ3_S}) {
        const FormatTraits& f = format(id);
        const size_t row_bytes = quantized_size(f, 1, test::kIq3EdgeCols);
        std::vector<uint8_t> q(size_t(test::kIq3EdgeRows) * row_bytes, 0xAB);
        quantize_tensor(f, x.data(), test::kIq3EdgeRows, test::kIq3EdgeCols, q.data(), q.size(), nullptr);
        // Row 0 (all zero) is all zero bytes; so are blocks 0 and 2 of row 1.
        for (size_t i = 0; i < row_bytes; ++i) ASSERT_EQ(q[i], 0) << f.name << " byte " << i;
        const size_t bb = size_t(f.block_bytes);
        for (size_t i = 0; i < bb; ++i) {
            ASSERT_EQ(q[row_bytes + i], 0) << f.name;
            ASSERT_EQ(q[row_bytes + 2 * bb + i], 0) << f.name;
        }
        EXPECT_NE(load_u16le(q.data() + row_bytes + bb), 0) << f.name << ": the non-zero block has a scale";
        // Row 4 (subnormals only): d underflows to +0 in both; IQ3_XXS treats
        // the sub-blocks as zero (largest magnitude below 1e-8) and writes
        // only zeros.
        for (int b = 0; b < 3; ++b) EXPECT_EQ(load_u16le(q.data() + 4 * row_bytes + size_t(b) * bb), 0) << f.name;
        if (id == FormatId::IQ3_XXS) {
            for (size_t i = 0; i < row_bytes; ++i) ASSERT_EQ(q[4 * row_bytes + i], 0) << "byte " << i;
        }
    }
}

// ---------------------------------------------------------------- matmul

// Formats without SIMD kernels run the reference kernel: y = x W^T on a
// [7, 768] weight agrees with the decoded weight times the activations (as
// the activation format rounds them), in both block orders and precisions.
TEST(MatmulGridIq3, ReferenceKernelAgreesWithDecodeAndDot) {
    for (FormatId id : {FormatId::IQ3_XXS, FormatId::IQ3_S}) {
        const FormatTraits& f = format(id);
        for (LayoutClass cls : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
            for (Precision p : {Precision::Fast, Precision::Exact}) {
                test::TestWeight w(f, 7, 3, cls, 11);
                ASSERT_EQ(w.in, 768);
                const int64_t n = 3;
                std::vector<float> x(size_t(n * w.in)), y(size_t(n * w.out), -1.0f);
                sample_weight(x.data(), n, w.in, 21);
                Context ctx;
                MatmulOptions o;
                o.precision = p;
                matmul_wt(ctx, x.data(), n, w.in, w.view, nullptr, y.data(), w.out, o);
                const auto ref = test::reference_matmul(w.decoded, w.out, w.in, x.data(), n, w.in, nullptr,
                                                        p == Precision::Exact ? FormatId::F32 : f.activation);
                double sum_abs = 0;
                for (size_t e = 0; e < y.size(); ++e) {
                    ASSERT_LE(std::fabs(double(y[e]) - ref.y[e]), ref.bound[e])
                        << f.name << " " << layout_class_name(cls) << " output " << e;
                    sum_abs += std::fabs(ref.y[e]);
                }
                EXPECT_GT(sum_abs, 1.0) << f.name << ": a weight of zeros would make this check empty";
            }
        }
    }
}

}  // namespace
}  // namespace skn_core
