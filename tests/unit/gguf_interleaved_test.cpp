// SPDX-License-Identifier: MIT
// Row-interleaved tensors in GGUF files (ik_llama.cpp's type ids): what the
// writer writes, the reader reads back byte for byte, without
// allow_unsupported, in both orientations, as a plain weight and as a stacked
// [E, out, in] expert weight, and the bytes decode to the canonical twin's
// floats. A tensor whose row count (ne[1]) is not a multiple of R is refused
// by the writer and, in a file from elsewhere, at open, naming R and the
// canonical format to keep it in.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "gguf/reader.hpp"
#include "gguf/writer.hpp"
#include "gguf_test_util.hpp"
#include "layout/prepack.hpp"
#include "layout/view.hpp"
#include "support/quantize_any.hpp"
#include "support/rows_for.hpp"

namespace skn_core::gguf {
namespace {

using test::canonical_of;
using test::contains;
using test::gguf_error;
using test::RawGguf;
using test::rows_for;

std::vector<const FormatTraits*> interleaved_formats() {
    std::vector<const FormatTraits*> out;
    for (const FormatTraits& f : all_formats())
        if (f.interleaved()) out.push_back(&f);
    return out;
}

// A quantized weight of `rows` rows (every expert's, one after the other)
// and 3 blocks per row, and the canonical floats it decodes to.
struct Weight {
    int64_t rows, in;
    std::vector<int64_t> ne;  // file order
    std::vector<uint8_t> bytes;
    std::vector<float> canonical_floats;

