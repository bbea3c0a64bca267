// SPDX-License-Identifier: MIT
// Rows of a tensor split into disjoint ranges, run on a thread pool or on the
// calling thread. Whole-tensor work (quantization) uses it so that the bytes
// it writes cannot depend on the thread count: a range's work depends only
// on its rows, and every cross-row result must be an order-independent
// reduction over ranges.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

#include "runtime/thread_pool.hpp"

namespace skn_core {

class RowRanges {
public:
    // A few ranges per thread so that a slow range does not leave threads
    // idle; one range when there is no pool.
    RowRanges(int64_t rows, ThreadPool* pool)
        : rows_(rows), pool_(pool), count_(pool != nullptr ? std::min<int64_t>(rows, 4 * int64_t(pool->threads())) : 1) {
        if (count_ < 1) count_ = 1;
    }

    int64_t count() const { return count_; }

    // body(range, first_row, end_row) for every range, returning when all are
    // done. Ranges are ragged (sizes differ by at most one row). body must not
    // throw: record a failure and report it after run returns.
    void run(const std::function<void(int64_t, int64_t, int64_t)>& body) const {
        const auto one = [&](int64_t r) { body(r, rows_ * r / count_, rows_ * (r + 1) / count_); };
        if (pool_ == nullptr || count_ == 1) {
            for (int64_t r = 0; r < count_; ++r) one(r);
            return;
        }
        pool_->parallel_for(count_, one);
    }

private:
    int64_t rows_;
    ThreadPool* pool_;
    int64_t count_;
};

}  // namespace skn_core
