// SPDX-License-Identifier: MIT
#include "runtime/thread_pool.hpp"

namespace skn_core {

ThreadPool::ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::run_tasks() {
    // Called with mutex_ held; takes tasks one at a time until none are left.
    while (next_ < count_) {
        const int64_t i = next_++;
        const auto* task = task_;
        mutex_.unlock();
        (*task)(i);
        mutex_.lock();
    }
}

void ThreadPool::worker_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    uint64_t seen = generation_;
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        ++busy_;
        run_tasks();
        if (--busy_ == 0) done_.notify_all();
    }
}

void ThreadPool::parallel_for(int64_t count, const std::function<void(int64_t)>& task) {
    if (count <= 0) return;
    if (workers_.empty() || count == 1) {
        for (int64_t i = 0; i < count; ++i) task(i);
        return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    ++generation_;
    wake_.notify_all();
    ++busy_;
    run_tasks();
    --busy_;
    done_.wait(lock, [&] { return busy_ == 0 && next_ >= count_; });
    task_ = nullptr;
    count_ = 0;
}

}  // namespace skn_core
