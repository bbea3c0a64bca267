// SPDX-License-Identifier: MIT
#include "gguf/reader.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <numeric>

#include "runtime/error.hpp"
#include "runtime/log.hpp"

static_assert(std::endian::native == std::endian::little,
              "the GGUF reader hands out little-endian file bytes as host values; port it before using it "
              "on a big-endian host");

namespace skn_core::gguf {

// Walks the bytes once, front to back, and fills a File. Each read first
// checks that the bytes exist; each error says where (byte offset) and what
// (key, tensor) it was reading.
class Parser {
public:
    explicit Parser(File& file) : f_(file) {}

    void run() {
        read_header();
        read_metadata();
        read_alignment();
        read_i2_s_layout();
        read_tensor_infos();
        place_data_section();
        check_tensor_geometry();
        check_tensor_extents();
        report_unsupported();
    }

private:
    // ---- low-level reads

    uint64_t remaining() const { return f_.size_ - pos_; }

    template <typename... Args>
    [[noreturn]] void fail_at(uint64_t at, fmt::format_string<Args...> msg, Args&&... args) const {
        fail(SKN_E_FORMAT, "{}: byte {}: {}", f_.source_, at, fmt::format(msg, std::forward<Args>(args)...));
    }

    // `what` is only called when the bytes are missing, so describing the
    // item costs nothing on the happy path.
    template <typename What>
    void need(uint64_t n, What&& what) const {
        if (n > remaining())
            fail(SKN_E_FORMAT, "{}: truncated at byte {}: {} needs {} bytes but only {} remain in the file",
                 f_.source_, pos_, what(), n, remaining());
    }

    template <typename T, typename What>
    T read(What&& what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, f_.data_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        return v;
    }

    // A string's length prefix, with its bytes checked to exist; returns the
    // offset of the first byte and advances past the string.
    template <typename What>
    std::pair<uint64_t, uint64_t> read_string(What&& what) {
        const uint64_t at = pos_;
        const uint64_t len = read<uint64_t>([&] { return fmt::format("the length of {}", what()); });
        if (len > remaining())
            fail_at(at, "{} is {} bytes long but only {} bytes remain in the file", what(), len, remaining());
        const uint64_t start = pos_;
        pos_ += len;
        return {start, len};
    }

    std::string key_label(size_t i) const {
        if (i < f_.kvs_.size() && !f_.kvs_[i].key.empty()) return fmt::format("key #{} \"{}\"", i, f_.kvs_[i].key);
        return fmt::format("key #{}", i);
    }
    std::string tensor_label(size_t i) const {
        if (i < f_.tensors_.size()) return fmt::format("tensor #{} \"{}\"", i, f_.tensors_[i].name);
        return fmt::format("tensor #{}", i);
    }

    // ---- header

