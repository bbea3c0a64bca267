// SPDX-License-Identifier: MIT
// The differential suite: every registered kernel (every format x order x
// ISA x precision) against the f64 reference on odd shapes, strided x and y,
// with and without bias; determinism across orders and thread counts;
// visible, strict-able fallbacks; per-call prepack accounting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <regex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dispatch/matmul.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "runtime/error.hpp"
#include "support/emulator.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"
#include "support/process_memo.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

using test::registered_kernels;
using test::rows_for;
using test::run_with_kernel;
using test::TestWeight;

struct Events {
    std::vector<skn_trace_event> list;
    std::vector<std::string> details;
    static void record(const skn_trace_event* e, void* user) {
        auto* self = static_cast<Events*>(user);
        self->list.push_back(*e);
        self->details.emplace_back(e->detail);
    }
    TraceSink sink() { return TraceSink{&Events::record, this}; }
    int count(skn_trace_kind k) const {
        int c = 0;
        for (const auto& e : list) c += e.kind == k;
        return c;
    }
};

// Every (out, blocks per row) pair, each run at several n. One weight per
// pair serves all its n: quantizing is most of this suite's time (a grid
// format's quantizer searches its lattice per block), the kernel calls are not.
constexpr int64_t kOddOuts[] = {1, 3, 7, 8, 33, 257};
constexpr int64_t kOddBlocksPerRow[] = {1, 3, 5};
constexpr int64_t kOddN[] = {1, 2, 5, 16};

// The (out, blocks per row) pairs for `f`, in this order. A row-interleaved
// format takes R times each out (support/rows_for.hpp) and, after them,
// 130 blocks per row at out = R and 3R: a row of many blocks, where a
// kernel's block loop and its R-row tiles meet.
//
// Under emulation (support/emulator.hpp) the 257-row weights shrink: by
// out x in they were 83% of a canonical format's work (70% of a twin's).
// Their class is out past the task boundaries (tasks of 128 rows for the
// NEON families, 32 for the dense kernels, 8 for the reference) with a
// ragged last tile, and which task a row falls in does not depend on the
// row's length: a canonical format keeps 257 rows at one block per row,
// while 3 and 5 blocks per row keep their ragged tiles at out 3, 7 and 33.
// A row-interleaved format drops 257R: its kernels' tiles are whole R-row
// block rows, and 33R rows (132 or more) already span several tasks of
// every kernel, the last one ragged wherever 257R's was.
std::vector<std::pair<int64_t, int64_t>> odd_shapes(const FormatTraits& f) {
    std::vector<std::pair<int64_t, int64_t>> shapes;
    const bool emulated = test::under_emulator();
    for (int64_t out : kOddOuts)
        for (int64_t bpr : kOddBlocksPerRow) {
            if (emulated && out == 257 && (f.interleaved() || bpr > 1)) continue;
            shapes.emplace_back(rows_for(f, out), bpr);
        }
    if (f.interleaved())
        for (int64_t out : {1, 3}) shapes.emplace_back(rows_for(f, out), 130);
    return shapes;
}

// The inputs of one case, made from (weight, n, case index) alone: x with
// padded rows (1e30) every second case, a bias in two cases of three.
struct OddCase {
    int64_t xs = 0, ys = 0;
    bool with_bias = false;
    std::vector<float> x, bias;
    const float* bias_or_null() const { return with_bias ? bias.data() : nullptr; }
};

OddCase odd_case(const TestWeight& w, int64_t n, int case_index) {
    OddCase c;
    const bool strided = case_index % 2 == 0;
    c.with_bias = case_index % 3 != 0;
    c.xs = w.in + (strided ? 5 : 0);
    c.ys = w.out + (strided ? 3 : 0);
    c.x.assign(size_t(n * c.xs), 1e30f);
    c.bias.resize(size_t(w.out));
    std::vector<float> xin(size_t(n * w.in));
    sample_weight(xin.data(), n, w.in, 1000 + uint64_t(case_index));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < w.in; ++k) c.x[size_t(i * c.xs + k)] = xin[size_t(i * w.in + k)];
    for (int64_t o = 0; o < w.out; ++o) c.bias[size_t(o)] = 0.25f * float(o % 5) - 0.5f;
    return c;
}

