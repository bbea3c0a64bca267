// SPDX-License-Identifier: MIT
// GGUF writing beyond the in-memory writer's basics: arrays of arrays from C
// (skn_gguf_writer_add_array_value), tensors named by GGUF type id
// (skn_gguf_writer_add_tensor_of_type, _declare_tensor_of_type) and files
// streamed tensor by tensor (skn_gguf_writer_declare_tensor, skn_gguf_stream_*).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "capi/gguf_handle.hpp"
#include "capi/guard.hpp"
#include "formats/format.hpp"
#include "gguf/stream.hpp"
#include "gguf/writer.hpp"
#include "runtime/checked.hpp"

using skn_core::capi::guarded;
using skn_core::capi::raw_enum;
using skn_core::capi::require_non_null;
namespace gguf = skn_core::gguf;

struct skn_gguf_stream {
    std::unique_ptr<gguf::Stream> stream;
};

namespace {

constexpr size_t kArrayValueV1Size = offsetof(skn_gguf_array_value, arrays) + sizeof(void*);

// Copy the C tree into the writer's ArrayValue, checking every node before
// reading it. `budget` is what the copies may still take in total: a tree
// that lists one large node many times is refused before it is copied many
// times over.
gguf::ArrayValue copy_array(const skn_gguf_array_value* v, const std::string& path, int depth, uint64_t& budget) {
    if (v == nullptr) skn_core::fail(SKN_E_INVALID_ARGUMENT, "{} must not be NULL", path);
    if (depth > gguf::kMaxArrayDepth)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "{} is nested {} deep; GGUF readers accept arrays at most {} deep (an array that contains "
                       "itself is infinitely deep)",
                       path, depth, gguf::kMaxArrayDepth);
    if (v->struct_size < kArrayValueV1Size)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "{}.struct_size is {} but must be at least {}: set it to sizeof(skn_gguf_array_value)", path,
                       v->struct_size, kArrayValueV1Size);
    const int64_t raw = raw_enum(v->element_type);
    if (raw < 0 || !gguf::is_value_type(uint32_t(raw)))
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "{}.element_type is {}, not an skn_gguf_type", path, raw);
    const auto type = gguf::ValueType(raw);
    const uint64_t count = v->count;
    auto charge = [&](uint64_t bytes) {
        if (bytes > budget)
            skn_core::fail(SKN_E_INVALID_ARGUMENT,
                           "{}: the array's elements take more bytes than one metadata value can hold: check the counts",
                           path);
        budget -= bytes;
    };
    if (type == gguf::ValueType::String) {
        if (count != 0) require_non_null(v->strings, (path + ".strings").c_str());
        charge(skn_core::checked_mul<uint64_t>(count, 8, path + ".count * 8"));
        std::vector<std::string> copy;
        copy.reserve(size_t(count));
        for (uint64_t i = 0; i < count; ++i) {
            const char* s = v->strings[i];
            if (s == nullptr && v->lengths == nullptr)
                skn_core::fail(SKN_E_INVALID_ARGUMENT,
                               "{}.strings[{}] is NULL and there are no lengths: pass \"\" for an empty string", path, i);
            const size_t len = v->lengths != nullptr ? v->lengths[i] : std::strlen(s);
            if (s == nullptr && len != 0)
                skn_core::fail(SKN_E_INVALID_ARGUMENT, "{}.strings[{}] is NULL but its length is {}", path, i, len);
            charge(len);
            copy.emplace_back(s != nullptr ? s : "", len);
        }
        return gguf::ArrayValue::of_strings(std::move(copy));
    }
    if (type == gguf::ValueType::Array) {
        if (count != 0) require_non_null(v->arrays, (path + ".arrays").c_str());
        charge(skn_core::checked_mul<uint64_t>(count, 12, path + ".count * 12"));
        std::vector<gguf::ArrayValue> children;
        children.reserve(size_t(count));
        for (uint64_t i = 0; i < count; ++i)
            children.push_back(copy_array(v->arrays[i], path + ".arrays[" + std::to_string(i) + "]", depth + 1, budget));
        return gguf::ArrayValue::of_arrays(std::move(children));
    }
    if (count != 0) require_non_null(v->data, (path + ".data").c_str());
    charge(skn_core::checked_mul<uint64_t>(count, gguf::value_type_size(type), path + ".count * element size"));
    return gguf::ArrayValue::numbers(type, v->data, count);
}

// A GGUF type id given to the _of_type functions: the format skn implements
// under that id (NULL for the plain types skn only stores). Type 36 is
// refused: which of its two layouts the bytes are in must be named.
const skn_core::FormatTraits* format_of_type(int32_t gguf_type, const char* name) {
    if (gguf_type == gguf::kI2sTypeId)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "tensor \"{}\": GGUF type 36 is I2_S in one of two layouts: add it with "
                       "skn_gguf_writer_add_tensor or _declare_tensor and SKN_FORMAT_I2_S (x86) or "
                       "SKN_FORMAT_I2_S_G64 (arm64)",
                       name);
    return skn_core::is_gguf_type_id(gguf_type) ? skn_core::find_format(gguf_type) : nullptr;
}