    void read_header() {
        if (f_.size_ < 4)
            fail(SKN_E_FORMAT, "{}: {} bytes is too short to be a GGUF file (it must start with \"GGUF\")",
                 f_.source_, f_.size_);
        const uint32_t magic = read<uint32_t>([] { return std::string("the magic"); });
        if (magic != kMagic) {
            const uint8_t* b = f_.data_;
            fail(SKN_E_FORMAT,
                 "{}: not a GGUF file: it starts with bytes {:02x} {:02x} {:02x} {:02x}, a GGUF file with "
                 "47 47 55 46 (\"GGUF\")",
                 f_.source_, b[0], b[1], b[2], b[3]);
        }
        const uint32_t version = read<uint32_t>([] { return std::string("the version"); });
        if (version == 1)
            fail(SKN_E_UNSUPPORTED,
                 "{}: GGUF version 1 is not supported (it used 32-bit counts and was superseded in 2023 by "
                 "version 2); convert the model again with a current converter",
                 f_.source_);
        if (version != 2 && version != 3) {
            if (version != 0 && (version & 0xffffu) == 0)
                fail(SKN_E_UNSUPPORTED,
                     "{}: byte 4: version {:#010x} looks byte-swapped: this is probably a big-endian GGUF file, "
                     "and skn reads little-endian files only",
                     f_.source_, version);
            if (version > 3 && version < 0x10000)
                fail(SKN_E_UNSUPPORTED, "{}: byte 4: GGUF version {} is newer than skn reads (2 and 3)", f_.source_,
                     version);
            fail_at(4, "{} is not a GGUF version (skn reads versions 2 and 3)", version);
        }
        f_.version_ = version;
        tensor_count_ = read<uint64_t>([] { return std::string("the tensor count"); });
        kv_count_ = read<uint64_t>([] { return std::string("the metadata count"); });
        // Every pair takes at least 14 bytes (key length, one key byte, type,
        // one value byte) and every tensor info 32: refuse counts the file
        // cannot hold before anything is allocated for them.
        if (kv_count_ > remaining() / 14)
            fail_at(16, "the metadata count {} cannot be right: {} pairs need at least {} bytes each and only {} "
                        "bytes follow the header",
                    kv_count_, kv_count_, 14, remaining());
        if (tensor_count_ > remaining() / 32)
            fail_at(8, "the tensor count {} cannot be right: each tensor info needs at least 32 bytes and only {} "
                       "bytes follow the header",
                    tensor_count_, remaining());
    }

    // ---- metadata

    void read_metadata() {
        for (uint64_t i = 0; i < kv_count_; ++i) {
            KeyValue kv;
            kv.offset = pos_;
            const auto [key_at, key_len] = read_string([&] { return key_label(size_t(i)); });
            if (key_len == 0) fail_at(kv.offset, "{} is empty: every key needs a name", key_label(size_t(i)));
            if (key_len > kMaxKeyBytes)
                fail_at(kv.offset, "{} is {} bytes long; GGUF keys are at most {} bytes", key_label(size_t(i)),
                        key_len, kMaxKeyBytes);
            kv.key.assign(reinterpret_cast<const char*>(f_.data_ + key_at), size_t(key_len));
            f_.kvs_.push_back(std::move(kv));
            KeyValue& cur = f_.kvs_.back();
            const std::string label = key_label(size_t(i));

            const uint64_t type_at = pos_;
            const uint32_t raw = read<uint32_t>([&] { return fmt::format("the value type of {}", label); });
            if (!is_value_type(raw))
                fail_at(type_at, "{} has value type {}, which is not a GGUF value type (0 to 12)", label, raw);
            cur.type = ValueType(raw);
            read_value(cur, label);
        }
        for (size_t i = 0; i < f_.kvs_.size(); ++i) {
            const auto [it, inserted] = f_.key_index_.emplace(f_.kvs_[i].key, i);
            if (!inserted)
                fail_at(f_.kvs_[i].offset, "key #{} \"{}\" repeats key #{}: every key must be unique", i,
                        f_.kvs_[i].key, it->second);
        }
    }

    void read_value(KeyValue& kv, const std::string& label) {
        if (kv.type == ValueType::String) {
            const auto [at, len] = read_string([&] { return fmt::format("the string value of {}", label); });
            kv.value_offset = at;
            kv.length = len;
        } else if (kv.type == ValueType::Array) {
            kv.node = read_array(label, 1);
        } else {
            const uint32_t n = value_type_size(kv.type);
            need(n, [&] { return fmt::format("the {} value of {}", value_type_name(kv.type), label); });
            kv.value_offset = pos_;
            if (kv.type == ValueType::Bool) check_bool(pos_, label);
            std::memcpy(&kv.bits, f_.data_ + pos_, n);
            pos_ += n;
        }
    }

    void check_bool(uint64_t at, const std::string& label) const {
        const uint8_t b = f_.data_[at];
        if (b > 1) fail_at(at, "{}: a bool must be 0 or 1, not {}", label, b);
    }

