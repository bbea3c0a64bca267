// SPDX-License-Identifier: MIT
// ThreadPool: every task of every job runs exactly once, its writes are seen
// by the caller when parallel_for returns, and that holds whether the
// workers were spinning for the next job, asleep after a pause, or late for
// the last one; a pool is destroyed cleanly in any of those states.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/thread_pool.hpp"

namespace skn_core {
namespace {

// Runs one job of `count` tasks; each task writes its own slot (plain
// stores, read by the caller afterwards) and counts its runs.
void expect_each_task_once(ThreadPool& pool, int64_t count, int job) {
    std::vector<int64_t> written(static_cast<size_t>(count), -1);
    std::vector<std::atomic<int>> runs(static_cast<size_t>(count));
    pool.parallel_for(count, [&](int64_t i) {
        runs[size_t(i)].fetch_add(1, std::memory_order_relaxed);
        written[size_t(i)] = i * 7 + job;
    });
    for (int64_t i = 0; i < count; ++i) {
        ASSERT_EQ(runs[size_t(i)].load(), 1) << "job " << job << " of " << count << " tasks, task " << i;
        ASSERT_EQ(written[size_t(i)], i * 7 + job) << "job " << job << ", task " << i;
    }
}

TEST(ThreadPool, BackToBackJobsRunEveryTaskOnce) {
    for (int threads : {2, 3, 4}) {
        ThreadPool pool(threads);
        ASSERT_EQ(pool.threads(), threads);
        for (int job = 0; job < 3000; ++job) expect_each_task_once(pool, 2 + (job * 37) % 67, job);
    }
}

TEST(ThreadPool, WorkersThatFellAsleepWakeForTheNextJob) {
    ThreadPool pool(3);
    for (int job = 0; job < 6; ++job) {
        // Longer than a worker spins before it sleeps.
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        expect_each_task_once(pool, 5 + job, job);
    }
}

TEST(ThreadPool, TheCallerWaitsForSlowTasksOfOtherThreads) {
    ThreadPool pool(2);
    std::atomic<int> slow{0};
    // Task 1 outlasts the caller's spin, so the caller sleeps until the
    // worker that took it finishes; whoever took it, the others must wait.
    pool.parallel_for(4, [&](int64_t i) {
        if (i == 1) {
            std::this_thread::sleep_for(std::chrono::milliseconds(8));
            slow.store(1);
        }
    });
    EXPECT_EQ(slow.load(), 1);
    expect_each_task_once(pool, 9, 1);
}

TEST(ThreadPool, OneTaskAndNoTaskRunOnTheCaller) {
    ThreadPool pool(2);
    const auto caller = std::this_thread::get_id();
    std::thread::id ran;
    pool.parallel_for(1, [&](int64_t) { ran = std::this_thread::get_id(); });
    EXPECT_EQ(ran, caller);
    int calls = 0;
    pool.parallel_for(0, [&](int64_t) { ++calls; });
    EXPECT_EQ(calls, 0);
}

TEST(ThreadPool, DestroyedWhileWorkersSpinOrSleep) {
    for (int pause_ms : {0, 3}) {
        for (int round = 0; round < 20; ++round) {
            ThreadPool pool(3);
            expect_each_task_once(pool, 11, round);
            if (pause_ms) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
        }
    }
    ThreadPool never_used(4);  // destroyed with every worker still waiting for a first job
}

}  // namespace
}  // namespace skn_core
