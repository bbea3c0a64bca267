// SPDX-License-Identifier: MIT
// The NEON fast ternary kernels (src/kernels/aarch64/ternary) against the
// accumulation contract they share with x86's avx2 ternary kernels
// (src/kernels/aarch64/ternary/kernels.hpp, docs/kernels/neon.md): y is
// computed here from the codec's decoder (a TQ block decoded with d = 1, an
// I2_S block with tensor scale 1, gives the exact values code - 1, TQ2_0's
// code 3 as +2 and I2_S's as 0) and the contract's 8 integer lanes and
// float steps written out (std::fma, one rounding per product), and every
// NEON kernel — both tiers, both block orders, one and three threads — must
// give those bits exactly. Equal to one reference, the kernels are equal to
// each other across orders, thread counts and tiers. Blocks are quantizer
// output, random bytes (every code, TQ1_0 bytes >= 243, odd and negative
// scales) and, in NeonTernaryExtremes, all-0xFF / all-zero code bytes with
// fp16 scales from 2^-24 to 65504 against activations quantizing to -128
// and +-127.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/half.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "layout/view.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

constexpr int64_t kQ8kBytes = 292, kQ80Bytes = 34;
// I2_S's tensor scale in these tests: not a power of two, so the final
// multiply rounds.
constexpr float kI2sScale = 0.7f;

bool is_neon_tier(skn_isa isa) { return isa == SKN_ISA_NEON || isa == SKN_ISA_NEON_DOTPROD; }

bool is_ternary(FormatId f) { return f == FormatId::TQ2_0 || f == FormatId::TQ1_0 || f == FormatId::I2_S; }

std::vector<const Kernel*> neon_ternary_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if (is_neon_tier(k.key.isa) && is_ternary(k.key.weight)) out.push_back(&k);
    return out;
}

// Byte offset of a TQ block's fp16 d.
int d_at(FormatId f) { return f == FormatId::TQ2_0 ? 64 : 52; }

// The block's values as exact small integers: TQ with d = 1, I2_S with
// tensor scale 1.
void block_values(const FormatTraits& f, const uint8_t* blk, int* values) {
    std::vector<uint8_t> b(blk, blk + f.block_bytes);
    if (f.id != FormatId::I2_S) store_fp16(b.data() + d_at(f.id), 1.0f);
    float v[256];
    f.decode(b.data(), 1, 1.0f, v);
    for (int64_t e = 0; e < f.block_elems; ++e) values[e] = int(v[e]);
}

// The contract's 8 lanes, their float steps and the fixed lane sum:
// y[n, out] from ROW_MAJOR weight bytes (I2_S: codes, then the trailer).
std::vector<float> contract_y(const FormatTraits& f, const uint8_t* rm, int64_t out, int64_t in,
                              const std::vector<float>& x, int64_t n, const float* bias, float tensor_scale) {
    const FormatTraits& act = *find_format(f.activation);
    const bool q8k = f.activation == FormatId::Q8_K;
    const int64_t unit = q8k ? 256 : 32;  // elements per float step
    const int64_t unit_bytes = q8k ? kQ8kBytes : kQ80Bytes;
    const int64_t units = in / unit;
    std::vector<uint8_t> xq(size_t(n * units * unit_bytes));
    for (int64_t i = 0; i < n; ++i) act.quantize_row(x.data() + i * in, in, xq.data() + i * units * unit_bytes);
    std::vector<float> y(size_t(n * out));
    std::vector<int> values(static_cast<size_t>(in));
    for (int64_t o = 0; o < out; ++o) {
        const uint8_t* row = rm + o * (in / f.block_elems) * f.block_bytes;
        for (int64_t b = 0; b < in / f.block_elems; ++b)
            block_values(f, row + b * f.block_bytes, values.data() + b * f.block_elems);
        for (int64_t i = 0; i < n; ++i) {
            float acc[8] = {};
            for (int64_t u = 0; u < units; ++u) {
                const uint8_t* xb = xq.data() + (i * units + u) * unit_bytes;
                const uint8_t* q = xb + (q8k ? 4 : 2);
                int64_t lane[8] = {};
                for (int64_t e = 0; e < unit; ++e) lane[(e % 32) / 4] += int64_t(values[size_t(u * unit + e)]) * int8_t(q[e]);
                float scale;
                if (q8k) {
                    float dx;
                    std::memcpy(&dx, xb, 4);
                    scale = load_fp16(row + u * f.block_bytes + d_at(f.id)) * dx;
                } else {
                    scale = load_fp16(xb);
                }
                for (int j = 0; j < 8; ++j) acc[j] = std::fma(float(lane[j]), scale, acc[j]);
            }
            float s[4];
            for (int k = 0; k < 4; ++k) s[k] = acc[k] + acc[k + 4];
            float sum = (s[0] + s[2]) + (s[1] + s[3]);
            if (f.id == FormatId::I2_S) sum = sum * tensor_scale;
            y[size_t(i * out + o)] = bias != nullptr ? sum + bias[o] : sum;
        }
    }
    return y;
}

