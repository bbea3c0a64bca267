// SPDX-License-Identifier: MIT
// The row-interleaved formats (Q4_0_R8 ...): a block holds R rows' canonical
// blocks moved, so interleaving is lossless for any bytes, a weight decodes
// to the canonical floats in both block orders, quantizing into one is
// quantizing to the canonical format and converting, and every shape the
// interleave cannot hold is refused with a message that names R.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "support/quantize_any.hpp"
#include "layout/scope.hpp"
#include "layout/view.hpp"
#include "runtime/error.hpp"
#include "skn/skn.h"

namespace skn_core {
namespace {

std::vector<const FormatTraits*> interleaved_formats() {
    std::vector<const FormatTraits*> out;
    for (const FormatTraits& f : all_formats())
        if (f.interleaved()) out.push_back(&f);
    return out;
}

std::string name_of(const testing::TestParamInfo<const FormatTraits*>& p) { return p.param->name; }

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> b(n);
    for (auto& x : b) x = uint8_t(rng());
    return b;
}

std::vector<float> source(int64_t rows, int64_t cols, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> n(0.0f, 1.0f);
    std::vector<float> x(size_t(rows * cols));
    for (auto& v : x) v = n(rng);
    return x;
}

// Bit-for-bit float equality (NaN-free inputs; -0 and +0 differ).
void expect_same_bits(const std::vector<float>& a, const std::vector<float>& b, const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) {
            ADD_FAILURE() << what << ": element " << i << " is " << a[i] << ", canonical " << b[i];
            return;
        }
}

class Interleaved : public testing::TestWithParam<const FormatTraits*> {
protected:
    const FormatTraits& f() const { return *GetParam(); }
    const FormatTraits& canon() const { return *find_format(f().interleaves); }
    int64_t R() const { return f().block_rows; }
};

TEST_P(Interleaved, FactsAgreeWithTheCanonicalTwin) {
    EXPECT_GT(R(), 1);
    EXPECT_FALSE(canon().interleaved());
    EXPECT_EQ(f().activation, canon().activation);
    EXPECT_EQ(f().block_elems % canon().block_elems, 0);
    // One row's share of a block is the canonical bytes of its block_elems.
    EXPECT_EQ(int64_t(f().block_bytes), f().block_elems / canon().block_elems * canon().block_bytes);
    EXPECT_EQ(f().tile_bytes(), size_t(R()) * size_t(f().block_bytes));
    EXPECT_DOUBLE_EQ(f().bits_per_weight(), canon().bits_per_weight());
    EXPECT_EQ(quantized_size(f(), 3 * R(), 5 * f().block_elems), quantized_size(canon(), 3 * R(), 5 * f().block_elems));
    EXPECT_EQ(canonical_format(f().id), canon().id);
}

// Any bytes: deinterleave(interleave(rows)) == rows and the other way round.
TEST_P(Interleaved, InterleaveIsABijectionOnAnyBytes) {
    const InterleavedCodec& c = *f().interleaved_codec;
    ASSERT_EQ(c.rows, R());
    const size_t share = size_t(f().block_bytes);
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        const std::vector<uint8_t> canonical = random_bytes(size_t(R()) * share, seed);
        std::vector<const uint8_t*> in(static_cast<size_t>(R()));
        for (int64_t k = 0; k < R(); ++k) in[size_t(k)] = canonical.data() + size_t(k) * share;
        std::vector<uint8_t> block(f().tile_bytes(), 0xEE), back(canonical.size(), 0x11);
        c.interleave(in.data(), block.data());
        std::vector<uint8_t*> out(static_cast<size_t>(R()));
        for (int64_t k = 0; k < R(); ++k) out[size_t(k)] = back.data() + size_t(k) * share;
        c.deinterleave(block.data(), out.data());
        ASSERT_EQ(back, canonical) << "seed " << seed;
        // And a block of any bytes comes back from the canonical bytes it holds.
        const std::vector<uint8_t> any = random_bytes(f().tile_bytes(), seed + 100);
        c.deinterleave(any.data(), out.data());
        std::vector<uint8_t> again(any.size());
        c.interleave(in.data() /* unused below */, again.data());
        std::vector<const uint8_t*> from_back(out.begin(), out.end());
        c.interleave(from_back.data(), again.data());
        ASSERT_EQ(again, any) << "seed " << seed;
    }
}