// The f64 reference of a case, computed once per process: every kernel of
// a format (both orders, every tier) runs the same cases against the same
// reference per activation format, and its n x out x in double products were
// most of this suite's time (under ASan above all). A TestWeight's decoded
// floats live as long as the process, so their address names the weight.
const test::Reference& odd_case_reference(const TestWeight& w, int64_t n, int case_index, FormatId activation) {
    static test::ProcessMemo<std::tuple<const void*, int64_t, int, FormatId>, test::Reference> memo;
    return memo.get({&w.decoded, n, case_index, activation}, [&] {
        const OddCase c = odd_case(w, n, case_index);
        return test::reference_matmul(w.decoded, w.out, w.in, c.x.data(), n, c.xs, c.bias_or_null(), activation);
    });
}

class MatmulWtAgreesWithReference : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(MatmulWtAgreesWithReference, OnOddShapes) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    int weight_index = 0, case_index = 0;
    for (const auto& [out, bpr] : odd_shapes(f)) {
        TestWeight w(f, out, bpr, k.key.layout, uint64_t(++weight_index));
        // A transposed matrix with a single output row is contiguous again.
        if (w.view.layout.layout_class() != k.key.layout) continue;
        for (int64_t n : kOddN) {
            ++case_index;
            const OddCase c = odd_case(w, n, case_index);
            const int64_t ys = c.ys;
            std::vector<float> y(size_t(n * ys), -7.0f);
            run_with_kernel(k, w.view, c.x.data(), n, c.xs, c.bias_or_null(), y.data(), ys);
            const test::Reference& ref = odd_case_reference(w, n, case_index, k.key.activation);
            for (int64_t i = 0; i < n; ++i) {
                for (int64_t o = 0; o < w.out; ++o) {
                    const double got = y[size_t(i * ys + o)], want = ref.y[size_t(i * w.out + o)];
                    ASSERT_LE(std::fabs(got - want), ref.bound[size_t(i * w.out + o)])
                        << k.name << " out=" << out << " bpr=" << bpr << " n=" << n << " at [" << i << ", " << o
                        << "]";
                }
                for (int64_t o = w.out; o < ys; ++o)
                    ASSERT_EQ(y[size_t(i * ys + o)], -7.0f) << k.name << ": wrote outside y's rows";
            }
        }
    }
    EXPECT_GT(case_index, 0) << k.name << ": no shape reached the kernel";
}

// Blocks of random bytes: codes anywhere in their range (Q8_0's -128, every
// nibble and sign), scales no quantizer would choose — what a foreign file
// may hold.
class MatmulWtOnRandomBlocks : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(MatmulWtOnRandomBlocks, AgreesWithReference) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    const TestWeight w(f, rows_for(f, 33), 3, k.key.layout, 501, /*random_blocks=*/true);
    for (int64_t n : {1, 5, 17}) {
        std::vector<float> x(size_t(n * w.in)), y(size_t(n * w.out));
        sample_weight(x.data(), n, w.in, 900 + uint64_t(n));
        run_with_kernel(k, w.view, x.data(), n, w.in, nullptr, y.data(), w.out);
        const auto ref = test::reference_matmul(w.decoded, w.out, w.in, x.data(), n, w.in, nullptr, k.key.activation);
        for (size_t e = 0; e < y.size(); ++e)
            ASSERT_LE(std::fabs(double(y[e]) - ref.y[e]), ref.bound[e])
                << k.name << " n=" << n << " at [" << e / size_t(w.out) << ", " << e % size_t(w.out) << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, MatmulWtAgreesWithReference, ::testing::ValuesIn(registered_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

std::vector<const Kernel*> block_format_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel* k : registered_kernels())
        if (find_format(k->key.weight)->block_quantized) out.push_back(k);
    return out;
}

