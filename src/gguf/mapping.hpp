// SPDX-License-Identifier: MIT
// A read-only memory mapping of a whole file (or a private copy of it),
// released on destruction. The file descriptor is closed as soon as the
// mapping exists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace skn_core::gguf {

class FileMapping {
public:
    // Map `path` read-only, or read it whole into owned memory (immune to the
    // file being truncated or rewritten later). Throws skn_core::Error:
    // SKN_E_NOT_FOUND (no such file), SKN_E_INVALID_ARGUMENT (not a regular
    // file), SKN_E_IO (cannot be opened, mapped or read), SKN_E_FORMAT (empty).
    FileMapping(const std::string& path, bool read_into_memory);
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
    std::unique_ptr<uint8_t[]> owned_;  // set when read into memory; data_ points into it
};

}  // namespace skn_core::gguf
