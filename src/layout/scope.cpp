// SPDX-License-Identifier: MIT
#include "layout/scope.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace skn_core {

ScopeStorage::~ScopeStorage() {
    for (void* p : allocations_) std::free(p);
}

uint8_t* ScopeStorage::allocate(size_t bytes) {
    // 64-byte alignment: one cache line, and what AVX-512 loads like.
    const size_t rounded = (bytes + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
    if (p == nullptr) throw std::bad_alloc();
    std::memset(p, 0, rounded == 0 ? 64 : rounded);
    std::lock_guard<std::mutex> lock(mutex_);
    try {
        allocations_.push_back(p);
    } catch (...) {
        std::free(p);
        throw;
    }
    allocated_ += bytes;
    return static_cast<uint8_t*>(p);
}

uint64_t ScopeStorage::allocated_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocated_;
}

}  // namespace skn_core
