// SPDX-License-Identifier: MIT
// Reading GGUF v2/v3 files: every count, length, offset and size is checked
// against the bytes that are really there before it is used, so a malformed
// file gives an skn_core::Error (SKN_E_FORMAT, with the byte offset and the key or
// tensor at fault), never a crash or a read out of bounds.
//
// Nothing is copied out of the file except key and tensor names, scalar
// values and every count, length and offset: string values, arrays and
// tensor data are handed out as pointers into the mapping (or the caller's
// buffer), their extents as checked at open, so a file rewritten in place
// after open changes the bytes served but never where they are or how many.
// An open File is immutable, so every query is safe from several threads at
// once.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gguf/mapping.hpp"
#include "gguf/types.hpp"

namespace skn_core::gguf {

// How tensor shapes are labelled. The bytes are never touched either way.
enum class Orientation {
    // [ne1, ne0] for a matrix (reverse of the file's order for every rank):
    // a weight reads [out, in] with the contiguous block axis last, which is
    // what the matrix products expect.
    OutIn,
    // The file's own order [ne0, ne1, ...] (ggml's ne), innermost first.
    AsStored,
};

// Which layout GGUF type 36 (BitNet's I2_S) is in when the file does not say
// (docs/gguf.md): bitnet.cpp writes the same type id and byte count in its
// x86 layout (skn's I2_S) and its arm64 layout (skn's I2_S_G64).
enum class I2sLayout {
    FromFile,  // the file's skn.i2_s_layout key; without it such tensors are refused at access
    X86,
    Arm64,
};

struct OpenOptions {
    Orientation orientation = Orientation::OutIn;
    // Open files holding tensor types skn does not implement; those tensors
    // are listed (supported == false) but cannot be decoded.
    bool allow_unsupported = false;
    // Read the file into owned memory instead of mapping it, so that the
    // file changing after open cannot affect (or SIGBUS) the reader.
    bool read_into_memory = false;
    // The layout of type-36 tensors in a file that does not record it. A file
    // that records it must agree (a mismatch is refused at open).
    I2sLayout i2_s_layout = I2sLayout::FromFile;
};

// An array value. A node is either a key's own array or an array nested in
// another array.
struct ArrayNode {
    ValueType element_type = ValueType::U8;
    uint64_t count = 0;
    uint64_t offset = 0;  // file offset of the first element
    // String arrays: the file offset of each string's 8-byte length prefix,
    // and one more entry, the offset just past the last string: strings lie
    // end to end, so string i is found in O(1) and its length is
    // items[i + 1] - items[i] - 8, from offsets checked at open (a length
    // re-read from the file could have changed since). Arrays of arrays: the
    // node index of each element. Empty for fixed-size element types.
    std::vector<uint64_t> items;
    // Held in another array (its id is kv count + node index); false for a
    // key's own array (its id is the key's index).
    bool nested = false;
};

struct KeyValue {
    std::string key;
    uint64_t offset = 0;  // file offset where the pair starts
    ValueType type = ValueType::U8;
    uint64_t value_offset = 0;  // fixed-size: the value; String: its first byte
    uint64_t length = 0;        // String: its length in bytes
    // Fixed-size: the value's bytes as read (and checked) at open, served
    // from here so that a file rewritten under a mapping cannot change them.
    uint64_t bits = 0;
    uint32_t node = 0;          // Array: index of its ArrayNode
};

struct Tensor {
    std::string name;
    uint64_t info_offset = 0;  // file offset of the tensor's info record
    TensorType type;           // type.format is null when skn does not implement it
    int rank = 0;
    std::array<int64_t, kMaxRank> ne{1, 1, 1, 1};  // file order (ggml's ne), 1 past the rank
    uint64_t relative_offset = 0;  // as stored: from the start of the data section
    uint64_t offset = 0;           // from the start of the file
    uint64_t size = 0;             // bytes, trailer included; 0 when the type's size is unknown
    bool supported = false;
    // Type 36 in a file that says neither which I2_S layout it holds nor was
    // opened with one: its bytes are refused (never decoded as a guess).
    bool i2_s_layout_unknown = false;

