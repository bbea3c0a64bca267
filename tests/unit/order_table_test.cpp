// SPDX-License-Identifier: MIT
// skn_prepack_for_matmul chooses between block orders from measurements
// (src/dispatch/order_table.inc). The table must speak for every kernel pair
// it decides between: a format and SIMD tier with fast kernels in both orders
// and no measured rows would silently keep whatever order the weight came in.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

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
    int pairs = 0;
    for (const auto& key : rm) {
        if (ibm.count(key) == 0) continue;
        ++pairs;
        EXPECT_EQ(gemv.count(key), 1u) << key.first << " at " << key.second
                                       << " has SIMD kernels in both orders but no n = 1 row in order_table.inc: run "
                                          "skn bench --order-table (docs/performance.md)";
        EXPECT_EQ(gemm.count(key), 1u) << key.first << " at " << key.second
                                       << " has SIMD kernels in both orders but no n >= 32 row in order_table.inc";
    }
    if (pairs == 0) GTEST_SKIP() << "no format has SIMD kernels in both orders in this build (reference-only provider)";
}

TEST(OrderTable, RowsNameKnownFormatsAndTiers) {
    std::set<std::string> tiers;
    for (const IsaInfo& i : isa_table()) tiers.insert(i.name);
    for (const OrderMeasurement& m : order_table()) {
        EXPECT_NE(find_format_by_name(m.format.c_str()), nullptr) << m.format;
        EXPECT_EQ(tiers.count(m.isa), 1u) << m.format << ": " << m.isa << " is not a tier of runtime/isa_table.def";
    }
}

}  // namespace
}  // namespace skn_core
