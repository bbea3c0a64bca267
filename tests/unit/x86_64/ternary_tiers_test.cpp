// SPDX-License-Identifier: MIT
// The ternary / low-bit kernels' AVX-512 tier (vpmaddubsw + vpmaddwd) must
// give the AVX512-VNNI tier's y bit for bit, which holds only while no
// vpmaddubsw pair sum saturates. Blocks here are raw bytes, not quantizer
// output: every code value including those the quantizers never write
// (TQ2_0 and I2_S code 3, TQ1_0 bytes >= 243), all-max and all-zero code
// bytes, scales from fp16 subnormal to 65504, against activations that
// quantize to -128 (Q8_K) / +-127 (Q8_0). Each tier and order must stay
// within the f64 reference's bound, rm and ibm and both tiers must agree
// bit for bit, and so must a two-thread split. n = 17 and 33 exceed every
// activation tile.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/codecs.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"

namespace skn_core {
namespace {

constexpr int64_t kOut = 37, kBpr = 3;

struct Case {
    FormatId format;
    int scale_at;  // byte offset of the block's fp16 scale, -1: none (I2_S: one float per tensor)
};

const Case kCases[] = {
    {FormatId::TQ2_0, 64}, {FormatId::TQ1_0, 52}, {FormatId::I2_S, -1},
    {FormatId::I2_S_G64, -1}, {FormatId::Q2_0, 0}, {FormatId::Q1_0, 0},
};

std::string case_name(const ::testing::TestParamInfo<Case>& p) { return find_format(p.param.format)->name; }

// Row o: o % 4 == 0 all code bytes 0xFF, == 1 all 0x00, else pseudo-random
// bytes; fp16 scales cycle through 1, -0.5, 65504 and 2^-24.
std::vector<uint8_t> extreme_weight(const FormatTraits& f, int scale_at, int64_t in) {
    std::vector<uint8_t> w(quantized_size(f, kOut, in));
    const int64_t bb = f.block_bytes;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    const uint16_t scales[4] = {0x3C00, 0xB800, 0x7BFF, 0x0001};
    for (int64_t o = 0; o < kOut; ++o)
        for (int64_t b = 0; b < kBpr; ++b) {
            uint8_t* blk = w.data() + (o * kBpr + b) * bb;
            for (int64_t j = 0; j < bb; ++j) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                blk[j] = o % 4 == 0 ? 0xFF : o % 4 == 1 ? 0x00 : uint8_t(s >> 56);
            }
            if (scale_at >= 0) std::memcpy(blk + scale_at, &scales[(o + b) % 4], 2);
        }
    if (scale_at < 0) {  // I2_S: the float32 tensor scale right after the codes
        const float t = 0.75f;
        std::memcpy(w.data() + kOut * kBpr * bb, &t, 4);
    }
    return w;
}

// Activation rows: noise; a constant negative row (Q8_K: -128 everywhere);
// large alternating signs (+-127); +-1 with a spike of 127 per 32 elements.
std::vector<float> extreme_activations(int64_t n, int64_t in) {
    std::vector<float> x(size_t(n * in));
    sample_weight(x.data(), n, in, 77);
    for (int64_t i = 0; i < n; ++i) {
        float* row = x.data() + i * in;
        for (int64_t k = 0; k < in; ++k) {
            if (i % 4 == 1) row[k] = -3.0f;
            if (i % 4 == 2) row[k] = k % 2 ? -500.0f : 500.0f;
            if (i % 4 == 3) row[k] = k % 32 == 7 ? 127.0f : (k % 3 ? -1.0f : 1.0f);
        }
    }
    return x;
}

// The fast kernel: the exact tier registers under the same weight and ISA.
const Kernel* find_kernel(FormatId f, LayoutClass c, skn_isa isa) {
    return test::find_kernel(f, c, find_format(f)->activation, isa);
}

std::vector<float> run(const Kernel& k, const View& w, const std::vector<float>& x, int64_t n, int64_t in,
                       int threads) {
    std::vector<float> y(size_t(n * kOut), -7.0f);
    test::run_with_kernel(k, w, x.data(), n, in, nullptr, y.data(), kOut, threads);
    return y;
}

class TernaryTiers : public ::testing::TestWithParam<Case> {};

TEST_P(TernaryTiers, Avx512MatchesAvx512VnniBitForBitOnExtremeBlocks) {
    const Case c = GetParam();
    if (!cpu_runs(SKN_ISA_AVX512) || !cpu_runs(SKN_ISA_AVX512_VNNI)) GTEST_SKIP() << "needs AVX512-VNNI";
    const FormatTraits& f = *find_format(c.format);
    const int64_t in = kBpr * f.block_elems;
    std::vector<uint8_t> rm = extreme_weight(f, c.scale_at, in);
    std::vector<float> decoded(size_t(kOut * in));
    dequantize_tensor(f, rm.data(), rm.size(), kOut, in, decoded.data(), decoded.size());
    const int64_t shape[2] = {kOut, in};
    const View row_major = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
    Scope scope;
    View input_major;
    ASSERT_TRUE(prepack(row_major, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &input_major));

    for (int64_t n : {1, 3, 17, 33}) {
        const std::vector<float> x = extreme_activations(n, in);
        const auto ref = test::reference_matmul(decoded, kOut, in, x.data(), n, in, nullptr, f.activation);
        std::vector<float> first;
        for (skn_isa isa : {SKN_ISA_AVX512, SKN_ISA_AVX512_VNNI})
            for (LayoutClass lc : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
                const Kernel* k = find_kernel(c.format, lc, isa);
                ASSERT_NE(k, nullptr) << f.name << " " << isa_tag(isa) << " " << layout_tag(lc);
                const View& w = lc == LayoutClass::BlockedRowMajor ? row_major : input_major;
                const std::vector<float> y = run(*k, w, x, n, in, isa == SKN_ISA_AVX512 ? 2 : 1);
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t o = 0; o < kOut; ++o) {
                        const size_t at = size_t(i * kOut + o);
                        ASSERT_LE(std::fabs(double(y[at]) - ref.y[at]), ref.bound[at])
                            << k->name << " n=" << n << " at [" << i << ", " << o << "]";
                    }
                if (first.empty())
                    first = y;
                else
                    ASSERT_EQ(std::memcmp(first.data(), y.data(), y.size() * 4), 0)
                        << k->name << " differs from the avx512 rm kernel, n=" << n;
            }
    }
}

