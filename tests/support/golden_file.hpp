// SPDX-License-Identifier: MIT
// Reading tests/golden: the quantizer goldens and their manifest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skn_core::test {

// FNV-1a 64 over raw bytes: the manifest's hash.
uint64_t fnv1a64(const void* data, size_t n);

// The whole file at tests/golden/<relative>, or nullopt when it does not exist.
std::optional<std::vector<uint8_t>> read_golden(const std::string& relative);

struct QuantManifestEntry {
    std::string format;       // lower-case name, as the .q file is named
    size_t bytes = 0;
    uint64_t quantized_hash = 0;
    std::optional<uint64_t> decoded_hash;  // absent when the reference has no decoder
};

// Parse a quantizer manifest (throws std::runtime_error when malformed):
// tests/golden/quant/MANIFEST (no importance weights) by default, or
// tests/golden/quant/imatrix/MANIFEST (with golden_importance) for "quant/imatrix".
std::vector<QuantManifestEntry> read_quant_manifest(const std::string& dir = "quant");

// The sample the quantizer goldens were made from.
constexpr int64_t kGoldenRows = 8;
constexpr int64_t kGoldenCols = 1024;
constexpr uint64_t kGoldenSeed = 42;

// The importance weights (one per column) the tests/golden/quant/imatrix
// goldens were made with, shared by every row: 0.25 + ((c * 37) mod 101) / 25,
// all positive and uneven, so a quantizer that ignores them is caught. A
// generator outside the repository recomputes the same floats by this rule.
std::vector<float> golden_importance(int64_t cols = kGoldenCols);

// golden_importance with zeros: at every column c with c % 5 == 0 and in
// [512, 544) (a whole 32-column block). The importance of the edge goldens
// (tests/golden/quant/imatrix/edge/importance.f32 holds it for 768 columns,
// and the grid edge goldens' *_imatrix_zeros lines use it): a zero weight
// takes a value out of every fit, which reaches the searches' degenerate
// branches.
std::vector<float> golden_importance_with_zeros(int64_t cols);

}  // namespace skn_core::test