INSTANTIATE_TEST_SUITE_P(BlockFormatKernels, MatmulWtOnRandomBlocks, ::testing::ValuesIn(block_format_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

TEST(KernelRegistry, NamesFollowTheGrammarAndEveryFormatHasReferenceKernelsInBothOrders) {
    std::string isas;
    for (const IsaInfo& i : isa_table()) isas += (isas.empty() ? "" : "|") + std::string(i.name);
    const std::regex grammar("^matmul_wt_[a-z0-9_]+_(rm|ibm|dense|strided)_[a-z0-9_]+_(" + isas + ")(_[a-z0-9]+)?$");
    for (const Kernel& k : default_registry().kernels()) {
        EXPECT_TRUE(std::regex_match(k.name, grammar)) << k.name;
        // A variant is its plain kernel's name and "_<variant>".
        EXPECT_EQ(k.name, kernel_name(k.key) + (k.variant.empty() ? "" : "_" + k.variant));
    }
    for (const FormatTraits& f : all_formats()) {
        const LayoutClass a = f.block_quantized ? LayoutClass::BlockedRowMajor : LayoutClass::Contiguous;
        const LayoutClass b = f.block_quantized ? LayoutClass::BlockedInputMajor : LayoutClass::Strided;
        for (LayoutClass c : {a, b})
            for (FormatId act : {f.activation, FormatId::F32}) {
                const Kernel* k = default_registry().best(f.id, c, act, SKN_ISA_SCALAR, nullptr);
                ASSERT_NE(k, nullptr) << f.name << " " << layout_class_name(c);
                EXPECT_EQ(k->key.isa, SKN_ISA_SCALAR);
            }
    }
}

// Same inputs: bit-identical y for ROW_MAJOR and INPUT_BLOCK_MAJOR weights,
// and for 1, 2 and 3 threads (the pool) and a caller's parallel-for.
TEST(MatmulWtDeterminism, AcrossOrdersAndThreadCounts) {
    for (const FormatTraits& f : all_formats()) {
        if (!f.block_quantized) continue;
        const int64_t out = rows_for(f, 37);
        TestWeight rm(f, out, 3, LayoutClass::BlockedRowMajor, 5);
        TestWeight ibm(f, out, 3, LayoutClass::BlockedInputMajor, 5);
        const int64_t n = 5, in = rm.in;
        std::vector<float> x(size_t(n * in));
        sample_weight(x.data(), n, in, 77);
        for (Precision p : {Precision::Fast, Precision::Exact}) {
            std::vector<float> first;
            for (const View* w : {&rm.view, &ibm.view})
                for (int threads : {1, 2, 3}) {
                    Context ctx;
                    ctx.set_threads(threads);
                    MatmulOptions o;
                    o.precision = p;
                    o.prepack_weights = true;  // each order's best kernel may live in the other order
                    o.scope = &rm.scope;
                    std::vector<float> y(size_t(n * out));
                    // Compare like with like: pin each order to its own kernels.
                    Registry own;
                    for (const Kernel& k : default_registry().kernels())
                        if (k.key.layout == w->layout.layout_class()) own.add(k);
                    ctx.set_registry(&own);
                    matmul_wt(ctx, x.data(), n, in, *w, nullptr, y.data(), out, o);
                    if (first.empty()) first = y;
                    ASSERT_EQ(std::memcmp(first.data(), y.data(), y.size() * 4), 0)
                        << f.name << " precision " << int(p) << " order " << order_name(w->layout.order) << " threads "
                        << threads;
                }
        }
    }
}

TEST(MatmulWtDeterminism, CallerParallelForMatchesPool) {
    const FormatTraits& f = *find_format(FormatId::Q4_K);
    TestWeight w(f, 70, 3, LayoutClass::BlockedInputMajor, 9);
    std::vector<float> x(size_t(4 * w.in)), y1(size_t(4 * 70)), y2(size_t(4 * 70));
    sample_weight(x.data(), 4, w.in, 1);
    Context a;
    a.set_threads(3);
    matmul_wt(a, x.data(), 4, w.in, w.view, nullptr, y1.data(), 70, MatmulOptions{});
    Context b;
    int calls = 0;
    struct Lender {
        static void parallel_for(skn_task_fn task, void* arg, int64_t count, void* user) {
            ++*static_cast<int*>(user);
            for (int64_t i = count - 1; i >= 0; --i) task(arg, i);  // any order is allowed
        }
    };
    b.set_parallel_for(ParallelFor{&Lender::parallel_for, &calls});
    matmul_wt(b, x.data(), 4, w.in, w.view, nullptr, y2.data(), 70, MatmulOptions{});
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(std::memcmp(y1.data(), y2.data(), y1.size() * 4), 0);
}

// A test-only registry: a pretend SIMD kernel (the reference under an AVX2
// key) for INPUT_BLOCK_MAJOR Q4_0 only.
Registry registry_with_ibm_simd_only() {
    Registry r;
    register_reference_kernels(r);
    Kernel fake = *default_registry().best(FormatId::Q4_0, LayoutClass::BlockedInputMajor, FormatId::Q8_0,
                                           SKN_ISA_SCALAR, nullptr);
    fake.key.isa = SKN_ISA_AVX2;
    fake.name = kernel_name(fake.key);
    r.add(fake);
    return r;
}

TEST(MatmulWtFallback, ReferenceRunsWithAFallbackEventAndStrictRefuses) {
    if (!cpu_runs(SKN_ISA_AVX2)) GTEST_SKIP() << "needs an AVX2 CPU for the pretend SIMD kernel";
    const Registry reg = registry_with_ibm_simd_only();
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    TestWeight w(f, 9, 3, LayoutClass::BlockedRowMajor, 3);
    std::vector<float> x(size_t(2 * w.in)), y(size_t(2 * 9));
    sample_weight(x.data(), 2, w.in, 4);
    Context ctx;
    ctx.set_registry(&reg);
    ctx.set_isa_cap(SKN_ISA_AVX2);
    Events ev;
    ctx.set_trace(ev.sink());
    matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 9, MatmulOptions{});
    ASSERT_EQ(ev.count(SKN_TRACE_FALLBACK), 1);
    ASSERT_EQ(ev.count(SKN_TRACE_KERNEL), 1);
    EXPECT_EQ(ev.count(SKN_TRACE_ADAPTER), 0);
    const std::string why = ev.details[0];
    EXPECT_NE(why.find("wanted matmul_wt_q4_0_rm_q8_0_avx2"), std::string::npos) << why;
    EXPECT_NE(why.find("ran matmul_wt_q4_0_rm_q8_0_scalar"), std::string::npos) << why;
    EXPECT_NE(why.find("matmul_wt_q4_0_ibm_q8_0_avx2"), std::string::npos) << why;
    EXPECT_NE(why.find("skn_prepack_for_matmul"), std::string::npos) << why;
    EXPECT_EQ(ev.list[1].isa, SKN_ISA_SCALAR);

    MatmulOptions strict;
    strict.strict = true;
    try {
        matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 9, strict);
        ADD_FAILURE() << "strict must refuse a fallback";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), SKN_E_UNSUPPORTED);
        EXPECT_NE(std::string(e.what()).find("wanted matmul_wt_q4_0_rm_q8_0_avx2"), std::string::npos) << e.what();
    }
    // A format with no SIMD kernel in either order also falls back, visibly.
    TestWeight q5(*find_format(FormatId::Q5_0), 4, 3, LayoutClass::BlockedInputMajor, 3);
    ev.list.clear();
    ev.details.clear();
    matmul_wt(ctx, x.data(), 2, q5.in, q5.view, nullptr, y.data(), 9, MatmulOptions{});
    ASSERT_EQ(ev.count(SKN_TRACE_FALLBACK), 1);
    EXPECT_NE(ev.details[0].find("no SIMD kernel"), std::string::npos) << ev.details[0];
    // Capped at scalar, the reference is what was asked for: no fallback.
    ctx.set_isa_cap(SKN_ISA_SCALAR);
    ev.list.clear();
    matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 9, strict);
    EXPECT_EQ(ev.count(SKN_TRACE_FALLBACK), 0);
}

