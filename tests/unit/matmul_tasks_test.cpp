// SPDX-License-Identifier: MIT
// Step 4 of a matmul call, alone, with a kernel that writes what it was
// given: every output row of every batch is computed once, from the batch's
// own activation rows and bias, and lands in its place: in y's rows for a
// dense call; for a routed one in each slot's place (in place for a batch of
// one slot, gathered then scattered otherwise), times the slot's gate, with
// every other float of y untouched. Any thread count gives the same floats.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "dispatch/matmul_tasks.hpp"

namespace skn_core {
namespace {

constexpr int64_t kOut = 37, kIn = 8;  // three tasks of 16 rows per batch
constexpr float kUntouched = -12345.0f;

// y[i, o] = 1000 * o + x[i, 0] + bias[o]: which activation row, which
// output row and which bias reached the kernel, all exactly representable.
void echo_kernel(const MatmulArgs& a, int64_t o0, int64_t o1) {
    for (int64_t i = 0; i < a.n; ++i)
        for (int64_t o = o0; o < o1; ++o)
            a.y[i * a.y_stride + o] = 1000.0f * float(o) + a.xf[i * a.xf_stride] + (a.bias ? a.bias[o] : 0.0f);
}

Kernel echo() {
    Kernel k;
    k.name = "echo";
    k.fn = &echo_kernel;
    return k;
}

// Activation row p holds p + 0.5 in its first column.
std::vector<float> positions(int64_t count) {
    std::vector<float> x(size_t(count * kIn), 0.0f);
    for (int64_t p = 0; p < count; ++p) x[size_t(p * kIn)] = float(p) + 0.5f;
    return x;
}

TEST(MatmulTasks, PlannedTasksAreNumberedBatchAfterBatch) {
    const Kernel k = echo();
    std::vector<ExpertBatch> b(3);
    for (int64_t e = 0; e < 3; ++e) {
        b[size_t(e)].kernel = &k;
        b[size_t(e)].rows = e + 1;
    }
    const int64_t tasks = plan_tasks(b, kOut);
    EXPECT_EQ(tasks, 9);
    for (int64_t e = 0; e < 3; ++e) {
        EXPECT_EQ(b[size_t(e)].first_task, 3 * e);
        EXPECT_EQ(b[size_t(e)].split.count, 3);
    }
}

TEST(MatmulTasks, ADenseBatchWritesYsRows) {
    const Kernel k = echo();
    const int64_t n = 4, ys = kOut + 3;
    const std::vector<float> x = positions(n);
    std::vector<float> bias(kOut);
    for (int64_t o = 0; o < kOut; ++o) bias[size_t(o)] = 0.25f * float(o);
    for (int threads : {1, 3}) {
        std::vector<float> y(size_t(n * ys), kUntouched);
        MatmulCall call;
        call.x = x.data();
        call.n = n;
        call.y = y.data();
        call.y_row_stride = ys;
        ExpertBatch b;
        b.kernel = &k;
        b.bias = bias.data();
        b.rows = n;
        const int64_t tasks = plan_tasks({&b, 1}, kOut);
        Context ctx;
        ctx.set_threads(threads);
        run_batches(ctx, {&b, 1}, tasks, PreparedActivations{x.data(), kIn, nullptr, 0}, BatchRows{&call, nullptr, n},
                    kOut, kIn, nullptr);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t o = 0; o < ys; ++o) {
                const float want = o < kOut ? 1000.0f * float(o) + float(i) + 0.5f + bias[size_t(o)] : kUntouched;
                ASSERT_EQ(y[size_t(i * ys + o)], want) << "row " << i << " out " << o << ", " << threads << " threads";
            }
    }
}

// n = 3 rows of k = 2 slots; y [n, k, out] padded. Expert 0 serves one slot
// (in place), expert 2 three (gathered and scattered), expert 1 two.
TEST(MatmulTasks, RoutedBatchesLandInTheirSlotsTimesTheirGates) {
    const Kernel k = echo();
    constexpr int64_t kN = 3, kK = 2, kYs = kOut + 1, kYr = kK * kYs + 2;
    const int64_t slot_at[kN * kK] = {3, 1, 4, 0, 2, 5};  // positions: expert 0 {3}, 1 {1, 4}, 2 {0, 2, 5}
    const int64_t first[3] = {0, 1, 3}, rows[3] = {1, 2, 3};
    const std::vector<float> x = positions(kN * kK);
    std::vector<float> bias(size_t(3 * kOut));
    for (size_t j = 0; j < bias.size(); ++j) bias[j] = float(j % 7) - 3.0f;
    const float gates[kN * kK] = {0.5f, 2.0f, -1.0f, 4.0f, 0.25f, 8.0f};  // gates_row_stride k
    for (bool with_gates : {false, true})
        for (int threads : {1, 2, 3}) {
            std::vector<float> y(size_t(kN * kYr), kUntouched);
            MatmulCall call;
            call.routed = true;
            call.n = kN;
            call.k = kK;
            call.gates = with_gates ? gates : nullptr;
            call.gates_row_stride = kK;
            call.y = y.data();
            call.y_row_stride = kYr;
            call.y_slot_stride = kYs;
            std::vector<ExpertBatch> b(3);
            for (int64_t e = 0; e < 3; ++e) {
                b[size_t(e)].expert = e;
                b[size_t(e)].kernel = &k;
                b[size_t(e)].bias = bias.data() + e * kOut;
                b[size_t(e)].first = first[e];
                b[size_t(e)].rows = rows[e];
            }
            const int64_t tasks = plan_tasks(b, kOut);
            std::vector<float> gathered(size_t(kN * kK * kOut), kUntouched);
            Context ctx;
            ctx.set_threads(threads);
            run_batches(ctx, b, tasks, PreparedActivations{x.data(), kIn, nullptr, 0},
                        BatchRows{&call, slot_at, kN * kK}, kOut, kIn, gathered.data());
            for (int64_t p = 0; p < kN * kK; ++p) {
                const int64_t e = p < 1 ? 0 : p < 3 ? 1 : 2;
                const int64_t i = slot_at[p] / kK, s = slot_at[p] % kK;
                for (int64_t o = 0; o < kOut; ++o) {
                    const float value = 1000.0f * float(o) + float(p) + 0.5f + bias[size_t(e * kOut + o)];
                    const float want = with_gates ? value * gates[i * kK + s] : value;
                    ASSERT_EQ(y[size_t(i * kYr + s * kYs + o)], want)
                        << "row " << i << " slot " << s << " out " << o << ", " << threads << " threads";
                }
            }
            // The padding between slots and rows is never written.
            int written_padding = 0;
            for (int64_t i = 0; i < kN; ++i)
                for (int64_t c = 0; c < kYr; ++c)
                    if (c % kYs == kOut || c >= kK * kYs) written_padding += y[size_t(i * kYr + c)] != kUntouched;
            EXPECT_EQ(written_padding, 0);
        }
}

}  // namespace
}  // namespace skn_core
