// SPDX-License-Identifier: MIT
// GGUF files: reading (skn_gguf) and writing (skn_gguf_writer).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "capi/gguf_handle.hpp"
#include "capi/guard.hpp"
#include "formats/format.hpp"
#include "gguf/reader.hpp"
#include "gguf/writer.hpp"
#include "runtime/checked.hpp"

using skn_core::capi::guarded;
using skn_core::capi::raw_enum;
using skn_core::capi::require_non_null;
namespace gguf = skn_core::gguf;


namespace {

// The integer a caller passed as an enum. C lets any int through an enum
// parameter; in C++ reading an enum object outside its declared range is
// undefined, so the value is copied out as its underlying integer first.
constexpr size_t kOptionsV1Size = offsetof(skn_gguf_options, allow_unsupported) + sizeof(int32_t);
constexpr size_t kTensorInfoV1Size = offsetof(skn_gguf_tensor_props, size) + sizeof(uint64_t);

gguf::OpenOptions open_options(const skn_gguf_options* o) {
    gguf::OpenOptions out;
    if (o == nullptr) return out;
    if (o->struct_size < kOptionsV1Size)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                  "options->struct_size is {} but must be at least {}: set it to sizeof(skn_gguf_options)",
                  o->struct_size, kOptionsV1Size);
    const int64_t orientation = raw_enum(o->orientation);
    if (orientation == SKN_GGUF_OUT_IN)
        out.orientation = gguf::Orientation::OutIn;
    else if (orientation == SKN_GGUF_AS_STORED)
        out.orientation = gguf::Orientation::AsStored;
    else
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                  "options->orientation is {}: use SKN_GGUF_OUT_IN (0) or SKN_GGUF_AS_STORED (1)", orientation);
    out.allow_unsupported = o->allow_unsupported != 0;
    // read_into_memory was added after allow_unsupported: a caller compiled
    // against a header without it passes a smaller struct_size.
    if (o->struct_size >= offsetof(skn_gguf_options, read_into_memory) + sizeof(int32_t)) {
        if (o->read_into_memory != 0 && o->read_into_memory != 1)
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "options->read_into_memory is {}: use 0 (map the file) or 1 (read "
                           "it into memory)", o->read_into_memory);
        out.read_into_memory = o->read_into_memory == 1;
    }
    // i2_s_layout was added after read_into_memory; a struct without it means FROM_FILE.
    if (o->struct_size >= offsetof(skn_gguf_options, i2_s_layout) + sizeof(int32_t)) {
        const int64_t layout = raw_enum(o->i2_s_layout);
        if (layout == SKN_I2_S_LAYOUT_FROM_FILE)
            out.i2_s_layout = gguf::I2sLayout::FromFile;
        else if (layout == SKN_I2_S_LAYOUT_X86)
            out.i2_s_layout = gguf::I2sLayout::X86;
        else if (layout == SKN_I2_S_LAYOUT_ARM64)
            out.i2_s_layout = gguf::I2sLayout::Arm64;
        else
            skn_core::fail(SKN_E_INVALID_ARGUMENT,
                           "options->i2_s_layout is {}: use SKN_I2_S_LAYOUT_FROM_FILE (0), SKN_I2_S_LAYOUT_X86 (1) or "
                           "SKN_I2_S_LAYOUT_ARM64 (2)",
                           layout);
    }
    return out;
}

const gguf::File& file_of(const skn_gguf* g) {
    require_non_null(g, "gguf");
    return *g->file;
}

gguf::Writer& writer_of(skn_gguf_writer* w) {
    require_non_null(w, "writer");
    return w->writer;
}

template <typename T>
skn_status get_scalar(const skn_gguf* g, int64_t key, T* out, gguf::ValueType type) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(out, "out");
        *out = f.scalar<T>(key, type);
    });
}

template <typename T>
skn_status add_scalar(skn_gguf_writer* w, const char* key, T value, gguf::ValueType type) {
    return guarded([&] {
        gguf::Writer& wr = writer_of(w);
        require_non_null(key, "key");
        wr.add_scalar<T>(key, type, value);
    });
}

}  // namespace