// The library's own registry with its SIMD kernels for ROW_MAJOR Q4_K
// removed: the weight's order now has only the reference, the other order
// keeps its SIMD kernels.
TEST(MatmulWtFallback, RealRegistryWithASimdKernelRemoved) {
    Registry reg = default_registry();
    int removed = 0;
    for (const char* isa : {"avx2", "avxvnni", "avx512", "avx512vnni"})
        removed += reg.remove(std::string("matmul_wt_q4_k_rm_q8_k_") + isa);
    const Kernel* ibm = reg.best(FormatId::Q4_K, LayoutClass::BlockedInputMajor, FormatId::Q8_K, detected_isa(), nullptr);
    if (removed == 0 || ibm == nullptr || ibm->key.isa == SKN_ISA_SCALAR)
        GTEST_SKIP() << "no Q4_K SIMD kernel for this CPU to remove";
    const FormatTraits& f = *find_format(FormatId::Q4_K);
    TestWeight w(f, 9, 3, LayoutClass::BlockedRowMajor, 3);
    std::vector<float> x(size_t(2 * w.in)), y(18), y_prepacked(18);
    sample_weight(x.data(), 2, w.in, 4);
    Context ctx;
    ctx.set_registry(&reg);
    ctx.set_isa_cap(detected_isa());  // also when the suite runs under SKN_ISA=scalar
    Events ev;
    ctx.set_trace(ev.sink());
    matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 9, MatmulOptions{});
    ASSERT_EQ(ev.count(SKN_TRACE_FALLBACK), 1);
    EXPECT_NE(ev.details[0].find("ran matmul_wt_q4_k_rm_q8_k_scalar"), std::string::npos) << ev.details[0];
    EXPECT_NE(ev.details[0].find(ibm->name), std::string::npos) << ev.details[0];
    MatmulOptions strict;
    strict.strict = true;
    EXPECT_THROW(matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 9, strict), Error);
    // Prepacking per call reaches the SIMD kernel of the other order.
    Scope scope;
    MatmulOptions o;
    o.prepack_weights = true;
    o.scope = &scope;
    ev.list.clear();
    ev.details.clear();
    matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y_prepacked.data(), 9, o);
    EXPECT_EQ(ev.count(SKN_TRACE_ADAPTER), 1);
    EXPECT_EQ(ev.count(SKN_TRACE_FALLBACK), 0);
    EXPECT_EQ(ev.list.back().isa, ibm->key.isa);
}