// Quantized into the interleaved format directly == quantized canonically
// and converted; both decode to the canonical floats, in both orders.
TEST_P(Interleaved, QuantizeConvertAndDecodeGiveTheCanonicalBits) {
    for (const auto& [rows, blocks] : {std::pair<int64_t, int64_t>{R(), 1}, {R(), 3}, {3 * R(), 5}}) {
        const int64_t cols = blocks * f().block_elems;
        const std::vector<float> x = source(rows, cols, uint32_t(rows * 31 + blocks));
        const size_t bytes = quantized_size(f(), rows, cols);
        std::vector<uint8_t> canonical(bytes), direct(bytes), converted(bytes);
        test::quantize_any(canon(), x.data(), rows, cols, canonical.data(), bytes);
        test::quantize_any(f(), x.data(), rows, cols, direct.data(), bytes, 2);
        convert_rows(canon(), f(), canonical.data(), bytes, converted.data(), bytes, rows, cols);
        ASSERT_EQ(direct, converted) << rows << " x " << blocks << " blocks";
        std::vector<uint8_t> back(bytes);
        convert_rows(f(), canon(), converted.data(), bytes, back.data(), bytes, rows, cols);
        ASSERT_EQ(back, canonical);

        std::vector<float> want(size_t(rows * cols)), got(want.size());
        dequantize_tensor(canon(), canonical.data(), bytes, rows, cols, want.data(), want.size());
        dequantize_tensor(f(), direct.data(), bytes, rows, cols, got.data(), got.size());
        expect_same_bits(got, want, "dequantize_tensor");

        const int64_t shape[2] = {rows, cols};
        const View rm = make_view(direct.data(), bytes, f(), shape, 2, BlockOrder::RowMajor);
        std::vector<float> via_view(want.size());
        view_to_float(rm, via_view.data(), via_view.size());
        expect_same_bits(via_view, want, "to_float, ROW_MAJOR");
        Scope scope;
        View ibm;
        ASSERT_TRUE(prepack(rm, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &ibm));
        EXPECT_EQ(ibm.layout.grid[0], rows / R());
        view_to_float(ibm, via_view.data(), via_view.size());
        expect_same_bits(via_view, want, "to_float, INPUT_BLOCK_MAJOR");
        for (const int64_t r : {int64_t(0), R() - 1, rows - 1})
            for (const int64_t c : {int64_t(0), cols / 2, cols - 1}) {
                const int64_t at[2] = {r, c};
                const float a = view_get(ibm, at, 2), b = want[size_t(r * cols + c)];
                EXPECT_EQ(std::memcmp(&a, &b, 4), 0) << "get(" << r << ", " << c << ")";
            }
    }
}

