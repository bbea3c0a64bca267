// SPDX-License-Identifier: MIT
#include "dispatch/matmul_call.hpp"

#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "formats/orientation.hpp"
#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

// A stride as its caller wrote it: "63", or "252 bytes". Built only for a
// message.
std::string shown(const MatmulCall& c, int64_t stride, size_t elem_bytes) {
    if (!c.byte_strides) return fmt::format("{}", stride);
    return fmt::format("{} bytes", stride * int64_t(elem_bytes));
}

// "", or " (256 bytes)": what a width a stride must cover is in bytes.
std::string in_bytes(const MatmulCall& c, int64_t count, size_t elem_bytes) {
    int64_t bytes = 0;
    if (!c.byte_strides || __builtin_mul_overflow(count, int64_t(elem_bytes), &bytes)) return std::string();
    return fmt::format(" ({} bytes)", bytes);
}

// The words naming a buffer's addressing in a message.
struct ReachNames {
    const char* buffer;       // "x"
    const char* row_stride;   // "x_row_stride"
    const char* slots;        // "x_slots", "k"
    const char* slot_stride;  // "x_slot_stride"
    const char* width;        // "in", "out", "k"
};

// The overflow check_reach found, named term by term in the caller's units.
[[noreturn]] [[gnu::cold]] void refuse_reach(const MatmulCall& c, const void* p, size_t elem_bytes, int64_t row_stride,
                                             int64_t slots, int64_t slot_stride, int64_t width, const ReachNames& names) {
    const int64_t unit = c.byte_strides ? int64_t(elem_bytes) : 1;
    std::string sum = fmt::format("(x_rows - 1) * {}", names.row_stride);
    int64_t total = checked_mul(c.n - 1, row_stride * unit, sum);
    if (slots > 1) {
        const std::string by_slot = fmt::format("({} - 1) * {}", names.slots, names.slot_stride);
        const int64_t term = checked_mul(slots - 1, slot_stride * unit, by_slot);
        sum += " + " + by_slot;
        total = checked_add(total, term, sum);
    }
    const std::string w = c.byte_strides ? fmt::format("{} * {}", names.width, elem_bytes) : names.width;
    const int64_t width_units = checked_mul(width, unit, w);
    sum += " + " + w;
    total = checked_add(total, width_units, sum);
    if (!c.byte_strides) total = checked_mul<int64_t>(total, int64_t(elem_bytes), fmt::format("({}) * {}", sum, elem_bytes));
    (void)checked_add<uintptr_t>(reinterpret_cast<uintptr_t>(p), uintptr_t(total),
                                 fmt::format("the end of {} ({})", names.buffer, sum));
    fail(SKN_E_INVALID_ARGUMENT, "the end of {} ({}) is past the end of the address space", names.buffer, sum);
}

// Refuses a buffer whose last element, (x_rows - 1) * row_stride + (slots -
// 1) * slot_stride + width, has no address: a product that wrapped would pass
// every later check. Checked before anything computes a row's address; the
// message is formatted only for a refusal (it costs more than a small GEMV).
void check_reach(const MatmulCall& c, const void* p, size_t elem_bytes, int64_t row_stride, int64_t slots,
                 int64_t slot_stride, int64_t width, const ReachNames& names) {
    int64_t by_row = 0, by_slot = 0, elems = 0, bytes = 0;
    uintptr_t end = 0;
    if (!__builtin_mul_overflow(c.n - 1, row_stride, &by_row) &&
        !__builtin_mul_overflow(slots - 1, slot_stride, &by_slot) && !__builtin_add_overflow(by_row, by_slot, &elems) &&
        !__builtin_add_overflow(elems, width, &elems) && !__builtin_mul_overflow(elems, int64_t(elem_bytes), &bytes) &&
        !__builtin_add_overflow(reinterpret_cast<uintptr_t>(p), uintptr_t(bytes), &end))
        return;
    refuse_reach(c, p, elem_bytes, row_stride, slots, slot_stride, width, names);
}

// Whether [a, a + a_count) and [b, b + b_count) (elements of 4 bytes) share a byte.
bool overlaps(const void* a, int64_t a_count, const void* b, int64_t b_count) {
    const auto* ab = static_cast<const char*>(a);
    const auto* bb = static_cast<const char*>(b);
    return ab < bb + size_t(b_count) * 4 && bb < ab + size_t(a_count) * 4;
}

