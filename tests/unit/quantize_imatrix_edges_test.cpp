// SPDX-License-Identifier: MIT
// Importance-weighted quantizers on edge inputs, against the bytes ggml's
// reference wrote for the same floats (tests/golden/quant/imatrix/edge/, see
// its MANIFEST): all-zero rows, a single non-zero block, rows scaled by 1e-3
// and 1e3, subnormals, and importance weights with zeros in them (single
// columns and a whole sub-block). These are the inputs where a search's
// degenerate branches (all-zero sub-blocks, zero total weight, zero
// determinants) decide the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "support/golden_file.hpp"

namespace skn_core {
namespace {

constexpr int64_t kRows = 6;
constexpr int64_t kCols = 768;
const std::string kDir = "quant/imatrix/edge";

std::vector<float> read_floats(const std::string& name, size_t count) {
    const auto bytes = test::read_golden(kDir + "/" + name);
    if (!bytes || bytes->size() != count * sizeof(float)) return {};
    std::vector<float> out(count);
    std::memcpy(out.data(), bytes->data(), bytes->size());  // little-endian, as every target skn builds for
    return out;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::vector<const FormatTraits*> weighted_formats() {
    std::vector<const FormatTraits*> out;
    for (const auto& f : all_formats())
        if (f.quantize_row_weighted != nullptr) out.push_back(&f);
    return out;
}

class ImatrixEdges : public ::testing::TestWithParam<const FormatTraits*> {};

TEST_P(ImatrixEdges, BytesMatchReferenceQuantizer) {
    const FormatTraits& f = *GetParam();
    const auto manifest = test::read_quant_manifest(kDir);
    const auto entry = std::find_if(manifest.begin(), manifest.end(),
                                    [&](const test::QuantManifestEntry& e) { return e.format == lower(f.name); });
    ASSERT_NE(entry, manifest.end()) << "tests/golden/" << kDir << "/MANIFEST has no line for " << f.name
                                     << ": add one and run scripts/update-quant-goldens";
    const std::vector<float> input = read_floats("input.f32", size_t(kRows * kCols));
    const std::vector<float> importance = read_floats("importance.f32", size_t(kCols));
    ASSERT_FALSE(input.empty()) << "missing or short tests/golden/" << kDir << "/input.f32";
    ASSERT_FALSE(importance.empty()) << "missing or short tests/golden/" << kDir << "/importance.f32";
    ASSERT_EQ(importance, test::golden_importance_with_zeros(kCols)) << "importance.f32 is not the documented one";

    const auto golden = test::read_golden(kDir + "/" + lower(f.name) + ".q");
    ASSERT_TRUE(golden.has_value());
    ASSERT_EQ(golden->size(), entry->bytes);
    ASSERT_EQ(test::fnv1a64(golden->data(), golden->size()), entry->quantized_hash) << "golden file corrupted";

    const size_t n = quantized_size(f, kRows, kCols);
    ASSERT_EQ(n, golden->size());
    for (const int threads : {1, 3}) {
        std::vector<uint8_t> mine(n, 0xAB);
        quantize_tensor(f, input.data(), kRows, kCols, mine.data(), n, importance.data(), threads);
        const auto diff = std::mismatch(mine.begin(), mine.end(), golden->begin());
        if (diff.first != mine.end()) {
            const size_t at = size_t(diff.first - mine.begin());
            const size_t row_bytes = n / size_t(kRows);
            ADD_FAILURE() << f.name << " (" << threads << " threads): first differing byte at offset " << at
                          << " (row " << at / row_bytes << ", block " << (at % row_bytes) / size_t(f.block_bytes)
                          << "): ours 0x" << std::hex << int(*diff.first) << ", reference 0x" << int(*diff.second);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(WeightedFormats, ImatrixEdges, ::testing::ValuesIn(weighted_formats()),
                         [](const auto& p) { return std::string(p.param->name); });

}  // namespace
}  // namespace skn_core
