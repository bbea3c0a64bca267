// SPDX-License-Identifier: MIT
// The layout contract, for EVERY block format on a grid at least 3 blocks
// wide: ROW_MAJOR from file bytes, prepack moves block (o, b) to b*out + o,
// decoding is unchanged in either order, the order survives narrow /
// transpose / unsqueeze, and a same-order prepack copies nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "fixtures/tagged.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "fixtures/sample_weight.hpp"
#include "layout/prepack.hpp"
#include "layout/view.hpp"
#include "runtime/error.hpp"
#include "support/quantize_any.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

using test::rows_for;

std::vector<const FormatTraits*> block_formats() {
    std::vector<const FormatTraits*> out;
    for (const auto& f : all_formats())
        if (f.block_quantized) out.push_back(&f);
    return out;
}

// A real quantized weight: 5 rows x 3 blocks (a non-square block grid; a
// row-interleaved format: 5 rows of blocks, 5R rows).
struct Weight {
    const FormatTraits* f;
    int64_t rows, bpr = 3, cols;
    std::vector<uint8_t> bytes;
    std::vector<float> decoded;
    explicit Weight(const FormatTraits* fmt) : f(fmt), rows(rows_for(*fmt, 5)), cols(3 * fmt->block_elems) {
        std::vector<float> w(size_t(rows * cols));
        sample_weight(w.data(), rows, cols, 99);
        bytes.resize(quantized_size(*f, rows, cols));
        test::quantize_any(*f, w.data(), rows, cols, bytes.data(), bytes.size());
        decoded.resize(w.size());
        dequantize_tensor(*f, bytes.data(), bytes.size(), rows, cols, decoded.data(), decoded.size());
    }
    View view() const {
        const int64_t shape[2] = {rows, cols};
        return make_view(bytes.data(), bytes.size(), *f, shape, 2, BlockOrder::RowMajor);
    }
};

// Floats compared by bit pattern: tagged fixtures may decode to NaN.
void expect_same_floats(const std::vector<float>& a, const std::vector<float>& b, const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(std::memcmp(&a[i], &b[i], 4), 0) << what << ": element " << i << " " << a[i] << " vs " << b[i];
}

std::vector<float> to_float(const View& v) {
    std::vector<float> out(size_t(v.layout.element_count()));
    view_to_float(v, out.data(), out.size());
    return out;
}

struct Events {
    std::vector<skn_trace_event> list;
    static void record(const skn_trace_event* e, void* user) { static_cast<Events*>(user)->list.push_back(*e); }
    TraceSink sink() { return TraceSink{&Events::record, this}; }
};

class LayoutContract : public ::testing::TestWithParam<const FormatTraits*> {};

TEST_P(LayoutContract, FileBytesAreRowMajorAndSaySo) {
    Weight w(GetParam());
    const View v = w.view();
    EXPECT_EQ(v.layout.order, BlockOrder::RowMajor);
    EXPECT_EQ(v.layout.layout_class(), LayoutClass::BlockedRowMajor);
    EXPECT_NE(v.layout.describe().find("order=ROW_MAJOR"), std::string::npos) << v.layout.describe();
    EXPECT_EQ(v.layout.strides[0], w.bpr);
    EXPECT_EQ(v.layout.strides[1], 1);
    EXPECT_EQ(v.layout.grid[0], w.rows / w.f->block_rows);
    expect_same_floats(to_float(v), w.decoded, "ROW_MAJOR view vs dequantize");
}