void check_operands(const MatmulCall& c, const View& w) {
    if (c.x == nullptr) fail(SKN_E_INVALID_ARGUMENT, "x must not be NULL");
    if (c.y == nullptr) fail(SKN_E_INVALID_ARGUMENT, "y must not be NULL");
    if (c.routed && c.ids == nullptr) fail(SKN_E_INVALID_ARGUMENT, "ids must not be NULL");
    const Layout& l = w.layout;
    if (!c.routed && l.rank != 2)
        fail(SKN_E_INVALID_ARGUMENT, "matmul_wt takes a rank-2 weight [out, in]; this one is {}", l.describe());
    if (c.routed && l.rank != 3)
        fail(SKN_E_INVALID_ARGUMENT,
             "matmul_wt_id takes a stacked expert weight [E, out, in] (rank 3); this one is {}{}", l.describe(),
             l.rank == 2 ? ": for a single weight [out, in] use skn_matmul_wt, or skn_view_unsqueeze it to [1, out, in]"
                         : "");
    require_out_in(l.shape[size_t(l.rank - 2)], l.shape[size_t(l.rank - 1)], *l.format);
}

void check_counts(const MatmulCall& c) {
    if (c.n < 1) fail(SKN_E_INVALID_ARGUMENT, "x_rows is {}: at least one activation row is needed", c.n);
    if (!c.routed) return;
    if (c.k < 1) fail(SKN_E_INVALID_ARGUMENT, "k is {}: every row is routed to at least one expert", c.k);
    if (c.x_slots < 1 || c.x_slots > c.k || c.k % c.x_slots != 0)
        fail(SKN_E_INVALID_ARGUMENT,
             "x_slots {} does not divide k = {}: slot s reads activation slot s % x_slots, so x_slots is 1 (every "
             "slot of a row reads the same activations), k (each slot reads its own) or another divisor of k",
             c.x_slots, c.k);
}

// Rows and slots go forward: a negative stride would address memory before
// the buffer, and the overlap checks assume none.
[[gnu::cold]] void check_not_negative(const MatmulCall& c, const char* name, int64_t stride, size_t elem_bytes) {
    if (stride < 0)
        fail(SKN_E_INVALID_ARGUMENT, "{} {} is negative: rows and slots go forward in memory", name,
             shown(c, stride, elem_bytes));
}

void check_strides(const MatmulCall& c, int64_t out, int64_t in) {
    // One test for the usual case: the sign bit of any stride.
    const int64_t ids_stride = c.routed ? c.ids_row_stride : 0, gates_stride = c.gates ? c.gates_row_stride : 0;
    if ((c.x_row_stride | c.x_slot_stride | ids_stride | gates_stride | c.y_row_stride | c.y_slot_stride) < 0) {
        check_not_negative(c, "x_row_stride", c.x_row_stride, sizeof(float));
        check_not_negative(c, "x_slot_stride", c.x_slot_stride, sizeof(float));
        check_not_negative(c, "ids_row_stride", ids_stride, sizeof(int32_t));
        check_not_negative(c, "gates_row_stride", gates_stride, sizeof(float));
        check_not_negative(c, "y_row_stride", c.y_row_stride, sizeof(float));
        check_not_negative(c, "y_slot_stride", c.y_slot_stride, sizeof(float));
    }

    if (c.x_row_stride < in)
        fail(SKN_E_INVALID_ARGUMENT, "x_row_stride {} is smaller than a row of {} inputs{}",
             shown(c, c.x_row_stride, sizeof(float)), in, in_bytes(c, in, sizeof(float)));
    if (c.x_slots > 1 && c.x_slot_stride < in)
        fail(SKN_E_INVALID_ARGUMENT,
             "x_slot_stride {} is smaller than a slot of {} inputs{}: each of a row's x_slots = {} activation slots "
             "is its own row of inputs",
             shown(c, c.x_slot_stride, sizeof(float)), in, in_bytes(c, in, sizeof(float)), c.x_slots);
    if (c.x_slots == 1 && c.x_slot_stride != 0 && c.x_slot_stride < in)
        fail(SKN_E_INVALID_ARGUMENT,
             "x_slot_stride {} is neither 0 (every slot of a row reads the row) nor at least a row of {} inputs{} "
             "(each slot reads its own row)",
             shown(c, c.x_slot_stride, sizeof(float)), in, in_bytes(c, in, sizeof(float)));
    if (c.routed && c.ids_row_stride < c.k)
        fail(SKN_E_INVALID_ARGUMENT, "ids_row_stride {} is smaller than a row of k = {} ids{}",
             shown(c, c.ids_row_stride, sizeof(int32_t)), c.k, in_bytes(c, c.k, sizeof(int32_t)));
    if (c.gates != nullptr && c.gates_row_stride < c.k)
        fail(SKN_E_INVALID_ARGUMENT, "gates_row_stride {} is smaller than a row of k = {} gates{}",
             shown(c, c.gates_row_stride, sizeof(float)), c.k, in_bytes(c, c.k, sizeof(float)));
    if (c.y_row_stride < out)
        fail(SKN_E_INVALID_ARGUMENT, "y_row_stride {} is smaller than a row of {} outputs{}",
             shown(c, c.y_row_stride, sizeof(float)), out, in_bytes(c, out, sizeof(float)));
    if (c.k > 1 && c.y_slot_stride < out)
        fail(SKN_E_INVALID_ARGUMENT, "y_slot_stride {} is smaller than a slot's {} outputs{}",
             shown(c, c.y_slot_stride, sizeof(float)), out, in_bytes(c, out, sizeof(float)));
}

