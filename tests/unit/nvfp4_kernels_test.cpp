// SPDX-License-Identifier: MIT
// NVFP4 SIMD kernels on hand-built blocks the quantizer never writes: every
// UE4M3 scale byte (0x00, the subnormals, 0x7E = 448, 0x7F = "NaN" = 0,
// 0x80..0xFF with bit 7 ignored, 0xFF = 480), every code byte, all-zero and
// all-extreme blocks against activations that quantize to +-127. Each kernel
// must stay within the float accumulation bound of the f64 reference, rm and
// ibm must agree bit for bit, the AVX-512 and AVX512-VNNI tiers too, and the
// row split across threads must not matter. n = 17, 33 and 257 exceed every
// activation tile.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"

namespace skn_core {
namespace {

constexpr int64_t kOut = 37, kBpr = 5, kIn = kBpr * 64, kBlockBytes = 36;

// Rows 0..31: scale slot k (row, block, sub-block) holds byte k mod 256
// (every byte appears 2.5 times) and code byte j of block (o, b) is
// (o * 97 + b * 31 + j * 13) mod 256 (every byte value appears).
// Row 32: all scales 0 (the block is zero whatever its codes).
// Rows 33, 34: scale 0x7E / 0xFF, every code 7 (+6) resp. 15 (-6) and mixed.
// Row 35: scales 0x7F (decode to 0) with code 7 everywhere.
// Row 36: scales 0x01 (smallest subnormal) with alternating +-6.
std::vector<uint8_t> edge_weight() {
    std::vector<uint8_t> w(size_t(kOut * kBpr * kBlockBytes));
    for (int64_t o = 0; o < kOut; ++o)
        for (int64_t b = 0; b < kBpr; ++b) {
            uint8_t* blk = w.data() + (o * kBpr + b) * kBlockBytes;
            for (int s = 0; s < 4; ++s) {
                const int64_t slot = (o * kBpr + b) * 4 + s;
                uint8_t scale = uint8_t(slot % 256);
                if (o == 32) scale = 0x00;
                if (o == 33) scale = s % 2 ? 0xFF : 0x7E;
                if (o == 34) scale = 0xFF;
                if (o == 35) scale = 0x7F;
                if (o == 36) scale = 0x01;
                blk[s] = scale;
            }
            for (int j = 0; j < 32; ++j) {
                uint8_t code = uint8_t((o * 97 + b * 31 + j * 13) % 256);
                if (o == 33) code = 0x77;
                if (o == 34) code = j % 2 ? 0xF7 : 0x7F;
                if (o == 35) code = 0x77;
                if (o == 36) code = 0xF7;
                blk[4 + j] = code;
            }
        }
    return w;
}

// Activation rows: noise, rows that quantize to +-127 everywhere, and a
// row whose every Q8_0 block is +-1 alternating with a single 127.
std::vector<float> edge_activations(int64_t n) {
    std::vector<float> x(size_t(n * kIn));
    sample_weight(x.data(), n, kIn, 4242);
    for (int64_t i = 0; i < n; ++i) {
        float* row = x.data() + i * kIn;
        if (i % 4 == 1)
            for (int64_t k = 0; k < kIn; ++k) row[k] = 3.0f;
        if (i % 4 == 2)
            for (int64_t k = 0; k < kIn; ++k) row[k] = k % 3 ? -1e3f : 1e3f;
        if (i % 4 == 3)
            for (int64_t k = 0; k < kIn; ++k) row[k] = k % 32 == 5 ? 127.0f : (k % 2 ? -1.0f : 1.0f);
    }
    return x;
}

struct Weights {
    std::vector<uint8_t> rm = edge_weight();
    std::vector<float> decoded;
    Scope scope;
    View row_major, input_major;
    Weights() {
        const FormatTraits& f = *find_format(FormatId::NVFP4);
        decoded.resize(size_t(kOut * kIn));
        dequantize_tensor(f, rm.data(), rm.size(), kOut, kIn, decoded.data(), decoded.size());
        const int64_t shape[2] = {kOut, kIn};
        row_major = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
        prepack(row_major, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &input_major);
    }
};

const Kernel* find_kernel(LayoutClass c, skn_isa isa) {
    return test::find_kernel(FormatId::NVFP4, c, FormatId::Q8_0, isa);
}

std::vector<float> bias() {
    std::vector<float> b(static_cast<size_t>(kOut));
    for (int64_t o = 0; o < kOut; ++o) b[size_t(o)] = 0.5f * float(o % 3) - 0.5f;
    return b;
}

std::vector<float> run(const Kernel& k, const View& w, const std::vector<float>& x, int64_t n, int threads) {
    std::vector<float> y(size_t(n * kOut), -7.0f);
    const std::vector<float> b = bias();
    test::run_with_kernel(k, w, x.data(), n, kIn, b.data(), y.data(), kOut, threads);
    return y;
}

class Nvfp4EdgeBlocks : public ::testing::TestWithParam<int64_t> {};

TEST_P(Nvfp4EdgeBlocks, EveryTierAgreesWithTheReferenceAndOrdersAndTiersAgreeBitForBit) {
    const int64_t n = GetParam();
    const Weights w;
    const std::vector<float> x = edge_activations(n);
    const std::vector<float> b = bias();
    const auto ref = test::reference_matmul(w.decoded, kOut, kIn, x.data(), n, kIn, b.data(), FormatId::Q8_0);
    // The edge rows must actually reach the extremes they are built for.
    EXPECT_EQ(w.decoded[size_t(33 * kIn)], 6.0f * 448.0f);
    EXPECT_EQ(w.decoded[size_t(34 * kIn)], -6.0f * 480.0f);
    EXPECT_EQ(w.decoded[size_t(35 * kIn)], 0.0f);
    EXPECT_EQ(w.decoded[size_t(36 * kIn)], 6.0f * 0x1p-9f);
#if !defined(__x86_64__)
    GTEST_SKIP() << "the NVFP4 SIMD tiers are x86-64 kernels (src/kernels/x86), not built for this architecture; "
                    "the reference kernels' NVFP4 results are checked by the matmul suites";
#endif

    std::vector<std::vector<float>> per_tier;
    int ran = 0;
    for (skn_isa isa : {SKN_ISA_AVX2, SKN_ISA_AVX512, SKN_ISA_AVX512_VNNI}) {
        const Kernel* rm = find_kernel(LayoutClass::BlockedRowMajor, isa);
        const Kernel* ibm = find_kernel(LayoutClass::BlockedInputMajor, isa);
        ASSERT_NE(rm, nullptr) << isa_tag(isa);
        ASSERT_NE(ibm, nullptr) << isa_tag(isa);
        if (!cpu_runs(isa)) {
            per_tier.emplace_back();
            continue;
        }
        ++ran;
        const std::vector<float> y = run(*rm, w.row_major, x, n, 1);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t o = 0; o < kOut; ++o) {
                const size_t at = size_t(i * kOut + o);
                ASSERT_LE(std::fabs(double(y[at]) - ref.y[at]), ref.bound[at])
                    << rm->name << " n=" << n << " at [" << i << ", " << o << "]";
            }
        const std::vector<float> y_ibm = run(*ibm, w.input_major, x, n, 1);
        EXPECT_EQ(std::memcmp(y.data(), y_ibm.data(), y.size() * 4), 0) << ibm->name << " differs from " << rm->name;
        const std::vector<float> y_threads = run(*ibm, w.input_major, x, n, 2);
        EXPECT_EQ(std::memcmp(y.data(), y_threads.data(), y.size() * 4), 0) << ibm->name << " with 2 threads";
        per_tier.push_back(y);
    }
    if (ran == 0) GTEST_SKIP() << "this CPU runs no NVFP4 SIMD tier";
    if (!per_tier[1].empty() && !per_tier[2].empty()) {
        EXPECT_EQ(std::memcmp(per_tier[1].data(), per_tier[2].data(), per_tier[1].size() * 4), 0)
            << "avx512 and avx512vnni differ";
    }
}

INSTANTIATE_TEST_SUITE_P(N, Nvfp4EdgeBlocks, ::testing::Values(1, 2, 3, 5, 17, 33, 257),
                         [](const auto& p) {
                             std::string name = "n";
                             name += std::to_string(p.param);
                             return name;
                         });

}  // namespace
}  // namespace skn_core
