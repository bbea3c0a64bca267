// SPDX-License-Identifier: MIT
// Tagged fixtures: every block distinct, disagreement names the misplaced
// block; golden fixtures: consistent with the codecs and the permutation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "fixtures/golden.hpp"
#include "fixtures/tagged.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/relayout.hpp"
#include "runtime/error.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

using test::rows_for;

// How a fixture message names block (o, b) of the block grid: a
// row-interleaved format's block also names the output rows it holds.
std::string block_name(const FormatTraits& f, int64_t o, int64_t b) {
    const int64_t R = f.block_rows;
    if (R == 1) return "block (row " + std::to_string(o) + ", block " + std::to_string(b) + ")";
    return "block (block row " + std::to_string(o) + " = rows " + std::to_string(o * R) + ".." +
           std::to_string(o * R + R - 1) + ", block " + std::to_string(b) + ")";
}

std::vector<const FormatTraits*> block_formats() {
    std::vector<const FormatTraits*> out;
    for (const auto& f : all_formats())
        if (f.block_quantized) out.push_back(&f);
    return out;
}

class Fixtures : public ::testing::TestWithParam<const FormatTraits*> {};

TEST_P(Fixtures, EveryBlockIsDistinctAndKernelOrderIsThePermutation) {
    const FormatTraits& f = *GetParam();
    // A fixture's rows are output rows; its grid has rows / R rows of blocks.
    const int64_t out_rows = rows_for(f, 4), rows = out_rows / f.block_rows, bpr = 3;
    const size_t n = fixture_size(f, out_rows, bpr), bpb = f.tile_bytes();
    std::vector<uint8_t> rm(n), ibm(n), permuted(n);
    write_fixture(f, BlockOrder::RowMajor, out_rows, bpr, rm.data());
    write_fixture(f, BlockOrder::InputBlockMajor, out_rows, bpr, ibm.data());
    std::set<std::string> blocks;  // each block's bytes
    for (int64_t i = 0; i < rows * bpr; ++i) blocks.emplace(reinterpret_cast<const char*>(rm.data()) + i * int64_t(bpb), bpb);
    EXPECT_EQ(blocks.size(), size_t(rows * bpr)) << "two blocks share a tag";
    // Every byte position differs between at least two blocks: no byte is constant.
    for (size_t j = 0; j < bpb; ++j) {
        std::set<uint8_t> seen;
        for (int64_t i = 0; i < rows * bpr; ++i) seen.insert(rm[size_t(i) * bpb + j]);
        EXPECT_GT(seen.size(), 1u) << "byte " << j << " is the same in every block";
    }
    const size_t blocks_bytes = size_t(rows * bpr) * bpb;
    to_kernel_order(rm.data(), blocks_bytes, permuted.data(), blocks_bytes, rows, bpr, bpb);
    std::memcpy(permuted.data() + blocks_bytes, rm.data() + blocks_bytes, n - blocks_bytes);
    EXPECT_EQ(permuted, ibm);
}