extern "C" {

SKN_API const char* skn_gguf_type_name(skn_gguf_type type) {
    const int64_t raw = raw_enum(type);
    if (raw < 0 || !gguf::is_value_type(uint32_t(raw))) return "invalid";
    return gguf::value_type_name(gguf::ValueType(raw));
}

SKN_API skn_status skn_gguf_open(const char* path, const skn_gguf_options* options, skn_gguf** out) {
    return guarded([&] {
        require_non_null(path, "path");
        require_non_null(out, "out");
        const gguf::OpenOptions opts = open_options(options);
        auto g = std::make_unique<skn_gguf>();
        g->file = gguf::File::open(path, opts);
        *out = g.release();
    });
}

SKN_API skn_status skn_gguf_open_memory(const void* data, size_t size, const skn_gguf_options* options,
                                        skn_gguf** out) {
    return guarded([&] {
        require_non_null(data, "data");
        require_non_null(out, "out");
        const gguf::OpenOptions opts = open_options(options);
        auto g = std::make_unique<skn_gguf>();
        g->file = gguf::File::open_memory(data, size, opts);
        *out = g.release();
    });
}

SKN_API void skn_gguf_close(skn_gguf* gguf) { delete gguf; }

SKN_API uint32_t skn_gguf_version(const skn_gguf* g) { return g ? g->file->version() : 0; }
SKN_API uint32_t skn_gguf_alignment(const skn_gguf* g) { return g ? g->file->alignment() : 0; }
SKN_API uint64_t skn_gguf_data_offset(const skn_gguf* g) { return g ? g->file->data_offset() : 0; }
SKN_API uint64_t skn_gguf_file_size(const skn_gguf* g) { return g ? g->file->size() : 0; }
SKN_API int64_t skn_gguf_tensor_count(const skn_gguf* g) { return g ? int64_t(g->file->tensors().size()) : -1; }
SKN_API int64_t skn_gguf_unsupported_count(const skn_gguf* g) {
    return g ? int64_t(g->file->unsupported_count()) : -1;
}

SKN_API skn_status skn_gguf_tensor_info(const skn_gguf* g, int64_t index, skn_gguf_tensor_props* info) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(info, "info");
        if (info->struct_size < kTensorInfoV1Size)
            skn_core::fail(SKN_E_INVALID_ARGUMENT,
                      "info->struct_size is {} but must be at least {}: set it to sizeof(skn_gguf_tensor_props)",
                      info->struct_size, kTensorInfoV1Size);
        const gguf::Tensor& t = f.tensor(index);
        const auto shape = f.shape(t);
        info->name = t.name.c_str();
        info->name_len = t.name.size();
        info->type_id = t.type.id;
        info->type_name = t.type.name;
        info->supported = t.supported ? 1 : 0;
        // The format skn reads the tensor as (it differs from the type id for
        // I2_S in the arm64 layout); the raw id when it is no skn_format
        // (then supported == 0).
        const int32_t format = t.type.format != nullptr ? int32_t(t.type.format->id) : t.type.id;
        static_assert(sizeof info->format == sizeof format);
        std::memcpy(&info->format, &format, sizeof format);
        info->rank = t.rank;
        for (size_t d = 0; d < 4; ++d) {
            info->shape[d] = shape[d];
            info->ne[d] = t.ne[d];
        }
        info->offset = t.offset;
        info->size = t.size;
    });
}

SKN_API skn_status skn_gguf_find_tensor(const skn_gguf* g, const char* name, int64_t* index) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(name, "name");
        require_non_null(index, "index");
        const auto i = f.find_tensor(name);
        *index = i ? int64_t(*i) : -1;
    });
}

SKN_API skn_status skn_gguf_tensor_data(const skn_gguf* g, int64_t index, const void** data, size_t* size) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(data, "data");
        require_non_null(size, "size");
        const auto bytes = f.tensor_data(index);
        *data = bytes.data();
        *size = bytes.size();
    });
}

SKN_API int64_t skn_gguf_kv_count(const skn_gguf* g) { return g ? int64_t(g->file->kvs().size()) : -1; }

SKN_API skn_status skn_gguf_kv_key(const skn_gguf* g, int64_t key, const char** name, size_t* len) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(name, "name");
        const gguf::KeyValue& kv = f.kv(key);
        *name = kv.key.c_str();
        if (len != nullptr) *len = kv.key.size();
    });
}

SKN_API skn_status skn_gguf_find_key(const skn_gguf* g, const char* name, int64_t* index) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(name, "name");
        require_non_null(index, "index");
        const auto i = f.find_key(name);
        *index = i ? int64_t(*i) : -1;
    });
}

SKN_API skn_status skn_gguf_kv_type(const skn_gguf* g, int64_t key, skn_gguf_type* type) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(type, "type");
        *type = static_cast<skn_gguf_type>(f.kv(key).type);
    });
}

