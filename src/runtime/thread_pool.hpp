// SPDX-License-Identifier: MIT
// A small fixed thread pool for parallel_for over independent tasks. The
// calling thread works too, so a pool of N threads starts N - 1 workers.
#pragma once

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
    void parallel_for(int64_t count, const std::function<void(int64_t)>& task);

private:
    void worker_loop();
    void run_tasks();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int64_t)>* task_ = nullptr;
    int64_t count_ = 0;
    int64_t next_ = 0;
    int busy_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

}  // namespace skn_core
