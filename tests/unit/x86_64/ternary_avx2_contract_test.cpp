// SPDX-License-Identifier: MIT
// x86's avx2 ternary and low-bit kernels (TQ2_0, TQ1_0, I2_S in both layouts, Q1_0, Q2_0) give the bits of the
// 8-lane contract written out in support/low_bit_contract.cpp, the one the
// NEON ternary kernels are held to (tests/unit/aarch64/neon_low_bit_test.cpp):
// so arm64 and x86-64's avx2 tier agree bit for bit on the same bytes. Both
// block orders, quantized and random-byte blocks (every code), I2_S with a
// tensor scale that makes the final multiply round.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/low_bit_contract.hpp"

namespace skn_core {
namespace {

constexpr float kI2sScale = 0.7f;

std::vector<const Kernel*> avx2_ternary_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if (k.key.isa == SKN_ISA_AVX2 && k.key.activation == find_format(k.key.weight)->activation &&
            (k.key.weight == FormatId::TQ2_0 || k.key.weight == FormatId::TQ1_0 || k.key.weight == FormatId::I2_S ||
             k.key.weight == FormatId::I2_S_G64 || k.key.weight == FormatId::Q1_0 || k.key.weight == FormatId::Q2_0))
            out.push_back(&k);
    return out;
}

class TernaryAvx2Contract : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(TernaryAvx2Contract, GivesTheNeonKernelsContractBits) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    int case_index = 0;
    int checked = 0;
    for (bool random_blocks : {false, true})
        for (int64_t out : {7, 33})
            for (int64_t bpr : {3, 5}) {
                const test::TestWeight tw(f, out, bpr, LayoutClass::BlockedRowMajor, 40 + uint64_t(case_index),
                                          random_blocks);
                std::vector<uint8_t> rm = tw.rm;
                Scope scope;
                View w;
                ASSERT_TRUE(test::ternary_view(f, rm, out, tw.in, k.key.layout, kI2sScale, &scope, &w));
                for (int64_t n : {1, 2, 5}) {
                    ++case_index;
                    std::vector<float> x(size_t(n * tw.in));
                    sample_weight(x.data(), n, tw.in, 500 + uint64_t(case_index));
                    const std::vector<float> want =
                        test::low_bit_contract_y(f, rm.data(), out, tw.in, x, n, nullptr, kI2sScale);
                    std::vector<float> y(want.size(), -7.0f);
                    test::run_with_kernel(k, w, x.data(), n, tw.in, nullptr, y.data(), out, 1);
                    ++checked;
                    for (size_t e = 0; e < y.size(); ++e)
                        ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                            << k.name << (random_blocks ? " random blocks" : " quantized") << " out=" << out
                            << " bpr=" << bpr << " n=" << n << " at [" << e / size_t(out) << ", " << e % size_t(out)
                            << "]: " << y[e] << " vs " << want[e];
                }
            }
    EXPECT_EQ(checked, 24);
}

INSTANTIATE_TEST_SUITE_P(Avx2Kernels, TernaryAvx2Contract, ::testing::ValuesIn(avx2_ternary_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

}  // namespace
}  // namespace skn_core
