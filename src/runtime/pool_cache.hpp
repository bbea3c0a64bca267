// SPDX-License-Identifier: MIT
// Idle thread pools kept for reuse, so that work that has no context to own
// a pool (skn_quantize_with_options: a converter quantizing tensor after
// tensor) does not start and join its threads on every call.
//
// A caller leases a pool of exactly the size it asked for and has it to
// itself until the lease ends, so concurrent callers never share one (a
// ThreadPool runs one parallel_for at a time) and none waits for another:
// a lease finds an idle pool of that size or starts a new one. At most
// kMaxIdle pools are kept; a lease returned beyond that is joined.
//
// After fork() the child has none of the parent's worker threads: pools
// started by another process are abandoned (never joined: their threads do
// not exist here) and the child starts its own.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "runtime/thread_pool.hpp"

namespace skn_core {

class PoolCache {
public:
    static constexpr size_t kMaxIdle = 4;

    class Lease {
    public:
        Lease(PoolCache* cache, std::unique_ptr<ThreadPool> pool) : cache_(cache), pool_(std::move(pool)) {}
        ~Lease();
        Lease(Lease&&) = default;
        Lease& operator=(Lease&&) = delete;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        ThreadPool* get() const { return pool_.get(); }

    private:
        PoolCache* cache_;
        std::unique_ptr<ThreadPool> pool_;
    };

    PoolCache() = default;
    ~PoolCache();
    PoolCache(const PoolCache&) = delete;
    PoolCache& operator=(const PoolCache&) = delete;

    // A pool of exactly `threads` threads (>= 2), the caller's until the lease ends.
    Lease lease(int threads);

    // How many pools this cache has started (a test seam: reuse shows as no growth).
    size_t pools_started() const;

    // The process-wide cache whole-tensor work without a context uses.
    static PoolCache& shared();

private:
    void give_back(std::unique_ptr<ThreadPool> pool);
    void abandon_if_forked();  // mutex_ held

    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<ThreadPool>> idle_;
    size_t started_ = 0;
    long owner_pid_ = 0;  // the process that started the idle pools
};

}  // namespace skn_core
