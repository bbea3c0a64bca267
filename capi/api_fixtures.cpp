// SPDX-License-Identifier: MIT
// Tagged and golden fixtures.
#include <cstddef>
#include <cstring>
#include <string>

#include "capi/guard.hpp"
#include "capi/handles.hpp"
#include "fixtures/golden.hpp"
#include "fixtures/tagged.hpp"

using skn_core::capi::guarded;
using skn_core::capi::lookup_format;
using skn_core::capi::require_non_null;

namespace {

skn_core::BlockOrder fixture_order(int kernel_order) {
    if (kernel_order != 0 && kernel_order != 1)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "kernel_order must be 0 (ROW_MAJOR) or 1 (INPUT_BLOCK_MAJOR), not {}",
                  kernel_order);
    return kernel_order ? skn_core::BlockOrder::InputBlockMajor : skn_core::BlockOrder::RowMajor;
}

void copy_out(const void* src, size_t n, void* buf, size_t cap, size_t* needed) {
    *needed = n;
    if (buf == nullptr) return;
    if (cap < n) skn_core::fail(SKN_E_BUFFER_TOO_SMALL, "the fixture is {} bytes but the buffer holds {}", n, cap);
    std::memcpy(buf, src, n);
}

thread_local std::string t_disagreement;

}  // namespace

extern "C" {

SKN_API skn_status skn_fixture_bytes(skn_format format, int kernel_order, int64_t rows, int64_t blocks_per_row,
                                     void* buf, size_t cap, size_t* needed) {
    return guarded([&] {
        require_non_null(needed, "needed");
        const skn_core::FormatTraits& f = lookup_format(skn_core::capi::raw_enum(format));
        const skn_core::BlockOrder order = fixture_order(kernel_order);
        const size_t n = skn_core::fixture_size(f, rows, blocks_per_row);
        *needed = n;
        if (buf == nullptr) return;
        if (cap < n)
            skn_core::fail(SKN_E_BUFFER_TOO_SMALL, "a {} x {} {} fixture is {} bytes but the buffer holds {}", rows,
                      blocks_per_row, f.name, n, cap);
        skn_core::write_fixture(f, order, rows, blocks_per_row, static_cast<uint8_t*>(buf));
    });
}

SKN_API const char* skn_fixture_disagreement(const void* bytes, size_t n, skn_format format, int kernel_order,
                                             int64_t rows, int64_t blocks_per_row) {
    std::optional<std::string> message;
    const skn_status s = guarded([&] {
        const skn_core::FormatTraits& f = lookup_format(skn_core::capi::raw_enum(format));
        message = skn_core::fixture_disagreement(static_cast<const uint8_t*>(bytes), n, f, fixture_order(kernel_order),
                                            rows, blocks_per_row);
    });
    if (s != SKN_OK) message = std::string("cannot check the bytes: ") + skn_last_error();
    if (!message) return nullptr;
    t_disagreement = std::move(*message);
    return t_disagreement.c_str();
}

SKN_API skn_status skn_fixture_golden_info(skn_format format, skn_golden_info* info) {
    return guarded([&] {
        require_non_null(info, "info");
        // The 1.0 fields; a later version may append more and fill only those
        // the caller's struct has room for.
        constexpr size_t kInfoV1Size = offsetof(skn_golden_info, x_rows) + sizeof(int64_t);
        if (info->struct_size < kInfoV1Size)
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "info->struct_size is {}: set it to sizeof(skn_golden_info) ({})",
                      info->struct_size, sizeof(skn_golden_info));
        const skn_core::FormatTraits& f = lookup_format(skn_core::capi::raw_enum(format));
        if (!f.block_quantized)
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "{} is a dense format: golden fixtures exist for block formats only",
                      f.name);
        info->rows = skn_core::golden_rows(f);
        info->cols = skn_core::kGoldenCols;
        info->x_rows = skn_core::kGoldenXRows;
    });
}

SKN_API skn_status skn_fixture_golden(skn_format format, skn_golden_part part, void* buf, size_t cap,
                                      size_t* needed) {
    return guarded([&] {
        require_non_null(needed, "needed");
        const skn_core::GoldenFixture g = skn_core::make_golden_fixture(lookup_format(skn_core::capi::raw_enum(format)));
        switch (skn_core::capi::raw_enum(part)) {
            case SKN_GOLDEN_SOURCE: return copy_out(g.source.data(), g.source.size() * 4, buf, cap, needed);
            case SKN_GOLDEN_PACKED: return copy_out(g.packed.data(), g.packed.size(), buf, cap, needed);
            case SKN_GOLDEN_PACKED_KERNEL_ORDER:
                return copy_out(g.packed_ibm.data(), g.packed_ibm.size(), buf, cap, needed);
            case SKN_GOLDEN_DECODED: return copy_out(g.decoded.data(), g.decoded.size() * 4, buf, cap, needed);
            case SKN_GOLDEN_X: return copy_out(g.x.data(), g.x.size() * 4, buf, cap, needed);
            case SKN_GOLDEN_Y: return copy_out(g.y.data(), g.y.size() * 4, buf, cap, needed);
        }
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "golden part {} is not an skn_golden_part (0..5)", skn_core::capi::raw_enum(part));
    });
}

}  // extern "C"
