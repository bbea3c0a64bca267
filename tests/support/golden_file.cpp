// SPDX-License-Identifier: MIT
#include "support/golden_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace skn_core::test {

uint64_t fnv1a64(const void* data, size_t n) {
    uint64_t h = 1469598103934665603ull;
    const auto* b = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < n; ++i) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

std::optional<std::vector<uint8_t>> read_golden(const std::string& relative) {
    std::ifstream in(std::string(SKN_GOLDEN_DIR) + "/" + relative, std::ios::binary);
    if (!in) return std::nullopt;
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<QuantManifestEntry> read_quant_manifest(const std::string& dir) {
    auto bytes = read_golden(dir + "/MANIFEST");
    if (!bytes) throw std::runtime_error("tests/golden/" + dir + "/MANIFEST is missing");
    std::istringstream text(std::string(bytes->begin(), bytes->end()));
    std::vector<QuantManifestEntry> out;
    std::string line;
    while (std::getline(text, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        QuantManifestEntry e;
        std::string qhash, dhash;
        if (!(fields >> e.format >> e.bytes >> qhash >> dhash))
            throw std::runtime_error("malformed MANIFEST line: " + line);
        e.quantized_hash = std::stoull(qhash, nullptr, 16);
        if (dhash != "-") e.decoded_hash = std::stoull(dhash, nullptr, 16);
        out.push_back(e);
    }
    return out;
}

std::vector<float> golden_importance(int64_t cols) {
    std::vector<float> w(static_cast<size_t>(cols));
    for (int64_t c = 0; c < cols; ++c) w[size_t(c)] = 0.25f + float((c * 37) % 101) / 25.0f;
    return w;
}

std::vector<float> golden_importance_with_zeros(int64_t cols) {
    std::vector<float> w = golden_importance(cols);
    for (int64_t c = 0; c < cols; ++c)
        if (c % 5 == 0 || (c >= 512 && c < 544)) w[size_t(c)] = 0.0f;
    return w;
}

}  // namespace skn_core::test
