// SPDX-License-Identifier: MIT
// Regenerates the quantizer goldens under tests/golden/quant from a ggml
// build: run by scripts/update-quant-goldens (see there and
// docs/formats.md, "Which reference"). Not part of the build or of CI.
//
// Each golden directory's MANIFEST says which goldens it holds, one line per
// name: "<format>" (no importance weights), "<format>_imatrix" (with
// test::golden_importance) or "<format>_imatrix_zeros" (with
// test::golden_importance_with_zeros) in the edge directories, or "<format>" alone in
// quant/imatrix and quant/imatrix/edge, whose every line uses that
// directory's importance weights. For every line naming a ggml type this
// program quantizes the directory's input with ggml, writes <name>.q and
// rewrites the line's byte count and hashes (FNV-1a 64 of the bytes and of
// the floats ggml decodes them to, "-" when ggml has no decoder). Lines of
// formats ggml does not have (I2_S, I2_S_G64: bitnet.cpp) and comment lines
// are kept as they are. Prints one line per golden: kept or changed.
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "ggml.h"
#include "support/golden_file.hpp"
#include "unit/grid_edge_rows.hpp"
#include "unit/grid_iq3_edge_rows.hpp"

// ggml-base exports these but declares them in a private header
// (ggml-quants.h); ggml_quantize_chunk has no case for Q8_1 and Q8_K, and
// the type traits give Q8_K no to_float.
extern "C" {
void quantize_row_q8_1_ref(const float* x, void* y, int64_t k);
void quantize_row_q8_K_ref(const float* x, void* y, int64_t k);
void dequantize_row_q8_K(const void* x, float* y, int64_t k);
}

namespace {

using skn_core::test::fnv1a64;

struct GoldenSet {
    std::string dir;  // under tests/golden
    int64_t rows;
    int64_t cols;
    std::vector<float> input;
    // The importance weights for a line's name, or nullopt for none.
    std::function<std::optional<std::vector<float>>(const std::string& name)> importance;
};

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const void* data, size_t n) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), std::streamsize(n));
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<float> read_floats(const std::string& relative, size_t count) {
    const auto bytes = skn_core::test::read_golden(relative);
    if (!bytes || bytes->size() != count * sizeof(float))
        throw std::runtime_error("tests/golden/" + relative + " is missing or not " + std::to_string(count) + " floats");
    std::vector<float> out(count);
    std::memcpy(out.data(), bytes->data(), bytes->size());
    return out;
}

// The ggml type a golden name's format part stands for, if ggml has it.
std::optional<ggml_type> ggml_type_named(const std::string& format) {
    for (int t = 0; t < GGML_TYPE_COUNT; ++t) {
        const char* name = ggml_type_name(ggml_type(t));
        if (name == nullptr) continue;
        std::string lower(name);
        for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (lower == format && ggml_type_size(ggml_type(t)) != 0) return ggml_type(t);
    }
    return std::nullopt;
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The format part of a golden name: without "_imatrix" or "_imatrix_zeros".
std::string format_of(const std::string& name) {
    for (const std::string suffix : {"_imatrix_zeros", "_imatrix"})
        if (ends_with(name, suffix)) return name.substr(0, name.size() - suffix.size());
    return name;
}

std::vector<uint8_t> quantize(ggml_type type, const GoldenSet& set, const float* importance) {
    const size_t row_bytes = ggml_row_size(type, set.cols);
    std::vector<uint8_t> out(row_bytes * size_t(set.rows));
    if (type == GGML_TYPE_Q8_1 || type == GGML_TYPE_Q8_K) {
        for (int64_t r = 0; r < set.rows; ++r) {
            const float* x = set.input.data() + r * set.cols;
            if (type == GGML_TYPE_Q8_1) quantize_row_q8_1_ref(x, out.data() + size_t(r) * row_bytes, set.cols);
            else quantize_row_q8_K_ref(x, out.data() + size_t(r) * row_bytes, set.cols);
        }
    } else {
        ggml_quantize_chunk(type, set.input.data(), out.data(), 0, set.rows, set.cols, importance);
    }
    return out;
}

// "-" when ggml has no decoder for the type.
std::string decoded_hash(ggml_type type, const std::vector<uint8_t>& bytes, size_t count) {
    std::vector<float> y(count);
    if (type == GGML_TYPE_Q8_K) {
        dequantize_row_q8_K(bytes.data(), y.data(), int64_t(count));
    } else {
        const auto* traits = ggml_get_type_traits(type);
        if (traits->to_float == nullptr) return "-";
        traits->to_float(bytes.data(), y.data(), int64_t(count));
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(y.data(), count * sizeof(float))));
    return buf;
}

