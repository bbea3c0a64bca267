// SPDX-License-Identifier: MIT
// The NEON dense kernels (src/kernels/aarch64/dense) against their
// accumulation order (dense/kernels.hpp, docs/kernels/dense.md): y is
// computed here lane by lane with std::fma — two 4-lane accumulators per
// (row, activation row), chunks of 8 with a zero-padded tail, then
// (s0 + s1) + (s2 + s3) — and every kernel must give those bits for one and
// three threads (so for any split of the output rows). Shapes have ragged
// tails (in 1, 5, 37) and output rows past every tile (1, 7, 33); one weight
// variant carries NaN, infinite and subnormal elements in some rows.
// The BFDOT kernel (neoni8mm, registered only on CPUs with bf16) rounds as
// the instruction does: it must give the same bits for one and three threads
// and stay within the float accumulation bound of the f64 sum
// (docs/kernels.md), NaN where the sum is NaN and the same infinity.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/half.hpp"
#include "layout/view.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"

namespace skn_core {
namespace {

std::vector<const Kernel*> neon_dense_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if ((k.key.isa == SKN_ISA_NEON || k.key.isa == SKN_ISA_NEON_DOTPROD || k.key.isa == SKN_ISA_NEON_I8MM) &&
            k.key.layout == LayoutClass::Contiguous)
            out.push_back(&k);
    return out;
}

// The weight's element bits for NaN, infinity and the smallest subnormal.
void put_special(FormatId f, uint8_t* p, int which) {
    if (f == FormatId::F32) {
        const uint32_t v[3] = {0x7FC00001u, 0xFF800000u, 0x00000001u};
        std::memcpy(p, &v[which], 4);
    } else {
        const uint16_t half[3] = {0x7E01, 0xFC00, 0x0001}, bf[3] = {0x7FC1, 0xFF80, 0x0001};
        store_u16le(p, f == FormatId::F16 ? half[which] : bf[which]);
    }
}

// y by the documented order, from the decoded weights and the activations
// as the kernel sees them.
std::vector<float> contract_y(const std::vector<float>& w, int64_t out, int64_t in, const std::vector<float>& x,
                              int64_t n, const float* bias) {
    std::vector<float> y(size_t(n * out));
    for (int64_t o = 0; o < out; ++o)
        for (int64_t i = 0; i < n; ++i) {
            float acc[8] = {};  // a: lanes 0..3, b: lanes 4..7
            for (int64_t k0 = 0; k0 < in; k0 += 8)
                for (int j = 0; j < 8; ++j) {
                    const int64_t k = k0 + j;
                    const float wv = k < in ? w[size_t(o * in + k)] : 0.0f, xv = k < in ? x[size_t(i * in + k)] : 0.0f;
                    acc[j] = std::fma(wv, xv, acc[j]);
                }
            float s[4];
            for (int j = 0; j < 4; ++j) s[j] = acc[j] + acc[j + 4];
            const float v = (s[0] + s[1]) + (s[2] + s[3]);
            y[size_t(i * out + o)] = bias != nullptr ? v + bias[o] : v;
        }
    return y;
}

// The BFDOT kernel: within the bound of the f64 sum of the values it sees.
void expect_within_bound(const Kernel& k, const std::vector<float>& w, int64_t out, int64_t in,
                         const std::vector<float>& x, int64_t n, const float* bias, const std::vector<float>& y) {
    const test::Reference ref = test::reference_matmul(w, out, in, x.data(), n, in, bias, k.key.activation);
    for (size_t e = 0; e < y.size(); ++e) {
        const double want = ref.y[e];
        const bool ok = std::isnan(want)   ? std::isnan(y[e])
                        : std::isinf(want) ? double(y[e]) == want
                                           : std::fabs(double(y[e]) - want) <= ref.bound[e];
        EXPECT_TRUE(ok) << k.name << " out=" << out << " in=" << in << " n=" << n << " at [" << e / size_t(out)
                        << ", " << e % size_t(out) << "]: " << y[e] << " vs " << want << " +- " << ref.bound[e];
    }
}

class NeonDenseContract : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(NeonDenseContract, GivesTheDocumentedOrdersBitsForEveryThreadCount) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    const FormatTraits& act = *find_format(k.key.activation);
    const size_t eb = size_t(f.block_bytes);
    int case_index = 0;
    for (bool special : {false, true})
        for (int64_t out : {1, 7, 33})
            for (int64_t in : {1, 5, 37}) {
                ++case_index;
                std::vector<float> wf(size_t(out * in));
                sample_weight(wf.data(), out, in, 90 + uint64_t(case_index));
                std::vector<uint8_t> bytes(wf.size() * eb);
                for (int64_t o = 0; o < out; ++o) f.quantize_row(wf.data() + o * in, in, bytes.data() + o * in * eb);
                if (special)  // rows 1, 4, ...: one NaN, infinite or subnormal element each
                    for (int64_t o = 1; o < out; o += 3)
                        put_special(f.id, bytes.data() + size_t(o * in + (o * 5) % in) * eb, int(o / 3 % 3));
                std::vector<float> w(wf.size());
                f.decode(bytes.data(), out * in, 1.0f, w.data());
                const int64_t shape[2] = {out, in};
                const View view = make_view(bytes.data(), bytes.size(), f, shape, 2, BlockOrder::RowMajor);
                if (view.layout.layout_class() != k.key.layout) continue;
                std::vector<float> bias(static_cast<size_t>(out));
                for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.25f * float(o % 5) - 0.5f;
                for (int64_t n = 1; n <= 5; ++n) {
                    std::vector<float> x(size_t(n * in));
                    sample_weight(x.data(), n, in, 700 + uint64_t(case_index * 8 + n));
                    // Fast precision hands the kernel activations rounded to F16 / BF16.
                    std::vector<float> xk(x);
                    if (act.id != FormatId::F32) {
                        std::vector<uint8_t> xq(x.size() * size_t(act.block_bytes));
                        act.quantize_row(x.data(), int64_t(x.size()), xq.data());
                        act.decode(xq.data(), int64_t(x.size()), 1.0f, xk.data());
                    }
                    const float* b = n % 2 ? bias.data() : nullptr;
                    const std::vector<float> want = contract_y(w, out, in, xk, n, b);
                    std::vector<float> first;
                    for (int threads : {1, 3}) {
                        std::vector<float> y(want.size(), -7.0f);
                        test::run_with_kernel(k, view, x.data(), n, in, b, y.data(), out, threads);
                        if (k.key.isa != SKN_ISA_NEON) {
                            if (first.empty()) {
                                first = y;
                                expect_within_bound(k, w, out, in, x, n, b, y);
                            } else {
                                ASSERT_EQ(std::memcmp(first.data(), y.data(), y.size() * sizeof(float)), 0)
                                    << k.name << ": 3 threads changed the bits (out=" << out << " in=" << in
                                    << " n=" << n << ")";
                            }
                            continue;
                        }
                        for (size_t e = 0; e < y.size(); ++e) {
                            const bool same = std::isnan(want[e]) ? std::isnan(y[e])
                                                                  : std::memcmp(&y[e], &want[e], sizeof(float)) == 0;
                            ASSERT_TRUE(same) << k.name << (special ? " special" : "") << " out=" << out
                                              << " in=" << in << " n=" << n << " threads=" << threads << " at ["
                                              << e / size_t(out) << ", " << e % size_t(out) << "]: " << y[e]
                                              << " vs " << want[e];
                        }
                    }
                }
            }
}

INSTANTIATE_TEST_SUITE_P(NeonKernels, NeonDenseContract, ::testing::ValuesIn(neon_dense_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

TEST(NeonDenseContract, EveryX86PairHasANeonKernel) {
    // Fast: BF16 x BF16, F16 x F16; exact: every dense weight x F32.
    const FormatId pairs[][2] = {{FormatId::BF16, FormatId::BF16}, {FormatId::F16, FormatId::F16},
                                 {FormatId::BF16, FormatId::F32},  {FormatId::F16, FormatId::F32},
                                 {FormatId::F32, FormatId::F32}};
    for (const auto& p : pairs)
        EXPECT_NE(test::find_kernel(p[0], LayoutClass::Contiguous, p[1], SKN_ISA_NEON), nullptr)
            << find_format(p[0])->name << " x " << find_format(p[1])->name << ": no neon kernel";
}

}  // namespace
}  // namespace skn_core