// A row's y does not depend on how many activation rows share the call:
// n = 1 runs the GEMV tiles, 2-3 the row tiles, 4 and more (TQ2_0, TQ1_0)
// the chunked path in chunks of 8, 4, 2 and 1 rows. Every row of every n
// up to 19 must give that row's n = 1 bits, in both orders, at every
// AVX-512 tier, with one and two threads (37 rows: a 32-row chunk and a
// ragged 5).
TEST_P(TernaryTiers, EveryRowsBitsAreItsOneRowBitsWhateverN) {
    const Case c = GetParam();
    const FormatTraits& f = *find_format(c.format);
    const int64_t in = kBpr * f.block_elems, max_n = 19;
    std::vector<uint8_t> rm = extreme_weight(f, c.scale_at, in);
    const int64_t shape[2] = {kOut, in};
    const View row_major = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
    Scope scope;
    View input_major;
    ASSERT_TRUE(prepack(row_major, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &input_major));
    const std::vector<float> x = extreme_activations(max_n, in);
    int checked = 0;
    for (skn_isa isa : {SKN_ISA_AVX512, SKN_ISA_AVX512_VNNI}) {
        if (!cpu_runs(isa)) continue;
        for (LayoutClass lc : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
            const Kernel* k = find_kernel(c.format, lc, isa);
            ASSERT_NE(k, nullptr) << f.name << " " << isa_tag(isa) << " " << layout_tag(lc);
            const View& w = lc == LayoutClass::BlockedRowMajor ? row_major : input_major;
            std::vector<float> one_row(size_t(max_n * kOut));
            for (int64_t i = 0; i < max_n; ++i) {
                const std::vector<float> xi(x.begin() + i * in, x.begin() + (i + 1) * in);
                const std::vector<float> y = run(*k, w, xi, 1, in, 1);
                std::memcpy(one_row.data() + i * kOut, y.data(), size_t(kOut) * 4);
            }
            for (int64_t n = 2; n <= max_n; ++n)
                for (int threads : {1, 2}) {
                    const std::vector<float> y = run(*k, w, x, n, in, threads);
                    for (int64_t i = 0; i < n; ++i)
                        ASSERT_EQ(std::memcmp(one_row.data() + i * kOut, y.data() + i * kOut, size_t(kOut) * 4), 0)
                            << k->name << " row " << i << " of n=" << n << ", " << threads << " threads";
                    ++checked;
                }
        }
    }
    if (checked == 0) GTEST_SKIP() << "needs AVX-512";
}

