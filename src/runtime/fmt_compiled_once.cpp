// SPDX-License-Identifier: MIT
// fmt's out-of-line code, compiled into libskn in this one object. The rest
// of the library (and the tests, which link these objects) include
// <fmt/format.h> without FMT_HEADER_ONLY, so they only declare what is
// defined here; libskn still needs no libfmt.so at run time
// (tests/abi/check_needed.sh), and the symbols stay hidden (libskn.map).
//
// format-inl.h defines the non-template functions format.h declares. The
// templates format.h declares but does not define for callers outside
// header-only mode are instantiated below for char, the only character type
// skn formats.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;

}  // namespace detail
FMT_END_NAMESPACE
