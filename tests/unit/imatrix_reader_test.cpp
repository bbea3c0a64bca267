// SPDX-License-Identifier: MIT
// The imatrix reader against files built here in both forms (GGUF through
// skn's writer, legacy byte by byte): names, counts, metadata and the exact
// importance floats llama-quantize derives; then one corrupted variant per
// refusal, each checked for its status and for a message that names the
// entry or byte at fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "imatrix/imatrix.hpp"
#include "runtime/error.hpp"
#include "support/imatrix_files.hpp"

namespace skn_core::imatrix {
namespace {

using test::ImatrixSpec;
using test::imatrix_gguf_bytes;
using test::imatrix_legacy_bytes;
using test::LegacyBytes;
using test::sample_imatrix_spec;

std::unique_ptr<Imatrix> read_bytes(const std::vector<uint8_t>& b) { return Imatrix::read(b.data(), b.size(), "t"); }

// Refused with `status` and a message holding every one of `parts`.
void expect_refused(const std::vector<uint8_t>& b, std::vector<std::string> parts,
                    skn_status status = SKN_E_FORMAT) {
    try {
        read_bytes(b);
        ADD_FAILURE() << "accepted; expected a refusal mentioning " << parts[0];
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), status) << e.what();
        for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
}

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

TEST(ImatrixGguf, EntriesMetadataAndExactValues) {
    const ImatrixSpec s = sample_imatrix_spec();
    const auto m = read_bytes(imatrix_gguf_bytes(s));
    EXPECT_EQ(m->form(), Form::Gguf);
    EXPECT_EQ(m->datasets(), s.datasets);
    EXPECT_EQ(m->chunk_count(), 100);
    EXPECT_EQ(m->chunk_size(), 512);
    ASSERT_EQ(m->entries().size(), 3u);
    // Sorted by name, as llama.cpp's ordered map walks them.
    EXPECT_EQ(m->entries()[0].name, "blk.0.attn_q.weight");
    EXPECT_EQ(m->entries()[1].name, "blk.0.ffn_up_exps.weight");
    EXPECT_EQ(m->entries()[2].name, "blk.1.ffn_down.weight");
    for (const test::ImatrixSpecEntry& want : s.entries) {
        const auto i = m->find(want.name);
        ASSERT_TRUE(i.has_value()) << want.name;
        const Entry& e = m->entries()[*i];
        EXPECT_EQ(e.values_per_row, want.per_row);
        EXPECT_EQ(e.matrices, int64_t(want.counts.size()));
        ASSERT_EQ(e.values.size(), want.sums.size());
        for (size_t j = 0; j < want.counts.size(); ++j) {
            EXPECT_EQ(e.matrix_counts[j], int64_t(want.counts[j]));
            for (int64_t c = 0; c < want.per_row; ++c) {
                const size_t k = j * size_t(want.per_row) + size_t(c);
                const float expect = want.counts[j] > 0.0f ? want.sums[k] / want.counts[j] : 1.0f;
                EXPECT_EQ(bits(e.values[k]), bits(expect)) << want.name << " matrix " << j << " column " << c;
            }
        }
    }
    const Entry& experts = m->entries()[1];
    EXPECT_EQ(experts.count, 1024);
    EXPECT_EQ(experts.unused_matrices, 1);
    // Hand-checked quotients: column 0 of expert 2 is (0*37 + 22) % 101 + 1 =
    // 23 over a count of 3, rounded to float; the unused expert is all 1.0.
    EXPECT_EQ(bits(experts.values[2 * 64]), bits(7.66666651f));
    for (int c = 0; c < 64; ++c) EXPECT_EQ(experts.values[64 + size_t(c)], 1.0f);
    // attn_q column 1: (1 * 512 + 0.75) / 512.
    EXPECT_EQ(bits(m->entries()[0].values[1]), bits(1.00146484375f));
    EXPECT_EQ(m->entries()[0].count, 512);
    EXPECT_EQ(m->entries()[0].unused_matrices, 0);
    EXPECT_FALSE(m->find("blk.9.nothing.weight").has_value());
}

TEST(ImatrixLegacy, EntriesTrailerAndExactValues) {
    const ImatrixSpec s = sample_imatrix_spec();
    const auto m = read_bytes(imatrix_legacy_bytes(s));
    EXPECT_EQ(m->form(), Form::Legacy);
    ASSERT_EQ(m->datasets().size(), 1u);
    EXPECT_EQ(m->datasets()[0], "wiki.train.raw");
    EXPECT_EQ(m->chunk_count(), 100);
    EXPECT_EQ(m->chunk_size(), -1);
    ASSERT_EQ(m->entries().size(), 3u);
    for (size_t n = 0; n < 3; ++n) {
        const test::ImatrixSpecEntry& want = s.entries[n];
        const Entry& e = m->entries()[n];  // file order
        EXPECT_EQ(e.name, want.name);
        EXPECT_EQ(e.matrices, 1);
        EXPECT_EQ(e.values_per_row, int64_t(want.sums.size()));
        EXPECT_EQ(e.count, want.ncall);
        EXPECT_EQ(e.unused_matrices, 0);
        for (size_t k = 0; k < want.sums.size(); ++k)
            EXPECT_EQ(bits(e.values[k]), bits(want.sums[k] / float(want.ncall))) << want.name << " value " << k;
    }
    // The expert entry: experts stored one after another, 4 * 64 values.
    EXPECT_EQ(m->entries()[1].values_per_row, 256);
    // ffn_down value 3: (3 / 8) / 3 rounds to 0.125 exactly.
    EXPECT_EQ(m->entries()[2].values[3], 0.125f);
}

TEST(ImatrixLegacy, OlderTrailersAndZeroCallCount) {
    ImatrixSpec s = sample_imatrix_spec();
    s.entries[2].ncall = 0;  // llama-quantize keeps such values as stored
    auto bytes = imatrix_legacy_bytes(s, /*trailer=*/false);
    auto m = read_bytes(bytes);
    EXPECT_EQ(m->chunk_count(), -1);
    EXPECT_TRUE(m->datasets().empty());
    EXPECT_EQ(m->entries()[2].values, s.entries[2].sums);
    // A trailer of the chunk count alone (writers before the dataset name).
    LegacyBytes t;
    t.i32(42);
    bytes.insert(bytes.end(), t.bytes.begin(), t.bytes.end());
    m = read_bytes(bytes);
    EXPECT_EQ(m->chunk_count(), 42);
    EXPECT_TRUE(m->datasets().empty());
}

TEST(ImatrixLegacy, EveryTruncationIsRefusedOrEndsAtATrailerBoundary) {
    const auto full = imatrix_legacy_bytes(sample_imatrix_spec());
    const size_t entries_end = imatrix_legacy_bytes(sample_imatrix_spec(), false).size();
    for (size_t n = 0; n < full.size(); ++n) {
        const std::vector<uint8_t> cut(full.begin(), full.begin() + ptrdiff_t(n));
        if (n == entries_end || n == entries_end + 4) {
            EXPECT_NO_THROW(read_bytes(cut)) << n;
            continue;
        }
        try {
            read_bytes(cut);
            ADD_FAILURE() << "a " << n << "-byte prefix was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_FORMAT) << e.what();
        }
    }
}

TEST(ImatrixGguf, EveryTruncationIsRefused) {
    const auto full = imatrix_gguf_bytes(sample_imatrix_spec());
    // The file ends with the last tensor (a 4-byte count) padded to the
    // 32-byte alignment: cutting only that padding leaves a whole file.
    const size_t data_end = full.size() - 28;
    EXPECT_NO_THROW(read_bytes(std::vector<uint8_t>(full.begin(), full.begin() + ptrdiff_t(data_end))));
    for (size_t n = 0; n < data_end; n += 7) {
        const std::vector<uint8_t> cut(full.begin(), full.begin() + ptrdiff_t(n));
        try {
            read_bytes(cut);
            ADD_FAILURE() << "a " << n << "-byte prefix was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_FORMAT) << e.what();
        }
    }
}

// ---- legacy refusals

std::vector<uint8_t> one_entry(int32_t name_len, const std::string& name, int32_t ncall, int32_t nval,
                               std::vector<float> values) {
    LegacyBytes b;
    b.i32(1).i32(name_len).raw(name).i32(ncall).i32(nval);
    for (float v : values) b.f32(v);
    return b.bytes;
}

TEST(ImatrixLegacyRefuses, EntryCounts) {
    expect_refused(LegacyBytes().i32(0).bytes, {"byte 0", "entry count is 0"});
    expect_refused(LegacyBytes().i32(-5).bytes, {"entry count is -5"});
    expect_refused(LegacyBytes().i32(1000000000).i32(3).raw("abc").bytes, {"absurd", "1000000000"});
    expect_refused({1, 0}, {"truncated at byte 0", "entry count"});
}

TEST(ImatrixLegacyRefuses, Names) {
    expect_refused(one_entry(-1, "", 1, 3, {1, 2, 3}), {"byte 4", "entry #0", "name length is -1"});
    expect_refused(one_entry(0, "", 1, 3, {1, 2, 3}), {"name length is 0"});
    expect_refused(one_entry(300, std::string(300, 'a'), 1, 3, {1, 2, 3}), {"name length is 300", "1 to 255"});
    expect_refused(one_entry(3, "a\xffz", 1, 3, {1, 2, 3}), {"entry #0's name", "not valid UTF-8", "0xff"});
    expect_refused(one_entry(3, std::string("a\0z", 3), 1, 3, {1, 2, 3}), {"NUL byte"});
    expect_refused(one_entry(3, "\xc0\xafz", 1, 3, {1, 2, 3}), {"not valid UTF-8"});  // overlong '/'
    expect_refused(one_entry(99, "abc", 1, 3, {1, 2, 3}), {"truncated", "entry #0's name"});
}

TEST(ImatrixLegacyRefuses, CountsAndValues) {
    expect_refused(one_entry(3, "abc", -2, 3, {1, 2, 3}), {"byte 11", "entry #0 \"abc\"", "negative call count"});
    expect_refused(one_entry(3, "abc", 1, 0, {1, 2, 3}), {"byte 15", "\"abc\" has 0 values"});
    expect_refused(one_entry(3, "abc", 1, -7, {1, 2, 3}), {"has -7 values"});
    expect_refused(one_entry(3, "abc", 1, 0, {}), {"byte 0", "absurd for the file's size", "truncated"});
    expect_refused(one_entry(3, "abc", 1, 1 << 30, {1, 2, 3}), {"truncated", "\"abc\"'s 1073741824 values"});
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    expect_refused(one_entry(3, "abc", 1, 3, {1, nan, 3}), {"byte 23", "\"abc\" value 1 is nan"});
    expect_refused(one_entry(3, "abc", 1, 3, {1, 2, inf}), {"value 2 is inf"});
    expect_refused(one_entry(3, "abc", 1, 3, {-1, 2, 3}), {"value 0 is -1", "not negative"});
}

TEST(ImatrixLegacyRefuses, DuplicatesAndTrailer) {
    ImatrixSpec s = sample_imatrix_spec();
    s.entries[2].name = s.entries[0].name;
    expect_refused(imatrix_legacy_bytes(s), {"entry #2 \"blk.0.attn_q.weight\" repeats the name of entry #0"});
    auto b = imatrix_legacy_bytes(sample_imatrix_spec());
    b.push_back(0);
    expect_refused(b, {"1 bytes follow the dataset name"});
    auto neg = imatrix_legacy_bytes(sample_imatrix_spec(), false);
    LegacyBytes t;
    t.i32(5).i32(-3);
    neg.insert(neg.end(), t.bytes.begin(), t.bytes.end());
    expect_refused(neg, {"dataset name length is -3"});
    auto negc = imatrix_legacy_bytes(sample_imatrix_spec(), false);
    LegacyBytes c;
    c.i32(-1);
    negc.insert(negc.end(), c.bytes.begin(), c.bytes.end());
    expect_refused(negc, {"chunk count is negative"});
    expect_refused({}, {"empty"});
}

// ---- GGUF refusals

std::vector<uint8_t> gguf_with(const std::function<void(gguf::Writer&)>& tensors, bool metadata = true) {
    gguf::Writer w;
    if (metadata) {
        w.add_array("imatrix.datasets", gguf::ArrayValue::of_strings({"d"}));
        w.add_scalar("imatrix.chunk_count", gguf::ValueType::U32, uint32_t(1));
        w.add_scalar("imatrix.chunk_size", gguf::ValueType::U32, uint32_t(512));
    }
    tensors(w);
    return w.to_bytes();
}

void f32_tensor(gguf::Writer& w, const std::string& name, std::vector<int64_t> ne, std::vector<float> v,
                int32_t type = 0) {
    w.add_raw_tensor(name, type, ne, test::f32_bytes(v));
}

std::vector<float> ones(size_t n) { return std::vector<float>(n, 1.0f); }

TEST(ImatrixGgufRefuses, MissingHalves) {
    expect_refused(gguf_with([](gguf::Writer& w) { f32_tensor(w, "w.in_sum2", {96, 1}, ones(96)); }),
                   {"entry \"w\" has w.in_sum2 but no w.counts"});
    expect_refused(gguf_with([](gguf::Writer& w) { f32_tensor(w, "w.counts", {1, 1}, ones(1)); }),
                   {"entry \"w\" has w.counts but no w.in_sum2"});
    expect_refused(gguf_with([](gguf::Writer& w) { f32_tensor(w, "token_embd.weight", {96, 1}, ones(96)); }),
                   {"no tensor is named <weight>.in_sum2"});
}

TEST(ImatrixGgufRefuses, Shapes) {
    expect_refused(gguf_with([](gguf::Writer& w) {
                       f32_tensor(w, "w.in_sum2", {96, 4}, ones(384));
                       f32_tensor(w, "w.counts", {1, 3}, ones(3));
                   }),
                   {"entry \"w\"", "w.counts holds 3 counts but w.in_sum2 has 4 matrices"});
    expect_refused(gguf_with([](gguf::Writer& w) {
                       f32_tensor(w, "w.in_sum2", {32, 2, 2}, ones(128));
                       f32_tensor(w, "w.counts", {1, 2}, ones(2));
                   }),
                   {"w.in_sum2 has shape [32, 2, 2, 1]"});
    expect_refused(gguf_with([](gguf::Writer& w) {
                       f32_tensor(w, "w.in_sum2", {96, 1}, ones(96));
                       f32_tensor(w, "w.counts", {1, 1}, ones(1));
                       f32_tensor(w, "w.in_sum", {95, 1}, ones(95));
                   }),
                   {"w.in_sum holds 95 values but w.in_sum2 holds 96"});
    expect_refused(gguf_with([](gguf::Writer& w) {
                       w.add_raw_tensor("w.in_sum2", 1, std::vector<int64_t>{96, 1}, std::vector<uint8_t>(192));
                       f32_tensor(w, "w.counts", {1, 1}, ones(1));
                   }),
                   {"tensor \"w.in_sum2\" is F16", "F32"});
}

TEST(ImatrixGgufRefuses, Counts) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const float bad : {-1.0f, nan, 2.5f, 1e30f}) {
        expect_refused(gguf_with([bad](gguf::Writer& w) {
                           f32_tensor(w, "w.in_sum2", {32, 3}, ones(96));
                           f32_tensor(w, "w.counts", {1, 3}, {5.0f, bad, 5.0f});
                       }),
                       {"entry \"w\"", "(matrix 1)", "whole number"});
    }
}

