// SPDX-License-Identifier: MIT
// Helpers for the GGUF tests: a byte-level encoder independent of
// gguf::Writer (so the reader is not only tested against its own writer), and
// an error catcher.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/error.hpp"

namespace skn_core::test {

// Appends GGUF fields in file order; the caller states every count and offset,
// so malformed files are as easy to make as valid ones.
class RawGguf {
public:
    RawGguf& u8(uint8_t v) { return put(&v, 1); }
    RawGguf& u32(uint32_t v) { return put(&v, 4); }
    RawGguf& u64(uint64_t v) { return put(&v, 8); }
    RawGguf& f32(float v) { return put(&v, 4); }
    RawGguf& str(std::string_view s) {
        u64(s.size());
        return put(s.data(), s.size());
    }
    RawGguf& header(uint32_t version, uint64_t tensors, uint64_t kvs) {
        put("GGUF", 4);
        u32(version);
        u64(tensors);
        return u64(kvs);
    }
    RawGguf& kv_u32(std::string_view key, uint32_t v) {
        str(key);
        u32(4);
        return u32(v);
    }
    RawGguf& kv_string(std::string_view key, std::string_view v) {
        str(key);
        u32(8);
        return str(v);
    }
    // A tensor info; `ne` in file order.
    RawGguf& tensor(std::string_view name, std::vector<uint64_t> ne, uint32_t type, uint64_t offset) {
        str(name);
        u32(uint32_t(ne.size()));
        for (uint64_t n : ne) u64(n);
        u32(type);
        return u64(offset);
    }
    RawGguf& align(uint64_t a) {
        while (bytes.size() % a != 0) bytes.push_back(0);
        return *this;
    }
    RawGguf& zeros(size_t n) {
        bytes.insert(bytes.end(), n, 0);
        return *this;
    }
    RawGguf& put(const void* p, size_t n) {
        const size_t at = bytes.size();
        bytes.resize(at + n);
        if (n != 0) std::memcpy(bytes.data() + at, p, n);
        return *this;
    }
    size_t size() const { return bytes.size(); }

    std::vector<uint8_t> bytes;
};

inline void poke_u64(std::vector<uint8_t>& b, uint64_t at, uint64_t v) { std::memcpy(b.data() + at, &v, 8); }
inline void poke_u32(std::vector<uint8_t>& b, uint64_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

// Runs `fn`, which must throw skn_core::Error with `expected`; returns the message.
template <typename Fn>
std::string gguf_error(Fn&& fn, skn_status expected) {
    try {
        fn();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), expected) << e.what();
        EXPECT_STRNE(e.what(), "");
        return e.what();
    }
    ADD_FAILURE() << "expected an error with status " << status_name(expected);
    return {};
}

inline bool contains(const std::string& haystack, std::string_view needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace skn_core::test
