// SPDX-License-Identifier: MIT
// What every kernel family of both architecture providers builds on
// (src/kernels/common): the row-tile driver's cover of the activation rows,
// the registration helpers' kernels, and PackedArgs as packed_args fills it
// from a view of either block order.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dispatch/registry.hpp"
#include "formats/format.hpp"
#include "kernels/common/packed_args.hpp"
#include "kernels/common/registration.hpp"
#include "kernels/common/row_tiles.hpp"
#include "layout/view.hpp"

namespace skn_core {
namespace {

using Tiles = std::vector<std::pair<int, int64_t>>;  // (C, i0) per tile, in call order

template <int... Cs>
Tiles cover(int64_t n) {
    Tiles t;
    kernels::for_each_row_tile<Cs...>(n, [&](auto C, int64_t i0) {
        static_assert(std::is_same_v<decltype(C), std::integral_constant<int, decltype(C)::value>>);
        t.emplace_back(int(C), i0);
    });
    return t;
}

template <int kMax>
Tiles cover_up_to(int64_t n) {
    Tiles t;
    kernels::for_each_row_tile_up_to<kMax>(n, [&](auto C, int64_t i0) { t.emplace_back(int(C), i0); });
    return t;
}

// Greedy: the widest width that fits the rows left, rows in order, each once.
TEST(RowTiles, CoverTheRowsGreedilyInOrder) {
    EXPECT_EQ((cover<16, 8, 4, 2, 1>(13)), (Tiles{{8, 0}, {4, 8}, {1, 12}}));
    EXPECT_EQ((cover<16, 8, 4, 2, 1>(35)), (Tiles{{16, 0}, {16, 16}, {2, 32}, {1, 34}}));
    EXPECT_EQ((cover<4, 2, 1>(7)), (Tiles{{4, 0}, {2, 4}, {1, 6}}));
    EXPECT_EQ((cover<8, 4, 2, 1>(1)), (Tiles{{1, 0}}));
    EXPECT_TRUE((cover<4, 3, 2, 1>(0).empty()));
    // Every width down to 1: whole tiles of kMax, then the remainder in one.
    EXPECT_EQ((cover_up_to<4>(11)), (Tiles{{4, 0}, {4, 4}, {3, 8}}));
    EXPECT_EQ((cover_up_to<6>(6)), (Tiles{{6, 0}}));
    EXPECT_EQ((cover_up_to<3>(2)), (Tiles{{2, 0}}));
    for (int64_t n = 0; n < 70; ++n) {
        const Tiles t = cover<16, 8, 4, 2, 1>(n);
        int64_t at = 0;
        for (const auto& [c, i0] : t) {
            ASSERT_EQ(i0, at) << "n " << n;
            ASSERT_LE(c, n - i0) << "n " << n;
            at += c;
        }
        EXPECT_EQ(at, n);
    }
}

TEST(RowTiles, WidthOfTheNextTile) {
    EXPECT_EQ((kernels::row_tile_rows<16, 8, 4, 2, 1>(100)), 16);
    EXPECT_EQ((kernels::row_tile_rows<16, 8, 4, 2, 1>(15)), 8);
    EXPECT_EQ((kernels::row_tile_rows<16, 8, 4, 2, 1>(3)), 2);
    EXPECT_EQ((kernels::row_tile_rows<4, 2, 1>(1)), 1);
    // with_row_tile hands a width of the list to the tile as a constant.
    for (int c : {16, 8, 4, 2, 1}) {
        int got = 0;
        kernels::with_row_tile<16, 8, 4, 2, 1>(c, [&](auto C) { got = decltype(C)::value; });
        EXPECT_EQ(got, c);
    }
}

bool refuse_all(const Layout&) { return false; }
void no_kernel(const MatmulArgs&, int64_t, int64_t) {}

TEST(KernelRegistration, BothOrdersOfOneKernel) {
    Registry r;
    Kernel k = kernels::blocked_kernel(FormatId::Q4_0, FormatId::Q8_0, SKN_ISA_NEON, no_kernel, 64);
    k.supports = refuse_all;
    kernels::add_both_orders(r, k);
    ASSERT_EQ(r.kernels().size(), 2u);
    EXPECT_EQ(r.kernels()[0].name, "matmul_wt_q4_0_rm_q8_0_neon");
    EXPECT_EQ(r.kernels()[1].name, "matmul_wt_q4_0_ibm_q8_0_neon");
    for (const Kernel& each : r.kernels()) {
        EXPECT_EQ(each.fn, &no_kernel);
        EXPECT_EQ(each.needs, uint32_t(kNeedsQuantized));
        EXPECT_EQ(each.rows_per_task, 64);
        EXPECT_EQ(each.supports, &refuse_all);
    }
    const Kernel d = kernels::contiguous_kernel(FormatId::F32, FormatId::F32, SKN_ISA_AVX2, no_kernel, 32, kNeedsFloat);
    EXPECT_EQ(d.key.layout, LayoutClass::Contiguous);
    EXPECT_EQ(d.needs, uint32_t(kNeedsFloat));
    ASSERT_NE(d.supports, nullptr);
}

// From the named tier up, within its architecture; never another
// architecture's tier (NEON's number is not a rank above AVX-512's).
TEST(KernelRegistration, FewRowTasksFromATierUp) {
    const auto few = [](skn_isa isa) {
        Kernel k = kernels::blocked_kernel(FormatId::Q4_0, FormatId::Q8_0, isa, no_kernel, 32);
        kernels::take_few_row_tasks(k, SKN_ISA_AVX512, 300);
        return std::pair{k.few_rows_per_task, k.few_rows_max_n};
    };
    EXPECT_EQ(few(SKN_ISA_AVX2), (std::pair<int64_t, int64_t>{0, 0}));
    EXPECT_EQ(few(SKN_ISA_AVX_VNNI), (std::pair<int64_t, int64_t>{0, 0}));
    EXPECT_EQ(few(SKN_ISA_AVX512), (std::pair<int64_t, int64_t>{300, 8}));
    EXPECT_EQ(few(SKN_ISA_AVX512_VNNI), (std::pair<int64_t, int64_t>{300, 8}));
    EXPECT_EQ(few(SKN_ISA_NEON_I8MM), (std::pair<int64_t, int64_t>{0, 0}));
    EXPECT_EQ(few(SKN_ISA_SVE2), (std::pair<int64_t, int64_t>{0, 0}));
}

// packed_args reads block (o, b) of either order through the byte strides
// it derives from the layout, narrowed views included.
TEST(PackedArgs, StridesReachEveryBlockOfEitherOrder) {
    const FormatTraits& f = *find_format(FormatId::Q8_0);
    const int64_t out = 5, bpr = 3, shape[2] = {out, bpr * f.block_elems};
    std::vector<uint8_t> bytes(size_t(out * bpr * f.block_bytes));
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7 + 3);
    for (BlockOrder order : {BlockOrder::RowMajor, BlockOrder::InputBlockMajor}) {
        const View v = make_view(bytes.data(), bytes.size(), f, shape, 2, order);
        const View rows = with_layout(v, narrow(v.layout, 0, 1, 3));  // output rows 1..3
        std::vector<float> x(size_t(2 * shape[1])), y(size_t(2 * out));
        MatmulArgs m;
        m.w = &rows;
        m.out = 3;
        m.in = shape[1];
        m.n = 2;
        m.xf = x.data();
        m.xf_stride = shape[1];
        m.y = y.data();
        m.y_stride = out;
        const kernels::PackedArgs a = kernels::packed_args(m);
        EXPECT_EQ(a.format, FormatId::Q8_0);
        EXPECT_EQ(a.block_bytes, f.block_bytes);
        EXPECT_EQ(a.block_elems, f.block_elems);
        EXPECT_EQ(a.scalar_decode, f.decode);
        EXPECT_EQ(a.bpr, bpr);
        EXPECT_EQ(a.out, 3);
        EXPECT_EQ(a.n, 2);
        EXPECT_EQ(a.xf, x.data());
        for (int64_t o = 0; o < 3; ++o)
            for (int64_t b = 0; b < bpr; ++b) {
                const int64_t flat = order == BlockOrder::RowMajor ? (o + 1) * bpr + b : b * out + (o + 1);
                EXPECT_EQ(a.w + o * a.so + b * a.sb, bytes.data() + flat * f.block_bytes)
                    << (order == BlockOrder::RowMajor ? "rm" : "ibm") << " block (" << o << ", " << b << ")";
            }
    }
}

}  // namespace
}  // namespace skn_core
