// SPDX-License-Identifier: MIT
// The NEON fast NVFP4 kernels (src/kernels/aarch64/nvfp4) against the
// accumulation contract they share with x86's avx2 NVFP4 kernel
// (src/kernels/aarch64/nvfp4/kernels.hpp, docs/kernels/nvfp4.md,
// docs/kernels/neon.md): y is computed here from the codec's decoder (a block
// whose four scales are set to 2, a half scale of 1, decodes to the doubled
// E2M1 integers) and its UE4M3 half scales, with the contract's eight integer
// lanes, float steps (std::fma, one rounding per product) and final tree
// written out, and every NEON kernel — both tiers, both block orders, one
// and three threads — must give those bits exactly. Blocks are quantizer
// output and random bytes (NeonNvfp4Contract), and hand-built extremes
// against saturated activations (NeonNvfp4Extremes).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/half.hpp"
#include "formats/microscaling.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "support/contract_cases.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

constexpr int64_t kBlock = 64, kSub = 16, kQ80Bytes = 34;
constexpr int kLanes = 8;
constexpr uint8_t kUe4m3Two = 0x40;  // E = 8, M = 0: 2, half scale 1

bool is_neon_tier(skn_isa isa) { return isa == SKN_ISA_NEON || isa == SKN_ISA_NEON_DOTPROD; }

std::vector<const Kernel*> neon_nvfp4_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if (is_neon_tier(k.key.isa) && k.key.weight == FormatId::NVFP4 && k.key.activation == FormatId::Q8_0)
            out.push_back(&k);  // fast precision (exact: neon_exact_test.cpp)
    return out;
}

// The 64 doubled E2M1 integers of a block (-12..12).
void block_values(const FormatTraits& f, const uint8_t* blk, float* values) {
    std::vector<uint8_t> b(blk, blk + f.block_bytes);
    for (int s = 0; s < 4; ++s) b[size_t(s)] = kUe4m3Two;
    f.decode(b.data(), 1, 1.0f, values);
}

// Element e (0..63) of lane k: sub-block k / 2, elements 4 (k % 2) + {0..3, 8..11} of it.
bool in_lane(int k, int e) {
    const int sub = e / kSub, j = e % kSub;
    return sub == k / 2 && (j % 8) / 4 == k % 2;
}

// y[n, out] by the contract, from ROW_MAJOR weight bytes.
std::vector<float> contract_y(const FormatTraits& f, const std::vector<uint8_t>& rm, int64_t out, int64_t in,
                              const std::vector<float>& x, int64_t n, const float* bias) {
    const FormatTraits& act = *find_format(FormatId::Q8_0);
    const int64_t bpr = in / kBlock, xrow = 2 * bpr * kQ80Bytes;
    std::vector<uint8_t> xq(size_t(n * xrow));
    for (int64_t i = 0; i < n; ++i) act.quantize_row(x.data() + i * in, in, xq.data() + i * xrow);
    std::vector<float> y(size_t(n * out));
    float v[kBlock];
    for (int64_t o = 0; o < out; ++o)
        for (int64_t i = 0; i < n; ++i) {
            float acc[kLanes] = {};
            for (int64_t b = 0; b < bpr; ++b) {
                const uint8_t* wb = rm.data() + (o * bpr + b) * f.block_bytes;
                block_values(f, wb, v);
                for (int k = 0; k < kLanes; ++k) {
                    const uint8_t* xb = xq.data() + i * xrow + (2 * b + k / 4) * kQ80Bytes;
                    int32_t sumi = 0;
                    for (int e = 0; e < kBlock; ++e)
                        if (in_lane(k, e)) sumi += int32_t(v[e]) * int8_t(xb[2 + e % 32]);
                    const float scale = ue4m3_to_f32_half(wb[k / 2]) * load_fp16(xb);
                    acc[k] = std::fma(float(sumi), scale, acc[k]);
                }
            }
            const float s =
                ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
            y[size_t(i * out + o)] = bias != nullptr ? s + bias[o] : s;
        }
    return y;
}