TEST(ImatrixGgufRefuses, Sums) {
    std::vector<float> v = ones(96);
    v[40] = std::numeric_limits<float>::infinity();
    expect_refused(gguf_with([&](gguf::Writer& w) {
                       f32_tensor(w, "w.in_sum2", {32, 3}, v);
                       f32_tensor(w, "w.counts", {1, 3}, {5.0f, 5.0f, 5.0f});
                   }),
                   {"entry \"w\"", "(matrix 1, column 8) is inf"});
    v[40] = -2.0f;
    expect_refused(gguf_with([&](gguf::Writer& w) {
                       f32_tensor(w, "w.in_sum2", {32, 3}, v);
                       f32_tensor(w, "w.counts", {1, 3}, {5.0f, 5.0f, 5.0f});
                   }),
                   {"is -2", "not negative"});
}

TEST(ImatrixGgufRefuses, Names) {
    expect_refused(gguf_with([](gguf::Writer& w) {
                       f32_tensor(w, ".in_sum2", {32, 1}, ones(32));
                       f32_tensor(w, ".counts", {1, 1}, ones(1));
                   }),
                   {"names no weight"});
    expect_refused(gguf_with([](gguf::Writer& w) {
                       f32_tensor(w, "w\xfe.in_sum2", {32, 1}, ones(32));
                       f32_tensor(w, "w\xfe.counts", {1, 1}, ones(1));
                   }),
                   {"not valid UTF-8", "0xfe"});
}

