// SPDX-License-Identifier: MIT
// The GGUF reader: orientation labelling, metadata access, the unsupported
// type policy, the type-36 rule, header errors and files past 4 GiB.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "gguf/reader.hpp"
#include "gguf/writer.hpp"
#include "gguf_test_util.hpp"
#include "runtime/log.hpp"

namespace skn_core::gguf {
namespace {

using test::contains;
using test::gguf_error;
using test::RawGguf;

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("skn_gguf_" + std::to_string(::getpid()) + "_" + name))
        .string();
}

// A [out = 4, in = 64] Q8_0 weight (file ne = [64, 4]) and a 1-D F32 bias of 12.
struct TwoTensorFile {
    std::vector<float> weight = std::vector<float>(4 * 64);
    std::vector<uint8_t> q8;
    std::vector<float> bias = std::vector<float>(12);
    std::vector<uint8_t> bytes;

    TwoTensorFile() {
        sample_weight(weight.data(), 4, 64, 7);
        const FormatTraits& q = *find_format(FormatId::Q8_0);
        q8.resize(quantized_size(q, 4, 64));
        quantize_tensor(q, weight.data(), 4, 64, q8.data(), q8.size());
        for (int i = 0; i < 12; ++i) bias[size_t(i)] = 0.25f * float(i) - 1.0f;
        Writer w;
        w.add_string("general.architecture", "test");
        const int64_t ne_w[] = {64, 4};
        w.add_tensor("blk.0.ffn_up.weight", q, ne_w, q8);
        const int64_t ne_b[] = {12};
        w.add_tensor("blk.0.ffn_up.bias", *find_format(FormatId::F32), ne_b,
                     {reinterpret_cast<const uint8_t*>(bias.data()), bias.size() * 4});
        bytes = w.to_bytes();
    }
};

TEST(GgufReader, OrientationLabelsShapesButNeverBytes) {
    const TwoTensorFile src;
    OpenOptions as_stored;
    as_stored.orientation = Orientation::AsStored;
    const auto a = File::open_memory(src.bytes.data(), src.bytes.size(), as_stored);
    const auto b = File::open_memory(src.bytes.data(), src.bytes.size());  // default: OUT_IN
    ASSERT_EQ(a->tensors().size(), 2u);
    ASSERT_EQ(b->options().orientation, Orientation::OutIn);

    const Tensor& wa = a->tensor(0);
    const Tensor& wb = b->tensor(0);
    EXPECT_EQ(wa.rank, 2);
    EXPECT_EQ(a->shape(wa), (std::array<int64_t, 4>{64, 4, 1, 1}));
    EXPECT_EQ(b->shape(wb), (std::array<int64_t, 4>{4, 64, 1, 1}));
    EXPECT_EQ(wa.ne, wb.ne);  // the file's order is reported unchanged either way

    const Tensor& ba = a->tensor(1);
    EXPECT_EQ(a->shape(ba), (std::array<int64_t, 4>{12, 1, 1, 1}));
    EXPECT_EQ(b->shape(b->tensor(1)), (std::array<int64_t, 4>{12, 1, 1, 1}));

    // Same bytes, at the same place, equal to what was written.
    const auto da = a->tensor_data(0);
    const auto db = b->tensor_data(0);
    EXPECT_EQ(da.data(), db.data());
    ASSERT_EQ(da.size(), src.q8.size());
    EXPECT_EQ(std::vector<uint8_t>(da.begin(), da.end()), src.q8);

    // Decoded values agree with decoding the quantized source directly.
    const FormatTraits& q = *find_format(FormatId::Q8_0);
    std::vector<float> want(256), got_a(256), got_b(256);
    dequantize_tensor(q, src.q8.data(), src.q8.size(), 4, 64, want.data(), want.size());
    // OUT_IN labels it [out, in]: rows = shape[0], row length = shape[1].
    const auto sb = b->shape(wb);
    dequantize_tensor(q, db.data(), db.size(), sb[0], sb[1], got_b.data(), got_b.size());
    // AS_STORED labels it [ne0, ne1]: the row length is shape[0].
    const auto sa = a->shape(wa);
    dequantize_tensor(q, da.data(), da.size(), sa[1], sa[0], got_a.data(), got_a.size());
    for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(std::bit_cast<uint32_t>(got_a[i]), std::bit_cast<uint32_t>(want[i])) << i;
        ASSERT_EQ(std::bit_cast<uint32_t>(got_b[i]), std::bit_cast<uint32_t>(want[i])) << i;
    }
    // Element [o, i] of the weight is row o, column i of the source matrix,
    // within Q8_0's error.
    EXPECT_NEAR(got_b[size_t(3 * 64 + 17)], src.weight[size_t(3 * 64 + 17)], 0.02f);

    const auto bias = b->tensor_data(1);
    ASSERT_EQ(bias.size(), 48u);
    EXPECT_EQ(std::memcmp(bias.data(), src.bias.data(), 48), 0);
}

