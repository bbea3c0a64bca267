// SPDX-License-Identifier: MIT
// What gguf::Writer writes, gguf::File reads back identically: every format,
// ranks 1 to 4, metadata of every type (nested arrays and string arrays
// included), several alignments. Also the writer's own refusals.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "gguf/reader.hpp"
#include "gguf/writer.hpp"
#include "gguf_test_util.hpp"
#include "support/quantize_any.hpp"
#include "support/rows_for.hpp"

namespace skn_core::gguf {
namespace {

using test::contains;
using test::gguf_error;

template <typename T>
ArrayValue numbers(ValueType type, std::vector<T> v) {
    return ArrayValue::numbers(type, v.data(), v.size());
}

// One value of each scalar type, at the edges of its range.
void add_all_scalars(Writer& w) {
    w.add_scalar<uint8_t>("s.u8", ValueType::U8, 255);
    w.add_scalar<int8_t>("s.i8", ValueType::I8, -128);
    w.add_scalar<uint16_t>("s.u16", ValueType::U16, 65535);
    w.add_scalar<int16_t>("s.i16", ValueType::I16, -32768);
    w.add_scalar<uint32_t>("s.u32", ValueType::U32, 0xDEADBEEFu);
    w.add_scalar<int32_t>("s.i32", ValueType::I32, std::numeric_limits<int32_t>::min());
    w.add_scalar<uint64_t>("s.u64", ValueType::U64, 0xFFFFFFFFFFFFFFFFull);
    w.add_scalar<int64_t>("s.i64", ValueType::I64, std::numeric_limits<int64_t>::min());
    w.add_scalar<float>("s.f32", ValueType::F32, -0.0f);
    w.add_scalar<double>("s.f64", ValueType::F64, std::numeric_limits<double>::quiet_NaN());
    w.add_bool("s.true", true);
    w.add_bool("s.false", false);
    w.add_string("s.text", std::string("UTF-8 \xc3\xa9\xe2\x82\xac and a \0 byte", 25));
    w.add_string("s.empty", "");
}

void check_all_scalars(const File& f) {
    auto key = [&](const char* k) {
        const auto i = f.find_key(k);
        EXPECT_TRUE(i.has_value()) << k;
        return int64_t(i.value_or(0));
    };
    EXPECT_EQ(f.scalar<uint8_t>(key("s.u8"), ValueType::U8), 255);
    EXPECT_EQ(f.scalar<int8_t>(key("s.i8"), ValueType::I8), -128);
    EXPECT_EQ(f.scalar<uint16_t>(key("s.u16"), ValueType::U16), 65535);
    EXPECT_EQ(f.scalar<int16_t>(key("s.i16"), ValueType::I16), -32768);
    EXPECT_EQ(f.scalar<uint32_t>(key("s.u32"), ValueType::U32), 0xDEADBEEFu);
    EXPECT_EQ(f.scalar<int32_t>(key("s.i32"), ValueType::I32), std::numeric_limits<int32_t>::min());
    EXPECT_EQ(f.scalar<uint64_t>(key("s.u64"), ValueType::U64), 0xFFFFFFFFFFFFFFFFull);
    EXPECT_EQ(f.scalar<int64_t>(key("s.i64"), ValueType::I64), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(std::bit_cast<uint32_t>(f.scalar<float>(key("s.f32"), ValueType::F32)), 0x80000000u);
    EXPECT_TRUE(std::isnan(f.scalar<double>(key("s.f64"), ValueType::F64)));
    EXPECT_TRUE(f.boolean(key("s.true")));
    EXPECT_FALSE(f.boolean(key("s.false")));
    EXPECT_EQ(f.string(key("s.text")), std::string_view("UTF-8 \xc3\xa9\xe2\x82\xac and a \0 byte", 25));
    EXPECT_EQ(f.string(key("s.empty")), "");
}

void add_all_arrays(Writer& w) {
    w.add_array("a.u8", numbers<uint8_t>(ValueType::U8, {0, 1, 255}));
    w.add_array("a.i8", numbers<int8_t>(ValueType::I8, {-128, 0, 127}));
    w.add_array("a.u16", numbers<uint16_t>(ValueType::U16, {1, 65535}));
    w.add_array("a.i16", numbers<int16_t>(ValueType::I16, {-32768, 5}));
    w.add_array("a.u32", numbers<uint32_t>(ValueType::U32, {1, 2, 3, 4, 5}));
    w.add_array("a.i32", numbers<int32_t>(ValueType::I32, {-1, 1 << 30}));
    w.add_array("a.u64", numbers<uint64_t>(ValueType::U64, {uint64_t(1) << 63}));
    w.add_array("a.i64", numbers<int64_t>(ValueType::I64, {-3, 3}));
    w.add_array("a.f32", numbers<float>(ValueType::F32, {0.5f, -1e30f, 1e-40f}));
    w.add_array("a.f64", numbers<double>(ValueType::F64, {3.141592653589793}));
    w.add_array("a.bool", numbers<uint8_t>(ValueType::Bool, {1, 0, 1}));
    w.add_array("a.empty", numbers<uint32_t>(ValueType::U32, {}));
    w.add_array("a.strings", ArrayValue::of_strings({"<unk>", "", "\xe2\x96\x81the", std::string(300, 'x')}));
    // [[1, 2], ["a", "b"], [[7.0]] , []]
    w.add_array("a.nested",
                ArrayValue::of_arrays({numbers<uint32_t>(ValueType::U32, {1, 2}), ArrayValue::of_strings({"a", "b"}),
                                       ArrayValue::of_arrays({numbers<double>(ValueType::F64, {7.0})}),
                                       ArrayValue::of_arrays({})}));
}

template <typename T>
std::vector<T> read_numbers(const File& f, uint64_t id) {
    const auto b = f.array_bytes(id);
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
    return v;
}

void check_all_arrays(const File& f) {
    auto id = [&](const char* k) { return uint64_t(f.find_key(k).value()); };
    EXPECT_EQ(read_numbers<uint8_t>(f, id("a.u8")), (std::vector<uint8_t>{0, 1, 255}));
    EXPECT_EQ(read_numbers<int8_t>(f, id("a.i8")), (std::vector<int8_t>{-128, 0, 127}));
    EXPECT_EQ(read_numbers<uint16_t>(f, id("a.u16")), (std::vector<uint16_t>{1, 65535}));
    EXPECT_EQ(read_numbers<int16_t>(f, id("a.i16")), (std::vector<int16_t>{-32768, 5}));
    EXPECT_EQ(read_numbers<uint32_t>(f, id("a.u32")), (std::vector<uint32_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(read_numbers<int32_t>(f, id("a.i32")), (std::vector<int32_t>{-1, 1 << 30}));
    EXPECT_EQ(read_numbers<uint64_t>(f, id("a.u64")), (std::vector<uint64_t>{uint64_t(1) << 63}));
    EXPECT_EQ(read_numbers<int64_t>(f, id("a.i64")), (std::vector<int64_t>{-3, 3}));
    EXPECT_EQ(read_numbers<float>(f, id("a.f32")), (std::vector<float>{0.5f, -1e30f, 1e-40f}));
    EXPECT_EQ(read_numbers<double>(f, id("a.f64")), (std::vector<double>{3.141592653589793}));
    EXPECT_EQ(f.array(id("a.bool")).element_type, ValueType::Bool);
    EXPECT_EQ(read_numbers<uint8_t>(f, id("a.bool")), (std::vector<uint8_t>{1, 0, 1}));
    EXPECT_EQ(f.array(id("a.empty")).count, 0u);
    EXPECT_EQ(f.array(id("a.empty")).element_type, ValueType::U32);

    const uint64_t s = id("a.strings");
    ASSERT_EQ(f.array(s).count, 4u);
    EXPECT_EQ(f.array_string(s, 0), "<unk>");
    EXPECT_EQ(f.array_string(s, 1), "");
    EXPECT_EQ(f.array_string(s, 2), "\xe2\x96\x81the");
    EXPECT_EQ(f.array_string(s, 3), std::string(300, 'x'));

    const uint64_t n = id("a.nested");
    ASSERT_EQ(f.array(n).element_type, ValueType::Array);
    ASSERT_EQ(f.array(n).count, 4u);
    EXPECT_EQ(read_numbers<uint32_t>(f, f.array_nested(n, 0)), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(f.array_string(f.array_nested(n, 1), 1), "b");
    const uint64_t deep = f.array_nested(n, 2);
    EXPECT_EQ(read_numbers<double>(f, f.array_nested(deep, 0)), (std::vector<double>{7.0}));
    EXPECT_EQ(f.array(f.array_nested(n, 3)).count, 0u);
    EXPECT_EQ(f.array(f.array_nested(n, 3)).element_type, ValueType::Array);
}

// ne in file order for a tensor of `rank` dimensions whose rows are two
// blocks long (a row-interleaved format: 3R rows, ne[1] = 3R).
std::vector<int64_t> shape_for(const FormatTraits& f, int rank) {
    std::vector<int64_t> ne = {int64_t(f.block_elems) * 2, test::rows_for(f, 3), 2, 2};
    ne.resize(size_t(rank));
    return ne;
}

struct Expected {
    std::string name;
    FormatId format;
    std::vector<int64_t> ne;
    std::vector<uint8_t> bytes;
};

// Every format, with I2_S in one of its two layouts (`i2_s`: a file records
// one, as GGUF stores both as type 36).
std::vector<Expected> add_every_format(Writer& w, FormatId i2_s) {
    std::vector<Expected> out;
    for (const FormatTraits& f : all_formats()) {
        if ((f.id == FormatId::I2_S || f.id == FormatId::I2_S_G64) && f.id != i2_s) continue;
        for (int rank = 1; rank <= 4; ++rank) {
            const std::vector<int64_t> ne = shape_for(f, rank);
            if (f.interleaved() && rank == 1) {
                // One row cannot fill a block of R rows: the writer refuses
                // it, naming R and the canonical format to write instead.
                const std::vector<uint8_t> one_row(size_t(ne[0] / f.block_elems) * size_t(f.block_bytes));
                const std::string msg = gguf_error([&] { w.add_tensor(std::string(f.name) + ".rank1", f, ne, one_row); },
                                                   SKN_E_INVALID_ARGUMENT);
                EXPECT_TRUE(contains(msg, "interleaves " + std::to_string(f.block_rows) + " rows")) << msg;
                EXPECT_TRUE(contains(msg, test::canonical_of(f).name)) << msg;
                continue;
            }
            int64_t rows = 1;
            for (size_t d = 1; d < ne.size(); ++d) rows *= ne[d];
            std::vector<float> src(size_t(rows * ne[0]));
            sample_weight(src.data(), rows, ne[0], uint64_t(rank) * 100 + uint64_t(f.id));
            std::vector<uint8_t> q(quantized_size(f, rows, ne[0]));
            test::quantize_any(f, src.data(), rows, ne[0], q.data(), q.size());
            Expected e{std::string(f.name) + ".rank" + std::to_string(rank), f.id, ne, q};
            w.add_tensor(e.name, f, e.ne, e.bytes);
            out.push_back(std::move(e));
        }
    }
    return out;
}

void round_trip(uint32_t alignment, FormatId i2_s = FormatId::I2_S) {
    Writer w;
    if (alignment != 0) w.set_alignment(alignment);
    add_all_scalars(w);
    add_all_arrays(w);
    const std::vector<Expected> tensors = add_every_format(w, i2_s);
    const std::vector<uint8_t> bytes = w.to_bytes();
    ASSERT_EQ(bytes.size(), w.file_size());

    OpenOptions as_stored;
    as_stored.orientation = Orientation::AsStored;
    const auto f = File::open_memory(bytes.data(), bytes.size(), as_stored);
    const uint32_t want_alignment = alignment == 0 ? 32 : alignment;
    EXPECT_EQ(f->version(), 3u);
    EXPECT_EQ(f->alignment(), want_alignment);
    EXPECT_EQ(f->data_offset() % want_alignment, 0u);
    check_all_scalars(*f);
    check_all_arrays(*f);
    const auto layout_key = f->find_key(kI2sLayoutKey);
    ASSERT_TRUE(layout_key.has_value()) << "the writer records which I2_S layout the file holds";
    EXPECT_EQ(f->string(int64_t(*layout_key)), i2_s == FormatId::I2_S ? kI2sLayoutX86 : kI2sLayoutArm64);
    EXPECT_EQ(f->unsupported_count(), 0u);
    ASSERT_EQ(f->tensors().size(), tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
        const Expected& e = tensors[i];
        const Tensor& t = f->tensor(int64_t(i));
        SCOPED_TRACE(e.name);
        EXPECT_EQ(t.name, e.name);
        EXPECT_EQ(f->find_tensor(e.name), i);
        ASSERT_NE(t.type.format, nullptr);
        EXPECT_EQ(t.type.format->id, e.format);
        EXPECT_EQ(t.type.id, e.format == FormatId::I2_S_G64 ? kI2sTypeId : int32_t(e.format));
        EXPECT_TRUE(t.supported);
        ASSERT_EQ(t.rank, int(e.ne.size()));
        for (size_t d = 0; d < e.ne.size(); ++d) {
            EXPECT_EQ(t.ne[d], e.ne[d]);
            EXPECT_EQ(f->shape(t)[d], e.ne[d]);
        }
        EXPECT_EQ(t.relative_offset % want_alignment, 0u);
        const auto d = f->tensor_data(int64_t(i));
        ASSERT_EQ(d.size(), e.bytes.size());
        EXPECT_EQ(std::memcmp(d.data(), e.bytes.data(), d.size()), 0);
    }
}

TEST(GgufRoundTrip, EveryFormatRankAndValueTypeDefaultAlignment) { round_trip(0); }
TEST(GgufRoundTrip, Alignment64) { round_trip(64); }
TEST(GgufRoundTrip, Alignment8) { round_trip(8); }
TEST(GgufRoundTrip, Alignment24NotAPowerOfTwo) { round_trip(24); }
TEST(GgufRoundTrip, I2sInTheArm64Layout) { round_trip(0, FormatId::I2_S_G64); }

TEST(GgufWriter, OneI2sLayoutPerFile) {
    Writer w;
    const int64_t ne[] = {128, 2};
    std::vector<uint8_t> q(2 * 128 / 4 + 32, 0x55);
    w.add_tensor("a", *find_format(FormatId::I2_S_G64), ne, q);
    w.add_tensor("b", *find_format(FormatId::I2_S_G64), ne, q);  // the same layout again is fine
    const std::string msg =
        gguf_error([&] { w.add_tensor("c", *find_format(FormatId::I2_S), ne, q); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "\"c\" is I2_S")) << msg;
    EXPECT_TRUE(contains(msg, "I2_S_G64")) << msg;
    EXPECT_TRUE(contains(msg, "skn_i2_s_change_layout")) << msg;
    gguf_error([&] { w.declare_tensor("d", *find_format(FormatId::I2_S), ne); }, SKN_E_INVALID_ARGUMENT);
    const auto bytes = w.to_bytes();
    const auto f = File::open_memory(bytes.data(), bytes.size());
    ASSERT_EQ(f->tensors().size(), 2u);
    EXPECT_EQ(f->tensor(1).type.format->id, FormatId::I2_S_G64);
}

TEST(GgufRoundTrip, WritesAFileThatReadsBack) {
    Writer w;
    add_all_scalars(w);
    const int64_t ne[] = {32, 2};
    std::vector<uint8_t> q(68, 0x11);
    w.add_tensor("w", *find_format(FormatId::Q8_0), ne, q);
    const std::string path = ::testing::TempDir() + "skn_gguf_roundtrip.gguf";
    w.write_file(path);
    const auto f = File::open(path);
    check_all_scalars(*f);
    EXPECT_EQ(f->size(), w.file_size());
    EXPECT_EQ(f->tensor_data(0)[67], 0x11);
    std::remove(path.c_str());

    const std::string msg = gguf_error([&] { w.write_file("/nonexistent-dir/x.gguf"); }, SKN_E_IO);
    EXPECT_TRUE(contains(msg, "/nonexistent-dir/x.gguf")) << msg;
}

TEST(GgufRoundTrip, AlignmentKeyIsWrittenOnlyWhenNeeded) {
    Writer plain;
    const auto b1 = plain.to_bytes();
    EXPECT_FALSE(File::open_memory(b1.data(), b1.size())->find_key("general.alignment").has_value());

    Writer w;
    w.set_alignment(64);
    w.set_alignment(128);  // updates the one key
    const auto b2 = w.to_bytes();
    const auto f = File::open_memory(b2.data(), b2.size());
    EXPECT_EQ(f->kvs().size(), 1u);
    EXPECT_EQ(f->alignment(), 128u);

    Writer by_key;
    by_key.add_scalar<uint32_t>("general.alignment", ValueType::U32, 16);
    EXPECT_EQ(by_key.alignment(), 16u);
}

TEST(GgufWriter, RefusesWhatReadersWouldRefuse) {
    Writer w;
    const FormatTraits& q8 = *find_format(FormatId::Q8_0);
    std::vector<uint8_t> bytes(68);
    const int64_t ne[] = {32, 2};
    w.add_tensor("w", q8, ne, bytes);
    std::string msg = gguf_error([&] { w.add_tensor("w", q8, ne, bytes); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "already added")) << msg;
    msg = gguf_error([&] { w.add_tensor("x", q8, ne, std::span<const uint8_t>(bytes).first(67)); },
                     SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "67 bytes")) << msg;
    EXPECT_TRUE(contains(msg, "68 bytes")) << msg;
    const int64_t unaligned[] = {33, 2};
    msg = gguf_error([&] { w.add_tensor("x", q8, unaligned, bytes); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "ne[0] is 33")) << msg;
    const int64_t zero[] = {32, 0};
    gguf_error([&] { w.add_tensor("x", q8, zero, bytes); }, SKN_E_INVALID_ARGUMENT);
    const int64_t five[] = {32, 1, 1, 1, 1};
    gguf_error([&] { w.add_tensor("x", q8, five, bytes); }, SKN_E_INVALID_ARGUMENT);
    const int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 40};
    msg = gguf_error([&] { w.add_tensor("x", q8, huge, bytes); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "overflows")) << msg;
    gguf_error([&] { w.add_tensor("", q8, ne, bytes); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.add_tensor(std::string(64, 'n'), q8, ne, bytes); }, SKN_E_INVALID_ARGUMENT);

    w.add_scalar<uint32_t>("k", ValueType::U32, 1);
    gguf_error([&] { w.add_string("k", "again"); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.add_string("", "x"); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.add_string(std::string(65536, 'k'), "x"); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.add_scalar<uint64_t>("general.alignment", ValueType::U64, 64); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.add_scalar<uint32_t>("general.alignment", ValueType::U32, 12); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.set_alignment(0); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.add_scalar<uint32_t>("f", ValueType::F64, 1); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { w.add_array("b", numbers<uint8_t>(ValueType::Bool, {0, 2})); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { ArrayValue::numbers(ValueType::String, nullptr, 0); }, SKN_E_INVALID_ARGUMENT);
    ArrayValue deep = numbers<uint8_t>(ValueType::U8, {1});
    for (int i = 0; i < 8; ++i) deep = ArrayValue::of_arrays({deep});
    msg = gguf_error([&] { w.add_array("deep", deep); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "more than 8 deep")) << msg;

    std::vector<uint8_t> small(size_t(w.file_size() - 1));
    gguf_error([&] { w.write_to(small.data(), small.size()); }, SKN_E_BUFFER_TOO_SMALL);
}

}  // namespace
}  // namespace skn_core::gguf
