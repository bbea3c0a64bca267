// SPDX-License-Identifier: MIT
// The bit contract of the row-interleaved formats (docs/kernels.md,
// "Determinism"; issue 34): an encoding is a layout choice, and choosing it
// changes no bit. Every registered kernel of an interleaved format (format x
// order x ISA x precision, from the registry listing: a new kernel is tested
// by being registered, the scalar reference included) gives y bit-identical
// to its canonical twin's kernel of the SAME ISA: the registry's best kernel
// for the canonical format, order and precision under that ISA as the cap
// (the canonical reference where the twin has no kernel at that tier).
// Reference and SIMD kernels agree only within bounds, so an interleaved
// kernel is never compared with another tier's.
//
// Shapes: out = R, 3R and 33R times 1, 3 and 130 blocks per row, but for
// 33R x 130 (with 256-element blocks 8.8 M weights, whose reference products
// at every n cost seconds here and minutes under qemu; 33R x 3 has the many
// row tiles, 3R x 130 the long rows), and 5R x 10 (the superblock GEMM's
// 16-row tile over two chunks of super-blocks, which the K-quant twins
// share); n = 1 .. 9, 17 and 64 (the K-quant twins run that GEMM from 24
// to 64 rows, by format and tier; not on the 130-block rows, whose 3R rows
// hold no 16-row tile and whose 64-row products cost minutes under qemu
// across the NEON twins); quantized weights
// everywhere and random blocks (codes anywhere in their range) on the
// narrower shapes.
//
// Under emulation (support/emulator.hpp) n = 1 .. 9 only: every aarch64
// kernel a twin or its canonical kernel runs covers the activation rows with
// tiles of at most 4 rows (row_tile_rows / for_each_row_tile_up_to<4>,
// the neoni8mm kernels pairs of rows, two pairs per tile, an odd row left
// to neondotprod), so 1 .. 9 reaches the one-row paths, every tile width,
// every remainder after full tiles and more than one full tile; 17 and 64
// are for x86's 16-row GEMM tiles and select nothing new on NEON, while
// they were half of this suite's products (n x out x in) under qemu, the
// scalar twins' slowest of all. Every twin kernel, shape, block kind and
// bit-for-bit comparison stays.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "support/emulator.hpp"
#include "support/matmul_harness.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

using test::canonical_of;
using test::rows_for;
using test::run_with_kernel;
using test::TestWeight;

struct Shape {
    int64_t groups, bpr;  // out = groups * R
};
constexpr Shape kShapes[] = {{1, 1}, {1, 3}, {1, 130}, {3, 1}, {3, 3}, {3, 130}, {33, 1}, {33, 3}, {5, 10}};
constexpr int64_t kN[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 64};
constexpr size_t kEmulatedN = 9;  // under emulation: kN's first 9, n = 1 .. 9

std::vector<const Kernel*> interleaved_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel* k : test::registered_kernels())
        if (find_format(k->key.weight)->interleaved()) out.push_back(k);
    return out;
}

// The canonical twin of an interleaved weight: its bytes converted (the same
// floats), in the kernel's order (a dense twin, BF16: its one order).
struct CanonicalTwin {
    std::vector<uint8_t> rm;
    Scope scope;
    View view;

    CanonicalTwin(const TestWeight& w, LayoutClass cls) {
        const FormatTraits& f = *w.f;
        const FormatTraits& canon = canonical_of(f);
        rm.resize(w.rm.size());
        convert_rows(f, canon, w.rm.data(), w.rm.size(), rm.data(), rm.size(), w.out, w.in);
        const int64_t shape[2] = {w.out, w.in};
        view = make_view(rm.data(), rm.size(), canon, shape, 2, BlockOrder::RowMajor);
        if (cls == LayoutClass::BlockedInputMajor && canon.block_quantized) {
            View packed;
            prepack(view, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &packed);
            view = packed;
        }
    }
};

// The twin's layout class for an interleaved kernel's: the same order, or a
// dense twin's only one.
LayoutClass twin_class(const FormatTraits& canon, LayoutClass cls) {
    return canon.block_quantized ? cls : LayoutClass::Contiguous;
}