// The typed scalar getters and writer adders of the C API, one pair per GGUF
// scalar type: (suffix, C type, GGUF value type).
#define SKN_GGUF_SCALAR_TYPES(X)                                                                         \
    X(u8, uint8_t, U8) X(i8, int8_t, I8) X(u16, uint16_t, U16) X(i16, int16_t, I16) X(u32, uint32_t, U32) \
    X(i32, int32_t, I32) X(u64, uint64_t, U64) X(i64, int64_t, I64) X(f32, float, F32) X(f64, double, F64)
#define SKN_GGUF_GETTER(suffix, ctype, vtype)                                             \
    SKN_API skn_status skn_gguf_get_##suffix(const skn_gguf* g, int64_t key, ctype* out) { \
        return get_scalar(g, key, out, gguf::ValueType::vtype);                            \
    }
SKN_GGUF_SCALAR_TYPES(SKN_GGUF_GETTER)
#undef SKN_GGUF_GETTER

SKN_API skn_status skn_gguf_get_bool(const skn_gguf* g, int64_t key, int* out) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(out, "out");
        *out = f.boolean(key) ? 1 : 0;
    });
}

SKN_API skn_status skn_gguf_get_string(const skn_gguf* g, int64_t key, const char** str, size_t* len) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(str, "str");
        require_non_null(len, "len");
        const std::string_view s = f.string(key);
        *str = s.data();
        *len = s.size();
    });
}

SKN_API skn_status skn_gguf_array_info(const skn_gguf* g, uint64_t array, skn_gguf_type* element_type,
                                       uint64_t* count) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(element_type, "element_type");
        require_non_null(count, "count");
        const gguf::ArrayNode& a = f.array(array);
        *element_type = static_cast<skn_gguf_type>(a.element_type);
        *count = a.count;
    });
}

SKN_API skn_status skn_gguf_array_data(const skn_gguf* g, uint64_t array, const void** data, uint64_t* count) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(data, "data");
        require_non_null(count, "count");
        const auto bytes = f.array_bytes(array);
        *data = bytes.data();
        *count = f.array(array).count;
    });
}

SKN_API skn_status skn_gguf_array_string(const skn_gguf* g, uint64_t array, uint64_t i, const char** str,
                                         size_t* len) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(str, "str");
        require_non_null(len, "len");
        const std::string_view s = f.array_string(array, i);
        *str = s.data();
        *len = s.size();
    });
}

SKN_API skn_status skn_gguf_array_nested(const skn_gguf* g, uint64_t array, uint64_t i, uint64_t* nested) {
    return guarded([&] {
        const gguf::File& f = file_of(g);
        require_non_null(nested, "nested");
        *nested = f.array_nested(array, i);
    });
}

// ---- writer

SKN_API skn_status skn_gguf_writer_create(skn_gguf_writer** out) {
    return guarded([&] {
        require_non_null(out, "out");
        *out = new skn_gguf_writer();
    });
}

SKN_API void skn_gguf_writer_destroy(skn_gguf_writer* writer) { delete writer; }

SKN_API skn_status skn_gguf_writer_set_alignment(skn_gguf_writer* w, uint32_t alignment) {
    return guarded([&] { writer_of(w).set_alignment(alignment); });
}

#define SKN_GGUF_ADDER(suffix, ctype, vtype)                                                         \
    SKN_API skn_status skn_gguf_writer_add_##suffix(skn_gguf_writer* w, const char* key, ctype v) { \
        return add_scalar(w, key, v, gguf::ValueType::vtype);                                         \
    }
SKN_GGUF_SCALAR_TYPES(SKN_GGUF_ADDER)
#undef SKN_GGUF_ADDER

SKN_API skn_status skn_gguf_writer_add_bool(skn_gguf_writer* w, const char* key, int value) {
    return guarded([&] {
        gguf::Writer& wr = writer_of(w);
        require_non_null(key, "key");
        if (value != 0 && value != 1)
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "key \"{}\": a bool must be 0 or 1, not {}", key, value);
        wr.add_bool(key, value != 0);
    });
}

SKN_API skn_status skn_gguf_writer_add_string(skn_gguf_writer* w, const char* key, const char* value, size_t len) {
    return guarded([&] {
        gguf::Writer& wr = writer_of(w);
        require_non_null(key, "key");
        if (len != 0) require_non_null(value, "value");
        if (len > skn_core::kMaxAllocationBytes)
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "key \"{}\": len {} is more bytes than a string can hold: check len",
                           key, len);
        wr.add_string(key, std::string_view(len != 0 ? value : "", len));
    });
}

