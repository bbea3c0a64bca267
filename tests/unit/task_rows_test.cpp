// SPDX-License-Identifier: MIT
// How matmul_wt cuts a call's output rows into tasks (task_rows: bigger
// tasks for few activation rows, the last big task's rows in small tasks),
// and that the kernels that ask for bigger tasks (q32, ternary / low-bit,
// NVFP4) give the same bits
// whatever the split, thread count, order, tier and n.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "dispatch/kernel.hpp"
#include "dispatch/registry.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

// The tasks cover [0, out) in order, without gaps or overlap, none empty.
void expect_covers(const TaskRows& r, int64_t out, const std::string& what) {
    int64_t at = 0;
    for (int64_t t = 0; t < r.count; ++t) {
        ASSERT_EQ(r.begin(t), at) << what << " task " << t;
        ASSERT_GT(r.end(t, out), r.begin(t)) << what << " task " << t;
        at = r.end(t, out);
    }
    EXPECT_EQ(at, out) << what;
}

TEST(TaskRows, CoverEveryRowOnceInOrder) {
    Kernel k;
    k.rows_per_task = 128;
    k.few_rows_per_task = 512;
    k.few_rows_max_n = 8;
    for (int64_t out : {1, 16, 37, 128, 129, 1000, 1024, 2047, 2048, 4095, 4096, 4100, 14336, 14337})
        for (int64_t n : {1, 8, 9, 256}) {
            const TaskRows r = task_rows(k, n, out);
            const std::string what = "out " + std::to_string(out) + " n " + std::to_string(n);
            expect_covers(r, out, what);
            EXPECT_EQ(r.small, 128) << what;
            EXPECT_EQ(r.big % 128, 0) << what;
            if (n > 8) {
                EXPECT_EQ(r.big, 128) << what;
            }
            // Never fewer than 8 big tasks' worth of rows: the work still spreads over threads.
            EXPECT_LE(r.big, std::max<int64_t>(128, out / 8)) << what;
            // The rows of the last big task go in small tasks, so threads finish close together.
            for (int64_t t = 0; t < r.count; ++t) {
                if (r.begin(t) >= r.split) {
                    EXPECT_LE(r.end(t, out) - r.begin(t), r.small) << what;
                }
            }
            if (r.big > r.small) {
                EXPECT_GE(out - r.split, r.big) << what;
            }
        }
    EXPECT_EQ(task_rows(k, 1, 14336).big, 512);
    EXPECT_EQ(task_rows(k, 1, 14336).count, 27 + 4);
    EXPECT_EQ(task_rows(k, 1, 2100).big, 256);
    EXPECT_EQ(task_rows(k, 1, 1000).big, 128);
    EXPECT_EQ(task_rows(k, 1, 1000).count, 8);
    // A kernel without the few-row size keeps its tasks.
    Kernel plain;
    plain.rows_per_task = 256;
    const TaskRows r = task_rows(plain, 1, 14336);
    EXPECT_EQ(r.big, 256);
    EXPECT_EQ(r.count, 56);
    expect_covers(r, 14336, "plain");
}

struct Case {
    FormatId f;
    int64_t out, bpr;
};

class FewRowTaskRows : public ::testing::TestWithParam<Case> {};

// Each SIMD kernel (every tier this CPU runs, both orders) at n = 1 ... 8 and
// 9, on 1, 2 and 3 threads, gives the bits of the same kernel cut into
// rows_per_task tasks on one thread.
TEST_P(FewRowTaskRows, BigTasksGiveTheBitsOfSmallOnes) {
    const Case c = GetParam();
    const FormatTraits& f = *find_format(c.f);
    const test::BothOrders inputs(f, c.out, c.bpr, 7 + uint64_t(c.bpr), 9, 91 + uint64_t(c.out), 5);
    const int64_t in = inputs.in;
    const std::vector<float>& x = inputs.x;
    const std::vector<float>& bias = inputs.bias;
    int big = 0;
    for (const Kernel& k : default_registry().kernels()) {
        if (k.key.weight != c.f || k.key.activation == FormatId::F32 || k.key.isa == SKN_ISA_SCALAR ||
            !cpu_runs(k.key.isa))
            continue;
        const bool row_major = k.key.layout == LayoutClass::BlockedRowMajor;
        if (!row_major && k.key.layout != LayoutClass::BlockedInputMajor) continue;
        const View& w = row_major ? inputs.rm.view : inputs.ibm.view;
        Kernel small = k;
        small.few_rows_per_task = 0;
        if (task_rows(k, 1, c.out).big > task_rows(small, 1, c.out).big) ++big;
        for (int64_t n : {1, 2, 3, 4, 5, 8, 9}) {
            std::vector<float> want(size_t(n * c.out));
            test::run_with_kernel(small, w, x.data(), n, in, bias.data(), want.data(), c.out, 1);
            for (int threads : {1, 2, 3}) {
                std::vector<float> y(size_t(n * c.out), -7.0f);
                test::run_with_kernel(k, w, x.data(), n, in, bias.data(), y.data(), c.out, threads);
                ASSERT_EQ(std::memcmp(want.data(), y.data(), y.size() * sizeof(float)), 0)
                    << k.name << " n=" << n << " threads=" << threads;
            }
        }
    }
    // The AVX-512 kernels of every format take bigger tasks at few rows.
    if (cpu_runs(SKN_ISA_AVX512) && c.out >= 2048) {
        EXPECT_GT(big, 0) << f.name;
    }
}

// The formats with a kernel that asks for bigger tasks at few rows (today
// the x86 q32, ternary / low-bit and NVFP4 families), read from the
// registry: a family that starts asking is tested by registering so.
std::vector<Case> cases() {
    std::vector<Case> v;
    // out 4100: 512-row tasks, then the last big task's rows and a ragged
    // tile in 128-row tasks; 2100: 256-row tasks; 1: one row. bpr 3: three
    // blocks (shorter than a scale group), 9: groups and a tail.
    for (const FormatTraits& f : all_formats()) {
        if (f.interleaved()) continue;  // its tests take out in multiples of R (interleaved_formats_test)
        bool asks = false;
        for (const Kernel& k : default_registry().kernels()) asks = asks || (k.key.weight == f.id && k.few_rows_per_task > 0);
        if (!asks) continue;
        for (int64_t out : {1, 2100, 4100})
            for (int64_t bpr : {3, 9}) v.push_back({f.id, out, bpr});
    }
    return v;
}

INSTANTIATE_TEST_SUITE_P(FewRows, FewRowTaskRows, ::testing::ValuesIn(cases()), [](const auto& p) {
    return test::case_name(p.param.f, {{"out", p.param.out}, {"bpr", p.param.bpr}});
});
// A provider whose kernels keep their task size (aarch64, portable) has no case.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FewRowTaskRows);

}  // namespace
}  // namespace skn_core