// The checked arguments every tensor-declaring call shares: the writer, the
// name, and `rank` dimensions at `ne`.
std::span<const int64_t> tensor_dims(const skn_gguf_writer* w, const char* name, int32_t rank, const int64_t* ne) {
    require_non_null(w, "writer");
    require_non_null(name, "name");
    require_non_null(ne, "ne");
    if (rank < 1 || rank > gguf::kMaxRank)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "tensor \"{}\": rank {} is outside 1..{}", name, rank, gguf::kMaxRank);
    return {ne, size_t(rank)};
}

gguf::Stream& stream_of(skn_gguf_stream* s) {
    require_non_null(s, "stream");
    return *s->stream;
}

}  // namespace

extern "C" {

SKN_API skn_status skn_gguf_writer_add_array_value(skn_gguf_writer* w, const char* key,
                                                   const skn_gguf_array_value* value) {
    return guarded([&] {
        require_non_null(w, "writer");
        require_non_null(key, "key");
        require_non_null(value, "value");
        uint64_t budget = skn_core::kMaxAllocationBytes;
        w->writer.add_array(key, copy_array(value, "value", 1, budget));
    });
}

SKN_API skn_status skn_gguf_writer_declare_tensor(skn_gguf_writer* w, const char* name, skn_format format,
                                                  int32_t rank, const int64_t* ne) {
    return guarded([&] {
        require_non_null(w, "writer");
        require_non_null(name, "name");
        require_non_null(ne, "ne");
        const int64_t id = raw_enum(format);
        const skn_core::FormatTraits* f =
            id >= INT32_MIN && id <= INT32_MAX ? skn_core::find_format(int32_t(id)) : nullptr;
        if (f == nullptr) skn_core::fail(SKN_E_UNKNOWN_FORMAT, "format id {} is not one skn implements", id);
        w->writer.declare_tensor(name, *f, tensor_dims(w, name, rank, ne));
    });
}

SKN_API skn_status skn_gguf_writer_add_tensor_of_type(skn_gguf_writer* w, const char* name, int32_t gguf_type,
                                                      int32_t rank, const int64_t* ne, const void* data,
                                                      size_t size) {
    return guarded([&] {
        const std::span<const int64_t> dims = tensor_dims(w, name, rank, ne);
        require_non_null(data, "data");
        const std::span<const uint8_t> bytes(static_cast<const uint8_t*>(data), size);
        if (const skn_core::FormatTraits* f = format_of_type(gguf_type, name))
            w->writer.add_tensor(name, *f, dims, bytes);
        else
            w->writer.add_stored_tensor(name, gguf::tensor_type(gguf_type), dims, bytes);
    });
}

SKN_API skn_status skn_gguf_writer_declare_tensor_of_type(skn_gguf_writer* w, const char* name, int32_t gguf_type,
                                                          int32_t rank, const int64_t* ne) {
    return guarded([&] {
        const std::span<const int64_t> dims = tensor_dims(w, name, rank, ne);
        if (const skn_core::FormatTraits* f = format_of_type(gguf_type, name))
            w->writer.declare_tensor(name, *f, dims);
        else
            w->writer.declare_stored_tensor(name, gguf::tensor_type(gguf_type), dims);
    });
}

SKN_API skn_status skn_gguf_stream_begin(const skn_gguf_writer* w, const char* path, skn_gguf_stream** out) {
    return guarded([&] {
        require_non_null(w, "writer");
        require_non_null(path, "path");
        require_non_null(out, "out");
        auto s = std::make_unique<skn_gguf_stream>();
        s->stream = std::make_unique<gguf::Stream>(w->writer, path);
        *out = s.release();
    });
}

SKN_API skn_status skn_gguf_stream_begin_fd(const skn_gguf_writer* w, int fd, skn_gguf_stream** out) {
    return guarded([&] {
        require_non_null(w, "writer");
        require_non_null(out, "out");
        auto s = std::make_unique<skn_gguf_stream>();
        s->stream = std::make_unique<gguf::Stream>(w->writer, fd);
        *out = s.release();
    });
}

SKN_API skn_status skn_gguf_stream_write(skn_gguf_stream* s, const char* name, const void* data, size_t size) {
    return guarded([&] {
        gguf::Stream& st = stream_of(s);
        require_non_null(name, "name");
        if (size != 0) require_non_null(data, "data");
        st.write(name, std::span<const uint8_t>(static_cast<const uint8_t*>(data), size));
    });
}

SKN_API skn_status skn_gguf_stream_position(const skn_gguf_stream* s, int64_t* tensor, uint64_t* written) {
    return guarded([&] {
        require_non_null(s, "stream");
        if (tensor != nullptr) *tensor = int64_t(s->stream->current_tensor());
        if (written != nullptr) *written = s->stream->current_written();
    });
}

SKN_API skn_status skn_gguf_stream_finish(skn_gguf_stream* s) {
    return guarded([&] { stream_of(s).finish(); });
}

SKN_API void skn_gguf_stream_destroy(skn_gguf_stream* s) { delete s; }

}  // extern "C"