class NeonNvfp4Contract : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(NeonNvfp4Contract, GivesTheContractsBitsInBothOrdersAndThreadCounts) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    test::ContractCases cases;
    cases.max_n = 5;
    cases.weight_seed = 50;
    cases.x_seed = 500;
    const FormatTraits& f = *find_format(k.key.weight);
    const int checked = test::check_contract_cases(k, cases, [&](const test::TestWeight& w, const std::vector<float>& x,
                                                                 int64_t n, const float* bias) {
        return contract_y(f, w.rm, w.out, w.in, x, n, bias);
    });
    EXPECT_GT(checked, 50) << k.name << ": too few shapes had this kernel's layout class";
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonNvfp4Contract, ::testing::ValuesIn(neon_nvfp4_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

// Extremes, 17 rows x 5 blocks. Rows 0..12: scale slot k (row, block,
// sub-block) holds byte k mod 256, so every UE4M3 byte appears (0x00, the
// subnormals 0x01..0x07, 0x7E = 448, the NaN pattern 0x7F, bit 7 set), and
// code byte j of block (o, b) is (o * 97 + b * 31 + j * 13) mod 256. Row 13:
// +6 everywhere at scale 0x7E; row 14: -6 everywhere at 0xFF (480); row 15:
// scales 0x7F (decode to 0); row 16: +-6 alternating at the smallest
// subnormal scale 0x01.
constexpr int64_t kEdgeOut = 17, kEdgeBpr = 5;

std::vector<uint8_t> edge_weight(int64_t block_bytes) {
    std::vector<uint8_t> w(size_t(kEdgeOut * kEdgeBpr * block_bytes));
    for (int64_t o = 0; o < kEdgeOut; ++o)
        for (int64_t b = 0; b < kEdgeBpr; ++b) {
            uint8_t* blk = w.data() + (o * kEdgeBpr + b) * block_bytes;
            static constexpr uint8_t kRowScale[4] = {0x7E, 0xFF, 0x7F, 0x01};
            static constexpr uint8_t kRowCodes[4][2] = {{0x77, 0x77}, {0xFF, 0xFF}, {0x77, 0x77}, {0x7F, 0xF7}};
            for (int s = 0; s < 4; ++s)
                blk[s] = o < 13 ? uint8_t(((o * kEdgeBpr + b) * 4 + s) % 256) : kRowScale[o - 13];
            for (int j = 0; j < 32; ++j)
                blk[4 + j] = o < 13 ? uint8_t((o * 97 + b * 31 + j * 13) % 256) : kRowCodes[o - 13][j % 2];
        }
    return w;
}

// Activation rows: noise, +127 everywhere, +-127 alternating, and blocks of
// +-1 with one 127 (a tiny d_x).
std::vector<float> edge_activations(int64_t n, int64_t in) {
    std::vector<float> x(size_t(n * in));
    sample_weight(x.data(), n, in, 4243);
    for (int64_t i = 0; i < n; ++i) {
        float* row = x.data() + i * in;
        for (int64_t k = 0; k < in; ++k) {
            if (i % 4 == 1) row[k] = 3.0f;
            if (i % 4 == 2) row[k] = k % 3 ? -1e3f : 1e3f;
            if (i % 4 == 3) row[k] = k % 32 == 5 ? 127.0f : (k % 2 ? -1.0f : 1.0f);
        }
    }
    return x;
}

class NeonNvfp4Extremes : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(NeonNvfp4Extremes, GiveTheContractsBits) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(FormatId::NVFP4);
    const int64_t in = kEdgeBpr * kBlock;
    const std::vector<uint8_t> rm = edge_weight(f.block_bytes);
    const int64_t shape[2] = {kEdgeOut, in};
    Scope scope;
    View w = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
    if (k.key.layout == LayoutClass::BlockedInputMajor) {
        View packed;
        prepack(w, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &packed);
        w = packed;
    }
    ASSERT_EQ(w.layout.layout_class(), k.key.layout);
    // The hand-built rows reach the extremes they are built for.
    float v[kBlock];
    const auto first_value = [&](int64_t o) {
        f.decode(rm.data() + o * kEdgeBpr * f.block_bytes, 1, 1.0f, v);
        return v[0];
    };
    ASSERT_EQ(first_value(13), 6.0f * 448.0f);
    ASSERT_EQ(first_value(14), -6.0f * 480.0f);
    ASSERT_EQ(first_value(15), 0.0f);
    ASSERT_EQ(first_value(16), -6.0f * 0x1p-9f);
    std::vector<float> bias(static_cast<size_t>(kEdgeOut));
    for (int64_t o = 0; o < kEdgeOut; ++o) bias[size_t(o)] = 0.5f * float(o % 3) - 0.5f;
    for (int64_t n : {1, 4, 5}) {
        const std::vector<float> x = edge_activations(n, in);
        const std::vector<float> want = contract_y(f, rm, kEdgeOut, in, x, n, bias.data());
        for (int threads : {1, 3}) {
            std::vector<float> y(want.size(), -7.0f);
            test::run_with_kernel(k, w, x.data(), n, in, bias.data(), y.data(), kEdgeOut, threads);
            for (size_t e = 0; e < y.size(); ++e)
                ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                    << k.name << " n=" << n << " threads=" << threads << " at [" << e / size_t(kEdgeOut) << ", "
                    << e % size_t(kEdgeOut) << "]: " << y[e] << " vs " << want[e];
        }
    }
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonNvfp4Extremes, ::testing::ValuesIn(neon_nvfp4_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

TEST(NeonNvfp4Contract, BothTiersInBothOrders) {
    for (skn_isa isa : {SKN_ISA_NEON, SKN_ISA_NEON_DOTPROD})
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
            EXPECT_NE(test::find_kernel(FormatId::NVFP4, c, FormatId::Q8_0, isa), nullptr)
                << "no NVFP4 kernel at " << isa_tag(isa) << " " << layout_tag(c);
}

}  // namespace
}  // namespace skn_core