// Wherever no SIMD kernel serves a format (every format on a CPU
// architecture without SIMD kernels, e.g. the portable provider's), the reference
// kernel runs and says so with one FALLBACK event: never silently.
TEST(MatmulWtFallback, EveryFormatWithoutASimdKernelRunsTheReferenceWithAFallbackEvent) {
    Context probe;
    const skn_isa cap = probe.isa_cap();
    if (cap == SKN_ISA_SCALAR) GTEST_SKIP() << "ISA cap is scalar (SKN_ISA=scalar or a CPU without SIMD): no fallback to report";
    int checked = 0;
    for (const FormatTraits& f : all_formats()) {
        if (!f.block_quantized) continue;
        const int64_t out = rows_for(f, 9);
        for (LayoutClass cls : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
            TestWeight w(f, out, 3, cls, 3);
            const Kernel* best = default_registry().best(f.id, cls, f.activation, cap, &w.view.layout);
            ASSERT_NE(best, nullptr) << f.name;
            const bool other_simd = [&] {
                const LayoutClass o = cls == LayoutClass::BlockedRowMajor ? LayoutClass::BlockedInputMajor
                                                                          : LayoutClass::BlockedRowMajor;
                const Kernel* k = default_registry().best(f.id, o, f.activation, cap, nullptr);
                return k != nullptr && k->key.isa != SKN_ISA_SCALAR;
            }();
#if !defined(__x86_64__) && !defined(__aarch64__)
            EXPECT_EQ(best->key.isa, SKN_ISA_SCALAR) << best->name << ": no SIMD kernels are built for this architecture";
#endif
            if (best->key.isa != SKN_ISA_SCALAR) continue;
            std::vector<float> x(size_t(2 * w.in)), y(size_t(2 * out));
            sample_weight(x.data(), 2, w.in, 4);
            Context ctx;
            Events ev;
            ctx.set_trace(ev.sink());
            matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), out, MatmulOptions{});
            ASSERT_EQ(ev.count(SKN_TRACE_FALLBACK), 1) << f.name << " " << layout_class_name(cls);
            EXPECT_EQ(ev.count(SKN_TRACE_ADAPTER), 0) << f.name;
            const std::string why = ev.details[0];
            EXPECT_NE(why.find(std::string("ran ") + best->name), std::string::npos) << why;
            if (!other_simd) {
                EXPECT_NE(why.find("no SIMD kernel for"), std::string::npos) << why;
            }
            ++checked;
        }
    }
#if !defined(__x86_64__) && !defined(__aarch64__)
    EXPECT_GT(checked, 0);
#else
    if (checked == 0) GTEST_SKIP() << "every block format has a SIMD kernel on this CPU in both orders";
#endif
}

