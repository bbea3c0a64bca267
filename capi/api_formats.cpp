// SPDX-License-Identifier: MIT
// Formats, quantize and dequantize.
#include <cstddef>
#include <string>
#include <strings.h>

#include <fmt/format.h>

#include "capi/guard.hpp"
#include "capi/handles.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "gguf/types.hpp"
#include "runtime/error.hpp"

using skn_core::capi::guarded;
using skn_core::capi::require_non_null;


namespace {

constexpr size_t kPropsV1Size = offsetof(skn_format_props, bits_per_weight) + sizeof(double);

// skn_quantize_options as of 1.0.0 (its first version): every field up to threads.
constexpr size_t kQuantizeOptionsV1Size = offsetof(skn_quantize_options, threads) + sizeof(int32_t);

struct QuantizeOptions {
    const float* importance = nullptr;
    int threads = 1;  // the default: one thread, as a new context
};

QuantizeOptions quantize_options(const skn_quantize_options* o, int64_t n_per_row) {
    QuantizeOptions out;
    if (o == nullptr) return out;
    if (o->struct_size < kQuantizeOptionsV1Size)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "options->struct_size is {} but must be at least {}: set it to sizeof(skn_quantize_options)",
                       o->struct_size, kQuantizeOptionsV1Size);
    if (o->importance != nullptr && o->importance_count != n_per_row)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "options->importance_count is {} but a row has {} elements: importance weights are one per "
                       "column (the imatrix entry of this tensor), shared by every row",
                       o->importance_count, n_per_row);
    if (o->importance == nullptr && o->importance_count != 0)
        skn_core::fail(SKN_E_INVALID_ARGUMENT,
                       "options->importance_count is {} but options->importance is NULL: pass the weights, or a "
                       "count of 0 for none",
                       o->importance_count);
    if (o->threads < 0 || o->threads > skn_core::kMaxQuantizeThreads)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "options->threads is {}: use 1..{}, or 0 for the default (one)",
                       o->threads, skn_core::kMaxQuantizeThreads);
    out.importance = o->importance;
    if (o->threads > 0) out.threads = o->threads;
    return out;
}

// The GGUF tensor type named `name` (case-insensitive) among the ids ggml
// defines, implemented or not.
skn_core::gguf::TensorType gguf_type_named(const std::string& name) {
    for (int32_t id = 0; id < 64; ++id) {
        const skn_core::gguf::TensorType t = skn_core::gguf::tensor_type(id);
        if (t.id >= 0 && std::string(t.name) != "unknown" && strcasecmp(t.name, name.c_str()) == 0) return t;
    }
    return skn_core::gguf::TensorType{};
}

// Why `name` is not a format, and what the names are. The common mistakes:
// a llama.cpp file type ("Q4_K_M": a per-tensor mix of formats), and a GGUF
// type skn knows of but does not implement ("I32").
[[noreturn]] void fail_unknown_name(const char* name) {
    std::string valid;
    for (const skn_core::FormatTraits& f : skn_core::all_formats()) valid += fmt::format("{}{}", valid.empty() ? "" : ", ", f.name);
    const std::string n = name;
    std::string why;
    const skn_core::gguf::TensorType t = gguf_type_named(n);
    if (t.id >= 0) {
        why = t.removed ? fmt::format("{} (GGUF type {}) was removed from GGUF; skn does not implement it", t.name, t.id)
                        : fmt::format("{} is GGUF tensor type {}, which skn knows of (it can size and skip such "
                                      "tensors) but does not implement",
                                      t.name, t.id);
    } else {
        // A llama.cpp file type is a base format plus a size suffix: Q4_K_M,
        // Q3_K_L, IQ2_M ... (LLAMA_FTYPE_MOSTLY_*).
        for (const char* suffix : {"_S", "_M", "_L", "_XL"}) {
            const size_t sl = std::string(suffix).size();
            if (n.size() <= sl || strcasecmp(n.c_str() + n.size() - sl, suffix) != 0) continue;
            const std::string base = n.substr(0, n.size() - sl);
            const skn_core::FormatTraits* bf = skn_core::find_format_by_name(base.c_str());
            const skn_core::gguf::TensorType bt = gguf_type_named(base);
            const bool iq = base.size() >= 3 && strncasecmp(base.c_str(), "IQ", 2) == 0;
            if (bf == nullptr && bt.id < 0 && !iq) continue;
            why = fmt::format("{} is a llama.cpp file type (a model quantized mostly to {}, with some tensors in "
                              "other formats), not a block format: each tensor of such a file has its own format",
                              n, bf != nullptr ? bf->name : base);
            break;
        }
    }
    skn_core::fail(SKN_E_UNKNOWN_FORMAT, "no format is named \"{}\"{}{}. Format names (case-insensitive): {}", n,
                   why.empty() ? "" : ": ", why, valid);
}

}  // namespace

