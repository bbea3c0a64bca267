// SPDX-License-Identifier: MIT
// The grid-format fast kernels (src/kernels/x86_64/grid, docs/kernels/grid.md)
// beyond the registry-driven suites: every x86 tier this CPU runs, forced
// through the context's ISA cap, in both block orders and at several thread
// counts, gives the same bits and stays within the reference's bound; and,
// called directly on Q8_K blocks of extreme codes (-128, 127), every tier,
// order and split of the output rows gives the same bits as the first, within
// 1e-5 of the magnitude of an f64 sum over the decoded values (a vpmaddubsw
// saturation would show as a difference).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"
#include "support/q8k_direct.hpp"

namespace skn_core {
namespace {

using test::kQ8kBytes;
using test::same_bits;
using test::TestWeight;

constexpr FormatId kGrid[] = {FormatId::IQ2_XXS, FormatId::IQ2_XS, FormatId::IQ2_S, FormatId::IQ3_XXS,
                              FormatId::IQ3_S,   FormatId::IQ1_S,  FormatId::IQ1_M};
constexpr skn_isa kTiers[] = {SKN_ISA_AVX2, SKN_ISA_AVX512, SKN_ISA_AVX512_VNNI};
constexpr int kSuper = test::kQ8kElems;

// Whether this CPU runs any tier of kTiers: where none does (any CPU but
// an x86-64 one with AVX2) both tests below skip before quantizing a weight
// or computing a reference: that work checked nothing there, and under qemu
// on aarch64 it took over a minute.
bool runs_a_tier() {
    for (skn_isa isa : kTiers)
        if (cpu_runs(isa)) return true;
    return false;
}

struct Events {
    int fallbacks = 0;
    skn_isa last_isa = SKN_ISA_SCALAR;
    static void record(const skn_trace_event* e, void* user) {
        auto* self = static_cast<Events*>(user);
        self->fallbacks += e->kind == SKN_TRACE_FALLBACK;
        self->last_isa = e->isa;
    }
};

#if defined(__x86_64__)
TEST(GridKernels, EveryFormatHasAFastKernelPerTierAndOrder) {
    for (FormatId id : kGrid)
        for (skn_isa isa : kTiers)
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
                const Kernel* k = test::find_kernel(id, c, FormatId::Q8_K, isa);
                ASSERT_NE(k, nullptr) << find_format(id)->name << " " << isa_tag(isa) << " " << layout_class_name(c);
            }
    const Kernel* k = test::find_kernel(FormatId::IQ2_XXS, LayoutClass::BlockedInputMajor, FormatId::Q8_K,
                                        SKN_ISA_AVX512_VNNI);
    EXPECT_EQ(k->name, "matmul_wt_iq2_xxs_ibm_q8_k_avx512vnni");
}
#endif

// Out 1, 7, 33, 65; 1, 3, 5 super-blocks per row; n 1 .. 9 (every
// activation-row template and the 8-row step); quantized and random blocks;
// every tier under the cap, both orders, 1 and 3 threads: one set of bits,
// within the reference kernel's bound of the f64 product.
TEST(GridKernels, TiersOrdersAndThreadsGiveOneResultWithinTheReferenceBound) {
    if (!runs_a_tier()) GTEST_SKIP() << "no x86 SIMD tier runs on this CPU";
    int ran = 0;
    for (FormatId id : kGrid) {
        const FormatTraits& f = *find_format(id);
        for (int64_t out : {1, 7, 33, 65})
            for (int64_t bpr : {1, 3, 5})
                for (bool random_blocks : {false, true}) {
                    const uint64_t seed = uint64_t(out * 10 + bpr) + (random_blocks ? 1000 : 0);
                    TestWeight rm(f, out, bpr, LayoutClass::BlockedRowMajor, seed, random_blocks);
                    TestWeight ibm(f, out, bpr, LayoutClass::BlockedInputMajor, seed, random_blocks);
                    ASSERT_EQ(rm.decoded, ibm.decoded);
                    for (int64_t n = 1; n <= 9; ++n) {
                        std::vector<float> x(size_t(n * rm.in));
                        sample_weight(x.data(), n, rm.in, 77 + uint64_t(n));
                        const auto ref = test::reference_matmul(rm.decoded, out, rm.in, x.data(), n, rm.in, nullptr,
                                                                FormatId::Q8_K);
                        std::vector<float> first;
                        std::string first_what;
                        for (skn_isa isa : kTiers) {
                            if (!cpu_runs(isa)) continue;
                            for (const TestWeight* w : {&rm, &ibm})
                                for (int threads : {1, 3}) {
                                    Context ctx;
                                    ctx.set_isa_cap(isa);
                                    ctx.set_threads(threads);
                                    Events ev;
                                    ctx.set_trace(TraceSink{&Events::record, &ev});
                                    std::vector<float> y(size_t(n * out), std::nanf(""));
                                    matmul_wt(ctx, x.data(), n, w->in, w->view, nullptr, y.data(), out, MatmulOptions{});
                                    const std::string what = std::string(f.name) + " " + isa_tag(isa) + " " +
                                                             layout_class_name(w->view.layout.layout_class()) +
                                                             " threads=" + std::to_string(threads) +
                                                             " out=" + std::to_string(out) + " bpr=" +
                                                             std::to_string(bpr) + " n=" + std::to_string(n) +
                                                             (random_blocks ? " random blocks" : "");
                                    ASSERT_EQ(ev.fallbacks, 0) << what;
                                    ASSERT_EQ(ev.last_isa, isa) << what;
                                    ++ran;
                                    if (first.empty()) {
                                        first = y;
                                        first_what = what;
                                        for (size_t e = 0; e < y.size(); ++e)
                                            ASSERT_LE(std::fabs(double(y[e]) - ref.y[e]), ref.bound[e]) << what << " at " << e;
                                    } else {
                                        ASSERT_TRUE(same_bits(y, first)) << what << " differs from " << first_what;
                                    }
                                }
                        }
                    }
                }
    }
    EXPECT_GT(ran, 0);
}

// 70 output rows: more than one 64-row INPUT_BLOCK_MAJOR run, a ragged
// 4-row group; activation row counts below and past the 8-row step (1 and 9
// reach the AVX-512 tiers' 512-bit one-row body, 9 after an 8-row pass).
TEST(GridKernels, ExtremeActivationsEveryTierOrderAndSplitAgree) {
    if (!runs_a_tier()) GTEST_SKIP() << "no x86 SIMD tier runs on this CPU";
    int ran = 0;
    for (FormatId id : kGrid) {
        const FormatTraits& f = *find_format(id);
        const int64_t out = 70, bpr = 3, in = bpr * kSuper;
        std::mt19937 rng(4321 + int(id));
        for (bool random_blocks : {false, true}) {
            TestWeight rm(f, out, bpr, LayoutClass::BlockedRowMajor, 31 + uint64_t(random_blocks), random_blocks);
            TestWeight ibm(f, out, bpr, LayoutClass::BlockedInputMajor, 31 + uint64_t(random_blocks), random_blocks);
            for (int64_t n : {1, 3, 4, 6, 7, 8, 9, 11}) {
                const std::vector<uint8_t> xq = test::extreme_q8k_activations(n, bpr, rng);
                std::vector<float> first;
                std::string first_name;
                for (skn_isa isa : kTiers) {
                    if (!cpu_runs(isa)) continue;
                    for (const TestWeight* w : {&rm, &ibm}) {
                        const Kernel* k = test::find_kernel(id, w->view.layout.layout_class(), FormatId::Q8_K, isa);
                        ASSERT_NE(k, nullptr);
                        SCOPED_TRACE(k->name + " n=" + std::to_string(n) + (random_blocks ? " random blocks" : ""));
                        const std::vector<float> y = test::run_q8k_kernel_direct(*k, w->view, out, in, xq, n, out);
                        ++ran;
                        if (first.empty()) {
                            first = y;
                            first_name = k->name;
                            for (int64_t i = 0; i < n; ++i)
                                for (int64_t o = 0; o < out; ++o) {
                                    double ref = 0, mag = 0;
                                    for (int64_t e = 0; e < in; ++e) {
                                        const uint8_t* xb = xq.data() + (i * bpr + e / kSuper) * kQ8kBytes;
                                        float dx;
                                        std::memcpy(&dx, xb, 4);
                                        const double p = double(rm.decoded[size_t(o * in + e)]) * double(dx) *
                                                         double(int8_t(xb[4 + e % kSuper]));
                                        ref += p;
                                        mag += std::fabs(p);
                                    }
                                    ASSERT_NEAR(y[size_t(i * out + o)], ref, 1e-5 * mag + 1e-30) << "i=" << i << " o=" << o;
                                }
                        } else {
                            ASSERT_TRUE(same_bits(y, first)) << "differs from " << first_name;
                        }
                        EXPECT_TRUE(same_bits(test::run_q8k_kernel_direct(*k, w->view, out, in, xq, n, 1), y)) << "1-row calls";
                        EXPECT_TRUE(same_bits(test::run_q8k_kernel_direct(*k, w->view, out, in, xq, n, 5), y)) << "5-row calls";
                    }
                }
            }
        }
    }
    EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace skn_core
