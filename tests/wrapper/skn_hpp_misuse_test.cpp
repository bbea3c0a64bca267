// SPDX-License-Identifier: MIT
// skn.hpp misuse: what the wrapper must refuse rather than turn into a read
// past a buffer or of freed memory. Run under ASan+UBSan by the asan preset,
// where the old behaviour was a heap-buffer-overflow / heap-use-after-free.
#include "skn/skn.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// Detection: is View::from_bytes / Gguf::open_memory callable with an A?
template <class A, class = void>
struct can_view_from : std::false_type {};
template <class A>
struct can_view_from<A, std::void_t<decltype(skn::View::from_bytes(std::declval<A>(), SKN_FORMAT_Q4_0,
                                                                   std::vector<std::int64_t>{1, 32},
                                                                   SKN_ORDER_ROW_MAJOR))>> : std::true_type {};
template <class A, class = void>
struct can_open_memory : std::false_type {};
template <class A>
struct can_open_memory<A, std::void_t<decltype(skn::Gguf::open_memory(std::declval<A>()))>> : std::true_type {};

// Views borrow: a temporary byte vector (what skn::quantize returns) is refused
// at compile time; named containers and spans are accepted.
static_assert(!can_view_from<skn::bytes>::value, "View::from_bytes(temporary bytes) must not compile");
static_assert(!can_view_from<const skn::bytes>::value, "View::from_bytes(const temporary) must not compile");
static_assert(can_view_from<skn::bytes&>::value, "View::from_bytes(named bytes) compiles");
static_assert(can_view_from<const skn::bytes&>::value, "View::from_bytes(const named bytes) compiles");
static_assert(can_view_from<skn::const_byte_span>::value, "View::from_bytes(span) compiles");
static_assert(!can_open_memory<skn::bytes>::value, "Gguf::open_memory(temporary bytes) must not compile");
static_assert(can_open_memory<skn::bytes&>::value, "Gguf::open_memory(named bytes) compiles");

skn::bytes file_with_arrays() {
    skn::GgufWriter w;
    const std::uint8_t small[3] = {1, 2, 3};
    w.add_array("t.u8", SKN_GGUF_TYPE_U8, small, 3);
    const float f[2] = {1.5f, -2.0f};
    w.add_array("t.f32", SKN_GGUF_TYPE_F32, f, 2);
    w.add_string_array("t.words", {"a", "b"});
    return w.write_memory();
}

TEST(SknHppMisuse, ArrayValuesRefusesAMismatchedType) {
    const skn::bytes file = file_with_arrays();
    const skn::Gguf g = skn::Gguf::open_memory(file);
    const auto u8 = static_cast<std::uint64_t>(*g.find_key("t.u8"));
    const auto f32 = static_cast<std::uint64_t>(*g.find_key("t.f32"));
    const auto words = static_cast<std::uint64_t>(*g.find_key("t.words"));

    // The matching type reads the values.
    EXPECT_EQ(g.array_values<std::uint8_t>(u8), (std::vector<std::uint8_t>{1, 2, 3}));
    EXPECT_EQ(g.array_values<float>(f32), (std::vector<float>{1.5f, -2.0f}));

    // 3 one-byte elements read as 3 uint64 would be 24 bytes from a 3-byte array.
    try {
        (void)g.array_values<std::uint64_t>(u8);
        FAIL() << "array_values<uint64_t> of a U8 array did not throw";
    } catch (const skn::Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
        EXPECT_NE(e.message().find("not of the requested type"), std::string::npos) << e.message();
    }
    // Same size, other type: still refused (no silent reinterpretation).
    EXPECT_THROW((void)g.array_values<std::int32_t>(f32), skn::Error);
    EXPECT_THROW((void)g.array_values<double>(f32), skn::Error);
    // A string array has no numeric values at all.
    EXPECT_THROW((void)g.array_values<std::uint8_t>(words), skn::Error);
    // An array id that does not exist.
    EXPECT_THROW((void)g.array_values<float>(9999), skn::Error);
}

TEST(SknHppMisuse, ViewOverNamedBytesOutlivesNothingItNeeds) {
    // The supported pattern: the bytes are a named variable, alive as long as the view.
    const std::vector<float> x(4 * 96, 0.25f);
    const skn::bytes q = skn::quantize(SKN_FORMAT_Q8_0, x, 4, 96);
    const skn::View v = skn::View::from_bytes(q, SKN_FORMAT_Q8_0, {4, 96}, SKN_ORDER_ROW_MAJOR);
    EXPECT_NEAR(v.get({3, 95}), 0.25f, 1e-3f);  // Q8_0 keeps an f16 scale
}

TEST(SknHppMisuse, BadArgumentsThrowNotCrash) {
    const skn::bytes q = skn::quantize(SKN_FORMAT_Q4_0, std::vector<float>(2 * 64, 1.0f), 2, 64);
    // Too few bytes for the shape, wrong rank, unaligned row: errors, not reads past q.
    EXPECT_THROW(skn::View::from_bytes(q.data(), q.size() - 1, SKN_FORMAT_Q4_0, {2, 64}, SKN_ORDER_ROW_MAJOR),
                 skn::Error);
    EXPECT_THROW(skn::View::from_bytes(q, SKN_FORMAT_Q4_0, {2, 65}, SKN_ORDER_ROW_MAJOR), skn::Error);
    EXPECT_THROW(skn::View::from_bytes(q, SKN_FORMAT_Q4_0, {}, SKN_ORDER_ROW_MAJOR), skn::Error);
    const skn::View v = skn::View::from_bytes(q, SKN_FORMAT_Q4_0, {2, 64}, SKN_ORDER_ROW_MAJOR);
    EXPECT_THROW(v.get({2, 0}), skn::Error);   // out of range row
    EXPECT_THROW(v.get({0}), skn::Error);      // wrong index count
    std::vector<float> small(10);
    EXPECT_THROW(v.to_float(skn::span<float>(small)), skn::Error);  // destination too small
    EXPECT_THROW(v.narrow(1, 16, 32), skn::Error);                   // not block-aligned on the block axis
    // Quantize from fewer floats than rows * cols.
    const std::vector<float> few(10, 1.0f);
    EXPECT_THROW(skn::quantize(SKN_FORMAT_Q4_0, few, 2, 64), skn::Error);
    // A moved-from view is empty, and its queries fail cleanly.
    skn::View moved = v;
    skn::View taken = std::move(moved);
    EXPECT_FALSE(moved);
    EXPECT_TRUE(taken);
    EXPECT_THROW(moved.shape(), skn::Error);
}

TEST(SknHppMisuse, GgufOpenMemoryRefusesGarbage) {
    const skn::bytes junk(64, 0xAB);
    EXPECT_THROW(skn::Gguf::open_memory(junk), skn::Error);
    const skn::bytes empty;
    EXPECT_THROW(skn::Gguf::open_memory(empty), skn::Error);
}

}  // namespace
