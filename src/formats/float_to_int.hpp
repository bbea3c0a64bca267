// SPDX-License-Identifier: MIT
// Float -> integer conversions exactly as the reference quantizers' x86 builds
// perform them, without C++ undefined behaviour.
#pragma once

#include <cstdint>

namespace skn_core::codec {

// Float -> int32 as cvttss2si / cvttps2dq do it: truncation toward zero, and
// the "integer indefinite" INT32_MIN for NaN or anything outside int32. The
// reference then keeps the low byte. Both only matter when an inverse scale
// has overflowed (inputs below ~1e-36 in magnitude, or ranges that overflow
// float); spelling them out keeps us byte-identical there.
inline int32_t truncate_like_x86(float v) {
    if (!(v >= -2147483648.0f && v < 2147483648.0f)) return INT32_MIN;
    return int32_t(v);
}
inline int8_t low_byte_signed(int32_t v) { return int8_t(uint8_t(uint32_t(v))); }
inline uint8_t low_byte(int32_t v) { return uint8_t(uint32_t(v)); }

}  // namespace skn_core::codec