TEST(GgufReader, OutInReversesEveryRank) {
    Writer w;
    const FormatTraits& f32 = *find_format(FormatId::F32);
    const int64_t ne3[] = {2, 3, 5};
    const int64_t ne4[] = {2, 3, 5, 7};
    std::vector<uint8_t> d3(2 * 3 * 5 * 4), d4(2 * 3 * 5 * 7 * 4);
    w.add_tensor("t3", f32, ne3, d3);
    w.add_tensor("t4", f32, ne4, d4);
    const auto bytes = w.to_bytes();
    const auto f = File::open_memory(bytes.data(), bytes.size());
    EXPECT_EQ(f->shape(f->tensor(0)), (std::array<int64_t, 4>{5, 3, 2, 1}));
    EXPECT_EQ(f->shape(f->tensor(1)), (std::array<int64_t, 4>{7, 5, 3, 2}));
}

TEST(GgufReader, OpensFromAPathWithTheSameResult) {
    const TwoTensorFile src;
    const std::string path = temp_path("two.gguf");
    {
        std::FILE* fp = std::fopen(path.c_str(), "wb");
        ASSERT_NE(fp, nullptr);
        ASSERT_EQ(std::fwrite(src.bytes.data(), 1, src.bytes.size(), fp), src.bytes.size());
        std::fclose(fp);
    }
    const auto f = File::open(path);
    EXPECT_EQ(f->source(), path);
    EXPECT_EQ(f->size(), src.bytes.size());
    const auto d = f->tensor_data(0);
    EXPECT_EQ(std::vector<uint8_t>(d.begin(), d.end()), src.q8);
    std::remove(path.c_str());

    const std::string msg = gguf_error([&] { File::open(path); }, SKN_E_NOT_FOUND);
    EXPECT_TRUE(contains(msg, "No such file")) << msg;
}