TEST(MatmulWtFallback, PrepackWeightsEmitsOneAdapterPerCallThatNeedsIt) {
    if (!cpu_runs(SKN_ISA_AVX2)) GTEST_SKIP() << "needs an AVX2 CPU for the pretend SIMD kernel";
    const Registry reg = registry_with_ibm_simd_only();
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    TestWeight rm(f, 9, 3, LayoutClass::BlockedRowMajor, 3);
    TestWeight ibm(f, 9, 3, LayoutClass::BlockedInputMajor, 3);
    std::vector<float> x(size_t(2 * rm.in)), y1(18), y2(18);
    sample_weight(x.data(), 2, rm.in, 4);
    Context ctx;
    ctx.set_registry(&reg);
    ctx.set_isa_cap(SKN_ISA_AVX2);
    Events ev;
    ctx.set_trace(ev.sink());
    Scope scope;
    MatmulOptions o;
    o.prepack_weights = true;
    o.scope = &scope;
    for (int call = 1; call <= 3; ++call) {
        matmul_wt(ctx, x.data(), 2, rm.in, rm.view, nullptr, y1.data(), 9, o);
        EXPECT_EQ(ev.count(SKN_TRACE_ADAPTER), call);
        EXPECT_EQ(ev.count(SKN_TRACE_FALLBACK), 0);
    }
    EXPECT_EQ(ev.list.back().isa, SKN_ISA_AVX2);
    EXPECT_EQ(scope.storage->allocated_bytes(), 3 * rm.rm.size()) << "the copy is made on every call";
    ev.list.clear();
    matmul_wt(ctx, x.data(), 2, ibm.in, ibm.view, nullptr, y2.data(), 9, o);
    EXPECT_EQ(ev.count(SKN_TRACE_ADAPTER), 0) << "a weight prepacked at load needs no adapter";
    EXPECT_EQ(std::memcmp(y1.data(), y2.data(), 18 * 4), 0);
    // Without a scope, prepack_weights cannot copy: a clear error.
    o.scope = nullptr;
    EXPECT_THROW(matmul_wt(ctx, x.data(), 2, rm.in, rm.view, nullptr, y1.data(), 9, o), Error);
    // preferred_order sees the pretend kernel.
    EXPECT_EQ(preferred_order(ctx, rm.view), BlockOrder::InputBlockMajor);
    EXPECT_EQ(preferred_order(ctx, ibm.view), BlockOrder::InputBlockMajor);
}

// Step 2 of a call, alone: choose_weight gives the kernel and the weight it
// reads (relaid out into the scope when allowed), and under strict refuses a
// fallback naming the routed call's expert.
TEST(MatmulWtChooseWeight, RelaysOutWhenAllowedAndNamesTheExpertUnderStrict) {
    if (!cpu_runs(SKN_ISA_AVX2)) GTEST_SKIP() << "needs an AVX2 CPU for the pretend SIMD kernel";
    const Registry reg = registry_with_ibm_simd_only();
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    TestWeight rm(f, 9, 3, LayoutClass::BlockedRowMajor, 3);
    Context ctx;
    ctx.set_registry(&reg);
    ctx.set_isa_cap(SKN_ISA_AVX2);
    Events ev;
    ctx.set_trace(ev.sink());

    const ChosenWeight fell_back = choose_weight(ctx, rm.view, FormatId::Q8_0, MatmulOptions{});
    EXPECT_EQ(fell_back.kernel->key.isa, SKN_ISA_SCALAR);
    EXPECT_EQ(fell_back.w.data, rm.view.data) << "no relayout without prepack_weights";
    EXPECT_NE(fell_back.fallback_reason.find("ran matmul_wt_q4_0_rm_q8_0_scalar"), std::string::npos);
    EXPECT_EQ(ev.list.size(), 0u) << "choosing emits no KERNEL or FALLBACK event; the call does";

    Scope scope;
    MatmulOptions o;
    o.prepack_weights = true;
    o.scope = &scope;
    const ChosenWeight relaid = choose_weight(ctx, rm.view, FormatId::Q8_0, o, 2);
    EXPECT_EQ(relaid.kernel->name, "matmul_wt_q4_0_ibm_q8_0_avx2");
    EXPECT_EQ(relaid.w.layout.order, BlockOrder::InputBlockMajor);
    EXPECT_TRUE(relaid.fallback_reason.empty());
    EXPECT_EQ(ev.count(SKN_TRACE_ADAPTER), 1);
    EXPECT_EQ(scope.storage->allocated_bytes(), rm.rm.size());

    MatmulOptions strict;
    strict.strict = true;
    for (int64_t expert : {int64_t(-1), int64_t(4)}) {
        try {
            choose_weight(ctx, rm.view, FormatId::Q8_0, strict, expert);
            ADD_FAILURE() << "strict accepted a fallback";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_UNSUPPORTED);
            const std::string want = expert < 0 ? "strict: wanted" : "strict: expert 4: wanted";
            EXPECT_EQ(std::string(e.what()).rfind(want, 0), 0u) << e.what();
        }
    }
    o.scope = nullptr;
    EXPECT_THROW(choose_weight(ctx, rm.view, FormatId::Q8_0, o), Error);
}