void regenerate(const std::string& golden_root, const GoldenSet& set) {
    const std::string manifest_path = golden_root + "/" + set.dir + "/MANIFEST";
    std::istringstream text(read_text(manifest_path));
    std::string rewritten;
    std::string line;
    while (std::getline(text, line)) {
        std::istringstream fields(line);
        std::string name;
        std::optional<ggml_type> type;
        if (!line.empty() && line[0] != '#' && (fields >> name)) type = ggml_type_named(format_of(name));
        if (!type) {
            if (!line.empty() && line[0] != '#') std::printf("%-36s not a ggml type: line kept\n", (set.dir + "/" + name).c_str());
            rewritten += line + "\n";
            continue;
        }
        const auto importance = set.importance(name);
        if (!importance && ggml_quantize_requires_imatrix(*type))
            throw std::runtime_error(manifest_path + ": " + name + " needs importance weights");
        const auto bytes = quantize(*type, set, importance ? importance->data() : nullptr);
        char entry[160];
        std::snprintf(entry, sizeof entry, "%s %zu %016llx %s", name.c_str(), bytes.size(),
                      static_cast<unsigned long long>(fnv1a64(bytes.data(), bytes.size())),
                      decoded_hash(*type, bytes, set.input.size()).c_str());
        std::string old_bytes;
        fields >> old_bytes;
        const char* verdict = line == entry ? "kept" : old_bytes.empty() || old_bytes == "0" ? "new" : "CHANGED";
        std::printf("%-36s %s\n", (set.dir + "/" + name).c_str(), verdict);
        write_bytes(golden_root + "/" + set.dir + "/" + name + ".q", bytes.data(), bytes.size());
        rewritten += std::string(entry) + "\n";
    }
    write_bytes(manifest_path, rewritten.data(), rewritten.size());
}

std::vector<float> sample(int64_t rows, int64_t cols) {
    std::vector<float> x(size_t(rows * cols));
    skn_core::sample_weight(x.data(), rows, cols, skn_core::test::kGoldenSeed);
    return x;
}

}  // namespace

int main() {
    namespace t = skn_core::test;
    const std::string root = SKN_GOLDEN_DIR;
    const auto none = [](const std::string&) -> std::optional<std::vector<float>> { return std::nullopt; };
    // In the edge directories a name ending in _imatrix uses the golden
    // importance weights, one ending in _imatrix_zeros those with zeros.
    const auto by_suffix = [](int64_t cols) {
        return [cols](const std::string& name) -> std::optional<std::vector<float>> {
            if (ends_with(name, "_imatrix_zeros")) return t::golden_importance_with_zeros(cols);
            if (ends_with(name, "_imatrix")) return t::golden_importance(cols);
            return std::nullopt;
        };
    };
    const auto always = [](std::vector<float> w) {
        return [w](const std::string&) -> std::optional<std::vector<float>> { return w; };
    };
    const int64_t edge_rows = 6, edge_cols = 768;
    const std::vector<GoldenSet> sets = {
        {"quant", t::kGoldenRows, t::kGoldenCols, sample(t::kGoldenRows, t::kGoldenCols), none},
        {"quant/imatrix", t::kGoldenRows, t::kGoldenCols, sample(t::kGoldenRows, t::kGoldenCols),
         always(t::golden_importance(t::kGoldenCols))},
        {"quant/imatrix/edge", edge_rows, edge_cols,
         read_floats("quant/imatrix/edge/input.f32", size_t(edge_rows * edge_cols)),
         always(read_floats("quant/imatrix/edge/importance.f32", size_t(edge_cols)))},
        {"quant/grid_edges", t::kGridEdgeRows, t::kGridEdgeCols, t::grid_edge_rows(), by_suffix(t::kGridEdgeCols)},
        {"quant/grid_iq3_edges", t::kIq3EdgeRows, t::kIq3EdgeCols, t::iq3_edge_rows(), by_suffix(t::kIq3EdgeCols)},
    };
    try {
        for (const auto& set : sets) regenerate(root, set);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "update-quant-goldens: %s\n", e.what());
        return 1;
    }
    return 0;
}
