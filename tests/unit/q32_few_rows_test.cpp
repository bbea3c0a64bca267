// SPDX-License-Identifier: MIT
// The 32-element block kernels at few activation rows (n = 1 ... 8, the
// GEMV-like paths: the INPUT_BLOCK_MAJOR walk by columns with its tile-ahead
// prefetch, the ROW_MAJOR scales read a group of blocks at a time), with out
// not a multiple of 16 and row lengths that end inside a scale group or a
// chunk. Every SIMD kernel of a format, both orders and every tier, must give
// y within the reference bound and bit-identical to the others, and a row's
// bits must not depend on how many activation rows share the call
// (docs/kernels/q32.md, "Accumulation order").
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"

namespace skn_core {
namespace {

struct Case {
    FormatId f;
    int64_t out, bpr;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
    return os << find_format(c.f)->name << " out=" << c.out << " bpr=" << c.bpr;
}

class Q32FewRows : public ::testing::TestWithParam<Case> {};

TEST_P(Q32FewRows, EveryKernelEveryNGivesTheSameBits) {
    const Case c = GetParam();
    const FormatTraits& f = *find_format(c.f);
    constexpr int64_t kMaxN = 8;
    test::TestWeight rm(f, c.out, c.bpr, LayoutClass::BlockedRowMajor, 41 + uint64_t(c.bpr));
    test::TestWeight ibm(f, c.out, c.bpr, LayoutClass::BlockedInputMajor, 41 + uint64_t(c.bpr));
    ASSERT_EQ(rm.decoded, ibm.decoded);
    const int64_t in = rm.in;
    std::vector<float> x(size_t(kMaxN * in));
    sample_weight(x.data(), kMaxN, in, 77 + uint64_t(c.out));
    const test::Reference ref = test::reference_matmul(rm.decoded, c.out, in, x.data(), kMaxN, in, nullptr, f.activation);

    std::vector<float> first;  // [kMaxN, out] from the first kernel's n = 1 runs
    std::string first_name;
    int ran = 0;
    for (const Kernel& k : default_registry().kernels()) {
        if (k.key.weight != c.f || k.key.activation == FormatId::F32 || !cpu_runs(k.key.isa)) continue;
        if (k.key.isa == SKN_ISA_SCALAR) continue;
        const bool row_major = k.key.layout == LayoutClass::BlockedRowMajor;
        if (!row_major && k.key.layout != LayoutClass::BlockedInputMajor) continue;
        const View& w = row_major ? rm.view : ibm.view;
        ++ran;
        for (int64_t n = 1; n <= kMaxN; ++n) {
            std::vector<float> y(size_t(n * c.out), -7.0f);
            test::run_with_kernel(k, w, x.data(), n, in, nullptr, y.data(), c.out);
            for (int64_t i = 0; i < n; ++i)
                for (int64_t o = 0; o < c.out; ++o) {
                    const size_t at = size_t(i * c.out + o);
                    ASSERT_LE(std::fabs(double(y[at]) - ref.y[at]), ref.bound[at])
                        << k.name << " n=" << n << " at [" << i << ", " << o << "]";
                }
            if (first.empty()) {
                // Row by row, so that the baseline is n = 1 for every row.
                ASSERT_EQ(n, 1);
                first.resize(size_t(kMaxN * c.out));
                for (int64_t i = 0; i < kMaxN; ++i) {
                    std::vector<float> yi(size_t(c.out));
                    test::run_with_kernel(k, w, x.data() + i * in, 1, in, nullptr, yi.data(), c.out);
                    std::memcpy(first.data() + i * c.out, yi.data(), yi.size() * sizeof(float));
                }
                first_name = k.name;
            }
            ASSERT_EQ(std::memcmp(first.data(), y.data(), y.size() * sizeof(float)), 0)
                << k.name << " n=" << n << " differs from " << first_name << " at n = 1";
        }
    }
    if (ran < 2) GTEST_SKIP() << "fewer than two SIMD kernels for " << f.name << " on this CPU";
}

std::vector<Case> cases() {
    std::vector<Case> v;
    for (FormatId f : test::q32_formats())
        // 3: shorter than a scale group; 4: one group; 9: groups and a tail
        // (Q8_0: pairs); 130: a 128-block chunk and a tail. out 37: two full
        // tiles and a ragged one; 48: three full tiles (contiguous tiles and
        // the prefetch's wrap to the next pass).
        for (int64_t bpr : {3, 4, 9, 130})
            for (int64_t out : {37, 48}) v.push_back({f, out, bpr});
    return v;
}

INSTANTIATE_TEST_SUITE_P(Q32, Q32FewRows, ::testing::ValuesIn(cases()), [](const auto& p) {
    return test::case_name(p.param.f, {{"out", p.param.out}, {"bpr", p.param.bpr}});
});
// A provider without SIMD kernels (portable) has no q32 format.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Q32FewRows);

}  // namespace
}  // namespace skn_core
