// SPDX-License-Identifier: MIT
// The NEON fast kernels of the 32-element block formats (src/kernels/aarch64/
// q32) against the accumulation contract they share with x86's q32 kernels
// (docs/kernels/q32.md, docs/kernels/neon.md): y is computed here from the
// integer codes and fp16 scales with the contract's float steps written out
// (std::fma, one rounding per product; MXFP4's E8M0 byte becomes the power
// of two 2^(e - 128) against its doubled E2M1 values), and every NEON kernel
// — every tier (neoni8mm's SMMLA pairs of activation rows too: n = 2 and 4
// are all pairs, odd n leave a row to the dotprod path), both block orders,
// one and two threads — must give those
// bits exactly.
// Since x86's avx2 / avx512 / avx512vnni kernels follow the same contract,
// this is what makes arm64 and x86-64 agree bit for bit. Blocks are quantizer
// output and random bytes (Q8_0's -128, every nibble, odd scales, random
// E8M0 exponents, most of them far below 2^0).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/half.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

bool is_neon_tier(skn_isa isa) {
    return isa == SKN_ISA_NEON || isa == SKN_ISA_NEON_DOTPROD || isa == SKN_ISA_NEON_I8MM;
}

// The canonical formats' kernels. A row-interleaved twin's (Q4_0_R8 ...)
// must give its canonical kernel's bits at the same tier, which
// interleaved_bits_test.cpp checks, so it is held to this contract too.
std::vector<const Kernel*> neon_q32_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if (is_neon_tier(k.key.isa) && find_format(k.key.weight)->block_elems == 32 &&
            !find_format(k.key.weight)->interleaved() && k.key.activation != FormatId::F32)
            out.push_back(&k);
    return out;
}

// The _1 formats carry a minimum m after d and pair with Q8_1 activations.
bool has_min(FormatId f) { return f == FormatId::Q4_1 || f == FormatId::Q5_1; }

// MXFP4 keeps an E8M0 exponent byte e where the others keep an fp16 d; its
// values enter the integer dot as the E2M1 grid doubled (-12..12) and its
// scale as half the block's, 2^(e - 128).
bool is_mxfp4(FormatId f) { return f == FormatId::MXFP4; }

// The 32 integer values of a weight block: the block decoded with d = 1 and
// m = 0 (MXFP4: e = 128, a half scale of 1), which for every format here
// gives value * 1 exactly.
void block_values(const FormatTraits& f, const uint8_t* blk, float* values) {
    std::vector<uint8_t> b(blk, blk + f.block_bytes);
    if (is_mxfp4(f.id))
        b[0] = 128;
    else
        store_fp16(b.data(), 1.0f);
    if (has_min(f.id)) store_fp16(b.data() + 2, 0.0f);
    f.decode(b.data(), 1, 1.0f, values);
}

// d_w of a weight block (exact: a power of two for MXFP4, down to the
// subnormal 2^-128 for e = 0).
float weight_scale(const FormatTraits& f, const uint8_t* blk) {
    return is_mxfp4(f.id) ? std::ldexp(1.0f, int(blk[0]) - 128) : load_fp16(blk);
}

// y[n, out] by the contract, from ROW_MAJOR weight bytes.
std::vector<float> contract_y(const FormatTraits& f, const std::vector<uint8_t>& rm, int64_t out, int64_t in,
                              const std::vector<float>& x, int64_t n, const float* bias) {
    const FormatTraits& act = *find_format(f.activation);
    const int64_t bpr = in / 32, ab = act.block_bytes, aq = has_min(f.id) ? 4 : 2;
    std::vector<uint8_t> xq(size_t(n * bpr * ab));
    for (int64_t i = 0; i < n; ++i) act.quantize_row(x.data() + i * in, in, xq.data() + i * bpr * ab);
    std::vector<float> y(size_t(n * out));
    float w[32];
    for (int64_t o = 0; o < out; ++o)
        for (int64_t i = 0; i < n; ++i) {
            float acc = 0.0f;
            for (int64_t b = 0; b < bpr; ++b) {
                const uint8_t* wb = rm.data() + (o * bpr + b) * f.block_bytes;
                const uint8_t* xb = xq.data() + (i * bpr + b) * ab;
                block_values(f, wb, w);
                int32_t sumi = 0, sumx = 0;
                for (int j = 0; j < 32; ++j) {
                    const int32_t q = int8_t(xb[aq + j]);
                    sumi += int32_t(w[j]) * q;
                    sumx += q;
                }
                const float dw = weight_scale(f, wb), dx = load_fp16(xb);
                const float scale = dw * dx;
                acc = std::fma(scale, float(sumi), acc);
                if (has_min(f.id)) {
                    const float mx = dx * float(sumx);
                    acc = std::fma(load_fp16(wb + 2), mx, acc);
                }
            }
            y[size_t(i * out + o)] = bias != nullptr ? acc + bias[o] : acc;
        }
    return y;
}

