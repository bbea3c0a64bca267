// SPDX-License-Identifier: MIT
// The two block orders a packed weight can be in (docs/packed-weight-layout.md).
#pragma once

#include <cstdint>

namespace skn_core {

enum class BlockOrder : int32_t {
    RowMajor = 0,         // block (o, b) at o * blocks_per_row + b: files, quantizers
    InputBlockMajor = 1,  // block (o, b) at b * out + o: packed kernels
};

enum class LayoutClass : int32_t {
    Contiguous = 0,
    Strided = 1,
    BlockedRowMajor = 2,
    BlockedInputMajor = 3,
};

inline const char* order_name(BlockOrder o) {
    return o == BlockOrder::RowMajor ? "ROW_MAJOR" : "INPUT_BLOCK_MAJOR";
}

inline const char* layout_class_name(LayoutClass c) {
    switch (c) {
        case LayoutClass::Contiguous: return "CONTIGUOUS";
        case LayoutClass::Strided: return "STRIDED";
        case LayoutClass::BlockedRowMajor: return "BLOCKED_ROW_MAJOR";
        case LayoutClass::BlockedInputMajor: return "BLOCKED_INPUT_MAJOR";
    }
    return "?";
}

}  // namespace skn_core