TEST(ImatrixGgufRefuses, Metadata) {
    const auto tensors = [](gguf::Writer& w) {
        f32_tensor(w, "w.in_sum2", {32, 1}, ones(32));
        f32_tensor(w, "w.counts", {1, 1}, ones(1));
    };
    for (int missing = 0; missing < 3; ++missing) {
        ImatrixSpec s = sample_imatrix_spec();
        s.write_datasets = missing != 0;
        s.write_chunk_count = missing != 1;
        s.write_chunk_size = missing != 2;
        const char* key[] = {"imatrix.datasets", "imatrix.chunk_count", "imatrix.chunk_size"};
        expect_refused(imatrix_gguf_bytes(s), {"missing imatrix metadata", key[missing]});
    }
    gguf::Writer model;
    model.add_string("general.type", "model");
    tensors(model);
    expect_refused(model.to_bytes(), {"general.type is \"model\""});
    gguf::Writer wrong;
    wrong.add_array("imatrix.datasets", gguf::ArrayValue::of_strings({"d"}));
    wrong.add_scalar("imatrix.chunk_count", gguf::ValueType::I32, int32_t(1));
    wrong.add_scalar("imatrix.chunk_size", gguf::ValueType::U32, uint32_t(512));
    tensors(wrong);
    expect_refused(wrong.to_bytes(), {"imatrix.chunk_count is a i32", "u32"});
    gguf::Writer numbers;
    const uint32_t one = 1;
    numbers.add_array("imatrix.datasets", gguf::ArrayValue::numbers(gguf::ValueType::U32, &one, 1));
    numbers.add_scalar("imatrix.chunk_count", gguf::ValueType::U32, uint32_t(1));
    numbers.add_scalar("imatrix.chunk_size", gguf::ValueType::U32, uint32_t(512));
    tensors(numbers);
    expect_refused(numbers.to_bytes(), {"imatrix.datasets must be an array of strings"});
}