    // Returns the node index. `depth` is 1 for a key's own array.
    uint32_t read_array(const std::string& label, int depth) {
        const uint64_t at = pos_;
        const uint32_t raw = read<uint32_t>([&] { return fmt::format("the element type of the array {}", label); });
        if (!is_value_type(raw))
            fail_at(at, "the array {} has element type {}, which is not a GGUF value type (0 to 12)", label, raw);
        const ValueType elem = ValueType(raw);
        if (elem == ValueType::Array && depth >= kMaxArrayDepth)
            fail_at(at, "the array {} nests arrays more than {} deep", label, kMaxArrayDepth);
        const uint64_t count = read<uint64_t>([&] { return fmt::format("the length of the array {}", label); });
        if (f_.nodes_.size() >= std::numeric_limits<uint32_t>::max())
            fail_at(at, "the array {} is one array too many (skn reads at most 2^32-1 arrays)", label);
        const auto node = uint32_t(f_.nodes_.size());
        f_.nodes_.push_back(ArrayNode{elem, count, pos_, {}, depth > 1});

        // The smallest encoding of one element bounds the count by the bytes
        // left, so a huge count fails here rather than in an allocation.
        const uint64_t min_bytes = is_fixed_size(elem) ? value_type_size(elem) : elem == ValueType::String ? 8 : 12;
        if (count > remaining() / min_bytes)
            fail_at(at, "the array {} claims {} {} elements, which need at least {} bytes each, but only {} bytes "
                        "remain in the file",
                    label, count, value_type_name(elem), min_bytes, remaining());

        if (is_fixed_size(elem)) {
            if (elem == ValueType::Bool)
                for (uint64_t k = 0; k < count; ++k)
                    if (f_.data_[pos_ + k] > 1)
                        fail_at(pos_ + k, "element {} of the bool array {} is {}: a bool must be 0 or 1", k, label,
                                f_.data_[pos_ + k]);
            pos_ += count * min_bytes;
            return node;
        }
        std::vector<uint64_t> items;
        items.reserve(size_t(count) + (elem == ValueType::String ? 1 : 0));
        for (uint64_t k = 0; k < count; ++k) {
            if (elem == ValueType::String) {
                items.push_back(pos_);
                read_string([&] { return fmt::format("string {} of the array {}", k, label); });
            } else {
                items.push_back(read_array(fmt::format("{}[{}]", label, k), depth + 1));
            }
        }
        if (elem == ValueType::String) items.push_back(pos_);  // the end of the last string
        f_.nodes_[node].items = std::move(items);
        return node;
    }

    void read_alignment() {
        const auto it = f_.key_index_.find(kAlignmentKey);
        if (it == f_.key_index_.end()) return;
        const KeyValue& kv = f_.kvs_[it->second];
        if (kv.type != ValueType::U32)
            fail_at(kv.offset, "{} must be a u32 but is a {}", kAlignmentKey, value_type_name(kv.type));
        const auto a = uint32_t(kv.bits);
        if (a == 0 || a % 8 != 0)
            fail_at(kv.value_offset, "{} is {}: it must be a positive multiple of 8", kAlignmentKey, a);
        f_.alignment_ = a;
    }

    // ---- tensor infos