    Weight(const FormatTraits& f, std::vector<int64_t> file_ne, uint64_t seed) : ne(std::move(file_ne)) {
        in = ne[0];
        rows = 1;
        for (size_t d = 1; d < ne.size(); ++d) rows *= ne[d];
        std::vector<float> w(size_t(rows * in));
        sample_weight(w.data(), rows, in, seed);
        bytes.resize(quantized_size(f, rows, in));
        test::quantize_any(f, w.data(), rows, in, bytes.data(), bytes.size());
        // The twin's floats: the bytes converted back and decoded canonically.
        const FormatTraits& c = canonical_of(f);
        std::vector<uint8_t> canonical(bytes.size());
        convert_rows(f, c, bytes.data(), bytes.size(), canonical.data(), canonical.size(), rows, in);
        canonical_floats.resize(w.size());
        dequantize_tensor(c, canonical.data(), canonical.size(), rows, in, canonical_floats.data(),
                          canonical_floats.size());
    }
};

class GgufInterleaved : public ::testing::TestWithParam<const FormatTraits*> {};

TEST_P(GgufInterleaved, RoundTripsInBothOrientationsAndDecodesToTheTwinsFloats) {
    const FormatTraits& f = *GetParam();
    const int64_t R = f.block_rows, in = 3 * int64_t(f.block_elems);
    const Weight plain(f, {in, rows_for(f, 3)}, 11);        // [3R, in]
    const Weight experts(f, {in, rows_for(f, 1), 3}, 12);  // 3 experts of [R, in]
    Writer w;
    w.add_tensor("w", f, plain.ne, plain.bytes);
    w.add_tensor("experts", f, experts.ne, experts.bytes);
    const std::vector<uint8_t> file = w.to_bytes();

    for (const Orientation o : {Orientation::OutIn, Orientation::AsStored}) {
        SCOPED_TRACE(o == Orientation::OutIn ? "OUT_IN" : "AS_STORED");
        OpenOptions options;
        options.orientation = o;  // allow_unsupported stays off: the types are supported
        const auto g = File::open_memory(file.data(), file.size(), options);
        EXPECT_EQ(g->unsupported_count(), 0u);
        ASSERT_EQ(g->tensors().size(), 2u);
        int index = 0;
        for (const Weight* x : {&plain, &experts}) {
            const Tensor& t = g->tensor(index);
            ASSERT_NE(t.type.format, nullptr);
            EXPECT_EQ(t.type.format, &f);
            EXPECT_EQ(t.type.id, int32_t(f.id));
            EXPECT_TRUE(t.supported);
            ASSERT_EQ(t.rank, int(x->ne.size()));
            const auto shape = g->shape(t);
            for (int d = 0; d < t.rank; ++d)
                EXPECT_EQ(shape[size_t(d)], o == Orientation::AsStored ? x->ne[size_t(d)] : x->ne[size_t(t.rank - 1 - d)])
                    << "dimension " << d;
            const auto data = g->tensor_data(index);
            ASSERT_EQ(data.size(), x->bytes.size());
            EXPECT_EQ(std::memcmp(data.data(), x->bytes.data(), data.size()), 0);
            // The bytes as a weight in their natural labelling (the rows of
            // blocks of R rows first, the block axis last) read the twin's floats.
            int64_t natural[kMaxRank];
            for (int d = 0; d < t.rank; ++d) natural[d] = t.ne[size_t(t.rank - 1 - d)];
            const View v = make_view(data.data(), data.size(), f, natural, t.rank, BlockOrder::RowMajor);
            EXPECT_EQ(v.layout.grid[size_t(t.rank - 2)], x->ne[1] / R);
            std::vector<float> got(x->canonical_floats.size());
            view_to_float(v, got.data(), got.size());
            EXPECT_EQ(std::memcmp(got.data(), x->canonical_floats.data(), got.size() * sizeof(float)), 0);
            ++index;
        }
    }
}

TEST_P(GgufInterleaved, TheWriterRefusesRowsThatSplitABlock) {
    const FormatTraits& f = *GetParam();
    const int64_t R = f.block_rows, in = 3 * int64_t(f.block_elems);
    for (const std::vector<int64_t>& ne :
         {std::vector<int64_t>{in, R + 1}, std::vector<int64_t>{in, R / 2}, std::vector<int64_t>{in, R - 1, 4}}) {
        int64_t rows = 1;
        for (size_t d = 1; d < ne.size(); ++d) rows *= ne[d];
        const std::vector<uint8_t> bytes(size_t(rows * in / f.block_elems) * size_t(f.block_bytes));
        Writer w;
        const std::string msg = gguf_error([&] { w.add_tensor("w", f, ne, bytes); }, SKN_E_INVALID_ARGUMENT);
        EXPECT_TRUE(contains(msg, "interleaves " + std::to_string(R) + " rows per block")) << msg;
        EXPECT_TRUE(contains(msg, "it is " + std::to_string(ne[1]))) << msg;
        EXPECT_TRUE(contains(msg, canonical_of(f).name)) << msg;
        gguf_error([&] { w.declare_tensor("w", f, ne); }, SKN_E_INVALID_ARGUMENT);
    }
}

// A file from elsewhere (not skn's writer) with an interleaved type whose
// ne[1] is not a multiple of R: refused when it is opened, naming R.
TEST_P(GgufInterleaved, AFileWithRowsThatSplitABlockIsRefusedAtOpen) {
    const FormatTraits& f = *GetParam();
    const uint64_t R = uint64_t(f.block_rows), in = 3 * uint64_t(f.block_elems);
    for (const std::vector<uint64_t>& ne : {std::vector<uint64_t>{in, 3 * R + 1}, std::vector<uint64_t>{in},
                                            std::vector<uint64_t>{in, R / 2, 2}}) {
        uint64_t rows = 1;
        for (size_t d = 1; d < ne.size(); ++d) rows *= ne[d];
        const size_t bytes = size_t(rows * in / uint64_t(f.block_elems)) * size_t(f.block_bytes);
        RawGguf raw;
        raw.header(3, 1, 0).tensor("w", ne, uint32_t(f.id), 0).align(32).zeros(bytes);
        for (const bool allow_unsupported : {false, true}) {
            OpenOptions options;
            options.allow_unsupported = allow_unsupported;
            const std::string msg = gguf_error(
                [&] { (void)File::open_memory(raw.bytes.data(), raw.bytes.size(), options); }, SKN_E_FORMAT);
            EXPECT_TRUE(contains(msg, "interleaves " + std::to_string(R) + " rows per block")) << msg;
            EXPECT_TRUE(contains(msg, canonical_of(f).name)) << msg;
        }
    }
    // The same bytes with a row count that fills its blocks open.
    RawGguf ok;
    const size_t bytes = size_t(3 * R * in / uint64_t(f.block_elems)) * size_t(f.block_bytes);
    ok.header(3, 1, 0).tensor("w", {in, 3 * R}, uint32_t(f.id), 0).align(32).zeros(bytes);
    const auto g = File::open_memory(ok.bytes.data(), ok.bytes.size());
    EXPECT_EQ(g->tensor(0).type.format, &f);
    EXPECT_EQ(g->tensor_data(0).size(), bytes);
}

INSTANTIATE_TEST_SUITE_P(EveryInterleavedFormat, GgufInterleaved, ::testing::ValuesIn(interleaved_formats()),
                         [](const auto& p) { return std::string(p.param->name); });

}  // namespace
}  // namespace skn_core::gguf