// skn_view_convert's core: any order in, any order out, either direction,
// one adapter event naming both formats; the same format is prepack.
TEST_P(Interleaved, ConvertBetweenTwinsInEveryOrder) {
    const int64_t rows = 2 * R(), cols = 3 * f().block_elems;
    const std::vector<float> x = source(rows, cols, 7);
    const size_t bytes = quantized_size(canon(), rows, cols);
    std::vector<uint8_t> canonical(bytes);
    test::quantize_any(canon(), x.data(), rows, cols, canonical.data(), bytes);
    const int64_t shape[2] = {rows, cols};
    const View src = make_view(canonical.data(), bytes, canon(), shape, 2, BlockOrder::RowMajor);
    std::vector<float> want(size_t(rows * cols)), got(want.size());
    view_to_float(src, want.data(), want.size());

    struct Seen {
        int events = 0;
        skn_trace_event last{};
        std::string name;
    } seen;
    const TraceSink sink{[](const skn_trace_event* e, void* user) {
                             auto* s = static_cast<Seen*>(user);
                             ++s->events;
                             s->last = *e;
                             s->name = e->name;
                         },
                         &seen};
    Scope scope;
    for (const BlockOrder from_order : {BlockOrder::RowMajor, BlockOrder::InputBlockMajor}) {
        View from = src;
        if (from_order != src.layout.order && canon().block_quantized) prepack(src, from_order, &scope, TraceSink{}, &from);
        if (!canon().block_quantized && from_order != BlockOrder::RowMajor) continue;  // dense BF16: one order
        for (const BlockOrder to_order : {BlockOrder::RowMajor, BlockOrder::InputBlockMajor}) {
            seen = {};
            View inter;
            ASSERT_TRUE(convert(from, f(), to_order, &scope, sink, &inter));
            ASSERT_EQ(seen.events, 1);
            EXPECT_EQ(seen.name, "convert");
            EXPECT_EQ(int(seen.last.format), int(canon().id));
            EXPECT_EQ(int(seen.last.to_format), int(f().id));
            EXPECT_EQ(seen.last.bytes, bytes);
            EXPECT_EQ(inter.layout.order, to_order);
            view_to_float(inter, got.data(), got.size());
            expect_same_bits(got, want, "interleaved view");
            View back;
            const BlockOrder back_order = canon().block_quantized ? from_order : BlockOrder::RowMajor;
            ASSERT_TRUE(convert(inter, canon(), back_order, &scope, TraceSink{}, &back));
            view_to_float(back, got.data(), got.size());
            expect_same_bits(got, want, "converted back");
            // Converting to what a view already is copies nothing.
            View same;
            EXPECT_FALSE(convert(inter, f(), to_order, &scope, TraceSink{}, &same));
        }
    }
}

TEST_P(Interleaved, ShapesTheInterleaveCannotHoldAreRefusedNamingR) {
    const std::string r = std::to_string(R());
    const int64_t cols = 2 * f().block_elems;
    const int64_t bad_rows = R() + R() / 2;
    std::vector<uint8_t> bytes(quantized_size(canon(), 2 * R(), cols) * 2);
    const int64_t bad[2] = {bad_rows, cols};
    try {
        (void)make_view(bytes.data(), bytes.size(), f(), bad, 2, BlockOrder::RowMajor);
        FAIL() << "out % R != 0 accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("multiple of " + r), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(canon().name), std::string::npos) << e.what();
    }
    const std::vector<float> x = source(bad_rows, cols, 3);
    EXPECT_THROW(test::quantize_any(f(), x.data(), bad_rows, cols, bytes.data(), bytes.size()), Error);
    const int64_t one_dim[1] = {cols};
    EXPECT_THROW((void)make_view(bytes.data(), bytes.size(), f(), one_dim, 1, BlockOrder::RowMajor), Error);

    const int64_t good[2] = {2 * R(), cols};
    const View v = make_view(bytes.data(), bytes.size(), f(), good, 2, BlockOrder::RowMajor);
    EXPECT_THROW((void)select(v.layout, 0, 1), Error);             // one row of a block
    EXPECT_THROW((void)narrow(v.layout, 0, 1, R()), Error);        // a range that splits blocks
    const Layout half = narrow(v.layout, 0, R(), R());             // a whole block row is fine
    EXPECT_EQ(half.grid[0], 1);
    EXPECT_EQ(half.offset, v.layout.strides[0]);
    // Only twins convert.
    Scope scope;
    View out;
    const FormatTraits& other = *find_format(f().interleaves == FormatId::Q4_0 ? FormatId::Q8_0 : FormatId::Q4_0);
    EXPECT_THROW(convert(v, other, BlockOrder::RowMajor, &scope, TraceSink{}, &out), Error);
}

INSTANTIATE_TEST_SUITE_P(EveryInterleavedFormat, Interleaved, testing::ValuesIn(interleaved_formats()), name_of);