TEST_P(LayoutContract, PrepackMovesBlockOBToFlatIndexBTimesOutPlusO) {
    const FormatTraits& f = *GetParam();
    // out_rows: the weight's rows; rows: its rows of blocks (out_rows / R).
    const int64_t out_rows = rows_for(f, 4), rows = out_rows / f.block_rows, bpr = 3;
    std::vector<uint8_t> rm(fixture_size(f, out_rows, bpr));
    write_fixture(f, BlockOrder::RowMajor, out_rows, bpr, rm.data());
    const int64_t shape[2] = {out_rows, bpr * f.block_elems};
    const View v = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
    Scope scope;
    Events ev;
    View packed;
    ASSERT_TRUE(prepack(v, BlockOrder::InputBlockMajor, &scope, ev.sink(), &packed));
    EXPECT_EQ(packed.layout.order, BlockOrder::InputBlockMajor);
    EXPECT_EQ(packed.layout.strides[0], 1);
    EXPECT_EQ(packed.layout.strides[1], rows);
    EXPECT_NE(packed.layout.describe().find("BLOCKED_INPUT_MAJOR"), std::string::npos);
    const size_t bpb = f.tile_bytes();
    for (int64_t o = 0; o < rows; ++o)
        for (int64_t b = 0; b < bpr; ++b)
            ASSERT_EQ(std::memcmp(packed.data + size_t(b * rows + o) * bpb, rm.data() + size_t(o * bpr + b) * bpb, bpb), 0)
                << "block (" << o << ", " << b << ")";
    // The library's own check agrees, and flags the original bytes as misplaced.
    EXPECT_FALSE(
        fixture_disagreement(packed.data, rm.size(), f, BlockOrder::InputBlockMajor, out_rows, bpr).has_value());
    ASSERT_EQ(ev.list.size(), 1u);
    EXPECT_EQ(ev.list[0].kind, SKN_TRACE_ADAPTER);
    EXPECT_EQ(ev.list[0].bytes, rm.size());
    EXPECT_EQ(ev.list[0].from_order, SKN_ORDER_ROW_MAJOR);
    EXPECT_EQ(ev.list[0].to_order, SKN_ORDER_INPUT_BLOCK_MAJOR);
    EXPECT_EQ(ev.list[0].format, static_cast<skn_format>(f.id));
    EXPECT_EQ(scope.storage->allocated_bytes(), rm.size());
}

TEST_P(LayoutContract, DecodeUnchangedAfterPrepackAndRoundTripIsByteIdentical) {
    Weight w(GetParam());
    const View v = w.view();
    Scope scope;
    Events ev;
    View ibm, back;
    ASSERT_TRUE(prepack(v, BlockOrder::InputBlockMajor, &scope, ev.sink(), &ibm));
    expect_same_floats(to_float(ibm), w.decoded, "after prepack");
    for (int64_t o = 0; o < w.rows; ++o)
        for (int64_t c = 0; c < w.cols; c += 7) {
            const int64_t idx[2] = {o, c};
            ASSERT_EQ(view_get(ibm, idx, 2), w.decoded[size_t(o * w.cols + c)]) << o << "," << c;
        }
    ASSERT_TRUE(prepack(ibm, BlockOrder::RowMajor, &scope, ev.sink(), &back));
    expect_same_floats(to_float(back), w.decoded, "after prepack back");
    ASSERT_EQ(back.nbytes, w.bytes.size());
    EXPECT_EQ(std::memcmp(back.data, w.bytes.data(), w.bytes.size()), 0) << "round trip not byte-identical";
    EXPECT_EQ(ev.list.size(), 2u);
}

TEST_P(LayoutContract, ViewOverKernelOrderBytesFromOutsideDecodesRight) {
    // Bytes permuted by someone else (a converter) and wrapped directly.
    Weight w(GetParam());
    const FormatTraits& f = *w.f;
    std::vector<uint8_t> ibm(w.bytes.size());
    Scope scope;
    View packed;
    ASSERT_TRUE(prepack(w.view(), BlockOrder::InputBlockMajor, &scope, TraceSink{}, &packed));
    std::memcpy(ibm.data(), packed.data, ibm.size());
    const int64_t shape[2] = {w.rows, w.cols};
    const View v = make_view(ibm.data(), ibm.size(), f, shape, 2, BlockOrder::InputBlockMajor);
    expect_same_floats(to_float(v), w.decoded, "view over foreign kernel-order bytes");
    // And reading them as the other order gives a different matrix (the bug).
    const View wrong = make_view(ibm.data(), ibm.size(), f, shape, 2, BlockOrder::RowMajor);
    EXPECT_NE(std::memcmp(to_float(wrong).data(), w.decoded.data(), w.decoded.size() * 4), 0);
}

