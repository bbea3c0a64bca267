// SPDX-License-Identifier: MIT
// Checked arithmetic on caller-supplied sizes, counts and strides: the one
// way entry points multiply or add them. An overflow is the caller's error,
// refused with SKN_E_INVALID_ARGUMENT naming the arguments involved, never a
// wrapped value that later passes a bounds check.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "runtime/error.hpp"

namespace skn_core {

// a * b, or fail naming `what` (e.g. "x_rows * x_row_stride").
template <typename T>
T checked_mul(T a, T b, std::string_view what) {
    static_assert(std::is_integral_v<T>);
    T r;
    if (__builtin_mul_overflow(a, b, &r))
        fail(SKN_E_INVALID_ARGUMENT, "{} overflows ({} * {}): {} is too large", what, a, b, what);
    return r;
}

// a + b, or fail naming `what`.
template <typename T>
T checked_add(T a, T b, std::string_view what) {
    static_assert(std::is_integral_v<T>);
    T r;
    if (__builtin_add_overflow(a, b, &r))
        fail(SKN_E_INVALID_ARGUMENT, "{} overflows ({} + {}): {} is too large", what, a, b, what);
    return r;
}

// The largest byte count skn will try to hold in one allocation: what a
// std::vector or a pointer difference can represent.
inline constexpr uint64_t kMaxAllocationBytes = uint64_t(PTRDIFF_MAX);

}  // namespace skn_core