    void read_tensor_infos() {
        for (uint64_t i = 0; i < tensor_count_; ++i) {
            Tensor t;
            t.info_offset = pos_;
            const auto [name_at, name_len] = read_string([&] { return fmt::format("the name of tensor #{}", i); });
            t.name.assign(reinterpret_cast<const char*>(f_.data_ + name_at), size_t(name_len));
            f_.tensors_.push_back(std::move(t));
            Tensor& cur = f_.tensors_.back();
            const std::string label = tensor_label(size_t(i));

            const uint64_t rank_at = pos_;
            const uint32_t rank = read<uint32_t>([&] { return fmt::format("the rank of {}", label); });
            if (rank < 1 || rank > uint32_t(kMaxRank))
                fail_at(rank_at, "{} has {} dimensions; skn reads tensors of 1 to {} dimensions", label, rank,
                        kMaxRank);
            cur.rank = int(rank);
            uint64_t elements = 1;
            for (uint32_t d = 0; d < rank; ++d) {
                const uint64_t dim_at = pos_;
                const uint64_t n = read<uint64_t>([&] { return fmt::format("dimension {} of {}", d, label); });
                if (n == 0) fail_at(dim_at, "{} has dimension {} equal to 0: tensors must not be empty", label, d);
                if (n > uint64_t(std::numeric_limits<int64_t>::max()) ||
                    __builtin_mul_overflow(elements, n, &elements) ||
                    elements > uint64_t(std::numeric_limits<int64_t>::max()))
                    fail_at(dim_at, "{}: dimension {} is {}, and the element count overflows 63 bits", label, d, n);
                cur.ne[d] = int64_t(n);
            }
            const uint64_t type_at = pos_;
            cur.type = tensor_type(int32_t(read<uint32_t>([&] { return fmt::format("the type of {}", label); })));
            type_offsets_.push_back(type_at);
            cur.relative_offset = read<uint64_t>([&] { return fmt::format("the data offset of {}", label); });
        }
        for (size_t i = 0; i < f_.tensors_.size(); ++i) {
            const auto [it, inserted] = f_.tensor_index_.emplace(f_.tensors_[i].name, i);
            if (!inserted)
                fail_at(f_.tensors_[i].info_offset, "tensor #{} \"{}\" has the same name as tensor #{}", i,
                        f_.tensors_[i].name, it->second);
        }
    }

    void place_data_section() {
        const uint64_t end_of_infos = pos_;
        const uint64_t a = f_.alignment_;
        const uint64_t aligned = end_of_infos + (a - end_of_infos % a) % a;
        f_.data_offset_ = aligned;
        if (!f_.tensors_.empty() && aligned > f_.size_)
            fail(SKN_E_FORMAT,
                 "{}: truncated: the tensor infos end at byte {}, so the data section starts at byte {} "
                 "(aligned to {}), but the file is only {} bytes",
                 f_.source_, end_of_infos, aligned, a, f_.size_);
    }

    // Block multiples, byte sizes and offsets of each tensor on its own.
    void check_tensor_geometry() {
        const uint64_t data_bytes = f_.tensors_.empty() ? 0 : f_.size_ - f_.data_offset_;
        for (size_t i = 0; i < f_.tensors_.size(); ++i) {
            Tensor& t = f_.tensors_[i];
            const std::string label = tensor_label(i);
            if (t.type.id == kI2sTypeId && i2_s_layout_ == I2sLayout::Arm64) t.type = i2_s_g64();
            if (t.type.id == kI2sTypeId && t.ne[0] % t.type.block_elems != 0) reinterpret_as_iq4_nl_4_4(t, label);
            if (t.type.block_elems > 0) {
                if (t.ne[0] % t.type.block_elems != 0)
                    fail_at(type_offsets_[i],
                            "{} is {} with {} elements per row, which is not a multiple of its block size {}", label,
                            t.type.name, t.ne[0], t.type.block_elems);
                t.size = byte_size(t, t.type, label);
            }
            // A row-interleaved type's block spans R rows (ne[1]).
            if (const FormatTraits* f = t.type.format; f != nullptr && f->interleaved() &&
                                                       (t.rank < 2 || t.ne[1] % f->block_rows != 0))
                fail_at(type_offsets_[i],
                        "{} is {}, which interleaves {} rows per block, but has {} rows (ne[1]); a file writer must "
                        "keep such a tensor in {}",
                        label, f->name, f->block_rows, t.rank < 2 ? 1 : t.ne[1], find_format(f->interleaves)->name);
            if (t.relative_offset % f_.alignment_ != 0)
                fail_at(type_offsets_[i] + 4, "{} has data offset {}, which is not a multiple of the alignment {}",
                        label, t.relative_offset, f_.alignment_);
            if (t.relative_offset > data_bytes)
                fail_at(type_offsets_[i] + 4,
                        "{} has data offset {} (file byte {} + {}), past the end of the file ({} bytes)", label,
                        t.relative_offset, f_.data_offset_, t.relative_offset, f_.size_);
            t.offset = f_.data_offset_ + t.relative_offset;
        }
    }

