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

// Parse tests/golden/quant/MANIFEST (throws std::runtime_error when malformed).
std::vector<QuantManifestEntry> read_quant_manifest();

// The sample the quantizer goldens were made from.
constexpr int64_t kGoldenRows = 8;
constexpr int64_t kGoldenCols = 1024;
constexpr uint64_t kGoldenSeed = 42;

}  // namespace skn_core::test