SKN_API skn_status skn_gguf_writer_add_array(skn_gguf_writer* w, const char* key, skn_gguf_type element_type,
                                             const void* data, uint64_t count) {
    return guarded([&] {
        gguf::Writer& wr = writer_of(w);
        require_non_null(key, "key");
        const int64_t raw = raw_enum(element_type);
        if (raw < 0 || !gguf::is_value_type(uint32_t(raw)))
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "element type {} is not an skn_gguf_type", raw);
        if (count != 0) require_non_null(data, "data");
        wr.add_array(key, gguf::ArrayValue::numbers(gguf::ValueType(raw), data, count));
    });
}

SKN_API skn_status skn_gguf_writer_add_string_array(skn_gguf_writer* w, const char* key,
                                                    const char* const* strings, const size_t* lengths,
                                                    uint64_t count) {
    return guarded([&] {
        gguf::Writer& wr = writer_of(w);
        require_non_null(key, "key");
        if (count != 0) require_non_null(strings, "strings");
        // `count` pointers must fit in the address space, and each string
        // takes at least its 8-byte length in the file: a count beyond either
        // cannot describe a real array, and reading that many pointers would
        // run past the caller's.
        (void)skn_core::checked_mul<uint64_t>(count, sizeof(const char*), "count * sizeof(char*)");
        if (count > skn_core::kMaxAllocationBytes / sizeof(std::string))
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "count {} is more strings than one array can hold: check the count",
                           count);
        std::vector<std::string> copy;
        copy.reserve(size_t(count));
        for (uint64_t i = 0; i < count; ++i) {
            if (strings[i] == nullptr && lengths == nullptr)
                skn_core::fail(SKN_E_INVALID_ARGUMENT,
                               "strings[{}] is NULL and there are no lengths: pass \"\" for an empty string", i);
            const size_t len = lengths != nullptr ? lengths[i] : std::strlen(strings[i]);
            if (strings[i] == nullptr && len != 0)
                skn_core::fail(SKN_E_INVALID_ARGUMENT, "strings[{}] is NULL but its length is {}", i, len);
            copy.emplace_back(strings[i] != nullptr ? strings[i] : "", len);
        }
        wr.add_array(key, gguf::ArrayValue::of_strings(std::move(copy)));
    });
}

SKN_API skn_status skn_gguf_writer_add_tensor(skn_gguf_writer* w, const char* name, skn_format format, int32_t rank,
                                              const int64_t* ne, const void* data, size_t size) {
    return guarded([&] {
        gguf::Writer& wr = writer_of(w);
        require_non_null(name, "name");
        require_non_null(ne, "ne");
        require_non_null(data, "data");
        const int64_t id = raw_enum(format);
        const skn_core::FormatTraits* f = id >= INT32_MIN && id <= INT32_MAX ? skn_core::find_format(int32_t(id)) : nullptr;
        if (f == nullptr) skn_core::fail(SKN_E_UNKNOWN_FORMAT, "format id {} is not one skn implements", id);
        if (rank < 1 || rank > gguf::kMaxRank)
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "tensor \"{}\": rank {} is outside 1..{}", name, rank, gguf::kMaxRank);
        wr.add_tensor(name, *f, std::span<const int64_t>(ne, size_t(rank)),
                      std::span<const uint8_t>(static_cast<const uint8_t*>(data), size));
    });
}

SKN_API skn_status skn_gguf_writer_size(const skn_gguf_writer* w, uint64_t* size) {
    return guarded([&] {
        require_non_null(w, "writer");
        require_non_null(size, "size");
        *size = w->writer.file_size();
    });
}

SKN_API skn_status skn_gguf_writer_write_memory(const skn_gguf_writer* w, void* dst, size_t capacity) {
    return guarded([&] {
        require_non_null(w, "writer");
        require_non_null(dst, "dst");
        w->writer.write_to(static_cast<uint8_t*>(dst), capacity);
    });
}

SKN_API skn_status skn_gguf_writer_write_file(const skn_gguf_writer* w, const char* path) {
    return guarded([&] {
        require_non_null(w, "writer");
        require_non_null(path, "path");
        w->writer.write_file(path);
    });
}

}  // extern "C"
