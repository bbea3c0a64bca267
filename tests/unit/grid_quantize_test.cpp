// SPDX-License-Identifier: MIT
// The grid quantizers on edge cases, byte for byte against ggml's reference
// (tests/golden/quant/grid_edges, made as its MANIFEST says): an all-zero
// row, a row with one non-zero block, a single non-zero element, rows scaled
// by 1e-3 and 1e3, and a row of subnormals; with importance weights for
// every grid format, and without for the two whose reference allows it.
// Plus the refusal of the three that the reference cannot quantize without
// importance weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <thread>
#include <vector>

#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "runtime/error.hpp"
#include "support/golden_file.hpp"
#include "unit/grid_edge_rows.hpp"

namespace skn_core {
namespace {

constexpr int64_t kRows = test::kGridEdgeRows;
constexpr int64_t kCols = test::kGridEdgeCols;  // three blocks per row

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Which importance weights a golden was made with.
enum class Importance { None, Golden, GoldenWithZeros };

struct EdgeCase {
    FormatId id;
    Importance importance;
    std::string name() const {
        static const char* const suffix[] = {"", "_imatrix", "_imatrix_zeros"};
        return lower(find_format(id)->name) + suffix[int(importance)];
    }
    std::vector<float> weights() const {
        if (importance == Importance::Golden) return test::golden_importance(kCols);
        if (importance == Importance::GoldenWithZeros) return test::golden_importance_with_zeros(kCols);
        return {};
    }
};

const test::QuantManifestEntry& entry_for(const std::string& name) {
    static const auto manifest = test::read_quant_manifest("quant/grid_edges");
    for (const auto& e : manifest)
        if (e.format == name) return e;
    throw std::runtime_error("tests/golden/quant/grid_edges/MANIFEST has no line for " + name);
}

class GridEdges : public ::testing::TestWithParam<EdgeCase> {};

TEST_P(GridEdges, BytesAndDecodeMatchReference) {
    const EdgeCase& c = GetParam();
    const FormatTraits& f = *find_format(c.id);
    const auto& e = entry_for(c.name());
    const auto golden = test::read_golden("quant/grid_edges/" + c.name() + ".q");
    ASSERT_TRUE(golden.has_value()) << c.name();
    ASSERT_EQ(golden->size(), e.bytes);
    ASSERT_EQ(test::fnv1a64(golden->data(), golden->size()), e.quantized_hash) << "golden file corrupted";

    const auto x = test::grid_edge_rows();
    const auto importance = c.weights();
    std::vector<uint8_t> mine(quantized_size(f, kRows, kCols), 0xAB);
    ASSERT_EQ(mine.size(), golden->size());
    quantize_tensor(f, x.data(), kRows, kCols, mine.data(), mine.size(), importance.empty() ? nullptr : importance.data());
    const size_t row_bytes = mine.size() / size_t(kRows);
    for (size_t i = 0; i < mine.size(); ++i)
        ASSERT_EQ(int(mine[i]), int((*golden)[i]))
            << c.name() << ": row " << i / row_bytes << ", block " << (i % row_bytes) / size_t(f.block_bytes)
            << ", byte " << (i % row_bytes) % size_t(f.block_bytes);

    std::vector<float> decoded(x.size());
    dequantize_tensor(f, golden->data(), golden->size(), kRows, kCols, decoded.data(), decoded.size());
    ASSERT_TRUE(e.decoded_hash.has_value());
    EXPECT_EQ(test::fnv1a64(decoded.data(), decoded.size() * sizeof(float)), *e.decoded_hash);

    // What the reference guarantees for these rows: the all-zero row and the
    // zero blocks of row 1 decode to zeros except for IQ1's delta (a zero
    // IQ1 block has scale 0, so it decodes to 0 too), and the subnormal row
    // (every sub-block below the all-zero threshold) decodes to zeros.
    for (int64_t r : {0, 5})
        for (int64_t i = 0; i < kCols; ++i) ASSERT_EQ(decoded[size_t(r * kCols + i)], 0.0f) << "row " << r << " col " << i;
    for (int64_t i : {0, 255, 512, 767}) EXPECT_EQ(decoded[size_t(kCols + i)], 0.0f) << "row 1, zero block, col " << i;
}

// With zeros in the importance, row 2's only non-zero element (column 300)
// weighs nothing: its sub-block is searched, yet every fit has scale 0.
std::vector<EdgeCase> edge_cases() {
    std::vector<EdgeCase> out;
    for (FormatId id : {FormatId::IQ2_XXS, FormatId::IQ2_XS, FormatId::IQ1_S, FormatId::IQ2_S, FormatId::IQ1_M}) {
        if (!find_format(id)->requires_importance()) out.push_back({id, Importance::None});
        out.push_back({id, Importance::Golden});
        out.push_back({id, Importance::GoldenWithZeros});
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Grid, GridEdges, ::testing::ValuesIn(edge_cases()),
                         [](const auto& param_info) { return param_info.param.name(); });

TEST(GridQuantize, FormatsWhoseReferenceNeedsImportanceRefuseWithoutIt) {
    // Their row-interleaved twins are quantized by the same quantizer.
    std::vector<float> x(1024, 0.5f);
    for (FormatId id : {FormatId::IQ2_XXS, FormatId::IQ2_XS, FormatId::IQ1_S, FormatId::IQ2_XXS_R4, FormatId::IQ2_XS_R4}) {
        const FormatTraits& f = *find_format(id);
        EXPECT_TRUE(f.requires_importance()) << f.name;
        std::vector<uint8_t> dst(quantized_size(f, 4, 256), 0x5A);
        try {
            quantize_tensor(f, x.data(), 4, 256, dst.data(), dst.size());
            ADD_FAILURE() << f.name << " quantized without importance weights";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT) << f.name;
            const std::string msg = e.what();
            EXPECT_NE(msg.find(f.name), std::string::npos) << msg;
            EXPECT_NE(msg.find("importance"), std::string::npos) << msg;
        }
        for (uint8_t b : dst) ASSERT_EQ(b, 0x5A) << f.name << ": bytes written on refusal";
    }
    for (FormatId id : {FormatId::IQ2_S_R4, FormatId::IQ3_XXS_R4, FormatId::IQ3_S_R4})
        EXPECT_FALSE(find_format(id)->requires_importance()) << find_format(id)->name;
    for (FormatId id : {FormatId::IQ2_S, FormatId::IQ1_M}) {
        const FormatTraits& f = *find_format(id);
        EXPECT_FALSE(f.requires_importance()) << f.name;
        EXPECT_NE(f.quantize_row, nullptr) << f.name;
        EXPECT_NE(f.quantize_row_weighted, nullptr) << f.name;
    }
}

// The lattice search tables are built lazily on first use (ctest runs each
// test in its own process, so this is the first use); threads racing to be
// first must all see the complete tables: the reference's bytes.
TEST(GridQuantize, ConcurrentFirstUseGivesTheSameBytes) {
    const auto x = test::grid_edge_rows();
    const auto importance = test::golden_importance(kCols);
    const FormatTraits& f = *find_format(FormatId::IQ1_M);
    std::vector<std::vector<uint8_t>> out(4, std::vector<uint8_t>(quantized_size(f, kRows, kCols)));
    std::vector<std::thread> threads;
    for (auto& o : out)
        threads.emplace_back([&] { quantize_tensor(f, x.data(), kRows, kCols, o.data(), o.size(), importance.data()); });
    for (auto& t : threads) t.join();
    const auto golden = test::read_golden("quant/grid_edges/iq1_m_imatrix.q");
    ASSERT_TRUE(golden.has_value());
    for (const auto& o : out) EXPECT_EQ(o, *golden);
}

}  // namespace
}  // namespace skn_core