class InterleavedBits : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(InterleavedBits, EqualTheCanonicalTwinsKernelOfTheSameIsa) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    const FormatTraits& canon = canonical_of(f);
    ASSERT_EQ(f.activation, canon.activation) << "twins pair with the same activations";
    int weight_index = 0, compared = 0;
    std::string twins;  // the twin kernels compared with, for the log
    const std::vector<int64_t> ns(std::begin(kN), test::under_emulator() ? std::begin(kN) + kEmulatedN : std::end(kN));
    for (const auto [groups, bpr] : kShapes) {
        for (const bool random_blocks : {false, true}) {
            if (random_blocks && bpr > 3) continue;  // random blocks: the narrower shapes
            const int64_t out = rows_for(f, groups);
            const TestWeight w(f, out, bpr, k.key.layout, uint64_t(++weight_index) * 31 + 7, random_blocks);
            ASSERT_EQ(w.view.layout.layout_class(), k.key.layout) << k.name;
            const CanonicalTwin c(w, k.key.layout);
            const LayoutClass cls = twin_class(canon, k.key.layout);
            ASSERT_EQ(c.view.layout.layout_class(), cls);
            const Kernel* twin = default_registry().best(canon.id, cls, k.key.activation, k.key.isa, &c.view.layout);
            ASSERT_NE(twin, nullptr) << canon.name << " has no kernel at or below " << isa_tag(k.key.isa);
            if (twins.find(twin->name) == std::string::npos) twins += std::string(" ") + twin->name;
            std::vector<float> bias(static_cast<size_t>(out));
            sample_weight(bias.data(), 1, out, 40 + uint64_t(weight_index));
            for (const int64_t n : ns) {
                if (n == 64 && bpr == 130) continue;
                std::vector<float> x(size_t(n * w.in));
                sample_weight(x.data(), n, w.in, 500 + uint64_t(weight_index * 32 + n));
                const float* b = n % 2 != 0 ? bias.data() : nullptr;
                std::vector<float> y(size_t(n * out), -7.0f), want(size_t(n * out), 7.0f);
                run_with_kernel(k, w.view, x.data(), n, w.in, b, y.data(), out);
                run_with_kernel(*twin, c.view, x.data(), n, w.in, b, want.data(), out);
                for (size_t e = 0; e < y.size(); ++e)
                    ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                        << k.name << " vs " << twin->name << ": out=" << out << " bpr=" << bpr << " n=" << n
                        << (random_blocks ? " (random blocks)" : "") << " at [" << e / size_t(out) << ", "
                        << e % size_t(out) << "]: " << y[e] << " vs " << want[e];
                ++compared;
            }
        }
    }
    const int skipped = ns.back() == 64 ? 2 : 0;  // 1R and 3R x 130 blocks skip n = 64
    EXPECT_EQ(compared, 15 * int(ns.size()) - skipped) << k.name;
    RecordProperty("twins", twins);
}

INSTANTIATE_TEST_SUITE_P(EveryInterleavedKernel, InterleavedBits, ::testing::ValuesIn(interleaved_kernels()),
                         [](const auto& p) { return p.param->name; });

// The listing is not empty: every interleaved format has kernels in both
// orders and both precisions (the reference at least), so the contract above
// runs for each.
TEST(InterleavedBitsCoverage, EveryInterleavedFormatHasKernelsInBothOrdersAndPrecisions) {
    int formats = 0;
    for (const FormatTraits& f : all_formats()) {
        if (!f.interleaved()) continue;
        ++formats;
        for (LayoutClass cls : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
            for (FormatId act : {f.activation, FormatId::F32})
                EXPECT_NE(test::find_kernel(f.id, cls, act, SKN_ISA_SCALAR), nullptr)
                    << f.name << " " << layout_class_name(cls) << " activation " << find_format(act)->name;
    }
    EXPECT_GE(formats, 8);
}

}  // namespace
}  // namespace skn_core
