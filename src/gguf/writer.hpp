// SPDX-License-Identifier: MIT
// Building GGUF v3 files in memory and writing them out. Every value is
// validated when it is added (unique keys and names, shapes that match the
// bytes), so what is written always reads back with gguf::File.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gguf/types.hpp"

namespace skn_core::gguf {

// An array value of any element type, arrays of arrays included.
struct ArrayValue {
    ValueType element_type = ValueType::U8;
    // Fixed-size element types: `count` elements, little-endian, in `raw`.
    std::vector<uint8_t> raw;
    uint64_t count = 0;
    std::vector<std::string> strings;   // element_type String
    std::vector<ArrayValue> arrays;     // element_type Array

    static ArrayValue numbers(ValueType type, const void* data, uint64_t count);
    static ArrayValue of_strings(std::vector<std::string> s);
    static ArrayValue of_arrays(std::vector<ArrayValue> a);
};

class Writer {
public:
    // The alignment of the data section and of every tensor: a positive
    // multiple of 8. A value other than the default is recorded in the file
    // as general.alignment.
    void set_alignment(uint32_t alignment);
    uint32_t alignment() const { return alignment_; }

    // Metadata, in the order added. Keys are 1..65535 bytes and unique.
    template <typename T>
    void add_scalar(std::string_view key, ValueType type, T value);
    void add_bool(std::string_view key, bool value);
    void add_string(std::string_view key, std::string_view value);
    void add_array(std::string_view key, const ArrayValue& value);

    // A tensor of a format skn implements. `ne` is in file order (ggml's ne:
    // ne[0] is the contiguous row length), 1..4 entries, each positive, ne[0]
    // a multiple of the block size; `bytes` must be exactly the tensor's size.
    // The bytes are copied.
    void add_tensor(std::string_view name, const FormatTraits& format, std::span<const int64_t> ne,
                    std::span<const uint8_t> bytes);
    // A tensor of a GGUF type skn stores without implementing it: the plain
    // element types I8, I16, I32, I64 and F64 (ids 24 ... 28), whose size
    // is their element size times the element count. Checked as add_tensor
    // checks a format; refused (SKN_E_UNSUPPORTED) for any other type that
    // is not a format skn implements, since its size is not known.
    void add_stored_tensor(std::string_view name, const TensorType& type, std::span<const int64_t> ne,
                           std::span<const uint8_t> bytes);
    void declare_stored_tensor(std::string_view name, const TensorType& type, std::span<const int64_t> ne);
    // A tensor of any type id with whatever bytes the caller gives: no size
    // check. For tests and tools that must produce files skn refuses to read.
    void add_raw_tensor(std::string_view name, int32_t type_id, std::span<const int64_t> ne,
                        std::span<const uint8_t> bytes);
    // A tensor whose bytes are not given now: they are written later, in
    // declaration order, through a Stream (gguf/stream.hpp). Checked as
    // add_tensor checks a tensor, except for the bytes. A writer holding a
    // declared tensor cannot write_to or write_file.
    void declare_tensor(std::string_view name, const FormatTraits& format, std::span<const int64_t> ne);

    // What a stream needs to write the file: the header up to the start of
    // the data section (padding included), and every tensor's name and
    // byte size in file order. Refused when a tensor was added with its
    // bytes (a stream takes every tensor's bytes from its caller).
    struct StreamPlan {
        std::vector<uint8_t> header;
        std::vector<std::pair<std::string, uint64_t>> tensors;
        uint32_t alignment = kDefaultAlignment;
        uint64_t file_size = 0;
    };
    StreamPlan stream_plan() const;

    // Bytes of the whole file.
    uint64_t file_size() const;
    // Write the file into `dst` (at least file_size() bytes; throws
    // SKN_E_BUFFER_TOO_SMALL otherwise).
    void write_to(uint8_t* dst, size_t capacity) const;
    std::vector<uint8_t> to_bytes() const;
    // Write the file at `path` (replaced if it exists), through a temporary
    // file beside it: on failure `path` is untouched.
    void write_file(const std::string& path) const;

private:
    struct Entry {
        std::string key;
        ValueType type;
        std::vector<uint8_t> value;  // encoded as in the file, type not included
    };
    struct PendingTensor {
        std::string name;
        int32_t type_id;
        int rank;
        std::array<int64_t, 4> ne;
        std::vector<uint8_t> bytes;
        uint64_t size = 0;      // bytes.size(), or the declared size
        bool declared = false;  // declare_tensor: bytes come later, through a stream
    };

    void add_entry(std::string_view key, ValueType type, std::vector<uint8_t> value);
    void declare(std::string_view name, int32_t type_id, std::span<const int64_t> ne, uint64_t size);
    // The GGUF type id `format` is stored under; records the I2_S layout.
    int32_t gguf_type_of(std::string_view name, const FormatTraits& format);
    void check_new_key(std::string_view key) const;
    void check_new_tensor(std::string_view name, std::span<const int64_t> ne) const;
    template <typename Sink>
    void emit_header(Sink& sink) const;
    template <typename Sink>
    void emit(Sink& sink) const;
    void require_all_data() const;
    uint64_t header_size() const;

    uint32_t alignment_ = kDefaultAlignment;
    std::vector<Entry> entries_;
    std::vector<PendingTensor> tensors_;
    const FormatTraits* i2_s_layout_ = nullptr;  // I2_S or I2_S_G64 once a tensor of either is added
};

extern template void Writer::add_scalar<uint8_t>(std::string_view, ValueType, uint8_t);
extern template void Writer::add_scalar<int8_t>(std::string_view, ValueType, int8_t);
extern template void Writer::add_scalar<uint16_t>(std::string_view, ValueType, uint16_t);
extern template void Writer::add_scalar<int16_t>(std::string_view, ValueType, int16_t);
extern template void Writer::add_scalar<uint32_t>(std::string_view, ValueType, uint32_t);
extern template void Writer::add_scalar<int32_t>(std::string_view, ValueType, int32_t);
extern template void Writer::add_scalar<uint64_t>(std::string_view, ValueType, uint64_t);
extern template void Writer::add_scalar<int64_t>(std::string_view, ValueType, int64_t);
extern template void Writer::add_scalar<float>(std::string_view, ValueType, float);
extern template void Writer::add_scalar<double>(std::string_view, ValueType, double);

}  // namespace skn_core::gguf
