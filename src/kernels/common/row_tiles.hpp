// SPDX-License-Identifier: MIT
// The row-tile driver of every family. A kernel's tile is a template on the
// number C of activation rows it keeps in registers; the driver covers the
// n activation rows greedily with tiles from a descending list that ends
// in 1, and hands each tile its C as a std::integral_constant, a constant
// the tile takes as a template argument:
//
//   for_each_row_tile<16, 8, 4, 2, 1>(a.n, [&](auto C, int64_t i0) SKN_TILE_INLINE {
//       tile<F, C>(a, o, i0);
//   });
//
// runs tile<F, C> on rows i0 .. i0 + C - 1 for C the largest width of the
// list that fits the rows left (n = 13: 8 rows, then 4, then 1). A family
// that prepares per-tile work shared by many output rows (q32: the
// activations' scales, once per chunk of blocks) picks the width itself with
// row_tile_rows and reaches the tile through with_row_tile.
//
// Every tile computes each of its (activation row, output row) pairs by the
// same steps, so which tile a row falls in never changes a bit.
//
// Included by tier sources: everything here is always inlined, so an ISA
// object defines no weak symbol for it (docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

// The lambda a family hands the driver is always inlined too: the tile call
// then sits in the kernel function itself, where the compiler weighs
// inlining the tile's own helpers as it did for a hand-written switch
// (without it, q32's AVX-512 kernels called a scale loader out of line).
#define SKN_TILE_INLINE __attribute__((always_inline))

