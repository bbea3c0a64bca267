// SPDX-License-Identifier: MIT
// The NEON fast K-quant kernels (src/kernels/aarch64/superblock) against the
// accumulation contract they share with x86's K-quant kernels
// (docs/kernels/superblock.md, docs/kernels/neon.md): y is computed here from
// the codec's decoder (a block decoded with d = 1, dmin = 0 gives the exact
// integers sc * q, with d = 0, dmin = 1 the negated mins) and the contract's
// float steps written out (std::fma, one rounding per product), and every
// NEON kernel — every tier (neoni8mm's SMMLA pairs of activation rows for
// Q4_K, Q5_K, Q6_K: n = 1 .. 9 gives pairs, pairs of pairs and an odd row
// left to the dotprod path), both block orders, one and three threads — must
// give those bits exactly. Equal to one reference, the kernels are equal to
// each other across orders, thread counts and tiers; since x86's avx2 /
// avx512 / avx512vnni kernels follow the same contract, arm64 and x86-64
// agree bit for bit. Blocks are quantizer output and random bytes (every
// code, odd scales and mins, negative d).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/half.hpp"
#include "runtime/cpu.hpp"
#include "support/contract_cases.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

constexpr int64_t kSuper = 256;
constexpr int64_t kQ8kBytes = 292;

bool is_neon_tier(skn_isa isa) {
    return isa == SKN_ISA_NEON || isa == SKN_ISA_NEON_DOTPROD || isa == SKN_ISA_NEON_I8MM;
}

// The K-quant family's formats (other families pair with Q8_K too: grid, ternary).
bool is_kquant(FormatId f) {
    switch (f) {
        case FormatId::Q2_K:
        case FormatId::Q3_K:
        case FormatId::Q4_K:
        case FormatId::Q5_K:
        case FormatId::Q6_K:
        case FormatId::IQ4_XS: return true;
        default: return false;
    }
}

std::vector<const Kernel*> neon_kquant_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if (is_neon_tier(k.key.isa) && k.key.activation == FormatId::Q8_K && is_kquant(k.key.weight))
            out.push_back(&k);
    return out;
}

// Where a format keeps its fp16 d and (affine formats) dmin.
struct Scales {
    int d_at;
    int dmin_at;  // -1: symmetric
};

Scales scales_of(FormatId f) {
    switch (f) {
        case FormatId::Q2_K: return {80, 82};
        case FormatId::Q3_K: return {108, -1};
        case FormatId::Q4_K:
        case FormatId::Q5_K: return {0, 2};
        case FormatId::Q6_K: return {208, -1};
        case FormatId::IQ4_XS: return {0, -1};
        default: ADD_FAILURE() << "no K-quant facts for format " << int(f); return {0, -1};
    }
}

// The 256 values of a block decoded with d and dmin replaced: exact small
// integers for (1, 0) and (0, 1).
void block_values(const FormatTraits& f, const uint8_t* blk, float d, float dmin, float* values) {
    const Scales s = scales_of(f.id);
    std::vector<uint8_t> b(blk, blk + f.block_bytes);
    store_fp16(b.data() + s.d_at, d);
    if (s.dmin_at >= 0) store_fp16(b.data() + s.dmin_at, dmin);
    f.decode(b.data(), 1, 1.0f, values);
}

// y[n, out] by the contract, from ROW_MAJOR weight bytes.
std::vector<float> contract_y(const FormatTraits& f, const std::vector<uint8_t>& rm, int64_t out, int64_t in,
                              const std::vector<float>& x, int64_t n, const float* bias) {
    const FormatTraits& act = *find_format(FormatId::Q8_K);
    const Scales sc = scales_of(f.id);
    const int64_t bpr = in / kSuper;
    std::vector<uint8_t> xq(size_t(n * bpr * kQ8kBytes));
    for (int64_t i = 0; i < n; ++i) act.quantize_row(x.data() + i * in, in, xq.data() + i * bpr * kQ8kBytes);
    std::vector<float> y(size_t(n * out));
    float sq[kSuper], negm[kSuper];
    for (int64_t o = 0; o < out; ++o)
        for (int64_t i = 0; i < n; ++i) {
            float acc = 0.0f;
            for (int64_t b = 0; b < bpr; ++b) {
                const uint8_t* wb = rm.data() + (o * bpr + b) * f.block_bytes;
                const uint8_t* xb = xq.data() + (i * bpr + b) * kQ8kBytes;
                block_values(f, wb, 1.0f, 0.0f, sq);
                if (sc.dmin_at >= 0) block_values(f, wb, 0.0f, 1.0f, negm);
                int64_t s = 0, m = 0;
                for (int e = 0; e < kSuper; ++e) {
                    const int64_t q = int8_t(xb[4 + e]);
                    s += int64_t(sq[e]) * q;
                    if (sc.dmin_at >= 0) m -= int64_t(negm[e]) * q;
                }
                float dx;
                std::memcpy(&dx, xb, 4);
                const float ddx = load_fp16(wb + sc.d_at) * dx;
                if (sc.dmin_at >= 0) {
                    const float t = float(m) * (load_fp16(wb + sc.dmin_at) * dx);
                    acc = acc + std::fma(float(s), ddx, -t);
                } else {
                    acc = std::fma(float(s), ddx, acc);
                }
            }
            y[size_t(i * out + o)] = bias != nullptr ? acc + bias[o] : acc;
        }
    return y;
}

class NeonKquantContract : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(NeonKquantContract, GivesTheContractsBitsInBothOrdersAndThreadCounts) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    test::ContractCases cases;
    cases.max_n = 9;
    cases.weight_seed = 90;
    cases.x_seed = 700;
    const FormatTraits& f = *find_format(k.key.weight);
    const int checked = test::check_contract_cases(k, cases, [&](const test::TestWeight& w, const std::vector<float>& x,
                                                                 int64_t n, const float* bias) {
        return contract_y(f, w.rm, w.out, w.in, x, n, bias);
    });
    EXPECT_GT(checked, 100) << k.name << ": too few shapes had this kernel's layout class";
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonKquantContract, ::testing::ValuesIn(neon_kquant_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

TEST(NeonKquantContract, EveryFormatHasBothTiersInBothOrders) {
    const std::vector<const Kernel*> ks = neon_kquant_kernels();
    ASSERT_FALSE(ks.empty()) << "the aarch64 provider registers no K-quant kernel";
    for (const Kernel* k : ks)
        for (skn_isa isa : {SKN_ISA_NEON, SKN_ISA_NEON_DOTPROD})
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
                EXPECT_NE(test::find_kernel(k->key.weight, c, FormatId::Q8_K, isa), nullptr)
                    << k->name << ": no twin at " << isa_tag(isa) << " " << layout_tag(c);
    for (FormatId f : {FormatId::Q4_K, FormatId::Q5_K, FormatId::Q6_K})
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
            EXPECT_NE(test::find_kernel(f, c, FormatId::Q8_K, SKN_ISA_NEON_I8MM), nullptr)
                << find_format(f)->name << ": no neoni8mm kernel in " << layout_tag(c);
}

}  // namespace
}  // namespace skn_core