void check_reaches(const MatmulCall& c, int64_t out, int64_t in) {
    check_reach(c, c.x, sizeof(float), c.x_row_stride, c.x_slots, c.x_slot_stride, in,
                {"x", "x_row_stride", "x_slots", "x_slot_stride", "in"});
    check_reach(c, c.y, sizeof(float), c.y_row_stride, c.k, c.y_slot_stride, out,
                {"y", "y_row_stride", "k", "y_slot_stride", "out"});
    if (c.routed)
        check_reach(c, c.ids, sizeof(int32_t), c.ids_row_stride, 1, 0, c.k,
                    {"ids", "ids_row_stride", "1", "0", "k"});
    if (c.gates != nullptr)
        check_reach(c, c.gates, sizeof(float), c.gates_row_stride, 1, 0, c.k,
                    {"gates", "gates_row_stride", "1", "0", "k"});
}

// Tasks write y while others still read x, the gates and the bias; and
// slots are computed in parallel, so two that share outputs would race.
void check_overlaps(const MatmulCall& c, int64_t experts, int64_t out, int64_t in) {
    // Either nesting of a routed y is fine: rows of k slots ([n, k, out],
    // llama.cpp's) or slots of n rows ([k, n, out]).
    if (c.n > 1 && c.k > 1 && c.y_row_stride < (c.k - 1) * c.y_slot_stride + out &&
        c.y_slot_stride < (c.n - 1) * c.y_row_stride + out)
        fail(SKN_E_INVALID_ARGUMENT,
             "y_row_stride {} and y_slot_stride {} make the outputs of different (row, slot) pairs overlap: use "
             "y_slot_stride >= out ({}) and y_row_stride >= (k - 1) * y_slot_stride + out ({}), or y_row_stride >= "
             "out and y_slot_stride >= (x_rows - 1) * y_row_stride + out ({})",
             shown(c, c.y_row_stride, sizeof(float)), shown(c, c.y_slot_stride, sizeof(float)),
             shown(c, out, sizeof(float)), shown(c, (c.k - 1) * c.y_slot_stride + out, sizeof(float)),
             shown(c, (c.n - 1) * c.y_row_stride + out, sizeof(float)));
    const int64_t y_span = (c.n - 1) * c.y_row_stride + (c.k - 1) * c.y_slot_stride + out;
    const int64_t x_span = (c.n - 1) * c.x_row_stride + (c.x_slots - 1) * c.x_slot_stride + in;
    if (overlaps(c.y, y_span, c.x, x_span))
        fail(SKN_E_INVALID_ARGUMENT, "y overlaps x: the output must not alias the input");
    if (c.gates != nullptr && overlaps(c.y, y_span, c.gates, (c.n - 1) * c.gates_row_stride + c.k))
        fail(SKN_E_INVALID_ARGUMENT, "y overlaps gates: the output must not alias the input");
    if (c.bias != nullptr && overlaps(c.y, y_span, c.bias, experts * out))
        fail(SKN_E_INVALID_ARGUMENT, "y overlaps bias: the output must not alias the input");
}

}  // namespace

void validate_call(const MatmulCall& c, const View& w) {
    check_operands(c, w);
    const Layout& l = w.layout;
    const int64_t experts = c.routed ? l.shape[0] : 1;
    const int64_t out = l.shape[size_t(l.rank - 2)], in = l.shape[size_t(l.rank - 1)];
    check_counts(c);
    check_strides(c, out, in);
    check_reaches(c, out, in);
    check_overlaps(c, experts, out, in);
}

}  // namespace skn_core
