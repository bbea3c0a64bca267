// SPDX-License-Identifier: MIT
// View: a Layout over bytes it borrows or shares with a scope. All reads go
// through the layout (rule 4), so a view built directly over kernel-order
// bytes decodes to the right matrix: the decoder reads the block the layout
// points at, never a hidden original.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "layout/layout.hpp"

namespace skn_core {

struct View {
    Layout layout;
    const uint8_t* data = nullptr;  // block 0 of the underlying buffer
    size_t nbytes = 0;              // bytes of the underlying buffer
    float tensor_scale = 1.0f;      // per-tensor scale (I2_S), read from the trailer
    const uint8_t* trailer = nullptr;  // the per-tensor trailer (I2_S), copied along by prepack
    std::shared_ptr<const void> keep_alive;  // scope storage, or null when borrowed
    // The tensor's name when the view came from a GGUF file (null otherwise),
    // carried through narrow/transpose/prepack so traces and logs can say
    // which weight they are about. Shared: copying a view allocates nothing.
    std::shared_ptr<const std::string> name;

    bool borrowed() const { return keep_alive == nullptr; }
    const uint8_t* block_at(int64_t flat) const { return data + size_t(flat) * layout.format->tile_bytes(); }
};

// Wrap borrowed bytes; checks that the layout fits in nbytes (trailer included).
View make_view(const void* data, size_t nbytes, const FormatTraits& f, const int64_t* shape, int rank,
               BlockOrder order);

// A view with a derived layout over the same bytes.
View with_layout(const View& v, const Layout& l);

// Bytes a fresh layout of this many blocks needs, trailer included.
size_t storage_bytes(const FormatTraits& f, int64_t blocks);

float view_get(const View& v, const int64_t* indices, int rank);
// Decode every element in row-major order of the view's shape.
void view_to_float(const View& v, float* dst, size_t dst_count);

}  // namespace skn_core