extern "C" {

SKN_API skn_status skn_format_info(skn_format format, skn_format_props* props) {
    return guarded([&] {
        require_non_null(props, "props");
        if (props->struct_size < kPropsV1Size)
            skn_core::fail(SKN_E_INVALID_ARGUMENT,
                      "props->struct_size is {} but must be at least {}: set it to sizeof(skn_format_props)",
                      props->struct_size, kPropsV1Size);
        const skn_core::FormatTraits& f = skn_core::capi::lookup_format(skn_core::capi::raw_enum(format));
        props->name = f.name;
        props->block_elems = f.block_elems;
        props->block_bytes = f.block_bytes;
        props->tensor_trailer_bytes = f.tensor_trailer_bytes;
        props->is_block_quantized = f.block_quantized ? 1 : 0;
        props->activation_format = static_cast<skn_format>(f.activation);
        props->bits_per_weight = f.bits_per_weight();
        if (props->struct_size >= offsetof(skn_format_props, needs_importance) + sizeof(int32_t))
            props->needs_importance = f.requires_importance() ? 1 : 0;
        if (props->struct_size >= offsetof(skn_format_props, block_rows) + sizeof(int32_t))
            props->block_rows = f.block_rows;
        if (props->struct_size >= offsetof(skn_format_props, interleaves) + sizeof(skn_format))
            props->interleaves = static_cast<skn_format>(f.interleaved() ? f.interleaves : f.id);
    });
}

SKN_API int32_t skn_format_count(void) { return static_cast<int32_t>(skn_core::all_formats().size()); }

SKN_API int32_t skn_format_at(int32_t index) {
    const auto all = skn_core::all_formats();
    if (index < 0 || size_t(index) >= all.size()) return -1;
    return static_cast<int32_t>(all[size_t(index)].id);
}

SKN_API skn_status skn_format_from_name(const char* name, skn_format* format) {
    return guarded([&] {
        require_non_null(name, "name");
        require_non_null(format, "format");
        const skn_core::FormatTraits* f = skn_core::find_format_by_name(name);
        if (f == nullptr) fail_unknown_name(name);
        *format = static_cast<skn_format>(f->id);
    });
}

SKN_API skn_status skn_quantized_size(skn_format format, int64_t n_rows, int64_t n_per_row, size_t* out_bytes) {
    return guarded([&] {
        require_non_null(out_bytes, "out_bytes");
        *out_bytes = skn_core::quantized_size(skn_core::capi::lookup_format(skn_core::capi::raw_enum(format)), n_rows, n_per_row);
    });
}

SKN_API skn_status skn_quantize(skn_format format, const float* src, int64_t n_rows, int64_t n_per_row, void* dst,
                                size_t dst_size) {
    return guarded([&] {
        require_non_null(src, "src");
        require_non_null(dst, "dst");
        skn_core::quantize_tensor(skn_core::capi::lookup_format(skn_core::capi::raw_enum(format)), src, n_rows, n_per_row, dst, dst_size);
    });
}

SKN_API skn_status skn_quantize_with_options(skn_format format, const float* src, int64_t n_rows, int64_t n_per_row,
                                             void* dst, size_t dst_size, const skn_quantize_options* options) {
    return guarded([&] {
        require_non_null(src, "src");
        require_non_null(dst, "dst");
        const QuantizeOptions o = quantize_options(options, n_per_row);
        skn_core::quantize_tensor(skn_core::capi::lookup_format(skn_core::capi::raw_enum(format)), src, n_rows,
                                  n_per_row, dst, dst_size, o.importance, o.threads);
    });
}

SKN_API skn_status skn_dequantize(skn_format format, const void* src, size_t src_size, int64_t n_rows,
                                  int64_t n_per_row, float* dst, size_t dst_count) {
    return guarded([&] {
        require_non_null(src, "src");
        require_non_null(dst, "dst");
        skn_core::dequantize_tensor(skn_core::capi::lookup_format(skn_core::capi::raw_enum(format)), src, src_size, n_rows, n_per_row, dst, dst_count);
    });
}

}  // extern "C"
