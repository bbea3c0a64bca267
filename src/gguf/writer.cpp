// SPDX-License-Identifier: MIT
#include "gguf/writer.hpp"

#include "runtime/checked.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>

#include "runtime/error.hpp"

namespace skn_core::gguf {
namespace {

// ggml keeps names in a 64-byte buffer with a terminating NUL; a longer name
// would make the file unreadable to the rest of the ecosystem.
constexpr size_t kMaxTensorNameBytes = 63;

template <typename T>
void append(std::vector<uint8_t>& out, T v) {
    uint8_t b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.insert(out.end(), b, b + sizeof(T));
}

void append_string(std::vector<uint8_t>& out, std::string_view s) {
    append<uint64_t>(out, s.size());
    out.insert(out.end(), s.begin(), s.end());
}

uint64_t padding(uint64_t at, uint64_t alignment) { return (alignment - at % alignment) % alignment; }

void check_alignment(uint64_t a) {
    if (a == 0 || a % 8 != 0 || a > std::numeric_limits<uint32_t>::max())
        fail(SKN_E_INVALID_ARGUMENT, "alignment {} is not a positive multiple of 8 that fits in 32 bits", a);
}

void encode_array(const ArrayValue& a, int depth, std::vector<uint8_t>& out) {
    if (!is_value_type(uint32_t(a.element_type)))
        fail(SKN_E_INVALID_ARGUMENT, "array element type {} is not a GGUF value type (0 to 12)",
             uint32_t(a.element_type));
    if (depth > kMaxArrayDepth)
        fail(SKN_E_INVALID_ARGUMENT, "arrays nest more than {} deep, which readers refuse", kMaxArrayDepth);
    append<uint32_t>(out, uint32_t(a.element_type));
    if (a.element_type == ValueType::String) {
        append<uint64_t>(out, a.strings.size());
        for (const std::string& s : a.strings) append_string(out, s);
    } else if (a.element_type == ValueType::Array) {
        append<uint64_t>(out, a.arrays.size());
        for (const ArrayValue& child : a.arrays) encode_array(child, depth + 1, out);
    } else {
        const uint64_t size = value_type_size(a.element_type);
        if (a.raw.size() / size != a.count || a.raw.size() % size != 0)
            fail(SKN_E_INVALID_ARGUMENT, "an array of {} {} elements needs {} bytes of data, not {}", a.count,
                 value_type_name(a.element_type), a.count * size, a.raw.size());
        if (a.element_type == ValueType::Bool)
            for (size_t i = 0; i < a.raw.size(); ++i)
                if (a.raw[i] > 1) fail(SKN_E_INVALID_ARGUMENT, "bool element {} is {}: it must be 0 or 1", i, a.raw[i]);
        append<uint64_t>(out, a.count);
        out.insert(out.end(), a.raw.begin(), a.raw.end());
    }
}

// Where the bytes go: a caller's buffer or a file.
class MemorySink {
public:
    explicit MemorySink(uint8_t* dst) : dst_(dst) {}
    void put(const void* p, size_t n) {
        if (n != 0) std::memcpy(dst_ + at_, p, n);
        at_ += n;
    }
    void zeros(size_t n) {
        std::memset(dst_ + at_, 0, n);
        at_ += n;
    }
    uint64_t position() const { return at_; }

private:
    uint8_t* dst_;
    uint64_t at_ = 0;
};

class FileSink {
public:
    FileSink(std::FILE* f, const std::string& path) : f_(f), path_(path) {}
    void put(const void* p, size_t n) {
        if (n != 0 && std::fwrite(p, 1, n, f_) != n)
            fail(SKN_E_IO, "cannot write {} at byte {}: {}", path_, at_, std::strerror(errno));
        at_ += n;
    }
    void zeros(size_t n) {
        static const uint8_t kZeros[64] = {};
        while (n > 0) {
            const size_t k = n < sizeof kZeros ? n : sizeof kZeros;
            put(kZeros, k);
            n -= k;
        }
    }
    uint64_t position() const { return at_; }

private:
    std::FILE* f_;
    const std::string& path_;
    uint64_t at_ = 0;
};

}  // namespace

ArrayValue ArrayValue::numbers(ValueType type, const void* data, uint64_t count) {
    if (!is_fixed_size(type))
        fail(SKN_E_INVALID_ARGUMENT, "{} is not a numeric element type: use a string array or an array of arrays",
             value_type_name(type));
    const uint64_t size = value_type_size(type);
    const uint64_t bytes = checked_mul<uint64_t>(count, size, "count * element size");
    if (bytes > kMaxAllocationBytes)
        fail(SKN_E_INVALID_ARGUMENT, "count {} of {} elements is {} bytes, more than one array can hold: check the count",
             count, value_type_name(type), bytes);
    if (data == nullptr && count != 0) fail(SKN_E_INVALID_ARGUMENT, "array data must not be NULL");
    ArrayValue a;
    a.element_type = type;
    a.count = count;
    const auto* p = static_cast<const uint8_t*>(data);
    try {
        if (count != 0) a.raw.assign(p, p + bytes);
    } catch (const std::bad_alloc&) {
        fail(SKN_E_OUT_OF_MEMORY, "cannot allocate {} bytes to copy an array of {} {} elements", bytes, count,
             value_type_name(type));
    }
    return a;
}

ArrayValue ArrayValue::of_strings(std::vector<std::string> s) {
    ArrayValue a;
    a.element_type = ValueType::String;
    a.count = s.size();
    a.strings = std::move(s);
    return a;
}

ArrayValue ArrayValue::of_arrays(std::vector<ArrayValue> children) {
    ArrayValue a;
    a.element_type = ValueType::Array;
    a.count = children.size();
    a.arrays = std::move(children);
    return a;
}

void Writer::set_alignment(uint32_t alignment) {
    check_alignment(alignment);
    alignment_ = alignment;
    std::vector<uint8_t> v;
    append<uint32_t>(v, alignment);
    for (Entry& e : entries_)
        if (e.key == kAlignmentKey) {
            e.value = std::move(v);
            return;
        }
    if (alignment != kDefaultAlignment) entries_.push_back(Entry{kAlignmentKey, ValueType::U32, std::move(v)});
}

void Writer::check_new_key(std::string_view key) const {
    if (key.empty()) fail(SKN_E_INVALID_ARGUMENT, "a metadata key must not be empty");
    if (key.size() > kMaxKeyBytes)
        fail(SKN_E_INVALID_ARGUMENT, "key of {} bytes is longer than the {} GGUF allows", key.size(), kMaxKeyBytes);
    for (const Entry& e : entries_)
        if (e.key == key) fail(SKN_E_INVALID_ARGUMENT, "key \"{}\" was already added", key);
}

void Writer::add_entry(std::string_view key, ValueType type, std::vector<uint8_t> value) {
    if (key == kAlignmentKey) {
        if (type != ValueType::U32)
            fail(SKN_E_INVALID_ARGUMENT, "{} must be a u32, not a {}", kAlignmentKey, value_type_name(type));
        uint32_t a;
        std::memcpy(&a, value.data(), sizeof a);
        check_alignment(a);
        check_new_key(key);  // before alignment_ changes
        alignment_ = a;
        entries_.push_back(Entry{std::string(key), type, std::move(value)});
        return;
    }
    check_new_key(key);
    entries_.push_back(Entry{std::string(key), type, std::move(value)});
}

template <typename T>
void Writer::add_scalar(std::string_view key, ValueType type, T value) {
    if (value_type_size(type) != sizeof(T) || type == ValueType::Bool)
        fail(SKN_E_INVALID_ARGUMENT, "a {}-byte value cannot be stored as a {}", sizeof(T), value_type_name(type));
    std::vector<uint8_t> v;
    append<T>(v, value);
    add_entry(key, type, std::move(v));
}

template void Writer::add_scalar<uint8_t>(std::string_view, ValueType, uint8_t);
template void Writer::add_scalar<int8_t>(std::string_view, ValueType, int8_t);
template void Writer::add_scalar<uint16_t>(std::string_view, ValueType, uint16_t);
template void Writer::add_scalar<int16_t>(std::string_view, ValueType, int16_t);
template void Writer::add_scalar<uint32_t>(std::string_view, ValueType, uint32_t);
template void Writer::add_scalar<int32_t>(std::string_view, ValueType, int32_t);
template void Writer::add_scalar<uint64_t>(std::string_view, ValueType, uint64_t);
template void Writer::add_scalar<int64_t>(std::string_view, ValueType, int64_t);
template void Writer::add_scalar<float>(std::string_view, ValueType, float);
template void Writer::add_scalar<double>(std::string_view, ValueType, double);

void Writer::add_bool(std::string_view key, bool value) {
    add_entry(key, ValueType::Bool, std::vector<uint8_t>{uint8_t(value ? 1 : 0)});
}

void Writer::add_string(std::string_view key, std::string_view value) {
    std::vector<uint8_t> v;
    append_string(v, value);
    add_entry(key, ValueType::String, std::move(v));
}

void Writer::add_array(std::string_view key, const ArrayValue& value) {
    check_new_key(key);
    std::vector<uint8_t> v;
    encode_array(value, 1, v);
    add_entry(key, ValueType::Array, std::move(v));
}

void Writer::check_new_tensor(std::string_view name, std::span<const int64_t> ne) const {
    if (name.empty()) fail(SKN_E_INVALID_ARGUMENT, "a tensor name must not be empty");
    if (name.size() > kMaxTensorNameBytes)
        fail(SKN_E_INVALID_ARGUMENT, "tensor name \"{}\" is {} bytes; GGUF readers accept at most {}", name,
             name.size(), kMaxTensorNameBytes);
    for (const PendingTensor& t : tensors_)
        if (t.name == name) fail(SKN_E_INVALID_ARGUMENT, "tensor \"{}\" was already added", name);
    if (ne.empty() || ne.size() > size_t(kMaxRank))
        fail(SKN_E_INVALID_ARGUMENT, "tensor \"{}\" has {} dimensions; GGUF tensors have 1 to {}", name, ne.size(),
             kMaxRank);
    int64_t elements = 1;
    for (size_t d = 0; d < ne.size(); ++d) {
        if (ne[d] <= 0)
            fail(SKN_E_INVALID_ARGUMENT, "tensor \"{}\": dimension {} is {}; dimensions must be positive", name, d,
                 ne[d]);
        elements = checked_mul(elements, ne[d], fmt::format("the element count of tensor \"{}\" (ne)", name));
    }
}

namespace {

// A tensor type's block geometry, whether skn implements it or only stores it.
struct Geometry {
    const char* name;
    int64_t block_elems;
    uint64_t block_bytes;
    uint64_t trailer_bytes;
    int64_t block_rows = 1;             // rows one block spans (row-interleaved formats)
    const char* canonical = nullptr;    // what a row-interleaved format re-encodes
};

Geometry geometry_of(const FormatTraits& f) {
    return {f.name, f.block_elems, uint64_t(f.block_bytes), uint64_t(f.tensor_trailer_bytes), f.block_rows,
            f.interleaved() ? find_format(f.interleaves)->name : nullptr};
}

// The plain element types a file may hold that skn stores without a format:
// their geometry, or SKN_E_UNSUPPORTED naming what the type is.
Geometry stored_geometry(std::string_view name, const TensorType& type) {
    if (type.format != nullptr || type.removed || type.block_elems != 1 || type.block_bytes <= 0)
        fail(SKN_E_UNSUPPORTED,
             "tensor \"{}\": type {} is not one skn stores without implementing it (those are I8, I16, I32, I64 "
             "and F64, ids 24 to 28); a format skn implements goes through skn_gguf_writer_add_tensor",
             name, describe_tensor_type(type));
    return {type.name, 1, uint64_t(type.block_bytes), 0};
}

// The byte size of a tensor of type `g` with dimensions `ne` (already
// checked positive, their product representable), trailer included.
uint64_t tensor_bytes(std::string_view name, const Geometry& g, std::span<const int64_t> ne) {
    if (ne[0] % g.block_elems != 0)
        fail(SKN_E_INVALID_ARGUMENT,
             "tensor \"{}\": {} packs {} elements per block but ne[0] is {} (ne is in file order: ne[0] is the "
             "row length)",
             name, g.name, g.block_elems, ne[0]);
    if (g.block_rows > 1 && (ne.size() < 2 || ne[1] % g.block_rows != 0))
        fail(SKN_E_INVALID_ARGUMENT,
             "tensor \"{}\": {} interleaves {} rows per block, so ne[1] (the row count) must be a multiple of {}; "
             "it is {} (write it as {})",
             name, g.name, g.block_rows, g.block_rows, ne.size() < 2 ? 1 : ne[1], g.canonical);
    int64_t elements = 1;
    for (int64_t n : ne) elements = checked_mul(elements, n, fmt::format("the element count of tensor \"{}\" (ne)", name));
    return checked_add(checked_mul(uint64_t(elements / g.block_elems), g.block_bytes,
                                   fmt::format("the byte size of tensor \"{}\"", name)),
                       g.trailer_bytes, fmt::format("the byte size of tensor \"{}\"", name));
}

// Refuses `bytes` unless they are exactly the tensor's `need` bytes.
void check_given_bytes(std::string_view name, const Geometry& g, std::span<const int64_t> ne,
                       std::span<const uint8_t> bytes, uint64_t need) {
    if (bytes.size() != need) {
        int64_t elements = 1;
        for (int64_t n : ne) elements *= n;
        fail(SKN_E_INVALID_ARGUMENT, "tensor \"{}\" is given {} bytes but {} elements of {} take {} bytes", name,
             bytes.size(), elements, g.name, need);
    }
    if (bytes.data() == nullptr) fail(SKN_E_INVALID_ARGUMENT, "tensor \"{}\": data must not be NULL", name);
}

}  // namespace

int32_t Writer::gguf_type_of(std::string_view name, const FormatTraits& format) {
    const bool x86 = format.id == FormatId::I2_S, arm64 = format.id == FormatId::I2_S_G64;
    if (!x86 && !arm64) return int32_t(format.id);
    // Both layouts are GGUF type 36, told apart by one file-wide key, so a
    // file holds one of them.
    if (i2_s_layout_ == nullptr) {
        add_string(kI2sLayoutKey, x86 ? kI2sLayoutX86 : kI2sLayoutArm64);
        i2_s_layout_ = &format;
    } else if (i2_s_layout_->id != format.id) {
        fail(SKN_E_INVALID_ARGUMENT,
             "tensor \"{}\" is {} but this file already holds {} tensors: GGUF stores both as type 36 and one file "
             "records one layout ({}); convert it with skn_i2_s_change_layout first",
             name, format.name, i2_s_layout_->name, kI2sLayoutKey);
    }
    return kI2sTypeId;
}

void Writer::add_tensor(std::string_view name, const FormatTraits& format, std::span<const int64_t> ne,
                        std::span<const uint8_t> bytes) {
    check_new_tensor(name, ne);
    const Geometry g = geometry_of(format);
    check_given_bytes(name, g, ne, bytes, tensor_bytes(name, g, ne));
    add_raw_tensor(name, gguf_type_of(name, format), ne, bytes);
}

void Writer::add_stored_tensor(std::string_view name, const TensorType& type, std::span<const int64_t> ne,
                               std::span<const uint8_t> bytes) {
    check_new_tensor(name, ne);
    const Geometry g = stored_geometry(name, type);
    check_given_bytes(name, g, ne, bytes, tensor_bytes(name, g, ne));
    add_raw_tensor(name, type.id, ne, bytes);
}

void Writer::add_raw_tensor(std::string_view name, int32_t type_id, std::span<const int64_t> ne,
                            std::span<const uint8_t> bytes) {
    check_new_tensor(name, ne);
    PendingTensor t{std::string(name), type_id, int(ne.size()), {1, 1, 1, 1}, {}};
    for (size_t d = 0; d < ne.size(); ++d) t.ne[d] = ne[d];
    t.bytes.assign(bytes.begin(), bytes.end());
    t.size = t.bytes.size();
    tensors_.push_back(std::move(t));
}

void Writer::declare_tensor(std::string_view name, const FormatTraits& format, std::span<const int64_t> ne) {
    check_new_tensor(name, ne);
    const uint64_t size = tensor_bytes(name, geometry_of(format), ne);
    declare(name, gguf_type_of(name, format), ne, size);
}

void Writer::declare_stored_tensor(std::string_view name, const TensorType& type, std::span<const int64_t> ne) {
    check_new_tensor(name, ne);
    declare(name, type.id, ne, tensor_bytes(name, stored_geometry(name, type), ne));
}

void Writer::declare(std::string_view name, int32_t type_id, std::span<const int64_t> ne, uint64_t size) {
    // The file's offsets are u64 sums of these sizes: a declared size may be
    // anything the file can address, not only what memory could hold.
    PendingTensor t{std::string(name), type_id, int(ne.size()), {1, 1, 1, 1}, {}};
    for (size_t d = 0; d < ne.size(); ++d) t.ne[d] = ne[d];
    t.size = size;
    t.declared = true;
    const std::string what = fmt::format("the file size with tensor \"{}\"", name);
    uint64_t total = header_size() + alignment_;
    for (const PendingTensor& p : tensors_) total = checked_add(total, checked_add(p.size, uint64_t(alignment_), what), what);
    (void)checked_add(total, checked_add(size, uint64_t(alignment_), what), what);
    tensors_.push_back(std::move(t));
}

void Writer::require_all_data() const {
    for (const PendingTensor& t : tensors_)
        if (t.declared)
            fail(SKN_E_INVALID_ARGUMENT,
                 "tensor \"{}\" was declared without its bytes: write this file with a stream "
                 "(skn_gguf_stream_begin, then skn_gguf_stream_write for each tensor in order)",
                 t.name);
}

Writer::StreamPlan Writer::stream_plan() const {
    for (const PendingTensor& t : tensors_)
        if (!t.declared)
            fail(SKN_E_INVALID_ARGUMENT,
                 "tensor \"{}\" was added with its bytes (skn_gguf_writer_add_tensor); a stream writes only "
                 "tensors declared with skn_gguf_writer_declare_tensor, whose bytes it is then given in order",
                 t.name);
    StreamPlan plan;
    plan.alignment = alignment_;
    plan.file_size = file_size();
    uint64_t head = header_size();
    head += padding(head, alignment_);
    plan.header.resize(size_t(head));
    MemorySink sink(plan.header.data());
    emit_header(sink);
    plan.tensors.reserve(tensors_.size());
    for (const PendingTensor& t : tensors_) plan.tensors.emplace_back(t.name, t.size);
    return plan;
}

uint64_t Writer::header_size() const {
    uint64_t n = 4 + 4 + 8 + 8;
    for (const Entry& e : entries_) n += 8 + e.key.size() + 4 + e.value.size();
    for (const PendingTensor& t : tensors_) n += 8 + t.name.size() + 4 + 8 * uint64_t(t.rank) + 4 + 8;
    return n;
}

uint64_t Writer::file_size() const {
    uint64_t n = header_size();
    n += padding(n, alignment_);
    for (const PendingTensor& t : tensors_) n += t.size + padding(t.size, alignment_);
    return n;
}

template <typename Sink>
void Writer::emit_header(Sink& sink) const {
    auto put_u32 = [&](uint32_t v) { sink.put(&v, 4); };
    auto put_u64 = [&](uint64_t v) { sink.put(&v, 8); };
    auto put_string = [&](const std::string& s) {
        put_u64(s.size());
        sink.put(s.data(), s.size());
    };
    put_u32(kMagic);
    put_u32(3);
    put_u64(tensors_.size());
    put_u64(entries_.size());
    for (const Entry& e : entries_) {
        put_string(e.key);
        put_u32(uint32_t(e.type));
        sink.put(e.value.data(), e.value.size());
    }
    uint64_t offset = 0;
    for (const PendingTensor& t : tensors_) {
        put_string(t.name);
        put_u32(uint32_t(t.rank));
        for (int d = 0; d < t.rank; ++d) put_u64(uint64_t(t.ne[size_t(d)]));
        put_u32(uint32_t(t.type_id));
        put_u64(offset);
        offset += t.size + padding(t.size, alignment_);
    }
    sink.zeros(size_t(padding(sink.position(), alignment_)));
}

template <typename Sink>
void Writer::emit(Sink& sink) const {
    emit_header(sink);
    for (const PendingTensor& t : tensors_) {
        sink.put(t.bytes.data(), t.bytes.size());
        sink.zeros(size_t(padding(t.bytes.size(), alignment_)));
    }
}

void Writer::write_to(uint8_t* dst, size_t capacity) const {
    require_all_data();
    const uint64_t need = file_size();
    if (dst == nullptr) fail(SKN_E_INVALID_ARGUMENT, "dst must not be NULL");
    if (capacity < need)
        fail(SKN_E_BUFFER_TOO_SMALL, "the GGUF file is {} bytes but the buffer holds {}", need, capacity);
    MemorySink sink(dst);
    emit(sink);
}

std::vector<uint8_t> Writer::to_bytes() const {
    std::vector<uint8_t> out(static_cast<size_t>(file_size()));
    write_to(out.data(), out.size());
    return out;
}

void Writer::write_file(const std::string& path) const {
    // Written beside the target and renamed over it, so a failure leaves
    // whatever was at `path` untouched and no partial file behind.
    require_all_data();
    const std::string tmp = path + ".skn-partial";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) fail(SKN_E_IO, "cannot create {}: {}", tmp, std::strerror(errno));
    try {
        FileSink sink(f, path);
        emit(sink);
    } catch (...) {
        std::fclose(f);
        std::remove(tmp.c_str());
        throw;
    }
    if (std::fclose(f) != 0) {
        const int err = errno;
        std::remove(tmp.c_str());
        fail(SKN_E_IO, "cannot finish writing {}: {}", path, std::strerror(err));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        std::remove(tmp.c_str());
        fail(SKN_E_IO, "cannot move {} to {}: {}", tmp, path, std::strerror(err));
    }
}

}  // namespace skn_core::gguf
