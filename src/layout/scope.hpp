// SPDX-License-Identifier: MIT
// Scope: an arena that owns prepacked copies (and, later, scratch). Views
// over its memory hold a reference to its storage, so memory is freed when
// the scope is destroyed AND the last such view is released: no view dangles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace skn_core {

class ScopeStorage {
public:
    ScopeStorage() = default;
    ScopeStorage(const ScopeStorage&) = delete;
    ScopeStorage& operator=(const ScopeStorage&) = delete;
    ~ScopeStorage();

    // `bytes` of 64-byte-aligned memory, zeroed; lives as long as this storage.
    uint8_t* allocate(size_t bytes);
    uint64_t allocated_bytes() const;

private:
    mutable std::mutex mutex_;
    std::vector<void*> allocations_;
    uint64_t allocated_ = 0;
};

struct Scope {
    std::shared_ptr<ScopeStorage> storage = std::make_shared<ScopeStorage>();
};

}  // namespace skn_core