    uint64_t byte_size(const Tensor& t, const TensorType& type, const std::string& label) const {
        const uint64_t blocks = uint64_t(t.elements() / type.block_elems);
        uint64_t bytes = 0;
        if (__builtin_mul_overflow(blocks, uint64_t(type.block_bytes), &bytes) ||
            __builtin_add_overflow(bytes, uint64_t(type.trailer_bytes), &bytes))
            fail_at(t.info_offset, "{}: {} elements of {} take more than 2^64 bytes", label, t.elements(),
                    type.name);
        return bytes;
    }

    // Id 36 means BitNet's I2_S in the files skn reads, but mainline GGUF once
    // used it for the interleaved IQ4_NL_4_4 (blocks of 32, 18 bytes each).
    static TensorType iq4_nl_4_4() {
        TensorType t;
        t.id = int32_t(FormatId::I2_S);
        t.name = "IQ4_NL_4_4";
        t.removed = true;
        t.block_elems = 32;
        t.block_bytes = 18;
        return t;
    }

    // Type 36 in bitnet.cpp's arm64 layout: skn's I2_S_G64 (blocks of 64).
    static TensorType i2_s_g64() {
        TensorType t = tensor_type(kI2sTypeId);
        const FormatTraits* f = find_format(FormatId::I2_S_G64);
        t.format = f;
        t.block_elems = f->block_elems;
        t.block_bytes = f->block_bytes;
        return t;
    }

    // The file's skn.i2_s_layout key, checked against the open option.
    void read_i2_s_layout() {
        const I2sLayout asked = f_.options_.i2_s_layout;
        i2_s_layout_ = asked;
        const auto key = f_.find_key(kI2sLayoutKey);
        if (!key) return;
        const KeyValue& kv = f_.kvs_[*key];
        if (kv.type != ValueType::String)
            fail_at(kv.offset, "key \"{}\" holds {}, not a string (\"{}\" or \"{}\")", kI2sLayoutKey,
                    value_type_name(kv.type), kI2sLayoutX86, kI2sLayoutArm64);
        const std::string_view v(reinterpret_cast<const char*>(f_.data_ + kv.value_offset), size_t(kv.length));
        I2sLayout said;
        if (v == kI2sLayoutX86) said = I2sLayout::X86;
        else if (v == kI2sLayoutArm64) said = I2sLayout::Arm64;
        else
            fail_at(kv.offset, "key \"{}\" is \"{}\"; the I2_S layouts are \"{}\" and \"{}\"", kI2sLayoutKey, v,
                    kI2sLayoutX86, kI2sLayoutArm64);
        if (asked != I2sLayout::FromFile && asked != said)
            fail(SKN_E_INVALID_ARGUMENT,
                 "{}: the file's key \"{}\" says its I2_S tensors are in the {} layout but it was opened with "
                 "i2_s_layout {}: open it with the default (SKN_I2_S_LAYOUT_FROM_FILE) to use the file's",
                 f_.source_, kI2sLayoutKey, v, asked == I2sLayout::X86 ? kI2sLayoutX86 : kI2sLayoutArm64);
        i2_s_layout_ = said;
    }

    void reinterpret_as_iq4_nl_4_4(Tensor& t, const std::string& label) {
        if (t.ne[0] % 32 != 0)
            fail_at(t.info_offset,
                    "{} has type 36 with {} elements per row: neither I2_S (blocks of {}) nor the removed "
                    "IQ4_NL_4_4 (blocks of 32)",
                    label, t.ne[0], t.type.block_elems);
        t.type = iq4_nl_4_4();
    }