class NeonQ32Contract : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(NeonQ32Contract, GivesTheContractsBitsInBothOrdersAndThreadCounts) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    int case_index = 0;
    for (bool random_blocks : {false, true})
        for (int64_t out : {1, 7, 33})
            for (int64_t bpr : {3, 5})
                for (int64_t n : {1, 2, 3, 5, 17}) {
                    ++case_index;
                    test::TestWeight w(f, out, bpr, k.key.layout, 70 + uint64_t(case_index), random_blocks);
                    if (w.view.layout.layout_class() != k.key.layout) continue;  // one row: contiguous
                    std::vector<float> x(size_t(n * w.in)), bias(static_cast<size_t>(out));
                    sample_weight(x.data(), n, w.in, 400 + uint64_t(case_index));
                    for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.125f * float(o % 7) - 0.375f;
                    const float* b = case_index % 2 ? bias.data() : nullptr;
                    const std::vector<float> want = contract_y(f, w.rm, out, w.in, x, n, b);
                    for (int threads : {1, 2}) {
                        std::vector<float> y(want.size(), -7.0f);
                        test::run_with_kernel(k, w.view, x.data(), n, w.in, b, y.data(), out, threads);
                        for (size_t e = 0; e < y.size(); ++e)
                            ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                                << k.name << (random_blocks ? " random blocks" : " quantized") << " out=" << out
                                << " bpr=" << bpr << " n=" << n << " threads=" << threads << " at ["
                                << e / size_t(out) << ", " << e % size_t(out) << "]: " << y[e] << " vs " << want[e];
                    }
                }
}

// n = 1 repacks the activation 128 blocks at a time (q32/one_row.inc) and
// runs blocks in pairs: 131 blocks cross a chunk and end on an odd block, 6
// rows end on a partial tile.
TEST_P(NeonQ32Contract, OneRowAcrossActivationChunks) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    const int64_t out = 6, bpr = 131;
    for (bool random_blocks : {false, true}) {
        test::TestWeight w(f, out, bpr, k.key.layout, random_blocks ? 91 : 90, random_blocks);
        std::vector<float> x(size_t(w.in));
        sample_weight(x.data(), 1, w.in, random_blocks ? 93 : 92);
        const std::vector<float> want = contract_y(f, w.rm, out, w.in, x, 1, nullptr);
        std::vector<float> y(want.size(), -7.0f);
        test::run_with_kernel(k, w.view, x.data(), 1, w.in, nullptr, y.data(), out, 1);
        for (size_t e = 0; e < y.size(); ++e)
            ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                << k.name << (random_blocks ? " random blocks" : " quantized") << " row " << e << ": " << y[e]
                << " vs " << want[e];
    }
}

// Rows long enough that the activation chunks (128 blocks for neoni8mm, 256
// for the others) end inside a row: the partial sums parked in y between
// chunks must come back unchanged. n = 5: a tile of two pairs and an odd row.
TEST_P(NeonQ32Contract, GivesTheContractsBitsAcrossActivationChunks) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    const int64_t out = 5, bpr = 260, n = 5;
    test::TestWeight w(f, out, bpr, k.key.layout, 91, false);
    std::vector<float> x(size_t(n * w.in)), bias(static_cast<size_t>(out));
    sample_weight(x.data(), n, w.in, 92);
    for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.25f * float(o) - 0.5f;
    const std::vector<float> want = contract_y(f, w.rm, out, w.in, x, n, bias.data());
    std::vector<float> y(want.size(), -7.0f);
    test::run_with_kernel(k, w.view, x.data(), n, w.in, bias.data(), y.data(), out, 2);
    for (size_t e = 0; e < y.size(); ++e)
        ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
            << k.name << " at [" << e / size_t(out) << ", " << e % size_t(out) << "]: " << y[e] << " vs " << want[e];
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonQ32Contract, ::testing::ValuesIn(neon_q32_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

TEST(NeonQ32Contract, EveryFormatHasEveryTierInBothOrders) {
    const std::vector<const Kernel*> ks = neon_q32_kernels();
    ASSERT_FALSE(ks.empty()) << "the aarch64 provider registers no q32 kernel";
    for (const Kernel* k : ks)
        for (skn_isa isa : {SKN_ISA_NEON, SKN_ISA_NEON_DOTPROD, SKN_ISA_NEON_I8MM})
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
                EXPECT_NE(test::find_kernel(k->key.weight, c, k->key.activation, isa), nullptr)
                    << k->name << ": no twin at " << isa_tag(isa) << " " << layout_tag(c);
}

}  // namespace
}  // namespace skn_core