TEST_P(LayoutContract, OrderSurvivesNarrowTransposeUnsqueeze) {
    Weight w(GetParam());
    const int64_t be = w.f->block_elems;
    Scope scope;
    View ibm;
    ASSERT_TRUE(prepack(w.view(), BlockOrder::InputBlockMajor, &scope, TraceSink{}, &ibm));
    for (const View& v : {w.view(), ibm}) {
        const BlockOrder order = v.layout.order;
        // narrow rows 1..3 (row-interleaved: block rows 1..3) and the middle block
        const int64_t first = rows_for(*w.f, 1), count = rows_for(*w.f, 3);
        const View n = with_layout(v, narrow(narrow(v.layout, 0, first, count), 1, be, be));
        EXPECT_EQ(n.layout.order, order);
        for (int64_t o = 0; o < count; ++o)
            for (int64_t c = 0; c < be; ++c) {
                const int64_t idx[2] = {o, c};
                ASSERT_EQ(view_get(n, idx, 2), w.decoded[size_t((o + first) * w.cols + be + c)]);
            }
        const auto nf = to_float(n);
        for (int64_t o = 0; o < count; ++o)
            for (int64_t c = 0; c < be; ++c)
                ASSERT_EQ(nf[size_t(o * be + c)], w.decoded[size_t((o + first) * w.cols + be + c)]);
        // unsqueeze: a leading dim of 1
        const View u = with_layout(v, unsqueeze(v.layout, 0));
        EXPECT_EQ(u.layout.order, order);
        EXPECT_EQ(u.layout.rank, 3);
        expect_same_floats(to_float(u), w.decoded, "unsqueezed");
        const int64_t last_row = w.rows - 1;
        const int64_t idx3[3] = {0, last_row, w.cols - 1};
        EXPECT_EQ(view_get(u, idx3, 3), w.decoded[size_t(last_row * w.cols + w.cols - 1)]);
        // transpose of a packed view is refused, naming skn_matmul_wt
        try {
            transpose(v.layout, 0, 1);
            ADD_FAILURE() << "transpose of a packed view must be refused";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_UNSUPPORTED);
            EXPECT_NE(std::string(e.what()).find("skn_matmul_wt"), std::string::npos) << e.what();
        }
        // a narrowed view prepacks densely into the other order and still decodes the same
        View other;
        const BlockOrder to = order == BlockOrder::RowMajor ? BlockOrder::InputBlockMajor : BlockOrder::RowMajor;
        ASSERT_TRUE(prepack(n, to, &scope, TraceSink{}, &other));
        EXPECT_EQ(other.layout.order, to);
        expect_same_floats(to_float(other), nf, "narrowed then prepacked");
    }
}

TEST_P(LayoutContract, NarrowSplittingABlockIsRefused) {
    Weight w(GetParam());
    const int64_t be = w.f->block_elems;
    try {
        narrow(w.view().layout, 1, 1, be);
        ADD_FAILURE() << "unaligned narrow must be refused";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("block-aligned"), std::string::npos) << e.what();
    }
    // A row-interleaved block spans R rows: a row range that splits one is
    // refused too, naming R; whole groups of R rows narrow.
    const int64_t R = w.f->block_rows;
    if (R > 1) {
        for (const auto& [start, length] : {std::pair<int64_t, int64_t>{1, R}, {0, R + 1}, {R, 2 * R - 1}}) {
            try {
                narrow(w.view().layout, 0, start, length);
                ADD_FAILURE() << "rows [" << start << ", " << start + length << ") split a block of " << w.f->name;
            } catch (const Error& e) {
                EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
                EXPECT_NE(std::string(e.what()).find("multiples of " + std::to_string(R)), std::string::npos)
                    << e.what();
            }
        }
        EXPECT_EQ(narrow(w.view().layout, 0, R, 2 * R).grid[0], 2);
    }
}

TEST_P(LayoutContract, SameOrderPrepackCopiesAndEmitsNothing) {
    Weight w(GetParam());
    Scope scope;
    Events ev;
    View out;
    out.data = nullptr;
    EXPECT_FALSE(prepack(w.view(), BlockOrder::RowMajor, &scope, ev.sink(), &out));
    EXPECT_EQ(out.data, nullptr);
    EXPECT_TRUE(ev.list.empty());
    EXPECT_EQ(scope.storage->allocated_bytes(), 0u);
    // Not even a scope is needed.
    EXPECT_FALSE(prepack(w.view(), BlockOrder::RowMajor, nullptr, ev.sink(), &out));
}

