// SPDX-License-Identifier: MIT
#include "runtime/thread_pool.hpp"

#include <chrono>

namespace skn_core {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

// Spins until ready() or until `budget` has passed; returns ready().
template <class Ready>
bool spin_until(const Ready& ready, std::chrono::microseconds budget) {
    const auto until = std::chrono::steady_clock::now() + budget;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (ready()) return true;
            cpu_relax();
        }
        if (std::chrono::steady_clock::now() >= until) return ready();
    }
}

// How long a worker keeps its core after a job before it sleeps: long
// enough for the next call of a decode step to find it awake, short
// enough that an idle pool gives the core back soon.
constexpr std::chrono::microseconds kWorkerSpin{200};
// How long the caller spins for the workers' last tasks before it sleeps.
constexpr std::chrono::microseconds kCallerSpin{2000};

}  // namespace

ThreadPool::ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    stop_.store(true);
    { std::lock_guard<std::mutex> lock(mutex_); }  // a worker between its check and its wait sees stop_
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::run_tasks() {
    const auto* task = task_;
    const int64_t count = count_;
    for (int64_t i = next_.fetch_add(1, std::memory_order_relaxed); i < count;
         i = next_.fetch_add(1, std::memory_order_relaxed)) {
        (*task)(i);
        // Sequentially consistent, paired with wait_until_finished: either
        // the caller sees the last task done or this sees it asleep. A
        // spinning caller costs the last task no lock.
        if (done_.fetch_add(1) + 1 == count && caller_asleep_.load()) {
            { std::lock_guard<std::mutex> lock(mutex_); }
            finished_.notify_all();
        }
    }
}

void ThreadPool::wait_for_job(uint64_t seen) {
    // Sequentially consistent loads: with the caller's bump of generation_
    // and load of sleepers_, at least one side sees the other.
    auto ready = [&] { return stop_.load() || generation_.load() != seen; };
    if (spin_until(ready, kWorkerSpin)) return;
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    wake_.wait(lock, ready);
    sleepers_.fetch_sub(1);
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    for (;;) {
        wait_for_job(seen);
        if (stop_.load()) return;
        seen = generation_.load();
        // Enter, then look at the gate (both sequentially consistent): a
        // caller that closed the gate and saw nobody inside may be rewriting
        // the job, and then this load sees the gate closed.
        inside_.fetch_add(1);
        if (open_.load()) run_tasks();
        inside_.fetch_sub(1, std::memory_order_release);
    }
}

void ThreadPool::wait_until_finished() {
    auto finished = [&] { return done_.load(std::memory_order_acquire) == count_; };
    if (spin_until(finished, kCallerSpin)) return;
    std::unique_lock<std::mutex> lock(mutex_);
    caller_asleep_.store(true);
    finished_.wait(lock, [&] { return done_.load() == count_; });
    caller_asleep_.store(false);
}

void ThreadPool::parallel_for(int64_t count, const std::function<void(int64_t)>& task) {
    if (count <= 0) return;
    if (workers_.empty() || count == 1) {
        for (int64_t i = 0; i < count; ++i) task(i);
        return;
    }
    // A worker late for the last job may still be inside (it found no task
    // left); the gate is closed, so anyone entering now leaves at once.
    while (!spin_until([&] { return inside_.load() == 0; }, kWorkerSpin)) std::this_thread::yield();
    task_ = &task;
    count_ = count;
    next_.store(0, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    open_.store(true);
    generation_.fetch_add(1);
    if (sleepers_.load() > 0) {
        { std::lock_guard<std::mutex> lock(mutex_); }
        wake_.notify_all();
    }
    run_tasks();
    wait_until_finished();
    open_.store(false);
}

}  // namespace skn_core