// ROW_MAJOR bytes as a view of class `cls` (I2_S: kI2sScale written to the
// trailer first). False when the shape's only layout is contiguous.
bool view_of(const FormatTraits& f, std::vector<uint8_t>& rm, int64_t out, int64_t in, LayoutClass cls, Scope* scope,
             View* v) {
    if (f.id == FormatId::I2_S) std::memcpy(rm.data() + size_t(out * in / 4), &kI2sScale, 4);
    const int64_t shape[2] = {out, in};
    *v = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
    if (cls == LayoutClass::BlockedInputMajor) {
        View packed;
        EXPECT_TRUE(prepack(*v, BlockOrder::InputBlockMajor, scope, TraceSink{}, &packed));
        *v = packed;
    }
    return v->layout.layout_class() == cls;
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
                if (!view_of(f, rm, out, tw.in, k.key.layout, &scope, &w)) {
                    case_index += 5;
                    continue;
                }
                for (int64_t n = 1; n <= 5; ++n) {
                    ++case_index;
                    std::vector<float> x(size_t(n * tw.in)), bias(static_cast<size_t>(out));
                    sample_weight(x.data(), n, tw.in, 700 + uint64_t(case_index));
                    for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.125f * float(o % 7) - 0.375f;
                    const float* b = case_index % 2 ? bias.data() : nullptr;
                    const std::vector<float> want = contract_y(f, rm.data(), out, tw.in, x, n, b, kI2sScale);
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
    for (FormatId id : {FormatId::TQ2_0, FormatId::TQ1_0, FormatId::I2_S})
        for (skn_isa isa : {SKN_ISA_NEON, SKN_ISA_NEON_DOTPROD})
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
                EXPECT_NE(test::find_kernel(id, c, find_format(id)->activation, isa), nullptr)
                    << find_format(id)->name << ": no kernel at " << isa_tag(isa) << " " << layout_tag(c);
}

// Raw blocks: row o % 4 == 0 all code bytes 0xFF (TQ2_0 / I2_S code 3, TQ1_0
// byte 255), == 1 all 0x00, else random bytes; fp16 scales cycle through 1,
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
            if (f.id != FormatId::I2_S) store_fp16(blk + d_at(f.id), scales[(o + b) % 4]);
        }
    Scope scope;
    View w;
    ASSERT_TRUE(view_of(f, rm, kOut, in, k.key.layout, &scope, &w));
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
        const std::vector<float> want = contract_y(f, rm.data(), kOut, in, x, n, nullptr, kI2sScale);
        expect_contract_bits(k, w, want, x, n, in, nullptr, kOut, "extreme blocks", &checked);
        if (HasFatalFailure()) return;
    }
    EXPECT_EQ(checked, 4);
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonTernaryExtremes, ::testing::ValuesIn(neon_ternary_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

}  // namespace
}  // namespace skn_core