// A stacked expert weight [E, out, in]: in INPUT_BLOCK_MAJOR block (o, b) of
// expert e sits at e * out * bpr + b * out + o, so select(0, e) in either
// order is a fresh [out, in] weight of that order at offset e * out * bpr,
// and it reads expert e's own blocks (tagged by (row, block) of the grid).
TEST_P(LayoutContract, SelectOfAStackedWeightIsAFreshWeightInEitherOrder) {
    const FormatTraits& f = *GetParam();
    // out_rows: an expert's rows; out: its rows of blocks (out_rows / R).
    const int64_t experts = 3, out_rows = rows_for(f, 4), out = out_rows / f.block_rows, bpr = 3;
    std::vector<uint8_t> rm(fixture_size(f, experts * out_rows, bpr));
    write_fixture(f, BlockOrder::RowMajor, experts * out_rows, bpr, rm.data());
    const int64_t shape[3] = {experts, out_rows, bpr * f.block_elems};
    const View stacked = make_view(rm.data(), rm.size(), f, shape, 3, BlockOrder::RowMajor);
    Scope scope;
    View ibm;
    ASSERT_TRUE(prepack(stacked, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &ibm));
    const size_t bpb = f.tile_bytes();
    for (const View& v : {stacked, ibm}) {
        const Layout fresh = make_layout(f, shape + 1, 2, v.layout.order);
        for (int64_t e = 0; e < experts; ++e) {
            const View s = with_layout(v, select(v.layout, 0, e));
            ASSERT_EQ(s.layout.rank, 2);
            EXPECT_EQ(s.layout.order, v.layout.order);
            EXPECT_EQ(s.layout.layout_class(), fresh.layout_class());
            EXPECT_EQ(s.layout.strides, fresh.strides) << s.layout.describe();
            EXPECT_EQ(s.layout.offset, e * out * bpr) << s.layout.describe();
            for (int64_t o = 0; o < out; ++o)
                for (int64_t b = 0; b < bpr; ++b) {
                    const int64_t g[2] = {o, b};
                    const int64_t at = s.layout.block_index(g);
                    if (v.layout.order == BlockOrder::InputBlockMajor) {
                        EXPECT_EQ(at, e * out * bpr + b * out + o);
                    }
                    ASSERT_EQ(std::memcmp(s.block_at(at), rm.data() + size_t((e * out + o) * bpr + b) * bpb, bpb), 0)
                        << order_name(v.layout.order) << " expert " << e << " block (" << o << ", " << b << ")";
                }
        }
    }
    // The block axis cannot be selected: a block cannot be split.
    try {
        select(stacked.layout, 2, 0);
        ADD_FAILURE() << "select on the block axis must be refused";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("block axis"), std::string::npos) << e.what();
    }
    // Nor can one row of a row-interleaved block: the message names R and
    // the ways out.
    if (f.interleaved()) {
        try {
            select(stacked.layout, 1, 0);
            ADD_FAILURE() << "select of one row of a " << f.name << " block must be refused";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
            EXPECT_NE(std::string(e.what()).find("interleaves " + std::to_string(f.block_rows) + " rows"),
                      std::string::npos)
                << e.what();
            EXPECT_NE(std::string(e.what()).find("skn_view_convert"), std::string::npos) << e.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllBlockFormats, LayoutContract, ::testing::ValuesIn(block_formats()),
                         [](const auto& param_info) { return std::string(param_info.param->name); });

TEST(LayoutContractDense, DenseViewRefusesPrepackAndTransposesAsMetadata) {
    const FormatTraits& f = *find_format(FormatId::F32);
    std::vector<float> m = {1, 2, 3, 4, 5, 6};
    const int64_t shape[2] = {2, 3};
    const View v = make_view(m.data(), m.size() * 4, f, shape, 2, BlockOrder::RowMajor);
    EXPECT_EQ(v.layout.layout_class(), LayoutClass::Contiguous);
    Scope scope;
    View out;
    try {
        prepack(v, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &out);
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), SKN_E_UNSUPPORTED);
    }
    const View t = with_layout(v, transpose(v.layout, 0, 1));
    EXPECT_EQ(t.layout.layout_class(), LayoutClass::Strided);
    EXPECT_EQ(to_float(t), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    const int64_t idx[2] = {2, 1};
    EXPECT_EQ(view_get(t, idx, 2), 6.0f);
}

TEST(LayoutContractDense, ShapeAndSizeErrors) {
    const FormatTraits& q = *find_format(FormatId::Q4_0);
    std::vector<uint8_t> b(18 * 3);
    const int64_t ok[2] = {1, 96}, bad[2] = {1, 95}, big[2] = {2, 96};
    EXPECT_NO_THROW(make_view(b.data(), b.size(), q, ok, 2, BlockOrder::RowMajor));
    EXPECT_THROW(make_view(b.data(), b.size(), q, bad, 2, BlockOrder::RowMajor), Error);
    try {
        make_view(b.data(), b.size(), q, big, 2, BlockOrder::RowMajor);
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("108"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("54"), std::string::npos) << e.what();
    }
    EXPECT_THROW(make_view(b.data(), b.size(), q, ok, 5, BlockOrder::RowMajor), Error);
    EXPECT_THROW(make_view(b.data(), b.size(), q, ok, 0, BlockOrder::RowMajor), Error);
    EXPECT_THROW(make_view(nullptr, b.size(), q, ok, 2, BlockOrder::RowMajor), Error);
}

}  // namespace
}  // namespace skn_core