    int64_t elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
};

class File {
public:
    // Map `path` read-only and parse it.
    static std::unique_ptr<File> open(const std::string& path, const OpenOptions& options = {});
    // Parse `size` bytes at `data`, which the caller keeps alive and unchanged
    // for as long as the File exists.
    static std::unique_ptr<File> open_memory(const void* data, size_t size, const OpenOptions& options = {});

    const std::string& source() const { return source_; }
    const OpenOptions& options() const { return options_; }
    uint32_t version() const { return version_; }
    uint32_t alignment() const { return alignment_; }
    uint64_t data_offset() const { return data_offset_; }  // start of the data section
    uint64_t size() const { return size_; }
    const uint8_t* bytes() const { return data_; }

    // ---- tensors
    std::span<const Tensor> tensors() const { return tensors_; }
    const Tensor& tensor(int64_t index) const;  // throws SKN_E_INVALID_ARGUMENT when out of range
    std::optional<size_t> find_tensor(std::string_view name) const;
    size_t unsupported_count() const { return unsupported_count_; }
    // The shape as the options label it; entries past the rank are 1.
    std::array<int64_t, kMaxRank> shape(const Tensor& t) const;
    // The tensor's bytes. Throws SKN_E_UNSUPPORTED when its type's size is
    // unknown, SKN_E_FORMAT when it is I2_S of a layout the file does not say.
    std::span<const uint8_t> tensor_data(int64_t index) const;

    // ---- metadata
    std::span<const KeyValue> kvs() const { return kvs_; }
    const KeyValue& kv(int64_t index) const;  // throws SKN_E_INVALID_ARGUMENT when out of range
    std::optional<size_t> find_key(std::string_view key) const;

    // Typed access: the key's type must be exactly `T`'s (no conversion);
    // otherwise SKN_E_INVALID_ARGUMENT names the actual type.
    template <typename T>
    T scalar(int64_t key, ValueType type) const;
    bool boolean(int64_t key) const { return scalar<uint8_t>(key, ValueType::Bool) != 0; }
    std::string_view string(int64_t key) const;

    // Arrays are named by an array id: a key's index names that key's array
    // (the key must hold an array), and array_nested() gives the ids of arrays
    // held in arrays.
    const ArrayNode& array(uint64_t array_id) const;
    // The raw little-endian elements of an array of a fixed-size type.
    std::span<const uint8_t> array_bytes(uint64_t array_id) const;
    std::string_view array_string(uint64_t array_id, uint64_t i) const;
    uint64_t array_nested(uint64_t array_id, uint64_t i) const;

private:
    File() = default;
    void parse();

    std::string source_;
    OpenOptions options_;
    std::optional<FileMapping> mapping_;
    const uint8_t* data_ = nullptr;
    uint64_t size_ = 0;

    uint32_t version_ = 0;
    uint32_t alignment_ = kDefaultAlignment;
    uint64_t data_offset_ = 0;
    std::vector<KeyValue> kvs_;
    std::vector<ArrayNode> nodes_;
    std::vector<Tensor> tensors_;
    std::unordered_map<std::string_view, size_t> key_index_;
    std::unordered_map<std::string_view, size_t> tensor_index_;
    size_t unsupported_count_ = 0;

    friend class Parser;

public:
    // Throws SKN_E_FORMAT, saying how to choose, when `t` is I2_S whose layout
    // neither the file nor the options give.
    void require_known_layout(const Tensor& t) const;
};

extern template uint8_t File::scalar<uint8_t>(int64_t, ValueType) const;
extern template int8_t File::scalar<int8_t>(int64_t, ValueType) const;
extern template uint16_t File::scalar<uint16_t>(int64_t, ValueType) const;
extern template int16_t File::scalar<int16_t>(int64_t, ValueType) const;
extern template uint32_t File::scalar<uint32_t>(int64_t, ValueType) const;
extern template int32_t File::scalar<int32_t>(int64_t, ValueType) const;
extern template uint64_t File::scalar<uint64_t>(int64_t, ValueType) const;
extern template int64_t File::scalar<int64_t>(int64_t, ValueType) const;
extern template float File::scalar<float>(int64_t, ValueType) const;
extern template double File::scalar<double>(int64_t, ValueType) const;

}  // namespace skn_core::gguf
