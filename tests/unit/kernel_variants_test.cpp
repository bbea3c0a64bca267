// SPDX-License-Identifier: MIT
// Kernel variants (dispatch/kernel.hpp, docs/kernels.md "The tuning table"):
// kernels of one key that differ only in how they stream memory register
// side by side under distinct names ("<base>_<variant>"), the tuning picks
// one, and they are bit-identical by contract, so no tuning choice changes a
// result.
//
// Part 1 builds a test registry (the reference kernels and copies of one of
// them as variants) to check the choice itself. Part 2 takes every variant
// the library registers (from the registry listing: a new variant is tested
// by being registered) and runs it against its plain sibling on weights of
// its format and order at n = 1 .. 9 and 17: the same bits or a failure
// naming the variant, the shape and the element.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "dispatch/context.hpp"
#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/cpu.hpp"
#include "runtime/error.hpp"
#include "support/matmul_harness.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

using test::rows_for;
using test::run_with_kernel;
using test::TestWeight;

// ---- Part 1: choosing a variant -------------------------------------------

const KernelKey kQ4Ibm{Op::MatmulWt, FormatId::Q4_0, LayoutClass::BlockedInputMajor, FormatId::Q8_0, SKN_ISA_SCALAR};

// The reference kernels, plus the reference Q4_0 INPUT_BLOCK_MAJOR kernel
// again as the variants "far" and "ahead" (the same function: bit-identical).
Registry registry_with_variants() {
    Registry r;
    register_reference_kernels(r);
    const Kernel* plain = r.best(kQ4Ibm.weight, kQ4Ibm.layout, kQ4Ibm.activation, SKN_ISA_SCALAR, nullptr);
    for (const char* v : {"far", "ahead"}) {
        Kernel k = *plain;
        k.name.clear();  // named by add(): the base name, '_', the variant
        k.variant = v;
        r.add(k);
    }
    return r;
}

// The kernel name of the last KERNEL event.
struct LastKernel {
    std::string name;
    static void record(const skn_trace_event* e, void* user) {
        if (e->kind == SKN_TRACE_KERNEL) static_cast<LastKernel*>(user)->name = e->name;
    }
};

TEST(KernelVariants, AreNamedAfterTheirBaseAndParseBackToTheirKey) {
    const Registry r = registry_with_variants();
    const std::string base = kernel_name(kQ4Ibm);
    std::set<std::string> names;
    for (const Kernel& k : r.kernels())
        if (k.key == kQ4Ibm) names.insert(k.name + "|" + k.variant);
    EXPECT_EQ(names, (std::set<std::string>{base + "|", base + "_far|far", base + "_ahead|ahead"}));
    KernelKey key{};
    std::string variant = "?";
    ASSERT_TRUE(parse_kernel_name(base + "_far", &key, &variant));
    EXPECT_TRUE(key == kQ4Ibm);
    EXPECT_EQ(variant, "far");
    ASSERT_TRUE(parse_kernel_name(base, &key, &variant));
    EXPECT_EQ(variant, "");
    EXPECT_FALSE(parse_kernel_name(base + "_", &key, &variant));
    EXPECT_FALSE(parse_kernel_name(base + "_far_near", &key, &variant)) << "one variant word";
    // The same key and variant twice is a programming error; another variant is not.
    Registry twice = registry_with_variants();
    Kernel again = *r.best(kQ4Ibm.weight, kQ4Ibm.layout, kQ4Ibm.activation, SKN_ISA_SCALAR, nullptr, nullptr);
    again.name.clear();
    again.variant = "far";
    EXPECT_THROW(twice.add(again), Error);
    again.variant = "gather";
    EXPECT_NO_THROW(twice.add(again));
    const Kernel* any = nullptr;
    for (const Kernel& k : twice.kernels())
        if (k.key == kQ4Ibm) any = &k;
    ASSERT_NE(any, nullptr);
    EXPECT_EQ(twice.variants_of(*any).size(), 4u);
}

