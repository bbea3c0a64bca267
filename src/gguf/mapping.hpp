// SPDX-License-Identifier: MIT
// A read-only memory mapping of a whole file, released on destruction. The
// file descriptor is closed as soon as the mapping exists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace skn_core::gguf {

class FileMapping {
public:
    // Map `path` read-only. Throws skn_core::Error (SKN_E_INVALID_ARGUMENT when the
    // file cannot be opened or mapped, SKN_E_FORMAT when it is empty).
    explicit FileMapping(const std::string& path);
    ~FileMapping();
    FileMapping(FileMapping&& other) noexcept;
    FileMapping& operator=(FileMapping&& other) noexcept;
    FileMapping(const FileMapping&) = delete;
    FileMapping& operator=(const FileMapping&) = delete;

    const uint8_t* data() const { return data_; }
    uint64_t size() const { return size_; }

private:
    void release() noexcept;

    const uint8_t* data_ = nullptr;
    uint64_t size_ = 0;
};

}  // namespace skn_core::gguf
