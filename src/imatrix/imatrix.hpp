// SPDX-License-Identifier: MIT
// Reading the importance-matrix ("imatrix") files llama.cpp's llama-imatrix
// writes, in both of its forms:
//  - the GGUF form (current): per weight tensor NAME, an F32 tensor
//    NAME.in_sum2 of shape [values_per_row, matrices] (sums of squared
//    activations, one row per expert) and an F32 tensor NAME.counts holding
//    one count per matrix, plus the metadata imatrix.datasets (strings),
//    imatrix.chunk_count and imatrix.chunk_size (u32);
//  - the legacy binary form (.dat): int32 entry count, then per entry an
//    int32 name length, the name, int32 ncall, int32 nval and nval f32
//    values, then an optional trailer (int32 chunk count, int32 dataset name
//    length, the dataset name). Little-endian throughout.
//
// An Imatrix holds, per entry, the importance vector exactly as llama.cpp's
// llama-quantize computes it from the file (docs/imatrix.md gives the
// arithmetic); nothing of the input is borrowed after reading. Every count,
// length and offset is checked before use: a malformed file gives an
// skn_core::Error with SKN_E_FORMAT naming the byte offset or the entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace skn_core::imatrix {

enum class Form { Gguf = 1, Legacy = 2 };

// Names longer than this are refused. ggml caps a tensor name at 63 bytes
// (GGML_MAX_NAME); the margin admits builds that raise it, while a hostile
// length still cannot become a large allocation.
inline constexpr size_t kMaxNameBytes = 255;
// Dataset names are paths or descriptions; the GGUF key cap is reused.
inline constexpr size_t kMaxDatasetBytes = 65535;

struct Entry {
    std::string name;
    int64_t values_per_row = 0;  // the weight's row length (ne0)
    int64_t matrices = 1;        // experts of a 3-D weight; always 1 in the legacy form
    // Legacy: the entry's ncall (chunks). GGUF: the largest per-matrix count
    // (activation rows seen).
    int64_t count = 0;
    // Matrices whose count is zero (experts calibration never routed to):
    // llama-quantize gives them an importance of 1.0 everywhere.
    int64_t unused_matrices = 0;
    std::vector<int64_t> matrix_counts;  // one per matrix
    std::vector<float> values;           // values_per_row * matrices, matrix after matrix
};

class Imatrix {
public:
    // Read the file at `path` (a regular file).
    static std::unique_ptr<Imatrix> open(const std::string& path);
    // Read `size` bytes at `data`; nothing is kept pointing into them.
    // `source` names the input in error messages.
    static std::unique_ptr<Imatrix> read(const uint8_t* data, size_t size, const std::string& source);

    Form form() const { return form_; }
    const std::vector<Entry>& entries() const { return entries_; }
    std::optional<size_t> find(std::string_view name) const;
    const std::vector<std::string>& datasets() const { return datasets_; }
    // -1 when the file does not say.
    int64_t chunk_count() const { return chunk_count_; }
    int64_t chunk_size() const { return chunk_size_; }

private:
    Imatrix() = default;
    void index();

    Form form_ = Form::Gguf;
    std::vector<Entry> entries_;
    std::unordered_map<std::string_view, size_t> by_name_;
    std::vector<std::string> datasets_;
    int64_t chunk_count_ = -1;
    int64_t chunk_size_ = -1;

    friend struct Builder;
};

// Filled by the two form readers (legacy.cpp, gguf_form.cpp).
struct Builder {
    Form form = Form::Gguf;
    std::vector<Entry> entries;
    std::vector<std::string> datasets;
    int64_t chunk_count = -1;
    int64_t chunk_size = -1;
};

Builder read_legacy(const uint8_t* data, size_t size, const std::string& source);
Builder read_gguf_form(const uint8_t* data, size_t size, const std::string& source);

// Shared checks; `what` describes the item for the message ("entry #3 name").
// A name must be valid UTF-8 without NUL bytes and at most `max_bytes` long.
void check_text(std::string_view text, size_t max_bytes, const std::string& source, const std::string& what);

}  // namespace skn_core::imatrix