TEST(GgufReader, MetadataIsTypedStrictlyAndZeroCopy) {
    RawGguf r;
    r.header(3, 0, 5);
    r.kv_u32("a.u32", 7);
    r.kv_string("a.text", std::string("hi\0there", 8));
    r.str("a.flag").u32(7).u8(1);
    r.str("a.vocab").u32(9).u32(8).u64(3).str("<s>").str("").str("world");
    r.str("a.nums").u32(9).u32(6).u64(2).f32(1.5f).f32(-2.0f);
    const auto f = File::open_memory(r.bytes.data(), r.size());
    ASSERT_EQ(f->kvs().size(), 5u);
    EXPECT_EQ(*f->find_key("a.u32"), 0u);
    EXPECT_FALSE(f->find_key("a.missing").has_value());
    EXPECT_EQ(f->scalar<uint32_t>(0, ValueType::U32), 7u);
    std::string msg = gguf_error([&] { f->scalar<int32_t>(0, ValueType::I32); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "holds a u32, not an i32")) << msg;
    msg = gguf_error([&] { f->scalar<uint64_t>(0, ValueType::U64); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "a.u32")) << msg;

    const std::string_view text = f->string(1);
    EXPECT_EQ(text, std::string_view("hi\0there", 8));
    EXPECT_GE(reinterpret_cast<const uint8_t*>(text.data()), r.bytes.data());  // points into the buffer
    EXPECT_LT(reinterpret_cast<const uint8_t*>(text.data()), r.bytes.data() + r.size());
    EXPECT_TRUE(f->boolean(2));

    const ArrayNode& vocab = f->array(3);
    EXPECT_EQ(vocab.element_type, ValueType::String);
    EXPECT_EQ(vocab.count, 3u);
    EXPECT_EQ(f->array_string(3, 0), "<s>");
    EXPECT_EQ(f->array_string(3, 1), "");
    EXPECT_EQ(f->array_string(3, 2), "world");
    gguf_error([&] { f->array_string(3, 3); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { f->array_bytes(3); }, SKN_E_INVALID_ARGUMENT);
    msg = gguf_error([&] { f->array(1); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(msg, "string")) << msg;

    const auto nums = f->array_bytes(4);
    ASSERT_EQ(nums.size(), 8u);
    float v[2];
    std::memcpy(v, nums.data(), 8);
    EXPECT_EQ(v[0], 1.5f);
    EXPECT_EQ(v[1], -2.0f);
    gguf_error([&] { f->array(99); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { f->kv(5); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { f->kv(-1); }, SKN_E_INVALID_ARGUMENT);
}

TEST(GgufReader, LargeVocabularyIsIndexedNotCopied) {
    constexpr uint64_t kWords = 150000;
    RawGguf r;
    r.header(3, 0, 1).str("tokenizer.ggml.tokens").u32(9).u32(8).u64(kWords);
    for (uint64_t i = 0; i < kWords; ++i) r.str("tok" + std::to_string(i));
    const auto f = File::open_memory(r.bytes.data(), r.size());
    EXPECT_EQ(f->array(0).count, kWords);
    EXPECT_EQ(f->array_string(0, 0), "tok0");
    EXPECT_EQ(f->array_string(0, 123456), "tok123456");
    EXPECT_EQ(f->array_string(0, kWords - 1), "tok149999");
    const auto s = f->array_string(0, 77777);
    EXPECT_GE(reinterpret_cast<const uint8_t*>(s.data()), r.bytes.data());
    EXPECT_LT(reinterpret_cast<const uint8_t*>(s.data()), r.bytes.data() + r.size());
}

TEST(GgufReader, NestedArraysAreReachable) {
    RawGguf r;
    r.header(3, 0, 1).str("a.nested").u32(9).u32(9).u64(2);
    r.u32(4).u64(2).u32(10).u32(20);         // [10, 20]
    r.u32(9).u64(1).u32(8).u64(1).str("x");  // [["x"]]
    const auto f = File::open_memory(r.bytes.data(), r.size());
    EXPECT_EQ(f->array(0).element_type, ValueType::Array);
    const uint64_t first = f->array_nested(0, 0);
    const uint64_t second = f->array_nested(0, 1);
    EXPECT_GE(first, 1u);  // nested ids follow the key indexes
    EXPECT_EQ(f->array(first).element_type, ValueType::U32);
    uint32_t v[2];
    std::memcpy(v, f->array_bytes(first).data(), 8);
    EXPECT_EQ(v[0], 10u);
    EXPECT_EQ(v[1], 20u);
    EXPECT_EQ(f->array(second).element_type, ValueType::Array);
    EXPECT_EQ(f->array_string(f->array_nested(second, 0), 0), "x");
    gguf_error([&] { f->array_nested(0, 2); }, SKN_E_INVALID_ARGUMENT);
    gguf_error([&] { f->array_nested(first, 0); }, SKN_E_INVALID_ARGUMENT);
}

TEST(GgufReader, ArraysNestedTooDeepAreRefused) {
    RawGguf r;
    r.header(3, 0, 1).str("deep").u32(9);
    for (int d = 0; d < 9; ++d) r.u32(9).u64(1);
    r.u32(0).u64(0);
    const std::string msg =
        gguf_error([&] { File::open_memory(r.bytes.data(), r.size()); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "more than 8 deep")) << msg;
}

TEST(GgufReader, HeaderErrorsSayWhatIsWrong) {
    auto open = [](const RawGguf& r) { File::open_memory(r.bytes.data(), r.size()); };
    RawGguf v1;
    v1.header(1, 0, 0);
    std::string msg = gguf_error([&] { open(v1); }, SKN_E_UNSUPPORTED);
    EXPECT_TRUE(contains(msg, "version 1 is not supported")) << msg;

    RawGguf be;
    be.header(0x03000000u, 0, 0);
    msg = gguf_error([&] { open(be); }, SKN_E_UNSUPPORTED);
    EXPECT_TRUE(contains(msg, "big-endian")) << msg;

    RawGguf v9;
    v9.header(9, 0, 0);
    msg = gguf_error([&] { open(v9); }, SKN_E_UNSUPPORTED);
    EXPECT_TRUE(contains(msg, "version 9")) << msg;

    RawGguf v0;
    v0.header(0, 0, 0);
    gguf_error([&] { open(v0); }, SKN_E_FORMAT);

    RawGguf elf;
    elf.put("\x7f" "ELF", 4).zeros(20);
    msg = gguf_error([&] { open(elf); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "not a GGUF file")) << msg;
    EXPECT_TRUE(contains(msg, "7f 45 4c 46")) << msg;

    RawGguf tiny;
    tiny.put("GG", 2);
    gguf_error([&] { open(tiny); }, SKN_E_FORMAT);

    // Version 2 reads like version 3.
    RawGguf v2;
    v2.header(2, 0, 1).kv_u32("k", 1);
    const auto f = File::open_memory(v2.bytes.data(), v2.size());
    EXPECT_EQ(f->version(), 2u);
}

TEST(GgufReader, AlignmentMustBeAU32MultipleOf8) {
    auto with_alignment = [](auto add) {
        RawGguf r;
        r.header(3, 0, 1);
        add(r);
        return r;
    };
    auto open = [](const RawGguf& r) { return File::open_memory(r.bytes.data(), r.size()); };
    EXPECT_EQ(open(with_alignment([](RawGguf& r) { r.kv_u32("general.alignment", 64); }))->alignment(), 64u);
    EXPECT_EQ(open(with_alignment([](RawGguf& r) { r.kv_u32("general.alignment", 24); }))->alignment(), 24u);
    EXPECT_EQ(open(with_alignment([](RawGguf& r) { r.kv_u32("other", 24); }))->alignment(), 32u);
    for (uint32_t bad : {0u, 4u, 33u, 100u}) {
        const RawGguf r = with_alignment([&](RawGguf& x) { x.kv_u32("general.alignment", bad); });
        const std::string msg = gguf_error([&] { open(r); }, SKN_E_FORMAT);
        EXPECT_TRUE(contains(msg, "general.alignment is " + std::to_string(bad))) << msg;
    }
    const RawGguf typed = with_alignment([](RawGguf& r) { r.str("general.alignment").u32(10).u64(64); });
    const std::string msg = gguf_error([&] { open(typed); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "must be a u32 but is a u64")) << msg;
}

TEST(GgufReader, DuplicatesAreRefused) {
    RawGguf keys;
    keys.header(3, 0, 2).kv_u32("k", 1).kv_u32("k", 2);
    std::string msg = gguf_error([&] { File::open_memory(keys.bytes.data(), keys.size()); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "key #1 \"k\" repeats key #0")) << msg;

    RawGguf names;
    names.header(3, 2, 0).tensor("t", {4}, 0, 0).tensor("t", {4}, 0, 32).align(32).zeros(64);
    msg = gguf_error([&] { File::open_memory(names.bytes.data(), names.size()); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "same name as tensor #0")) << msg;
}

TEST(GgufReader, TensorPlacementIsChecked) {
    auto open = [](const RawGguf& r) { File::open_memory(r.bytes.data(), r.size()); };
    // Q8_0 [32, 2]: 68 bytes.
    RawGguf overlap;
    overlap.header(3, 2, 0).tensor("a", {32, 2}, 8, 0).tensor("b", {4}, 0, 64).align(32).zeros(128);
    std::string msg = gguf_error([&] { open(overlap); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "tensor #0 \"a\"")) << msg;
    EXPECT_TRUE(contains(msg, "overlaps tensor #1 \"b\"")) << msg;

    RawGguf unaligned;
    unaligned.header(3, 1, 0).tensor("a", {4}, 0, 16).align(32).zeros(64);
    msg = gguf_error([&] { open(unaligned); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "not a multiple of the alignment 32")) << msg;

    RawGguf past_end;
    past_end.header(3, 1, 0).tensor("a", {32, 2}, 8, 0).align(32).zeros(67);
    msg = gguf_error([&] { open(past_end); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "needs 68 bytes")) << msg;

    RawGguf block;
    block.header(3, 1, 0).tensor("a", {48, 2}, 8, 0).align(32).zeros(128);
    msg = gguf_error([&] { open(block); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "not a multiple of its block size 32")) << msg;

    RawGguf rank5;
    rank5.header(3, 1, 0).tensor("a", {1, 1, 1, 1, 1}, 0, 0).align(32).zeros(32);
    msg = gguf_error([&] { open(rank5); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "5 dimensions")) << msg;

    RawGguf zero_dim;
    zero_dim.header(3, 1, 0).tensor("a", {4, 0}, 0, 0).align(32).zeros(32);
    msg = gguf_error([&] { open(zero_dim); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "dimension 1 equal to 0")) << msg;

    // Exactly fitting, unpadded last tensor: fine.
    RawGguf tight;
    tight.header(3, 1, 0).tensor("a", {32, 2}, 8, 0).align(32).zeros(68);
    EXPECT_NO_THROW(open(tight));
}

TEST(GgufReader, UnsupportedTypesAreReportedUpFront) {
    RawGguf r;
    r.header(3, 4, 0)
        .tensor("ok", {32}, 8, 0)
        .tensor("ints", {64}, 24, 64)    // I8: 64 bytes
        .tensor("old", {32}, 4, 160)     // Q4_2, removed: size unknown
        .tensor("alien", {8}, 1234, 192)
        .align(32)
        .zeros(256);
    const std::string msg = gguf_error([&] { File::open_memory(r.bytes.data(), r.size()); }, SKN_E_UNSUPPORTED);
    EXPECT_TRUE(contains(msg, "3 of 4 tensors")) << msg;
    EXPECT_TRUE(contains(msg, "\"ints\" (type 24 (I8))")) << msg;
    EXPECT_TRUE(contains(msg, "\"old\" (type 4 (Q4_2, removed from GGUF))")) << msg;
    EXPECT_TRUE(contains(msg, "\"alien\" (type 1234 (unknown))")) << msg;
    EXPECT_FALSE(contains(msg, "\"ok\"")) << msg;

    struct Capture {
        int warnings = 0;
        std::string last;
    } cap;
    set_log_callback(
        SKN_LOG_WARN,
        [](skn_log_level level, const char* m, void* user) {
            auto* c = static_cast<Capture*>(user);
            if (level >= SKN_LOG_WARN) ++c->warnings;
            c->last = m;
        },
        &cap);
    OpenOptions allow;
    allow.allow_unsupported = true;
    const auto f = File::open_memory(r.bytes.data(), r.size(), allow);
    EXPECT_EQ(cap.warnings, 1);
    EXPECT_TRUE(contains(cap.last, "\"ints\"")) << cap.last;
    EXPECT_EQ(f->unsupported_count(), 3u);
    EXPECT_TRUE(f->tensor(0).supported);
    EXPECT_FALSE(f->tensor(1).supported);
    EXPECT_EQ(f->tensor(1).size, 64u);
    EXPECT_EQ(f->tensor_data(1).size(), 64u);  // raw bytes of a known-size type
    EXPECT_EQ(f->tensor(2).size, 0u);
    const std::string m2 = gguf_error([&] { f->tensor_data(2); }, SKN_E_UNSUPPORTED);
    EXPECT_TRUE(contains(m2, "\"old\"")) << m2;
    gguf_error([&] { f->tensor_data(3); }, SKN_E_UNSUPPORTED);

    // A file of supported types only logs nothing at WARN.
    cap.warnings = 0;
    const TwoTensorFile clean;
    File::open_memory(clean.bytes.data(), clean.bytes.size(), allow);
    File::open_memory(clean.bytes.data(), clean.bytes.size());
    EXPECT_EQ(cap.warnings, 0);
    set_log_callback(SKN_LOG_OFF, nullptr, nullptr);
}

TEST(GgufReader, Type36IsI2SUnlessItsRoomSaysIQ4NL44) {
    // [128, 4] = 512 elements: I2_S needs 128 + 32 bytes, IQ4_NL_4_4 288.
    auto file = [](uint64_t room) {
        RawGguf r;
        r.header(3, 1, 0).tensor("w", {128, 4}, 36, 0).align(32).zeros(size_t(room));
        return r;
    };
    OpenOptions x86;  // the file does not say which I2_S layout (see Type36LayoutMustBeSaid)
    x86.i2_s_layout = I2sLayout::X86;
    const RawGguf exact = file(160);
    auto f = File::open_memory(exact.bytes.data(), exact.size(), x86);
    EXPECT_TRUE(f->tensor(0).supported);
    EXPECT_STREQ(f->tensor(0).type.name, "I2_S");
    EXPECT_EQ(f->tensor(0).size, 160u);

    const RawGguf padded = file(160 + 31);  // what a writer padding to 32 leaves
    f = File::open_memory(padded.bytes.data(), padded.size(), x86);
    EXPECT_STREQ(f->tensor(0).type.name, "I2_S");

    const RawGguf short_room = file(159);
    std::string msg = gguf_error([&] { File::open_memory(short_room.bytes.data(), short_room.size()); },
                                 SKN_E_FORMAT);
    EXPECT_TRUE(contains(msg, "needs 160 bytes")) << msg;

    const RawGguf iq4 = file(288);
    msg = gguf_error([&] { File::open_memory(iq4.bytes.data(), iq4.size()); }, SKN_E_UNSUPPORTED);
    EXPECT_TRUE(contains(msg, "IQ4_NL_4_4")) << msg;
    OpenOptions allow;
    allow.allow_unsupported = true;
    f = File::open_memory(iq4.bytes.data(), iq4.size(), allow);
    EXPECT_FALSE(f->tensor(0).supported);
    EXPECT_STREQ(f->tensor(0).type.name, "IQ4_NL_4_4");
    EXPECT_EQ(f->tensor(0).size, 288u);

    // Between the two sizes: a large gap but too little for IQ4_NL_4_4 is
    // still I2_S (the rest is unused file space).
    const RawGguf between = file(250);
    f = File::open_memory(between.bytes.data(), between.size(), x86);
    EXPECT_STREQ(f->tensor(0).type.name, "I2_S");

    // A row length I2_S cannot have but IQ4_NL_4_4 can.
    RawGguf rows32;
    rows32.header(3, 1, 0).tensor("w", {32, 4}, 36, 0).align(32).zeros(72);
    f = File::open_memory(rows32.bytes.data(), rows32.size(), allow);
    EXPECT_STREQ(f->tensor(0).type.name, "IQ4_NL_4_4");
}

TEST(GgufReader, Type36LayoutMustBeSaid) {
    // [128, 4] of type 36: 160 bytes in either I2_S layout.
    auto file = [](std::string_view key_value) {
        RawGguf r;
        r.header(3, 1, key_value.empty() ? 0 : 1);
        if (!key_value.empty()) r.kv_string(kI2sLayoutKey, key_value);
        r.tensor("w", {128, 4}, 36, 0).align(32).zeros(160);
        return r;
    };
    // Not said: the file opens (nothing is unsupported), the tensor is listed
    // but its bytes are refused with a message naming both layouts and the option.
    const RawGguf unsaid = file("");
    auto f = File::open_memory(unsaid.bytes.data(), unsaid.size());
    EXPECT_EQ(f->unsupported_count(), 0u);
    EXPECT_FALSE(f->tensor(0).supported);
    EXPECT_TRUE(f->tensor(0).i2_s_layout_unknown);
    EXPECT_EQ(f->tensor(0).size, 160u);
    const std::string msg = gguf_error([&] { f->tensor_data(0); }, SKN_E_FORMAT);
    for (const char* want : {"\"w\"", "SKN_FORMAT_I2_S,", "SKN_FORMAT_I2_S_G64", "x86", "arm64", "skn.i2_s_layout",
                             "SKN_I2_S_LAYOUT_X86", "SKN_I2_S_LAYOUT_ARM64"})
        EXPECT_TRUE(contains(msg, want)) << want << " missing from: " << msg;

    // Said by the option.
    OpenOptions arm;
    arm.i2_s_layout = I2sLayout::Arm64;
    f = File::open_memory(unsaid.bytes.data(), unsaid.size(), arm);
    EXPECT_TRUE(f->tensor(0).supported);
    EXPECT_EQ(f->tensor(0).type.format->id, FormatId::I2_S_G64);
    EXPECT_EQ(f->tensor(0).type.block_elems, 64);
    EXPECT_EQ(f->tensor_data(0).size(), 160u);
    OpenOptions x86;
    x86.i2_s_layout = I2sLayout::X86;
    f = File::open_memory(unsaid.bytes.data(), unsaid.size(), x86);
    EXPECT_EQ(f->tensor(0).type.format->id, FormatId::I2_S);

    // Said by the file.
    const RawGguf says_arm = file("arm64");
    f = File::open_memory(says_arm.bytes.data(), says_arm.size());
    EXPECT_EQ(f->tensor(0).type.format->id, FormatId::I2_S_G64);
    f = File::open_memory(says_arm.bytes.data(), says_arm.size(), arm);  // agreeing option
    EXPECT_EQ(f->tensor(0).type.format->id, FormatId::I2_S_G64);
    const RawGguf says_x86 = file("x86");
    f = File::open_memory(says_x86.bytes.data(), says_x86.size());
    EXPECT_EQ(f->tensor(0).type.format->id, FormatId::I2_S);
    EXPECT_STREQ(f->tensor(0).type.name, "I2_S");

    // A contradicting option, or a value that is neither layout, is refused at open.
    std::string bad = gguf_error([&] { File::open_memory(says_x86.bytes.data(), says_x86.size(), arm); },
                                 SKN_E_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(bad, "x86")) << bad;
    const RawGguf says_other = file("arm");
    bad = gguf_error([&] { File::open_memory(says_other.bytes.data(), says_other.size()); }, SKN_E_FORMAT);
    EXPECT_TRUE(contains(bad, "\"arm\"")) << bad;

    // skn's own id for the arm64 layout is no GGUF type.
    RawGguf own_id;
    own_id.header(3, 1, 0).tensor("w", {128, 4}, uint32_t(FormatId::I2_S_G64), 0).align(32).zeros(160);
    gguf_error([&] { File::open_memory(own_id.bytes.data(), own_id.size()); }, SKN_E_UNSUPPORTED);
}

TEST(GgufReader, FilesPast4GiBWork) {
    const std::string path = temp_path("sparse.gguf");
    // A Q8_0 tensor of 2^26 blocks (2.125 GiB) placed past 4 GiB, so both the
    // offset and the size need 64 bits.
    const uint64_t offset = (uint64_t(1) << 32) + 4096;
    const uint64_t blocks = uint64_t(1) << 26;
    const uint64_t size = blocks * 34;
    RawGguf r;
    r.header(3, 2, 1).kv_u32("k", 1);
    r.tensor("small", {32}, 8, 0).tensor("huge", {32 * 1024, blocks / 1024}, 8, offset).align(32);
    const uint64_t data_start = r.size();
    const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_RDWR, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, r.bytes.data(), r.size()), ssize_t(r.size()));
    const uint64_t total = data_start + offset + size;
    if (::ftruncate(fd, off_t(total)) != 0) {
        ::close(fd);
        std::remove(path.c_str());
        GTEST_SKIP() << "the file system refuses a sparse file of " << total << " bytes";
    }
    // Mark the last byte so we can see the mapping reaches it.
    const uint8_t marker = 0xA5;
    ASSERT_EQ(::pwrite(fd, &marker, 1, off_t(total - 1)), 1);
    ::close(fd);

    const auto f = File::open(path);
    const Tensor& huge = f->tensor(1);
    EXPECT_EQ(huge.offset, data_start + offset);
    EXPECT_EQ(huge.size, size);
    EXPECT_GT(huge.size, uint64_t(1) << 31);
    const auto d = f->tensor_data(1);
    EXPECT_EQ(d.size(), size);
    EXPECT_EQ(d[d.size() - 1], 0xA5);
    EXPECT_EQ(d[0], 0);
    EXPECT_EQ(f->shape(huge), (std::array<int64_t, 4>{int64_t(blocks / 1024), 32 * 1024, 1, 1}));
    std::remove(path.c_str());
}

}  // namespace
}  // namespace skn_core::gguf