    // Tensors must lie inside the file and not overlap. Walk them in offset
    // order: each one's room ends where the next one starts (or at the end of
    // the file).
    void check_tensor_extents() {
        auto& ts = f_.tensors_;
        std::vector<size_t> order(ts.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return ts[a].relative_offset < ts[b].relative_offset; });
        for (size_t k = 0; k < order.size(); ++k) {
            Tensor& t = ts[order[k]];
            const std::string label = tensor_label(order[k]);
            const bool last = k + 1 == order.size();
            const uint64_t end = last ? f_.size_ : ts[order[k + 1]].offset;
            const uint64_t room = end - t.offset;
            if (t.type.id == kI2sTypeId && t.type.format != nullptr) classify_type_36(t, room, label);
            if (t.type.block_elems == 0 || t.size <= room) continue;
            if (last)
                fail_at(t.offset, "{} ({} {}) needs {} bytes from byte {} but the file ends at byte {}", label,
                        t.type.name, shape_text(t), t.size, t.offset, f_.size_);
            const size_t next = order[k + 1];
            fail_at(t.offset, "{} ({} {}, {} bytes from byte {}) overlaps {}, which starts at byte {}", label,
                    t.type.name, shape_text(t), t.size, t.offset, tensor_label(next), ts[next].offset);
        }
    }

    // Type 36 is taken as I2_S unless the room the tensor has says otherwise:
    // I2_S needs elements/4 + trailer bytes, IQ4_NL_4_4 elements*18/32. A
    // writer pads each tensor to the alignment, so an I2_S tensor leaves at
    // most alignment + trailer bytes unused; a much larger room that would
    // hold the IQ4_NL_4_4 encoding means the file is not I2_S.
    void classify_type_36(Tensor& t, uint64_t room, const std::string& label) {
        if (t.size > room) return;  // reported as too small by the caller
        const uint64_t iq4_bytes = uint64_t(t.elements()) / 32 * 18;
        const uint64_t slack = uint64_t(f_.alignment_) + uint64_t(t.type.trailer_bytes);
        if (room >= iq4_bytes && room - t.size > slack) {
            log_debug("{}: {}: type 36 has {} bytes of room, I2_S needs {}: taken as the removed IQ4_NL_4_4",
                      f_.source_, label, room, t.size);
            t.type = iq4_nl_4_4();
            t.size = iq4_bytes;
        }
    }

    static std::string shape_text(const Tensor& t) {
        std::string s = "[";
        for (int d = 0; d < t.rank; ++d) s += fmt::format("{}{}", d ? ", " : "", t.ne[d]);
        return s + "]";
    }

    void report_unsupported() {
        std::string list;
        size_t n = 0;
        for (Tensor& t : f_.tensors_) {
            t.supported = t.type.format != nullptr;
            // I2_S of an unsaid layout: known type and size, refused at access.
            if (t.supported && t.type.id == kI2sTypeId && t.type.format->id == FormatId::I2_S &&
                i2_s_layout_ == I2sLayout::FromFile) {
                t.i2_s_layout_unknown = true;
                t.supported = false;
                continue;
            }
            if (t.supported) continue;
            ++n;
            list += fmt::format("{}\"{}\" (type {})", n > 1 ? ", " : "", t.name, describe_tensor_type(t.type));
        }
        f_.unsupported_count_ = n;
        if (n == 0) return;
        if (!f_.options_.allow_unsupported)
            fail(SKN_E_UNSUPPORTED,
                 "{}: {} of {} tensors have types skn does not implement: {}. Open with allow_unsupported to read "
                 "the others",
                 f_.source_, n, f_.tensors_.size(), list);
        log_warn("{}: {} of {} tensors have types skn does not implement and cannot be decoded: {}", f_.source_, n,
                 f_.tensors_.size(), list);
    }

    File& f_;
    uint64_t pos_ = 0;
    uint64_t tensor_count_ = 0;
    uint64_t kv_count_ = 0;
    std::vector<uint64_t> type_offsets_;  // file offset of each tensor's type field
    I2sLayout i2_s_layout_ = I2sLayout::FromFile;  // FromFile here: neither the file nor the options say
};

// ---- File

