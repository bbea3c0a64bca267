// SPDX-License-Identifier: MIT
// The NEON fast ternary and low-bit kernels (src/kernels/aarch64/low_bit:
// TQ2_0, TQ1_0, I2_S, Q1_0, Q2_0) against the accumulation contract they
// share with x86's avx2 ternary kernels (src/kernels/aarch64/low_bit/kernels.hpp,
// docs/kernels/neon.md): y is computed (support/low_bit_contract.cpp) from the
// codec's decoder (a TQ, Q1_0 or Q2_0 block decoded with d = 1, an I2_S block
// with tensor scale 1, gives the exact values: code - 1, TQ2_0's and Q2_0's
// code 3 as +2, I2_S's as 0, Q1_0's bits as +-1) and the contract's 8 integer lanes and
// float steps written out (std::fma, one rounding per product), and every
// NEON kernel — both tiers, both block orders, one and three threads — must
// give those bits exactly. Equal to one reference, the kernels are equal to
// each other across orders, thread counts and tiers. Blocks are quantizer
// output, random bytes (every code, TQ1_0 bytes >= 243, odd and negative
// scales) and, in NeonTernaryExtremes, all-0xFF / all-zero code bytes with
// fp16 scales from 2^-24 to 65504 against activations quantizing to -128
// and +-127.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/half.hpp"
#include "formats/tensor_codec.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/low_bit_contract.hpp"