TEST(ImatrixGgufRefuses, RepeatedTensorNames) {
    // The writer refuses a repeated name, so the file is patched afterwards:
    // "w.in_sumX" becomes a second "w.in_sum2".
    auto b = gguf_with([](gguf::Writer& w) {
        f32_tensor(w, "w.in_sum2", {32, 1}, ones(32));
        f32_tensor(w, "w.counts", {1, 1}, ones(1));
        f32_tensor(w, "w.in_sumX", {32, 1}, ones(32));
    });
    const std::string from = "w.in_sumX";
    const auto at = std::search(b.begin(), b.end(), from.begin(), from.end());
    ASSERT_NE(at, b.end());
    *(at + 8) = '2';
    expect_refused(b, {"imatrix in GGUF form", "\"w.in_sum2\" has the same name as tensor #0"});
}

TEST(ImatrixGgufRefuses, BrokenGgufKeepsItsReason) {
    auto b = imatrix_gguf_bytes(sample_imatrix_spec());
    b[4] = 1;  // GGUF v1
    expect_refused(b, {"imatrix in GGUF form"}, SKN_E_UNSUPPORTED);
    expect_refused({'G', 'G', 'U', 'F'}, {"imatrix in GGUF form", "truncated"});
}

}  // namespace
}  // namespace skn_core::imatrix
