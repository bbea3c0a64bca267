// SPDX-License-Identifier: MIT
// A small fixed thread pool for parallel_for over independent tasks. The
// calling thread works too, so a pool of N threads starts N - 1 workers.
//
// Workers wait for the next job by spinning for a short while before they
// sleep, and the caller spins for its workers' last tasks: a matmul call of
// a millisecond or less cannot afford a sleeping thread's wake-up (tens of
// microseconds on a virtual machine, where an idle vCPU is halted).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace skn_core {

class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threads() const { return int(workers_.size()) + 1; }

    // Run task(i) for every i in [0, count); returns when all have finished.
    // Tasks are taken dynamically; each must be independent of the others.
    // One parallel_for at a time per pool.
    void parallel_for(int64_t count, const std::function<void(int64_t)>& task);

private:
    void worker_loop();
    // Takes tasks of the open job until none is left.
    void run_tasks();
    void wait_for_job(uint64_t seen);
    void wait_until_finished();

    std::vector<std::thread> workers_;

    // The job. task_ and count_ are written only while the gate is closed and
    // no worker is inside; a worker reads them after it has entered (inside_)
    // and seen the gate open, so it never reads a job that is being replaced.
    const std::function<void(int64_t)>* task_ = nullptr;
    int64_t count_ = 0;
    std::atomic<int64_t> next_{0};  // next task index to claim
    std::atomic<int64_t> done_{0};  // tasks finished
    std::atomic<bool> open_{false};
    std::atomic<int> inside_{0};
    std::atomic<uint64_t> generation_{0};  // bumped for every job: wakes workers
    std::atomic<bool> stop_{false};

    // Sleeping, after the spin: workers on wake_, the caller on finished_.
    std::mutex mutex_;
    std::condition_variable wake_, finished_;
    std::atomic<int> sleepers_{0};
    std::atomic<bool> caller_asleep_{false};  // the caller waits on finished_
};

}  // namespace skn_core