namespace skn_core {
namespace {

// I2_S's tensor scale in these tests: not a power of two, so the final
// multiply rounds.
constexpr float kI2sScale = 0.7f;

bool is_neon_tier(skn_isa isa) { return isa == SKN_ISA_NEON || isa == SKN_ISA_NEON_DOTPROD; }

constexpr FormatId kFamily[] = {FormatId::TQ2_0, FormatId::TQ1_0, FormatId::I2_S, FormatId::Q1_0, FormatId::Q2_0,
                                FormatId::I2_S_G64};

bool is_ternary(FormatId f) { return std::find(std::begin(kFamily), std::end(kFamily), f) != std::end(kFamily); }

std::vector<const Kernel*> neon_ternary_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if (is_neon_tier(k.key.isa) && is_ternary(k.key.weight) &&
            k.key.activation == find_format(k.key.weight)->activation)  // fast precision, not exact
            out.push_back(&k);
    return out;
}

void expect_contract_bits(const Kernel& k, const View& w, const std::vector<float>& want, const std::vector<float>& x,
                          int64_t n, int64_t in, const float* bias, int64_t out, const std::string& what,
                          int* checked) {
    for (int threads : {1, 3}) {
        std::vector<float> y(want.size(), -7.0f);
        test::run_with_kernel(k, w, x.data(), n, in, bias, y.data(), out, threads);
        ++*checked;
        for (size_t e = 0; e < y.size(); ++e)
            ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                << k.name << " " << what << " n=" << n << " threads=" << threads << " at [" << e / size_t(out) << ", "
                << e % size_t(out) << "]: " << y[e] << " vs " << want[e];
    }
}

class NeonTernaryContract : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(NeonTernaryContract, GivesTheContractsBitsInBothOrdersAndThreadCounts) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    int case_index = 0;
    int checked = 0;
    for (bool random_blocks : {false, true})
        for (int64_t out : {1, 7, 33})
            for (int64_t bpr : {1, 3, 5}) {
                // One weight serves every n: quantizing it is most of the cost under qemu.
                const test::TestWeight tw(f, out, bpr, LayoutClass::BlockedRowMajor, 90 + uint64_t(case_index),
                                          random_blocks);
                std::vector<uint8_t> rm = tw.rm;
                Scope scope;
                View w;
                if (!test::ternary_view(f, rm, out, tw.in, k.key.layout, kI2sScale, &scope, &w)) {
                    case_index += 5;
                    continue;
                }
                for (int64_t n = 1; n <= 5; ++n) {
                    ++case_index;
                    std::vector<float> x(size_t(n * tw.in)), bias(static_cast<size_t>(out));
                    sample_weight(x.data(), n, tw.in, 700 + uint64_t(case_index));
                    for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.125f * float(o % 7) - 0.375f;
                    const float* b = case_index % 2 ? bias.data() : nullptr;
                    const std::vector<float> want =
                        test::low_bit_contract_y(f, rm.data(), out, tw.in, x, n, b, kI2sScale);
                    expect_contract_bits(k, w, want, x, n, tw.in, b, out,
                                         std::string(random_blocks ? "random blocks" : "quantized") +
                                             " out=" + std::to_string(out) + " bpr=" + std::to_string(bpr),
                                         &checked);
                    if (HasFatalFailure()) return;
                }
            }
    EXPECT_GT(checked, 100) << k.name << ": too few shapes had this kernel's layout class";
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonTernaryContract, ::testing::ValuesIn(neon_ternary_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

TEST(NeonTernaryContract, EveryFormatHasBothTiersInBothOrders) {
    for (FormatId id : kFamily)
        for (skn_isa isa : {SKN_ISA_NEON, SKN_ISA_NEON_DOTPROD})
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
                EXPECT_NE(test::find_kernel(id, c, find_format(id)->activation, isa), nullptr)
                    << find_format(id)->name << ": no kernel at " << isa_tag(isa) << " " << layout_tag(c);
}

// Raw blocks: row o % 4 == 0 all code bytes 0xFF (TQ2_0 / I2_S / Q2_0 code 3,
// TQ1_0 byte 255, Q1_0 all +1), == 1 all 0x00, else random bytes; fp16 scales cycle through 1,
// -0.5, 65504 and 2^-24. Activation rows: noise, a constant negative row
// (Q8_K: -128), +-500 alternating (+-127), +-1 with a spike of 127.
class NeonTernaryExtremes : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(NeonTernaryExtremes, ExtremeBlocksGiveTheContractsBits) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    constexpr int64_t kOut = 9, kBpr = 3;
    const int64_t in = kBpr * f.block_elems;
    std::vector<uint8_t> rm(quantized_size(f, kOut, in), 0);
    uint64_t s = 0x9E3779B97F4A7C15ull;
    const float scales[4] = {1.0f, -0.5f, 65504.0f, 0x1p-24f};
    for (int64_t o = 0; o < kOut; ++o)
        for (int64_t b = 0; b < kBpr; ++b) {
            uint8_t* blk = rm.data() + (o * kBpr + b) * f.block_bytes;
            for (int64_t j = 0; j < f.block_bytes; ++j) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                blk[j] = o % 4 == 0 ? 0xFF : o % 4 == 1 ? 0x00 : uint8_t(s >> 56);
            }
            if (f.tensor_trailer_bytes == 0) store_fp16(blk + test::ternary_d_at(f.id), scales[(o + b) % 4]);
        }
    Scope scope;
    View w;
    ASSERT_TRUE(test::ternary_view(f, rm, kOut, in, k.key.layout, kI2sScale, &scope, &w));
    int checked = 0;
    for (int64_t n : {1, 5}) {
        std::vector<float> x(size_t(n * in));
        sample_weight(x.data(), n, in, 77);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t e = 0; e < in; ++e) {
                float& v = x[size_t(i * in + e)];
                if (i % 4 == 1) v = -3.0f;
                if (i % 4 == 2) v = e % 2 ? -500.0f : 500.0f;
                if (i % 4 == 3) v = e % 32 == 7 ? 127.0f : (e % 3 ? -1.0f : 1.0f);
            }
        const std::vector<float> want = test::low_bit_contract_y(f, rm.data(), kOut, in, x, n, nullptr, kI2sScale);
        expect_contract_bits(k, w, want, x, n, in, nullptr, kOut, "extreme blocks", &checked);
        if (HasFatalFailure()) return;
    }
    EXPECT_EQ(checked, 4);
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonTernaryExtremes, ::testing::ValuesIn(neon_ternary_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

}  // namespace
}  // namespace skn_core