INSTANTIATE_TEST_SUITE_P(Formats, TernaryTiers, ::testing::ValuesIn(kCases), case_name);

// I2_S_G64 holds the same codes as I2_S in another byte order, and its
// kernels feed the dots the same lanes: on the same weight (one layout
// converted to the other) every tier and order gives I2_S's y bit for bit.
// Extreme bytes (every code, 3 included), 7 rows, n up to 33.
TEST(TernaryTiers, I2sG64GivesI2sBitsOnTheSameWeight) {
    const FormatTraits& x86 = *find_format(FormatId::I2_S);
    const FormatTraits& arm64 = *find_format(FormatId::I2_S_G64);
    const int64_t in = kBpr * x86.block_elems;  // 3 I2_S blocks, 6 I2_S_G64 blocks per row
    std::vector<uint8_t> rm_x86 = extreme_weight(x86, -1, in);
    std::vector<uint8_t> rm_arm64(rm_x86.size());
    codec::i2_s_to_g64(rm_x86.data(), kOut * in, rm_arm64.data());  // the trailer (tensor scale) too
    const int64_t shape[2] = {kOut, in};
    const View x86_rm = make_view(rm_x86.data(), rm_x86.size(), x86, shape, 2, BlockOrder::RowMajor);
    const View arm64_rm = make_view(rm_arm64.data(), rm_arm64.size(), arm64, shape, 2, BlockOrder::RowMajor);
    Scope scope;
    View arm64_ibm;
    ASSERT_TRUE(prepack(arm64_rm, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &arm64_ibm));
    int checked = 0;
    for (skn_isa isa : {SKN_ISA_AVX2, SKN_ISA_AVX512, SKN_ISA_AVX512_VNNI}) {
        if (!cpu_runs(isa)) continue;
        const Kernel* kx = find_kernel(FormatId::I2_S, LayoutClass::BlockedRowMajor, isa);
        ASSERT_NE(kx, nullptr) << isa_tag(isa);
        for (int64_t n : {1, 3, 17, 33}) {
            const std::vector<float> x = extreme_activations(n, in);
            const std::vector<float> want = run(*kx, x86_rm, x, n, in, 1);
            for (LayoutClass lc : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
                const Kernel* k = find_kernel(FormatId::I2_S_G64, lc, isa);
                ASSERT_NE(k, nullptr) << isa_tag(isa) << " " << layout_tag(lc);
                const std::vector<float> y = run(*k, lc == LayoutClass::BlockedRowMajor ? arm64_rm : arm64_ibm, x, n, in, 2);
                ASSERT_EQ(std::memcmp(want.data(), y.data(), y.size() * 4), 0)
                    << k->name << " differs from " << kx->name << ", n=" << n;
                ++checked;
            }
        }
    }
    if (checked == 0) GTEST_SKIP() << "this CPU has no x86 SIMD tier";
}

}  // namespace
}  // namespace skn_core