TEST(InterleavedFormats, TheFirstEightWithIkLlamaCppsIds) {
    const std::pair<int, const char*> want[] = {{202, "Q4_0_R8"}, {208, "Q8_0_R8"}, {212, "Q4_K_R4"},
                                                {214, "Q6_K_R4"}, {220, "IQ4_NL_R4"}, {223, "IQ4_XS_R8"},
                                                {230, "BF16_R16"}, {353, "MXFP4_R8"}};
    for (const auto& [id, name] : want) {
        const FormatTraits* f = find_format(id);
        ASSERT_NE(f, nullptr) << name;
        EXPECT_STREQ(f->name, name);
        EXPECT_TRUE(is_gguf_type_id(id));
    }
}

// Q4_0_R8's bytes by hand: row k's code byte 4c + i sits at 16 + 32c + 4k + i
// after the eight fp16 scales (ik_llama.cpp's block_iq4_nl_r8 order).
TEST(InterleavedFormats, Q4_0_R8BytesByHand) {
    const FormatTraits& f = *find_format(FormatId::Q4_0_R8);
    std::vector<uint8_t> canonical(8 * 18);
    for (int k = 0; k < 8; ++k) {
        canonical[size_t(18 * k)] = uint8_t(0x10 + k);  // scale low byte
        canonical[size_t(18 * k + 1)] = 0x3C;
        for (int j = 0; j < 16; ++j) canonical[size_t(18 * k + 2 + j)] = uint8_t(16 * k + j);
    }
    std::vector<const uint8_t*> rows(8);
    for (int k = 0; k < 8; ++k) rows[size_t(k)] = canonical.data() + 18 * k;
    std::vector<uint8_t> block(144);
    f.interleaved_codec->interleave(rows.data(), block.data());
    for (int k = 0; k < 8; ++k) {
        EXPECT_EQ(block[size_t(2 * k)], 0x10 + k);
        EXPECT_EQ(block[size_t(2 * k + 1)], 0x3C);
        for (int c = 0; c < 4; ++c)
            for (int i = 0; i < 4; ++i) EXPECT_EQ(block[size_t(16 + 32 * c + 4 * k + i)], 16 * k + 4 * c + i);
    }
}

}  // namespace
}  // namespace skn_core

namespace skn_core {
namespace {

// A dense BF16 view whose elements are not adjacent along `in` (transposed)
// converts through the gather path, to the same floats.
TEST(InterleavedFormats, StridedDenseBf16ConvertsThroughTheGatherPath) {
    const FormatTraits& bf16 = *find_format(FormatId::BF16);
    const FormatTraits& r16 = *find_format(FormatId::BF16_R16);
    const int64_t a = 6, b = 32;  // stored [6, 32]; transposed it is [32, 6]
    std::vector<uint8_t> bytes(size_t(a * b) * 2);
    for (size_t i = 0; i < bytes.size(); i += 2) {
        bytes[i] = uint8_t(i * 7);
        bytes[i + 1] = uint8_t(0x3F + (i / 2) % 3);  // finite, varied
    }
    const int64_t shape[2] = {a, b};
    const View stored = make_view(bytes.data(), bytes.size(), bf16, shape, 2, BlockOrder::RowMajor);
    const View t = with_layout(stored, transpose(stored.layout, 0, 1));
    ASSERT_NE(t.layout.strides[1], 1);
    std::vector<float> want(size_t(a * b)), got(want.size());
    view_to_float(t, want.data(), want.size());
    Scope scope;
    for (const BlockOrder order : {BlockOrder::RowMajor, BlockOrder::InputBlockMajor}) {
        View inter, back;
        ASSERT_TRUE(convert(t, r16, order, &scope, TraceSink{}, &inter));
        view_to_float(inter, got.data(), got.size());
        EXPECT_EQ(got, want);
        ASSERT_TRUE(convert(inter, bf16, BlockOrder::RowMajor, &scope, TraceSink{}, &back));
        view_to_float(back, got.data(), got.size());
        EXPECT_EQ(got, want);
    }
}

}  // namespace
}  // namespace skn_core