namespace skn_core::kernels {

namespace row_tiles_detail {

template <int... Cs>
constexpr bool descending_to_one() {
    constexpr int c[] = {Cs...};
    for (std::size_t k = 1; k < sizeof...(Cs); ++k)
        if (c[k] >= c[k - 1]) return false;
    return c[sizeof...(Cs) - 1] == 1;
}

// Whether the list after the widest width C is every width below it: then
// any number of rows below C is a width, and what the widest tiles leave is
// one tile.
template <int C, int... Rest>
constexpr bool every_width_below() {
    constexpr int rest[] = {Rest..., 0};
    for (std::size_t k = 0; k < sizeof...(Rest); ++k)
        if (rest[k] != C - 1 - int(k)) return false;
    return sizeof...(Rest) == std::size_t(C - 1);
}

// f(C, args...) for the first C of the list that fits `left` rows (the last
// one, 1, always fits).
template <int C, int... Rest, class F, class... A>
[[gnu::always_inline]] inline void call_first_fitting(int64_t left, F& f, A... args) {
    if constexpr (sizeof...(Rest) > 0)
        if (left < C) return call_first_fitting<Rest...>(left, f, args...);
    f(std::integral_constant<int, C>{}, args...);
}

}  // namespace row_tiles_detail

// The rows of the next tile: the largest width of the list that is at most
// `left` (1 when none is).
template <int... Cs>
[[gnu::always_inline]] inline int row_tile_rows(int64_t left) {
    static_assert(row_tiles_detail::descending_to_one<Cs...>(), "row tiles: a descending list that ends in 1");
    constexpr int widths[] = {Cs...};
    if constexpr (row_tiles_detail::every_width_below<Cs...>()) {
        return left < widths[0] ? int(left) : widths[0];
    } else {
        int rows = 1;
        (void)((left >= Cs ? (rows = Cs, true) : false) || ...);
        return rows;
    }
}

namespace row_tiles_detail {

template <int C>
using Width = std::integral_constant<int, C>;

// A switch over the widths, the last one its default: what a hand-written
// switch compiled to (a chain of comparisons gave other code around the
// tiles). One specialization per list length.
template <int... Cs>
struct Switch {
    static_assert(sizeof...(Cs) <= 6, "with_row_tile: lists of up to 6 widths (add a Switch for more)");
};
template <int A>
struct Switch<A> {
    template <class F, class... X>
    [[gnu::always_inline]] static void call(int, F& f, X&&... x) { f(Width<A>{}, static_cast<X&&>(x)...); }
};
template <int A, int B>
struct Switch<A, B> {
    template <class F, class... X>
    [[gnu::always_inline]] static void call(int rows, F& f, X&&... x) {
        switch (rows) {
            case A: f(Width<A>{}, static_cast<X&&>(x)...); break;
            default: f(Width<B>{}, static_cast<X&&>(x)...); break;
        }
    }
};
template <int A, int B, int C>
struct Switch<A, B, C> {
    template <class F, class... X>
    [[gnu::always_inline]] static void call(int rows, F& f, X&&... x) {
        switch (rows) {
            case A: f(Width<A>{}, static_cast<X&&>(x)...); break;
            case B: f(Width<B>{}, static_cast<X&&>(x)...); break;
            default: f(Width<C>{}, static_cast<X&&>(x)...); break;
        }
    }
};
template <int A, int B, int C, int D>
struct Switch<A, B, C, D> {
    template <class F, class... X>
    [[gnu::always_inline]] static void call(int rows, F& f, X&&... x) {
        switch (rows) {
            case A: f(Width<A>{}, static_cast<X&&>(x)...); break;
            case B: f(Width<B>{}, static_cast<X&&>(x)...); break;
            case C: f(Width<C>{}, static_cast<X&&>(x)...); break;
            default: f(Width<D>{}, static_cast<X&&>(x)...); break;
        }
    }
};
template <int A, int B, int C, int D, int E>
struct Switch<A, B, C, D, E> {
    template <class F, class... X>
    [[gnu::always_inline]] static void call(int rows, F& f, X&&... x) {
        switch (rows) {
            case A: f(Width<A>{}, static_cast<X&&>(x)...); break;
            case B: f(Width<B>{}, static_cast<X&&>(x)...); break;
            case C: f(Width<C>{}, static_cast<X&&>(x)...); break;
            case D: f(Width<D>{}, static_cast<X&&>(x)...); break;
            default: f(Width<E>{}, static_cast<X&&>(x)...); break;
        }
    }
};
template <int A, int B, int C, int D, int E, int G>
struct Switch<A, B, C, D, E, G> {
    template <class F, class... X>
    [[gnu::always_inline]] static void call(int rows, F& f, X&&... x) {
        switch (rows) {
            case A: f(Width<A>{}, static_cast<X&&>(x)...); break;
            case B: f(Width<B>{}, static_cast<X&&>(x)...); break;
            case C: f(Width<C>{}, static_cast<X&&>(x)...); break;
            case D: f(Width<D>{}, static_cast<X&&>(x)...); break;
            case E: f(Width<E>{}, static_cast<X&&>(x)...); break;
            default: f(Width<G>{}, static_cast<X&&>(x)...); break;
        }
    }
};

}  // namespace row_tiles_detail

// f(std::integral_constant<int, C>{}) for C = rows, a width of the list
// (row_tile_rows picked it); any other value takes the last width, 1.
template <int... Cs, class F, class... X>
[[gnu::always_inline]] inline void with_row_tile(int rows, F&& f, X&&... x) {
    static_assert(row_tiles_detail::descending_to_one<Cs...>(), "row tiles: a descending list that ends in 1");
    row_tiles_detail::Switch<Cs...>::call(rows, f, static_cast<X&&>(x)...);
}

namespace row_tiles_detail {

// The tiles after the widest: fewer than Prev rows are left, so C fits at
// most once when Prev <= 2 C, else in a loop.
template <int Prev, int C, int... Rest, class F>
[[gnu::always_inline]] inline void cover_tail(int64_t n, int64_t i0, F& f) {
    if constexpr (Prev <= 2 * C) {
        if (n - i0 >= C) {
            f(std::integral_constant<int, C>{}, i0);
            i0 += C;
        }
    } else {
        for (; n - i0 >= C; i0 += C) f(std::integral_constant<int, C>{}, i0);
    }
    if constexpr (sizeof...(Rest) > 0) cover_tail<C, Rest...>(n, i0, f);
}

template <int C, int... Rest, class F>
[[gnu::always_inline]] inline void cover(int64_t n, F& f) {
    int64_t i0 = 0;
    for (; i0 + C <= n; i0 += C) f(std::integral_constant<int, C>{}, i0);
    if constexpr (sizeof...(Rest) == 0)
        return;
    else if constexpr (every_width_below<C, Rest...>()) {
        if (i0 < n) call_first_fitting<Rest...>(n - i0, f, i0);
    } else {
        cover_tail<C, Rest...>(n, i0, f);
    }
}

template <int kMax, class F, int... k>
[[gnu::always_inline]] inline void cover_up_to(int64_t n, F& f, std::integer_sequence<int, k...>) {
    cover<(kMax - k)...>(n, f);
}

}  // namespace row_tiles_detail

// f(C, i0) for each tile of a greedy cover of activation rows 0 .. n - 1,
// in row order: C = row_tile_rows<Cs...>(n - i0) rows from row i0, i.e. tiles
// of the widest width, then the rows left.
template <int... Cs, class F>
[[gnu::always_inline]] inline void for_each_row_tile(int64_t n, F&& f) {
    static_assert(row_tiles_detail::descending_to_one<Cs...>(), "row tiles: a descending list that ends in 1");
    row_tiles_detail::cover<Cs...>(n, f);
}

// for_each_row_tile over every width from kMax down to 1: tiles of kMax,
// then the remainder n % kMax in one tile.
template <int kMax, class F>
[[gnu::always_inline]] inline void for_each_row_tile_up_to(int64_t n, F&& f) {
    row_tiles_detail::cover_up_to<kMax>(n, f, std::make_integer_sequence<int, kMax>{});
}

}  // namespace skn_core::kernels
