// SPDX-License-Identifier: MIT
// libFuzzer target for the GGUF reader. Each input is parsed as a GGUF file
// (both with and without allow_unsupported). The properties checked:
//  - parsing never crashes, reads out of bounds or trips UBSan (the
//    sanitizers report those);
//  - a refusal is an skn_core::Error with a non-empty message and a file status
//    (SKN_E_FORMAT or SKN_E_UNSUPPORTED); any other exception is a bug;
//  - a file that opens can be walked completely: every tensor's bytes, every
//    string, every array element;
//  - a file that opens and that the writer can express is written again and
//    reads back with the same metadata and tensors (reader/writer agree).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gguf/reader.hpp"
#include "gguf/writer.hpp"
#include "runtime/error.hpp"

namespace {

using namespace skn_core::gguf;

[[noreturn]] void bug(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_gguf: %s: %s\n", what, detail.c_str());
    std::abort();
}

uint64_t walk(const File& f) {
    uint64_t sum = 0;
    for (size_t i = 0; i < f.tensors().size(); ++i) {
        const Tensor& t = f.tensors()[i];
        const auto shape = f.shape(t);
        sum += uint64_t(shape[0]) + t.name.size();
        if (t.type.block_elems == 0) continue;
        if (t.i2_s_layout_unknown) {  // I2_S of a layout the file does not say: refused, never handed out
            bool refused = false;
            try {
                f.tensor_data(int64_t(i));
            } catch (const skn_core::Error&) {
                refused = true;
            }
            if (!refused) bug("type 36 of an unsaid layout was handed out", t.name);
            continue;
        }
        const auto d = f.tensor_data(int64_t(i));
        if (d.size() != t.size || t.offset + t.size > f.size()) bug("tensor outside the file", t.name);
        for (uint8_t b : d) sum += b;
    }
    for (size_t k = 0; k < f.kvs().size(); ++k) {
        const KeyValue& kv = f.kvs()[k];
        if (kv.type == ValueType::String) {
            for (char c : f.string(int64_t(k))) sum += uint8_t(c);
        } else if (kv.type != ValueType::Array) {
            sum += f.bytes()[kv.value_offset];
            continue;
        }
        if (kv.type != ValueType::Array) continue;
        std::vector<uint64_t> pending{k};
        while (!pending.empty()) {
            const uint64_t id = pending.back();
            pending.pop_back();
            const ArrayNode& a = f.array(id);
            if (is_fixed_size(a.element_type)) {
                for (uint8_t b : f.array_bytes(id)) sum += b;
                continue;
            }
            for (uint64_t i = 0; i < a.count; ++i) {
                if (a.element_type == ValueType::String)
                    for (char c : f.array_string(id, i)) sum += uint8_t(c);
                else
                    pending.push_back(f.array_nested(id, i));
            }
        }
    }
    return sum;
}

ArrayValue array_value(const File& f, uint64_t id) {
    const ArrayNode& a = f.array(id);
    if (is_fixed_size(a.element_type)) {
        const auto b = f.array_bytes(id);
        return ArrayValue::numbers(a.element_type, b.data(), a.count);
    }
    if (a.element_type == ValueType::String) {
        std::vector<std::string> s;
        for (uint64_t i = 0; i < a.count; ++i) s.emplace_back(f.array_string(id, i));
        return ArrayValue::of_strings(std::move(s));
    }
    std::vector<ArrayValue> children;
    for (uint64_t i = 0; i < a.count; ++i) children.push_back(array_value(f, f.array_nested(id, i)));
    return ArrayValue::of_arrays(std::move(children));
}

// Rebuild `f` with the writer; false when the writer cannot express it (a
// name too long for ggml, an unsupported tensor type, ...).
bool rewrite(const File& f, std::vector<uint8_t>* out) {
    Writer w;
    try {
        for (size_t k = 0; k < f.kvs().size(); ++k) {
            const KeyValue& kv = f.kvs()[k];
            const auto key = int64_t(k);
            switch (kv.type) {
                case ValueType::U8: w.add_scalar(kv.key, kv.type, f.scalar<uint8_t>(key, kv.type)); break;
                case ValueType::I8: w.add_scalar(kv.key, kv.type, f.scalar<int8_t>(key, kv.type)); break;
                case ValueType::U16: w.add_scalar(kv.key, kv.type, f.scalar<uint16_t>(key, kv.type)); break;
                case ValueType::I16: w.add_scalar(kv.key, kv.type, f.scalar<int16_t>(key, kv.type)); break;
                case ValueType::U32: w.add_scalar(kv.key, kv.type, f.scalar<uint32_t>(key, kv.type)); break;
                case ValueType::I32: w.add_scalar(kv.key, kv.type, f.scalar<int32_t>(key, kv.type)); break;
                case ValueType::F32: w.add_scalar(kv.key, kv.type, f.scalar<float>(key, kv.type)); break;
                case ValueType::U64: w.add_scalar(kv.key, kv.type, f.scalar<uint64_t>(key, kv.type)); break;
                case ValueType::I64: w.add_scalar(kv.key, kv.type, f.scalar<int64_t>(key, kv.type)); break;
                case ValueType::F64: w.add_scalar(kv.key, kv.type, f.scalar<double>(key, kv.type)); break;
                case ValueType::Bool: w.add_bool(kv.key, f.boolean(key)); break;
                case ValueType::String: w.add_string(kv.key, f.string(key)); break;
                case ValueType::Array: w.add_array(kv.key, array_value(f, uint64_t(k))); break;
            }
        }
        for (size_t i = 0; i < f.tensors().size(); ++i) {
            const Tensor& t = f.tensors()[i];
            if (!t.supported) return false;
            w.add_tensor(t.name, *t.type.format, std::span<const int64_t>(t.ne.data(), size_t(t.rank)),
                         f.tensor_data(int64_t(i)));
        }
    } catch (const skn_core::Error&) {
        return false;
    }
    // A legal but huge alignment (up to 4 GiB) pads the rewritten file to
    // that size; such files are left to the reader-only checks.
    if (w.file_size() > (uint64_t(16) << 20)) return false;
    *out = w.to_bytes();
    return true;
}

void compare(const File& a, const File& b) {
    if (a.kvs().size() != b.kvs().size() || a.tensors().size() != b.tensors().size() ||
        a.alignment() != b.alignment())
        bug("rewritten file differs", "counts or alignment");
    for (size_t k = 0; k < a.kvs().size(); ++k) {
        const KeyValue& x = a.kvs()[k];
        const KeyValue& y = b.kvs()[k];
        if (x.key != y.key || x.type != y.type) bug("rewritten key differs", x.key);
        if (x.type == ValueType::String && a.string(int64_t(k)) != b.string(int64_t(k)))
            bug("rewritten string differs", x.key);
        if (is_fixed_size(x.type) &&
            std::memcmp(a.bytes() + x.value_offset, b.bytes() + y.value_offset, value_type_size(x.type)) != 0)
            bug("rewritten value differs", x.key);
    }
    for (size_t i = 0; i < a.tensors().size(); ++i) {
        const Tensor& x = a.tensors()[i];
        const Tensor& y = b.tensors()[i];
        if (x.name != y.name || x.ne != y.ne || x.type.id != y.type.id || x.size != y.size)
            bug("rewritten tensor differs", x.name);
        const auto dx = a.tensor_data(int64_t(i));
        const auto dy = b.tensor_data(int64_t(i));
        if (dx.size() != dy.size() || std::memcmp(dx.data(), dy.data(), dx.size()) != 0)
            bug("rewritten tensor bytes differ", x.name);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    for (bool allow : {false, true}) {
        OpenOptions opts;
        opts.allow_unsupported = allow;
        opts.orientation = (size & 1) ? Orientation::AsStored : Orientation::OutIn;
        std::unique_ptr<File> f;
        try {
            f = File::open_memory(data, size, opts);
        } catch (const skn_core::Error& e) {
            if (e.what()[0] == 0) bug("error without a message", skn_core::status_name(e.status()));
            if (e.status() != SKN_E_FORMAT && e.status() != SKN_E_UNSUPPORTED)
                bug("unexpected status", std::string(skn_core::status_name(e.status())) + ": " + e.what());
            continue;
        }
        walk(*f);
        std::vector<uint8_t> again;
        if (!allow && rewrite(*f, &again)) {
            try {
                const auto g = File::open_memory(again.data(), again.size(), opts);
                compare(*f, *g);
            } catch (const skn_core::Error& e) {
                bug("the writer's output does not read back", e.what());
            }
        }
    }
    return 0;
}
