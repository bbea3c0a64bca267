// SPDX-License-Identifier: MIT
// The ISA table (src/runtime/isa_table.def) and what reads it: tiers are
// ranked within one architecture only, names round-trip through every reader
// (skn_isa_name itself: tests/c/c_api_test.c),
// and every registered kernel's name is its key spelled out (style.md §1).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "dispatch/registry.hpp"
#include "runtime/isa.hpp"

namespace skn_core {
namespace {

TEST(IsaTable, NamesRoundTripThroughParseAndTheCApi) {
    for (const IsaInfo& i : isa_table()) {
        skn_isa parsed = SKN_ISA_SCALAR;
        ASSERT_TRUE(parse_isa(i.name, &parsed)) << i.name;
        EXPECT_EQ(parsed, i.isa) << i.name;
        EXPECT_STREQ(isa_name(i.isa), i.name);
        EXPECT_STREQ(isa_tag(i.isa), i.name);
        EXPECT_NE(std::string(isa_name_list()).find(i.name), std::string::npos) << i.name;
    }
    skn_isa ignored;
    EXPECT_FALSE(parse_isa("avx1024", &ignored));
    EXPECT_STREQ(isa_name(5), "unknown");
}

TEST(IsaTable, ArmTiersAreNamedForSknVersion) {
    EXPECT_STREQ(isa_name(SKN_ISA_NEON_I8MM), "neoni8mm");
    EXPECT_STREQ(isa_name(SKN_ISA_SVE), "sve");
    EXPECT_STREQ(isa_name(SKN_ISA_SVE2), "sve2");
}

// The bug this prevents: NEON = 16 compared by value "above" AVX-512 = 3, so
// SKN_ISA=neon on x86 allowed every x86 kernel.
TEST(IsaTable, ACapOfAnotherArchitectureAllowsScalarOnly) {
    for (const IsaInfo& cap : isa_table())
        for (const IsaInfo& k : isa_table()) {
            const bool want = k.arch == Arch::Any || (k.arch == cap.arch && k.rank <= cap.rank);
            EXPECT_EQ(isa_allows(cap.isa, k.isa), want) << "cap " << cap.name << ", kernel " << k.name;
        }
    EXPECT_FALSE(isa_allows(SKN_ISA_NEON, SKN_ISA_AVX512_VNNI));
    EXPECT_FALSE(isa_allows(SKN_ISA_AVX512_VNNI, SKN_ISA_NEON));
    EXPECT_TRUE(isa_allows(SKN_ISA_SVE2, SKN_ISA_NEON_DOTPROD));
    EXPECT_TRUE(isa_allows(SKN_ISA_NEON, SKN_ISA_SCALAR));
}

TEST(IsaTable, TheRegistryUnderAForeignCapPicksTheReferenceKernel) {
    const skn_isa foreign = build_arch() == Arch::Aarch64 ? SKN_ISA_AVX512_VNNI : SKN_ISA_SVE2;
    for (const Kernel& k : default_registry().kernels()) {
        const Kernel* best = default_registry().best(k.key.weight, k.key.layout, k.key.activation, foreign, nullptr);
        if (best != nullptr) {
            EXPECT_EQ(best->key.isa, SKN_ISA_SCALAR) << k.name << " under cap " << isa_name(foreign);
        }
    }
}

TEST(IsaTable, DetectedTierBelongsToThisBuildsArchitectureAndRuns) {
    const IsaInfo* d = find_isa(detected_isa());
    ASSERT_NE(d, nullptr);
    EXPECT_TRUE(d->arch == Arch::Any || d->arch == build_arch()) << d->name;
    EXPECT_TRUE(cpu_runs(d->isa)) << d->name;
    // Every tier of this architecture ranked above the detected one does not run.
    for (const IsaInfo& i : isa_table())
        if (i.arch == build_arch() && i.rank > d->rank) {
            EXPECT_FALSE(cpu_runs(i.isa)) << i.name << " runs but " << d->name << " was detected";
        }
}

TEST(KernelNaming, EveryRegisteredNameIsItsKeyAndParsesBack) {
    ASSERT_FALSE(default_registry().kernels().empty());
    for (const Kernel& k : default_registry().kernels()) {
        EXPECT_EQ(k.name, kernel_name(k.key) + (k.variant.empty() ? "" : "_" + k.variant));
        KernelKey parsed{};
        std::string variant = "unset";
        ASSERT_TRUE(parse_kernel_name(k.name, &parsed, &variant)) << k.name;
        EXPECT_TRUE(parsed == k.key) << k.name;
        EXPECT_EQ(variant, k.variant) << k.name;
    }
    KernelKey ignored{};
    EXPECT_FALSE(parse_kernel_name("matmul_wt_q4_0_rm_q8_0_avx1024", &ignored));
    EXPECT_FALSE(parse_kernel_name("q4_0_q8_0_avx2", &ignored));
}

TEST(KernelNaming, EveryRegisteredQuantizerIsNamedForItsFormatAndTier) {
    for (const ActivationQuantizer& q : default_registry().quantizers())
        EXPECT_EQ(q.name, quantizer_name(q.format, q.isa));
}

}  // namespace
}  // namespace skn_core
