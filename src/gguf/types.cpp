// SPDX-License-Identifier: MIT
#include "gguf/types.hpp"

#include <fmt/format.h>

namespace skn_core::gguf {

bool is_value_type(uint32_t raw) { return raw <= uint32_t(ValueType::F64); }

const char* value_type_name(ValueType t) {
    switch (t) {
        case ValueType::U8: return "u8";
        case ValueType::I8: return "i8";
        case ValueType::U16: return "u16";
        case ValueType::I16: return "i16";
        case ValueType::U32: return "u32";
        case ValueType::I32: return "i32";
        case ValueType::F32: return "f32";
        case ValueType::Bool: return "bool";
        case ValueType::String: return "string";
        case ValueType::Array: return "array";
        case ValueType::U64: return "u64";
        case ValueType::I64: return "i64";
        case ValueType::F64: return "f64";
    }
    return "invalid";
}

uint32_t value_type_size(ValueType t) {
    switch (t) {
        case ValueType::U8:
        case ValueType::I8:
        case ValueType::Bool: return 1;
        case ValueType::U16:
        case ValueType::I16: return 2;
        case ValueType::U32:
        case ValueType::I32:
        case ValueType::F32: return 4;
        case ValueType::U64:
        case ValueType::I64:
        case ValueType::F64: return 8;
        case ValueType::String:
        case ValueType::Array: return 0;
    }
    return 0;
}

namespace {

// ggml types skn does not implement. The block sizes are those of ggml's
// block structs, so the extent of such a tensor can still be checked.
struct ForeignType {
    int32_t id;
    const char* name;
    bool removed;
    int32_t block_elems;  // 0 when the type no longer has a defined size
    int32_t block_bytes;
};

constexpr ForeignType kForeign[] = {
    {4, "Q4_2", true, 0, 0},
    {5, "Q4_3", true, 0, 0},
    {24, "I8", false, 1, 1},
    {25, "I16", false, 1, 2},
    {26, "I32", false, 1, 4},
    {27, "I64", false, 1, 8},
    {28, "F64", false, 1, 8},
    {31, "Q4_0_4_4", true, 0, 0},
    {32, "Q4_0_4_8", true, 0, 0},
    {33, "Q4_0_8_8", true, 0, 0},
    {37, "IQ4_NL_4_8", true, 0, 0},
    {38, "IQ4_NL_8_8", true, 0, 0},
};

}  // namespace

TensorType tensor_type(int32_t id) {
    TensorType t;
    t.id = id;
    // skn-only format ids are no GGUF types: a file that uses one is unknown.
    if (const FormatTraits* f = is_gguf_type_id(id) ? find_format(id) : nullptr) {
        t.name = f->name;
        t.format = f;
        t.block_elems = f->block_elems;
        t.block_bytes = f->block_bytes;
        t.trailer_bytes = f->tensor_trailer_bytes;
        return t;
    }
    for (const ForeignType& x : kForeign) {
        if (x.id != id) continue;
        t.name = x.name;
        t.removed = x.removed;
        t.block_elems = x.block_elems;
        t.block_bytes = x.block_bytes;
        return t;
    }
    return t;
}

std::string describe_tensor_type(const TensorType& t) {
    if (t.removed) return fmt::format("{} ({}, removed from GGUF)", t.id, t.name);
    return fmt::format("{} ({})", t.id, t.name);
}

}  // namespace skn_core::gguf