TEST(MatmulWtArguments, BadInputIsRefusedWithAMessage) {
    const FormatTraits& f = *find_format(FormatId::Q8_0);
    TestWeight w(f, 4, 3, LayoutClass::BlockedRowMajor, 1);
    std::vector<float> x(size_t(2 * w.in), 0.5f), y(8);
    Context ctx;
    auto expect_error = [&](auto&& fn, const char* needle) {
        try {
            fn();
            ADD_FAILURE() << "expected an error containing " << needle;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    expect_error([&] { matmul_wt(ctx, nullptr, 2, w.in, w.view, nullptr, y.data(), 4, {}); }, "NULL");
    expect_error([&] { matmul_wt(ctx, x.data(), 0, w.in, w.view, nullptr, y.data(), 4, {}); }, "x_rows");
    expect_error([&] { matmul_wt(ctx, x.data(), 2, w.in - 1, w.view, nullptr, y.data(), 4, {}); }, "x_row_stride");
    expect_error([&] { matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 3, {}); }, "y_row_stride");
    expect_error([&] { matmul_wt(ctx, x.data(), 1, w.in, w.view, nullptr, x.data() + 4, 4, {}); }, "overlaps");
    x[5] = std::nanf("");
    expect_error([&] { matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 4, {}); }, "activation [0, 5]");
    MatmulOptions exact;
    exact.precision = Precision::Exact;
    matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, y.data(), 4, exact);
    EXPECT_TRUE(std::isnan(y[0])) << "exact precision propagates NaN";
    // A weight labelled [in, out].
    std::vector<uint8_t> b(quantized_size(f, 1, 128));
    const int64_t swapped[2] = {128, 1};
    (void)swapped;
    const int64_t shape3[3] = {1, 4, 96};
    View v3 = make_view(w.rm.data(), w.rm.size(), f, shape3, 3, BlockOrder::RowMajor);
    expect_error([&] { matmul_wt(ctx, x.data(), 2, 96, v3, nullptr, y.data(), 4, {}); }, "rank-2");
}

TEST(MatmulWtPrecision, FastIsWithinTheActivationQuantizationBoundOfExact) {
    for (FormatId id : {FormatId::Q4_0, FormatId::Q4_1, FormatId::Q4_K, FormatId::Q6_K, FormatId::IQ4_NL,
                        FormatId::TQ2_0, FormatId::BF16}) {
        const FormatTraits& f = *find_format(id);
        TestWeight w(f, 16, 3, f.block_quantized ? LayoutClass::BlockedRowMajor : LayoutClass::Contiguous, 2);
        const int64_t n = 3;
        std::vector<float> x(size_t(n * w.in)), yf(size_t(n * 16)), ye(size_t(n * 16));
        sample_weight(x.data(), n, w.in, 8);
        Context ctx;
        MatmulOptions o;
        matmul_wt(ctx, x.data(), n, w.in, w.view, nullptr, yf.data(), 16, o);
        o.precision = Precision::Exact;
        matmul_wt(ctx, x.data(), n, w.in, w.view, nullptr, ye.data(), 16, o);
        const auto exact = test::reference_matmul(w.decoded, 16, w.in, x.data(), n, w.in, nullptr, FormatId::F32);
        const auto bound = test::activation_error_bound(w.decoded, 16, w.in, x.data(), n, w.in, f.activation);
        double worst = 0;
        for (size_t k = 0; k < yf.size(); ++k) {
            const double err = std::fabs(double(yf[k]) - exact.y[k]);
            ASSERT_LE(err, bound[k] + 2 * exact.bound[k]) << f.name << " output " << k;
            worst = std::max(worst, err / (bound[k] + 1e-30));
            ASSERT_LE(std::fabs(double(ye[k]) - exact.y[k]), exact.bound[k]) << f.name << " exact output " << k;
        }
        std::printf("  %-6s fast vs exact: worst error %.3f of the documented bound\n", f.name, worst);
    }
}

}  // namespace
}  // namespace skn_core
