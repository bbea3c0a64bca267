// SPDX-License-Identifier: MIT
// Multi-threaded quantization writes the same bytes as one thread, for every
// format, with and without importance weights. The row count (61) splits
// raggedly over 2, 3 and 7 threads (RowRanges makes up to 4 ranges per
// thread: 8, 12 and 28 ranges of unequal size), so a range boundary that
// shifted a row, or a per-tensor reduction (I2_S's scale) that depended on
// the split, would show up as a byte difference. A row-interleaved format
// quantizes 61 groups of its R rows, split the same ragged way.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "runtime/error.hpp"
#include "support/golden_file.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

constexpr int64_t kRows = 61;
constexpr int64_t kCols = 768;  // three 256-element super-blocks; a multiple of every block size

struct Case {
    const FormatTraits* format;
    bool with_importance;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const auto& f : all_formats()) {
        if (!f.requires_importance()) out.push_back({&f, false});
        // Formats that ignore importance weights take them too (and must
        // write the same bytes as without: checked below).
        out.push_back({&f, true});
    }
    return out;
}

class QuantizeThreads : public ::testing::TestWithParam<Case> {};

TEST_P(QuantizeThreads, BytesDoNotDependOnThreadCount) {
    const FormatTraits& f = *GetParam().format;
    const int64_t rows = test::rows_for(f, kRows);
    std::vector<float> w(size_t(rows * kCols));
    sample_weight(w.data(), rows, kCols, 7);
    const std::vector<float> importance = test::golden_importance(kCols);
    const float* imp = GetParam().with_importance ? importance.data() : nullptr;
    const size_t n = quantized_size(f, rows, kCols);

    std::vector<uint8_t> one(n, 0xAB);
    quantize_tensor(f, w.data(), rows, kCols, one.data(), n, imp, 1);
    for (const int threads : {2, 3, 7}) {
        std::vector<uint8_t> many(n, 0xCD);
        quantize_tensor(f, w.data(), rows, kCols, many.data(), n, imp, threads);
        const auto diff = std::mismatch(one.begin(), one.end(), many.begin());
        EXPECT_TRUE(diff.first == one.end())
            << f.name << " with " << threads << " threads: first differing byte at offset " << (diff.first - one.begin());
    }

    // A row-interleaved format quantizes with its canonical twin's quantizer.
    if (GetParam().with_importance && test::canonical_of(f).quantize_row_weighted == nullptr) {
        std::vector<uint8_t> plain(n, 0xEF);
        quantize_tensor(f, w.data(), rows, kCols, plain.data(), n, nullptr, 3);
        EXPECT_EQ(plain, one) << f.name << " ignores importance weights, so it must write the same bytes as without";
    }
}

INSTANTIATE_TEST_SUITE_P(AllFormats, QuantizeThreads, ::testing::ValuesIn(cases()), [](const auto& p) {
    return std::string(p.param.format->name) + (p.param.with_importance ? "_imatrix" : "");
});

// The non-finite check runs on every thread; the error must still name the
// first bad element in row-major order, whichever range found one first.
TEST(QuantizeThreads, NonFiniteReportsFirstElementForAnyThreadCount) {
    const FormatTraits& f = *find_format(FormatId::Q4_K);
    std::vector<float> w(size_t(kRows * kCols), 0.5f);
    w[size_t(40 * kCols + 3)] = std::numeric_limits<float>::infinity();
    w[size_t(17 * kCols + 700)] = std::numeric_limits<float>::quiet_NaN();
    const size_t n = quantized_size(f, kRows, kCols);
    std::vector<uint8_t> out(n, 0x5A);
    for (const int threads : {1, 2, 3, 7}) {
        try {
            quantize_tensor(f, w.data(), kRows, kCols, out.data(), n, nullptr, threads);
            ADD_FAILURE() << "non-finite input accepted with " << threads << " threads";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
            EXPECT_NE(std::string(e.what()).find("element [17, 700]"), std::string::npos) << e.what();
        }
        EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](uint8_t b) { return b == 0x5A; }))
            << "dst written before the non-finite check failed (" << threads << " threads)";
    }
}

TEST(QuantizeThreads, RefusesBadThreadCountsAndImportance) {
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    std::vector<float> w(size_t(3 * 96), 0.25f);
    std::vector<uint8_t> out(quantized_size(f, 3, 96));
    EXPECT_THROW(quantize_tensor(f, w.data(), 3, 96, out.data(), out.size(), nullptr, 0), Error);
    EXPECT_THROW(quantize_tensor(f, w.data(), 3, 96, out.data(), out.size(), nullptr, kMaxQuantizeThreads + 1), Error);
    std::vector<float> importance(96, 1.0f);
    importance[95] = -0.5f;
    try {
        quantize_tensor(f, w.data(), 3, 96, out.data(), out.size(), importance.data(), 2);
        ADD_FAILURE() << "a negative importance weight was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("importance[95]"), std::string::npos) << e.what();
    }
    importance[95] = std::numeric_limits<float>::infinity();
    EXPECT_THROW(quantize_tensor(f, w.data(), 3, 96, out.data(), out.size(), importance.data(), 1), Error);
}

}  // namespace
}  // namespace skn_core