std::unique_ptr<File> File::open(const std::string& path, const OpenOptions& options) {
    std::unique_ptr<File> f(new File());
    f->source_ = path;
    f->options_ = options;
    f->mapping_.emplace(path, options.read_into_memory);
    f->data_ = f->mapping_->data();
    f->size_ = f->mapping_->size();
    f->parse();
    return f;
}

std::unique_ptr<File> File::open_memory(const void* data, size_t size, const OpenOptions& options) {
    if (data == nullptr && size != 0) fail(SKN_E_INVALID_ARGUMENT, "data must not be NULL");
    std::unique_ptr<File> f(new File());
    f->source_ = "GGUF buffer";
    f->options_ = options;
    static const uint8_t kEmpty = 0;
    f->data_ = data != nullptr ? static_cast<const uint8_t*>(data) : &kEmpty;
    f->size_ = size;
    f->parse();
    return f;
}

void File::parse() {
    Parser(*this).run();
    log_debug("{}: GGUF v{}, {} metadata keys, {} tensors, data section at byte {}", source_, version_, kvs_.size(),
              tensors_.size(), data_offset_);
}

const Tensor& File::tensor(int64_t index) const {
    if (index < 0 || uint64_t(index) >= tensors_.size())
        fail(SKN_E_INVALID_ARGUMENT, "tensor index {} is out of range: the file has {} tensors", index,
             tensors_.size());
    return tensors_[size_t(index)];
}

std::optional<size_t> File::find_tensor(std::string_view name) const {
    const auto it = tensor_index_.find(name);
    if (it == tensor_index_.end()) return std::nullopt;
    return it->second;
}

std::array<int64_t, kMaxRank> File::shape(const Tensor& t) const {
    std::array<int64_t, kMaxRank> s{1, 1, 1, 1};
    for (int d = 0; d < t.rank; ++d)
        s[size_t(d)] = options_.orientation == Orientation::AsStored ? t.ne[size_t(d)] : t.ne[size_t(t.rank - 1 - d)];
    return s;
}

void File::require_known_layout(const Tensor& t) const {
    if (!t.i2_s_layout_unknown) return;
    fail(SKN_E_FORMAT,
         "{}: tensor \"{}\" has type 36 (I2_S), which bitnet.cpp writes in two layouts of the same size: x86 "
         "(SKN_FORMAT_I2_S, blocks of 128) and arm64 (SKN_FORMAT_I2_S_G64, blocks of 64), and the file does not "
         "say which (it has no \"{}\" key). Open it with skn_gguf_options.i2_s_layout = SKN_I2_S_LAYOUT_X86 if "
         "an x86 build of bitnet.cpp wrote it, or SKN_I2_S_LAYOUT_ARM64 if an arm64 (NEON) build did",
         source_, t.name, kI2sLayoutKey);
}

std::span<const uint8_t> File::tensor_data(int64_t index) const {
    const Tensor& t = tensor(index);
    require_known_layout(t);
    if (t.type.block_elems == 0)
        fail(SKN_E_UNSUPPORTED, "tensor \"{}\" has type {}, whose size skn does not know: its bytes cannot be located",
             t.name, describe_tensor_type(t.type));
    return {data_ + t.offset, size_t(t.size)};
}

const KeyValue& File::kv(int64_t index) const {
    if (index < 0 || uint64_t(index) >= kvs_.size())
        fail(SKN_E_INVALID_ARGUMENT, "key index {} is out of range: the file has {} metadata keys", index,
             kvs_.size());
    return kvs_[size_t(index)];
}

std::optional<size_t> File::find_key(std::string_view key) const {
    const auto it = key_index_.find(key);
    if (it == key_index_.end()) return std::nullopt;
    return it->second;
}

namespace {

// "an array", "an i32", "an f32", "a u32", "a string": the article the type
// name takes when read aloud.
std::string with_article(std::string_view name) {
    const bool vowel = !name.empty() && std::string_view("aif").find(name[0]) != std::string_view::npos;
    return fmt::format("{} {}", vowel ? "an" : "a", name);
}

void require_type(const KeyValue& kv, ValueType want) {
    if (kv.type != want)
        fail(SKN_E_INVALID_ARGUMENT, "key \"{}\" holds {}, not {}", kv.key, with_article(value_type_name(kv.type)),
             with_article(value_type_name(want)));
}

}  // namespace