TEST_P(Fixtures, DisagreementNamesTheMisplacedBlock) {
    const FormatTraits& f = *GetParam();
    // rows: output rows (the API's); grid_rows: rows of blocks.
    const int64_t rows = rows_for(f, 4), grid_rows = rows / f.block_rows, bpr = 3;
    const size_t n = fixture_size(f, rows, bpr), bpb = f.tile_bytes();
    std::vector<uint8_t> rm(n), ibm(n);
    write_fixture(f, BlockOrder::RowMajor, rows, bpr, rm.data());
    write_fixture(f, BlockOrder::InputBlockMajor, rows, bpr, ibm.data());
    EXPECT_FALSE(fixture_disagreement(rm.data(), n, f, BlockOrder::RowMajor, rows, bpr).has_value());
    EXPECT_FALSE(fixture_disagreement(ibm.data(), n, f, BlockOrder::InputBlockMajor, rows, bpr).has_value());
    // Kernel-order bytes checked as canonical: flat index 1 holds block (1, 0).
    auto msg = fixture_disagreement(ibm.data(), n, f, BlockOrder::RowMajor, rows, bpr);
    ASSERT_TRUE(msg.has_value());
    EXPECT_NE(msg->find("flat index 1 should hold " + block_name(f, 0, 1) + " but holds " + block_name(f, 1, 0)),
              std::string::npos)
        << *msg;
    EXPECT_NE(msg->find("wrong order"), std::string::npos) << *msg;
    // Any single swapped pair of blocks is detected, and the first one named.
    for (int64_t i = 0; i < grid_rows * bpr; ++i)
        for (int64_t j = i + 1; j < grid_rows * bpr; ++j) {
            std::vector<uint8_t> s = rm;
            std::swap_ranges(s.begin() + long(i * bpb), s.begin() + long((i + 1) * bpb), s.begin() + long(j * bpb));
            auto m = fixture_disagreement(s.data(), n, f, BlockOrder::RowMajor, rows, bpr);
            ASSERT_TRUE(m.has_value()) << i << "<->" << j;
            ASSERT_NE(m->find("flat index " + std::to_string(i) + " should hold"), std::string::npos) << *m;
        }
    // A single flipped byte anywhere in the blocks is detected.
    for (size_t k = 0; k < n; k += 7) {
        std::vector<uint8_t> s = rm;
        s[k] ^= 0x10;
        EXPECT_TRUE(fixture_disagreement(s.data(), n, f, BlockOrder::RowMajor, rows, bpr).has_value()) << k;
    }
    // Wrong size and bad grids are reported, not crashed on.
    EXPECT_TRUE(fixture_disagreement(rm.data(), n - 1, f, BlockOrder::RowMajor, rows, bpr).has_value());
    EXPECT_TRUE(fixture_disagreement(nullptr, n, f, BlockOrder::RowMajor, rows, bpr).has_value());
    EXPECT_THROW(fixture_size(f, 0, 3), Error);
    EXPECT_THROW(fixture_size(f, rows_for(f, 65536), 3), Error);
    // Grids on which the orders coincide (or nearly) are refused, not checked vacuously.
    EXPECT_THROW(fixture_size(f, rows, 1), Error);
    EXPECT_THROW(fixture_size(f, rows, 2), Error);
    EXPECT_THROW(fixture_size(f, rows_for(f, 1), 3), Error);
    if (f.interleaved()) {
        // Rows that split a block are refused, naming R.
        try {
            (void)fixture_size(f, rows + 1, bpr);
            ADD_FAILURE() << f.name << ": a fixture of " << rows + 1 << " rows was accepted";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("multiple of " + std::to_string(f.block_rows)), std::string::npos)
                << e.what();
        }
    }
    // Kernel-order bytes checked as canonical: every block but the corners is
    // misplaced, and the whole grid is exactly the other order.
    ASSERT_TRUE(msg.has_value());
    EXPECT_NE(msg->find("10 of 12 blocks are out of place"), std::string::npos) << *msg;
    EXPECT_NE(msg->find("exactly the INPUT_BLOCK_MAJOR order fixture"), std::string::npos) << *msg;
}

TEST_P(Fixtures, LargeGridsWork) {
    const FormatTraits& f = *GetParam();
    const int64_t rows = rows_for(f, 65535), bpr = 3;  // 65535 rows of blocks: the largest grid
    std::vector<uint8_t> b(fixture_size(f, rows, bpr));
    write_fixture(f, BlockOrder::InputBlockMajor, rows, bpr, b.data());
    EXPECT_FALSE(fixture_disagreement(b.data(), b.size(), f, BlockOrder::InputBlockMajor, rows, bpr).has_value());
}

TEST_P(Fixtures, GoldenIsConsistent) {
    const FormatTraits& f = *GetParam();
    const GoldenFixture g = make_golden_fixture(f);
    EXPECT_GE(g.cols / f.block_elems, 3) << "golden weights are at least 3 blocks wide";
    ASSERT_EQ(g.packed.size(), quantized_size(f, g.rows, g.cols));
    std::vector<float> d(g.decoded.size());
    dequantize_tensor(f, g.packed.data(), g.packed.size(), g.rows, g.cols, d.data(), d.size());
    EXPECT_EQ(std::memcmp(d.data(), g.decoded.data(), d.size() * 4), 0);
    // y agrees with a float recomputation to float accuracy.
    for (int64_t i = 0; i < g.x_rows; ++i)
        for (int64_t o = 0; o < g.rows; ++o) {
            double acc = 0, mag = 0;
            for (int64_t k = 0; k < g.cols; ++k) {
                acc += double(g.x[size_t(i * g.cols + k)]) * g.decoded[size_t(o * g.cols + k)];
                mag += std::fabs(double(g.x[size_t(i * g.cols + k)]) * g.decoded[size_t(o * g.cols + k)]);
            }
            EXPECT_NEAR(g.y[size_t(i * g.rows + o)], acc, 1e-6 * mag + 1e-30);
        }
    // The same fixture twice is byte-identical (no hidden state).
    const GoldenFixture again = make_golden_fixture(f);
    EXPECT_EQ(again.packed, g.packed);
    EXPECT_EQ(std::memcmp(again.y.data(), g.y.data(), g.y.size() * 4), 0);
}

INSTANTIATE_TEST_SUITE_P(AllBlockFormats, Fixtures, ::testing::ValuesIn(block_formats()),
                         [](const auto& param_info) { return std::string(param_info.param->name); });

TEST(FixturesDense, Refused) {
    EXPECT_THROW(fixture_size(*find_format(FormatId::F16), 4, 3), Error);
    EXPECT_THROW(make_golden_fixture(*find_format(FormatId::BF16)), Error);
}

}  // namespace
}  // namespace skn_core
