// SPDX-License-Identifier: MIT
// Formats, quantize and dequantize.
#include <cstddef>

#include "capi/guard.hpp"
#include "capi/handles.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"

using skn_core::capi::guarded;
using skn_core::capi::require_non_null;


namespace {

constexpr size_t kPropsV1Size = offsetof(skn_format_props, bits_per_weight) + sizeof(double);

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
        if (f == nullptr) skn_core::fail(SKN_E_UNKNOWN_FORMAT, "no format is named \"{}\"", name);
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

SKN_API skn_status skn_dequantize(skn_format format, const void* src, size_t src_size, int64_t n_rows,
                                  int64_t n_per_row, float* dst, size_t dst_count) {
    return guarded([&] {
        require_non_null(src, "src");
        require_non_null(dst, "dst");
        skn_core::dequantize_tensor(skn_core::capi::lookup_format(skn_core::capi::raw_enum(format)), src, src_size, n_rows, n_per_row, dst, dst_count);
    });
}

}  // extern "C"