TEST(KernelVariants, TheTuningPicksOneAndAnUnknownNameFallsBackToThePlainKernel) {
    const Registry r = registry_with_variants();
    const std::string base = kernel_name(kQ4Ibm);
    const auto best = [&](const Tuning& t) {
        return r.best(kQ4Ibm.weight, kQ4Ibm.layout, kQ4Ibm.activation, SKN_ISA_SCALAR, nullptr, &t)->name;
    };
    const Tuning none;
    EXPECT_EQ(best(none), base) << "no row: the plain kernel";
    Context ctx;
    ctx.set_registry(&r);
    ctx.set_tuning("variant", base, "far");
    EXPECT_EQ(best(ctx.tuning()), base + "_far");
    ctx.set_tuning("variant", base, "ahead");
    EXPECT_EQ(best(ctx.tuning()), base + "_ahead");
    ctx.set_tuning("variant", base, "");
    EXPECT_EQ(best(ctx.tuning()), base);
    ctx.set_tuning("variant", base, "nosuch");
    EXPECT_EQ(best(ctx.tuning()), base) << "a variant no kernel has: the plain kernel";
    ctx.set_tuning("variant", "matmul_wt_*_ibm_*", "far");
    EXPECT_EQ(best(ctx.tuning()), base) << "the literal row set before still wins";
    Context glob;
    glob.set_registry(&r);
    glob.set_tuning("variant", "matmul_wt_*_ibm_*", "far");
    EXPECT_EQ(best(glob.tuning()), base + "_far");
    // Another key is untouched by the row: it has no variants.
    const Kernel* rm = r.best(FormatId::Q4_0, LayoutClass::BlockedRowMajor, FormatId::Q8_0, SKN_ISA_SCALAR, nullptr,
                              &glob.tuning());
    EXPECT_EQ(rm->variant, "");
}

TEST(KernelVariants, TheTraceNamesTheVariantThatRanAndItsBitsAreThePlainOnes) {
    const Registry r = registry_with_variants();
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    const TestWeight w(f, 9, 3, LayoutClass::BlockedInputMajor, 21);
    std::vector<float> x(size_t(2 * w.in));
    sample_weight(x.data(), 2, w.in, 8);
    std::vector<float> plain(18), far(18, 1.0f);
    LastKernel last;
    Context ctx;
    ctx.set_registry(&r);
    ctx.set_isa_cap(SKN_ISA_SCALAR);
    ctx.set_trace(TraceSink{&LastKernel::record, &last});
    ctx.set_tuning("variant", kernel_name(kQ4Ibm), "");
    matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, plain.data(), 9, MatmulOptions{});
    EXPECT_EQ(last.name, kernel_name(kQ4Ibm));
    ctx.set_tuning("variant", kernel_name(kQ4Ibm), "far");
    matmul_wt(ctx, x.data(), 2, w.in, w.view, nullptr, far.data(), 9, MatmulOptions{});
    EXPECT_EQ(last.name, kernel_name(kQ4Ibm) + "_far");
    EXPECT_EQ(std::memcmp(plain.data(), far.data(), plain.size() * sizeof(float)), 0);
}

TEST(KernelVariants, AVariantThatRefusesTheViewIsPassedOver) {
    Registry r = registry_with_variants();
    Registry picky;
    for (Kernel k : r.kernels()) {
        if (k.key == kQ4Ibm && k.variant == "far") k.supports = [](const Layout&) { return false; };
        picky.add(k);
    }
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    const TestWeight w(f, 4, 3, LayoutClass::BlockedInputMajor, 3);
    Context ctx;
    ctx.set_tuning("variant", kernel_name(kQ4Ibm), "far");
    const Kernel* k = picky.best(kQ4Ibm.weight, kQ4Ibm.layout, kQ4Ibm.activation, SKN_ISA_SCALAR, &w.view.layout,
                                 &ctx.tuning());
    EXPECT_EQ(k->variant, "") << "far refuses the view: the plain kernel";
    // Without a view to check (the lookup of what a key offers) the named one.
    k = picky.best(kQ4Ibm.weight, kQ4Ibm.layout, kQ4Ibm.activation, SKN_ISA_SCALAR, nullptr, &ctx.tuning());
    EXPECT_EQ(k->variant, "far");
}

// ---- Part 2: every registered variant gives its plain sibling's bits -------

