// SPDX-License-Identifier: MIT
// Byte-identity with the GGUF ecosystem: every block format quantizes the
// golden sample to exactly the bytes ggml's reference quantizer wrote, and
// decodes those bytes to exactly the floats ggml's decoder produced. Formats
// whose reference reads importance weights are checked a second time with
// test::golden_importance against tests/golden/quant/imatrix.
//
// A row-interleaved format (Q4_0_R8 ...) has no reference quantizer of its
// own: its bytes are its canonical twin's reference bytes repacked. So its
// expected bytes are the canonical golden converted with convert_rows (over
// the golden rows repeated up to a multiple of R where R exceeds them:
// BF16_R16), and its decode must give the canonical reference decode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "support/golden_file.hpp"
#include "support/rows_for.hpp"

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

// The golden file a format is checked against: its own, or for a
// row-interleaved format its canonical twin's.
std::string golden_name(const FormatTraits& f) { return lower(test::canonical_of(f).name); }

const test::QuantManifestEntry* manifest_entry(const Golden& g) {
    static const auto plain = test::read_quant_manifest("quant");
    static const auto weighted = test::read_quant_manifest("quant/imatrix");
    const std::string name = golden_name(*g.format);
    for (const auto& e : g.with_importance ? weighted : plain)
        if (e.format == name) return &e;
    return nullptr;
}

std::vector<Golden> formats_with_goldens() {
    std::vector<Golden> out;
    for (const auto& f : all_formats()) {
        if (f.id == FormatId::F32) continue;  // F32 is the input itself
        const FormatTraits& canonical = test::canonical_of(f);
        if (!canonical.requires_importance()) out.push_back({&f, false});
        if (canonical.quantize_row_weighted != nullptr) out.push_back({&f, true});
    }
    return out;
}

// The golden sample's rows for `f`: kGoldenRows, repeated for a
// row-interleaved format until they are a multiple of its R (every
// canonical quantizer here works row by row, so repeated rows quantize to
// repeated bytes).
int64_t golden_copies(const FormatTraits& f) {
    int64_t copies = 1;
    while (copies * test::kGoldenRows % f.block_rows != 0) ++copies;
    return copies;
}

template <typename T>
std::vector<T> repeated(const std::vector<T>& v, int64_t copies) {
    std::vector<T> out;
    for (int64_t c = 0; c < copies; ++c) out.insert(out.end(), v.begin(), v.end());
    return out;
}

// The bytes `f` must quantize the golden sample to: the golden file itself,
// or for a row-interleaved format the canonical golden (repeated) converted.
std::vector<uint8_t> expected_bytes(const FormatTraits& f, const std::vector<uint8_t>& golden) {
    if (!f.interleaved()) return golden;
    const int64_t rows = golden_copies(f) * test::kGoldenRows;
    const std::vector<uint8_t> canonical = repeated(golden, golden_copies(f));
    std::vector<uint8_t> converted(canonical.size(), 0xAB);
    convert_rows(test::canonical_of(f), f, canonical.data(), canonical.size(), converted.data(), converted.size(), rows,
                 test::kGoldenCols);
    EXPECT_NE(converted, canonical) << f.name << ": converting moved no byte";
    return converted;
}

class QuantizerGolden : public ::testing::TestWithParam<Golden> {};

TEST_P(QuantizerGolden, BytesMatchReferenceQuantizer) {
    const Golden& g = GetParam();
    const FormatTraits& f = *g.format;
    const auto* entry = manifest_entry(g);
    ASSERT_NE(entry, nullptr) << "tests/golden/" << g.dir() << "/MANIFEST has no line for " << f.name
                              << ": every format must be checked against its reference quantizer";
    auto golden = test::read_golden(g.dir() + "/" + golden_name(f) + ".q");
    ASSERT_TRUE(golden.has_value()) << "missing tests/golden/" << g.dir() << "/" << golden_name(f) << ".q";
    ASSERT_EQ(golden->size(), entry->bytes);
    ASSERT_EQ(test::fnv1a64(golden->data(), golden->size()), entry->quantized_hash) << "golden file corrupted";
    const std::vector<uint8_t> want = expected_bytes(f, *golden);

    // Rows of the golden sample (repeated for BF16_R16), quantized.
    const int64_t copies = golden_copies(f), rows = copies * test::kGoldenRows;
    std::vector<float> w(test::kGoldenRows * test::kGoldenCols);
    sample_weight(w.data(), test::kGoldenRows, test::kGoldenCols, test::kGoldenSeed);
    w = repeated(w, copies);
    const size_t n = quantized_size(f, rows, test::kGoldenCols);
    ASSERT_EQ(n, want.size());
    std::vector<uint8_t> mine(n, 0xAB);
    const std::vector<float> importance = test::golden_importance();
    quantize_tensor(f, w.data(), rows, test::kGoldenCols, mine.data(), n,
                    g.with_importance ? importance.data() : nullptr);
    const auto diff = std::mismatch(mine.begin(), mine.end(), want.begin());
    if (diff.first != mine.end()) {
        // Where the byte sits: a row and block, or a row-interleaved block
        // (R rows) of a group of R rows.
        const size_t at = size_t(diff.first - mine.begin());
        const size_t unit = f.tile_bytes();
        const size_t group_bytes = size_t(test::kGoldenCols / f.block_elems) * unit;
        FAIL() << f.name << ": first differing byte at offset " << at << " ("
               << (f.interleaved() ? "group of rows " : "row ") << at / group_bytes << ", block "
               << (at % group_bytes) / unit << ", byte " << (at % group_bytes) % unit
               << " of the block): ours 0x" << std::hex << int(*diff.first) << ", reference 0x" << int(*diff.second);
    }
}

TEST_P(QuantizerGolden, DecodeMatchesReferenceDecoder) {
    const Golden& g = GetParam();
    const FormatTraits& f = *g.format;
    const auto* entry = manifest_entry(g);
    ASSERT_NE(entry, nullptr);
    if (!entry->decoded_hash) GTEST_SKIP() << f.name << ": the reference has no decoder to compare with";
    auto golden = test::read_golden(g.dir() + "/" + golden_name(f) + ".q");
    ASSERT_TRUE(golden.has_value());
    const std::vector<uint8_t> bytes = expected_bytes(f, *golden);
    const int64_t copies = golden_copies(f), rows = copies * test::kGoldenRows;
    std::vector<float> out(size_t(rows * test::kGoldenCols));
    dequantize_tensor(f, bytes.data(), bytes.size(), rows, test::kGoldenCols, out.data(), out.size());
    // Each copy of the golden rows decodes to the reference decoder's floats.
    const size_t per_copy = size_t(test::kGoldenRows * test::kGoldenCols);
    for (int64_t c = 0; c < copies; ++c)
        EXPECT_EQ(test::fnv1a64(out.data() + size_t(c) * per_copy, per_copy * sizeof(float)), *entry->decoded_hash)
            << f.name << ": decoded floats differ from the reference decoder's (copy " << c << " of the rows)";
}

INSTANTIATE_TEST_SUITE_P(AllFormats, QuantizerGolden, ::testing::ValuesIn(formats_with_goldens()),
                         [](const auto& param_info) {
                             return std::string(param_info.param.format->name) +
                                    (param_info.param.with_importance ? "_imatrix" : "");
                         });

}  // namespace
}  // namespace skn_core
