// SPDX-License-Identifier: MIT
// The vocabulary of a GGUF file shared by the reader and the writer: metadata
// value types, and what skn knows about every tensor type id, including the
// ggml types it does not implement (so a file holding them is reported by
// name, never misread).
#pragma once

#include <cstdint>
#include <string>

#include "formats/format.hpp"

namespace skn_core::gguf {

inline constexpr uint32_t kMagic = 0x46554747;  // "GGUF" read as a little-endian u32
inline constexpr uint32_t kDefaultAlignment = 32;
inline constexpr const char* kAlignmentKey = "general.alignment";
inline constexpr int kMaxRank = 4;
// Which of bitnet.cpp's two I2_S layouts the file's type-36 tensors are in:
// a string, kI2sLayoutX86 (skn's I2_S) or kI2sLayoutArm64 (skn's I2_S_G64).
// skn's writer records it; bitnet.cpp's writers do not (docs/gguf.md).
inline constexpr const char* kI2sLayoutKey = "skn.i2_s_layout";
inline constexpr const char* kI2sLayoutX86 = "x86";
inline constexpr const char* kI2sLayoutArm64 = "arm64";
inline constexpr int32_t kI2sTypeId = 36;  // GGUF type id of both I2_S layouts
// The specification caps keys at 65535 bytes; the cap also keeps a hostile
// key length from turning into a large allocation.
inline constexpr uint64_t kMaxKeyBytes = 65535;
// Arrays may hold arrays; deeper nesting than this is refused so a hostile
// file cannot recurse the parser off its stack.
inline constexpr int kMaxArrayDepth = 8;

// Metadata value types; the values are the file's own numbers.
enum class ValueType : uint32_t {
    U8 = 0,
    I8 = 1,
    U16 = 2,
    I16 = 3,
    U32 = 4,
    I32 = 5,
    F32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    U64 = 10,
    I64 = 11,
    F64 = 12,
};

bool is_value_type(uint32_t raw);
// "u32", "string", "array"...; "invalid" for a number outside the enum.
const char* value_type_name(ValueType t);
// Bytes of one value of a fixed-size type; 0 for String and Array.
uint32_t value_type_size(ValueType t);
inline bool is_fixed_size(ValueType t) { return value_type_size(t) != 0; }

// What a tensor type id means to skn.
struct TensorType {
    int32_t id = -1;
    const char* name = "unknown";  // "Q4_K", "IQ2_XXS", "Q4_2"; "unknown" for ids nobody defined
    const FormatTraits* format = nullptr;  // set when skn implements the type
    bool removed = false;                   // a type ggml once had and removed
    // Block geometry when known (supported types, and the ggml types skn does
    // not implement but whose size is defined); 0 when unknown.
    int32_t block_elems = 0;
    int32_t block_bytes = 0;
    int32_t trailer_bytes = 0;
};

TensorType tensor_type(int32_t id);

// "16 (IQ2_XXS)", "4 (Q4_2, removed from GGUF)", "1234 (unknown)".
std::string describe_tensor_type(const TensorType& t);

}  // namespace skn_core::gguf