// Every variant the library registers, as test parameters.
std::vector<const Kernel*> registered_variants() {
    std::vector<const Kernel*> out;
    for (const Kernel* k : test::registered_kernels())
        if (!k->variant.empty()) out.push_back(k);
    return out;
}

const Kernel* plain_sibling(const Kernel& k) {
    for (const Kernel* s : default_registry().variants_of(k))
        if (s->variant.empty()) return s;
    return nullptr;
}

// The listing's variants are whole: each named "<base>_<variant>", each with
// the plain kernel of its key beside it (the registry falls back to it for an
// unknown name, and the test below compares against it). This runs whether or
// not a variant is registered yet.
TEST(KernelVariantsListing, EveryVariantHasItsBaseNameAndAPlainSibling) {
    int variants = 0;
    for (const Kernel& k : default_registry().kernels()) {
        if (k.variant.empty()) {
            EXPECT_EQ(k.name.rfind(kernel_name(k.key), 0), 0u) << k.name;
            continue;
        }
        ++variants;
        EXPECT_EQ(k.name, kernel_name(k.key) + "_" + k.variant);
        std::string ignored = k.variant, subject = k.name;
        EXPECT_NO_THROW(check_tuning_value(TuningChoice::Variant, &subject, &ignored)) << k.name;
        EXPECT_NE(plain_sibling(k), nullptr) << k.name << " has no plain kernel under its key";
        KernelKey key{};
        std::string variant;
        ASSERT_TRUE(parse_kernel_name(k.name, &key, &variant)) << k.name;
        EXPECT_TRUE(key == k.key) << k.name;
        EXPECT_EQ(variant, k.variant);
    }
    RecordProperty("variants", variants);
}

constexpr int64_t kN[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 17};

class VariantBits : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(VariantBits, EqualThePlainKernelsAtEveryN) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const Kernel* plain = plain_sibling(k);
    ASSERT_NE(plain, nullptr) << k.name;
    const FormatTraits& f = *find_format(k.key.weight);
    int compared = 0, weight_index = 0;
    // Tails of every kind: a few rows, an odd count, and enough rows that a
    // few-row walk takes several long tasks and prefetches past its end;
    // short and long rows.
    for (const int64_t groups : {3, 37, 600})
        for (const int64_t bpr : {3, 17}) {
            const int64_t out = rows_for(f, groups);
            const TestWeight w(f, out, bpr, k.key.layout, uint64_t(++weight_index) * 13 + 5);
            ASSERT_EQ(w.view.layout.layout_class(), k.key.layout);
            std::vector<float> bias(static_cast<size_t>(out));
            sample_weight(bias.data(), 1, out, 90 + uint64_t(weight_index));
            for (const int64_t n : kN)
                for (const int threads : {1, 3}) {
                    if (threads > 1 && groups != 600) continue;  // the task split matters on the long weight
                    std::vector<float> x(size_t(n * w.in));
                    sample_weight(x.data(), n, w.in, 700 + uint64_t(weight_index * 32 + n));
                    const float* b = n % 2 != 0 ? bias.data() : nullptr;
                    std::vector<float> y(size_t(n * out), -7.0f), want(size_t(n * out), 7.0f);
                    run_with_kernel(k, w.view, x.data(), n, w.in, b, y.data(), out, threads);
                    run_with_kernel(*plain, w.view, x.data(), n, w.in, b, want.data(), out, threads);
                    for (size_t e = 0; e < y.size(); ++e)
                        ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                            << k.name << " vs " << plain->name << ": out=" << out << " bpr=" << bpr << " n=" << n
                            << " threads=" << threads << " at [" << e / size_t(out) << ", " << e % size_t(out)
                            << "]: " << y[e] << " vs " << want[e];
                    ++compared;
                }
        }
    EXPECT_EQ(compared, 6 * int(std::size(kN)) + 2 * int(std::size(kN))) << k.name;
}

// Until a provider registers a variant the list is empty: the listing test
// above still runs and says so.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(VariantBits);
INSTANTIATE_TEST_SUITE_P(EveryRegisteredVariant, VariantBits, ::testing::ValuesIn(registered_variants()),
                         [](const auto& p) { return p.param->name; });

}  // namespace
}  // namespace skn_core