template <typename T>
T File::scalar(int64_t key, ValueType type) const {
    const KeyValue& v = kv(key);
    require_type(v, type);
    T out;
    std::memcpy(&out, &v.bits, sizeof(T));  // the value read at open: little-endian hosts only
    return out;
}

template uint8_t File::scalar<uint8_t>(int64_t, ValueType) const;
template int8_t File::scalar<int8_t>(int64_t, ValueType) const;
template uint16_t File::scalar<uint16_t>(int64_t, ValueType) const;
template int16_t File::scalar<int16_t>(int64_t, ValueType) const;
template uint32_t File::scalar<uint32_t>(int64_t, ValueType) const;
template int32_t File::scalar<int32_t>(int64_t, ValueType) const;
template uint64_t File::scalar<uint64_t>(int64_t, ValueType) const;
template int64_t File::scalar<int64_t>(int64_t, ValueType) const;
template float File::scalar<float>(int64_t, ValueType) const;
template double File::scalar<double>(int64_t, ValueType) const;

std::string_view File::string(int64_t key) const {
    const KeyValue& v = kv(key);
    require_type(v, ValueType::String);
    return {reinterpret_cast<const char*>(data_ + v.value_offset), size_t(v.length)};
}

const ArrayNode& File::array(uint64_t array_id) const {
    if (array_id < kvs_.size()) {
        const KeyValue& v = kvs_[size_t(array_id)];
        require_type(v, ValueType::Array);
        return nodes_[v.node];
    }
    // Ids past the keys name nested arrays only: a key's own array has its
    // key index as its one id, so the node behind it is not reachable here.
    const uint64_t node = array_id - kvs_.size();
    if (node >= nodes_.size() || !nodes_[size_t(node)].nested)
        fail(SKN_E_INVALID_ARGUMENT,
             "array id {} names no array: ids below {} are key indexes, nested arrays have the ids "
             "skn_gguf_array_nested returns",
             array_id, kvs_.size());
    return nodes_[size_t(node)];
}

std::span<const uint8_t> File::array_bytes(uint64_t array_id) const {
    const ArrayNode& a = array(array_id);
    if (!is_fixed_size(a.element_type))
        fail(SKN_E_INVALID_ARGUMENT, "array {} holds {} elements, not numbers: {}", array_id,
             value_type_name(a.element_type),
             a.element_type == ValueType::String ? "read them with skn_gguf_array_string"
                                                 : "reach them with skn_gguf_array_nested");
    return {data_ + a.offset, size_t(a.count * value_type_size(a.element_type))};
}

std::string_view File::array_string(uint64_t array_id, uint64_t i) const {
    const ArrayNode& a = array(array_id);
    if (a.element_type != ValueType::String)
        fail(SKN_E_INVALID_ARGUMENT, "array {} holds {} elements, not strings", array_id,
             value_type_name(a.element_type));
    if (i >= a.count)
        fail(SKN_E_INVALID_ARGUMENT, "string index {} is out of range: the array holds {} strings", i, a.count);
    const uint64_t at = a.items[size_t(i)];
    const uint64_t len = a.items[size_t(i) + 1] - at - 8;
    return {reinterpret_cast<const char*>(data_ + at + 8), size_t(len)};
}

uint64_t File::array_nested(uint64_t array_id, uint64_t i) const {
    const ArrayNode& a = array(array_id);
    if (a.element_type != ValueType::Array)
        fail(SKN_E_INVALID_ARGUMENT, "array {} holds {} elements, not arrays", array_id,
             value_type_name(a.element_type));
    if (i >= a.count)
        fail(SKN_E_INVALID_ARGUMENT, "element index {} is out of range: the array holds {} arrays", i, a.count);
    return kvs_.size() + a.items[size_t(i)];
}

}  // namespace skn_core::gguf
