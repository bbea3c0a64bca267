// SPDX-License-Identifier: MIT
#include "runtime/pool_cache.hpp"

#include <unistd.h>

#include <algorithm>

namespace skn_core {

PoolCache::Lease::~Lease() {
    if (pool_ != nullptr) cache_->give_back(std::move(pool_));
}

PoolCache::~PoolCache() {
    std::lock_guard<std::mutex> lock(mutex_);
    abandon_if_forked();
}

void PoolCache::abandon_if_forked() {
    const long pid = long(getpid());
    if (owner_pid_ != pid) {
        // Joining a thread of the parent would wait forever: leak the pools.
        for (auto& p : idle_) (void)p.release();
        idle_.clear();
        owner_pid_ = pid;
    }
}

PoolCache::Lease PoolCache::lease(int threads) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        abandon_if_forked();
        const auto it = std::find_if(idle_.begin(), idle_.end(), [&](const auto& p) { return p->threads() == threads; });
        if (it != idle_.end()) {
            std::unique_ptr<ThreadPool> pool = std::move(*it);
            idle_.erase(it);
            return Lease(this, std::move(pool));
        }
        ++started_;
    }
    // Started outside the lock: starting threads must not hold up other callers.
    return Lease(this, std::make_unique<ThreadPool>(threads));
}

void PoolCache::give_back(std::unique_ptr<ThreadPool> pool) {
    std::unique_lock<std::mutex> lock(mutex_);
    abandon_if_forked();
    if (idle_.size() < kMaxIdle) {
        idle_.push_back(std::move(pool));
        return;
    }
    lock.unlock();
    pool.reset();  // joins its workers, outside the lock
}

size_t PoolCache::pools_started() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return started_;
}

PoolCache& PoolCache::shared() {
    static PoolCache cache;
    return cache;
}

}  // namespace skn_core
