// SPDX-License-Identifier: MIT
// Writing a GGUF file whose tensor bytes arrive one after the other: the
// header (metadata and tensor infos, declared on a Writer) goes out first,
// then each tensor's bytes in file order, whole or in chunks. Memory use is
// the header and one name and size per tensor, whatever the tensors weigh.
//
// Given a path, the bytes go to a temporary file beside the target
// ("<path>.skn-partial-" and six random characters, created exclusively so
// two streams to one path cannot share it) that finish() renames over
// `path`. Until then, and if the stream is destroyed unfinished or a write
// fails, `path` is untouched and the temporary file is removed.
//
// Given a file descriptor, the bytes go to it from its current position and
// finish() syncs it; the descriptor stays the caller's (never closed,
// renamed or removed here), so a caller that must control where the file
// lives and when it appears (an unnamed O_TMPFILE linked in place, cleanup
// on signals) does that itself.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gguf/writer.hpp"

namespace skn_core::gguf {

class Stream {
public:
    // Create the temporary file and write the header `writer` describes.
    // Every tensor of `writer` must be declared (Writer::declare_tensor).
    // The stream keeps no reference to `writer`.
    Stream(const Writer& writer, std::string path);
    // Write to the caller's open descriptor `fd` (it must be open for writing).
    Stream(const Writer& writer, int fd);
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    // Removes the temporary file unless finish() succeeded.
    ~Stream();

    // Append `bytes` to tensor `name`, which must be the first tensor not
    // yet written in full; a chunk must not run past the tensor's end.
    // Refusals (wrong tensor, too many bytes) change nothing; a failed write
    // of the file breaks the stream (every later call fails, naming why).
    void write(std::string_view name, std::span<const uint8_t> bytes);
    // Check every tensor is complete, flush, sync and (given a path) rename
    // over `path`.
    void finish();

    // The index of the tensor the next bytes belong to (tensor_count() when
    // all are written) and how many of its bytes were written.
    size_t current_tensor() const { return current_; }
    uint64_t current_written() const { return written_; }
    size_t tensor_count() const { return tensors_.size(); }
    uint64_t file_size() const { return file_size_; }

private:
    void start(const Writer& writer);
    void put(const void* p, size_t n);
    void zeros(uint64_t n);
    void require_usable() const;
    [[noreturn]] void break_stream(skn_status status, std::string message);
    void discard() noexcept;

    std::string path_;   // the target, or "file descriptor N"
    std::string tmp_;    // the temporary file; empty when writing to a caller's descriptor
    std::FILE* file_ = nullptr;
    std::vector<std::pair<std::string, uint64_t>> tensors_;  // name, byte size
    uint32_t alignment_ = kDefaultAlignment;
    uint64_t file_size_ = 0;
    uint64_t at_ = 0;        // bytes written to the file
    size_t current_ = 0;     // the tensor being written
    uint64_t written_ = 0;   // its bytes written so far
    bool finished_ = false;
    std::string broken_;     // why the stream cannot go on, when it cannot
};

}  // namespace skn_core::gguf
