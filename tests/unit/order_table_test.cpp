// SPDX-License-Identifier: MIT
// skn_prepack_for_matmul chooses between block orders from measurements
// (src/dispatch/order_table.inc). The table must speak for every kernel pair
// it decides between: a format and SIMD tier with fast kernels in both orders
// and no measured rows would silently keep whatever order the weight came in,
// unless order_table_unmeasured.inc states its architecture not measured.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/kernel.hpp"
#include "dispatch/matmul.hpp"
#include "dispatch/order_preference.hpp"
#include "dispatch/registry.hpp"
#include "runtime/isa.hpp"

namespace skn_core {
namespace {

TEST(OrderTable, EveryFormatAndTierWithKernelsInBothOrdersIsMeasured) {
    // (format, tier) pairs with a fast SIMD kernel, per order.
    std::set<std::pair<std::string, std::string>> rm, ibm;
    for (const Kernel& k : default_registry().kernels()) {
        if (k.key.isa == SKN_ISA_SCALAR) continue;
        const FormatTraits& f = *find_format(k.key.weight);
        if (!f.block_quantized || k.key.activation != activation_for(f, Precision::Fast)) continue;
        const auto key = std::make_pair(std::string(f.name), std::string(isa_tag(k.key.isa)));
        if (k.key.layout == LayoutClass::BlockedRowMajor) rm.insert(key);
        if (k.key.layout == LayoutClass::BlockedInputMajor) ibm.insert(key);
    }
    std::set<std::pair<std::string, std::string>> gemv, gemm;
    for (const OrderMeasurement& m : order_table()) {
        EXPECT_GT(m.row_major, 0.0) << m.format << " " << m.isa;
        EXPECT_GT(m.input_block_major, 0.0) << m.format << " " << m.isa;
        (m.regime == BatchRegime::Gemv ? gemv : gemm).insert({m.format, m.isa});
    }
    // A pair on an architecture the table states not measured
    // (order_table_unmeasured.inc) must have no rows: rows there mean the
    // statement is stale. Every other pair needs both regimes.
    int measured = 0;
    for (const auto& key : rm) {
        if (ibm.count(key) == 0) continue;
        if (order_unmeasured_reason(key.second.c_str()) != nullptr) {
            EXPECT_EQ(gemv.count(key) + gemm.count(key), 0u)
                << key.first << " at " << key.second << " has rows, but order_table_unmeasured.inc states its "
                << "architecture not measured: drop that line";
            continue;
        }
        ++measured;
        EXPECT_EQ(gemv.count(key), 1u) << key.first << " at " << key.second
                                       << " has SIMD kernels in both orders but no n = 1 row in order_table.inc: run "
                                          "skn bench --order-table (docs/performance.md)";
        EXPECT_EQ(gemm.count(key), 1u) << key.first << " at " << key.second
                                       << " has SIMD kernels in both orders but no n >= 32 row in order_table.inc";
    }
    // x86-64 is measured: its pairs were all checked above, and there are some.
    if (build_arch() == Arch::X86_64) {
        EXPECT_GT(measured, 0);
    }
}

// The table's statement about the architecture this library was built for:
// arm64 has not been measured (and so keeps every weight's order), x86-64 has.
TEST(OrderTable, StatesWhetherTheBuildArchitectureIsMeasured) {
    std::vector<const IsaInfo*> tiers;
    for (const IsaInfo& i : isa_table())
        if (i.arch == build_arch()) tiers.push_back(&i);
    if (tiers.empty()) GTEST_SKIP() << "this build has no SIMD tiers (portable provider)";
    for (const IsaInfo* i : tiers) {
        const char* reason = order_unmeasured_reason(i->name);
        switch (build_arch()) {
            case Arch::Aarch64:
                ASSERT_NE(reason, nullptr) << i->name << ": aarch64 is stated not measured until arm64 rows exist";
                EXPECT_NE(std::string(reason).find("arm64"), std::string::npos) << reason;
                for (const OrderMeasurement& m : order_table()) EXPECT_NE(m.isa, i->name);
                break;
            case Arch::X86_64:
                EXPECT_EQ(reason, nullptr) << i->name << ": x86-64 is measured, yet stated not measured: " << reason;
                break;
            case Arch::Any:
                break;
        }
    }
    // The measured architecture's decisions come from its rows: at avx512vnni
    // Q4_0 is INPUT_BLOCK_MAJOR in the checked-in table; an unmeasured tier
    // decides nothing.
    if (build_arch() == Arch::X86_64) {
        EXPECT_EQ(measured_faster_order(order_table(), *find_format(FormatId::Q4_0), "avx512vnni"),
                  std::optional<BlockOrder>(BlockOrder::InputBlockMajor));
    }
    EXPECT_EQ(measured_faster_order(order_table(), *find_format(FormatId::Q4_0), "neondotprod"), std::nullopt);
}

TEST(OrderTable, RowsNameKnownFormatsAndTiers) {
    std::set<std::string> tiers;
    for (const IsaInfo& i : isa_table()) tiers.insert(i.name);
    for (const OrderMeasurement& m : order_table()) {
        EXPECT_NE(find_format_by_name(m.format.c_str()), nullptr) << m.format;
        EXPECT_EQ(tiers.count(m.isa), 1u) << m.format << ": " << m.isa << " is not a tier of runtime/isa_table.def";
    }
    std::set<std::string> archs;
    for (const IsaInfo& i : isa_table())
        if (i.arch != Arch::Any) archs.insert(arch_name(i.arch));
    for (const std::string& a : order_unmeasured_architectures())
        EXPECT_EQ(archs.count(a), 1u) << a << " is not an architecture of runtime/isa_table.def";
    EXPECT_EQ(order_unmeasured_reason("scalar"), nullptr);
    EXPECT_EQ(order_unmeasured_reason("no-such-tier"), nullptr);
}

}  // namespace
}  // namespace skn_core
