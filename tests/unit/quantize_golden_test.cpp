// SPDX-License-Identifier: MIT
// Byte-identity with the GGUF ecosystem: every block format quantizes the
// golden sample to exactly the bytes ggml's reference quantizer wrote, and
// decodes those bytes to exactly the floats ggml's decoder produced. Formats
// whose reference reads importance weights are checked a second time with
// test::golden_importance against tests/golden/quant/imatrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "support/golden_file.hpp"

namespace skn_core {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// One golden: a format, quantized without importance weights (goldens in
// quant/) or with test::golden_importance (goldens in quant/imatrix/).
struct Golden {
    const FormatTraits* format;
    bool with_importance;
    std::string dir() const { return with_importance ? "quant/imatrix" : "quant"; }
};

const test::QuantManifestEntry* manifest_entry(const Golden& g) {
    static const auto plain = test::read_quant_manifest("quant");
    static const auto weighted = test::read_quant_manifest("quant/imatrix");
    const std::string name = lower(g.format->name);
    for (const auto& e : g.with_importance ? weighted : plain)
        if (e.format == name) return &e;
    return nullptr;
}

std::vector<Golden> formats_with_goldens() {
    std::vector<Golden> out;
    for (const auto& f : all_formats()) {
        if (f.id == FormatId::F32) continue;  // F32 is the input itself
        if (!f.requires_importance()) out.push_back({&f, false});
        if (f.quantize_row_weighted != nullptr) out.push_back({&f, true});
    }
    return out;
}

class QuantizerGolden : public ::testing::TestWithParam<Golden> {};

TEST_P(QuantizerGolden, BytesMatchReferenceQuantizer) {
    const Golden& g = GetParam();
    const FormatTraits& f = *g.format;
    const auto* entry = manifest_entry(g);
    ASSERT_NE(entry, nullptr) << "tests/golden/" << g.dir() << "/MANIFEST has no line for " << f.name
                              << ": every format must be checked against its reference quantizer";
    auto golden = test::read_golden(g.dir() + "/" + lower(f.name) + ".q");
    ASSERT_TRUE(golden.has_value()) << "missing tests/golden/" << g.dir() << "/" << lower(f.name) << ".q";
    ASSERT_EQ(golden->size(), entry->bytes);
    ASSERT_EQ(test::fnv1a64(golden->data(), golden->size()), entry->quantized_hash) << "golden file corrupted";

    std::vector<float> w(test::kGoldenRows * test::kGoldenCols);
    sample_weight(w.data(), test::kGoldenRows, test::kGoldenCols, test::kGoldenSeed);
    const size_t n = quantized_size(f, test::kGoldenRows, test::kGoldenCols);
    ASSERT_EQ(n, golden->size());
    std::vector<uint8_t> mine(n, 0xAB);
    const std::vector<float> importance = test::golden_importance();
    quantize_tensor(f, w.data(), test::kGoldenRows, test::kGoldenCols, mine.data(), n,
                    g.with_importance ? importance.data() : nullptr);
    const auto diff = std::mismatch(mine.begin(), mine.end(), golden->begin());
    if (diff.first != mine.end()) {
        const size_t at = size_t(diff.first - mine.begin());
        const size_t row_bytes = size_t(test::kGoldenCols / f.block_elems) * size_t(f.block_bytes);
        FAIL() << f.name << ": first differing byte at offset " << at << " (row " << at / row_bytes << ", block "
               << (at % row_bytes) / size_t(f.block_bytes) << ", byte " << (at % row_bytes) % size_t(f.block_bytes)
               << " of the block): ours 0x" << std::hex << int(*diff.first) << ", reference 0x" << int(*diff.second);
    }
}

TEST_P(QuantizerGolden, DecodeMatchesReferenceDecoder) {
    const Golden& g = GetParam();
    const FormatTraits& f = *g.format;
    const auto* entry = manifest_entry(g);
    ASSERT_NE(entry, nullptr);
    if (!entry->decoded_hash) GTEST_SKIP() << f.name << ": the reference has no decoder to compare with";
    auto golden = test::read_golden(g.dir() + "/" + lower(f.name) + ".q");
    ASSERT_TRUE(golden.has_value());
    std::vector<float> out(test::kGoldenRows * test::kGoldenCols);
    dequantize_tensor(f, golden->data(), golden->size(), test::kGoldenRows, test::kGoldenCols, out.data(), out.size());
    EXPECT_EQ(test::fnv1a64(out.data(), out.size() * sizeof(float)), *entry->decoded_hash)
        << f.name << ": decoded floats differ from the reference decoder's";
}

INSTANTIATE_TEST_SUITE_P(AllFormats, QuantizerGolden, ::testing::ValuesIn(formats_with_goldens()),
                         [](const auto& param_info) {
                             return std::string(param_info.param.format->name) +
                                    (param_info.param.with_importance ? "_imatrix" : "");
                         });

}  // namespace
}  // namespace skn_core
