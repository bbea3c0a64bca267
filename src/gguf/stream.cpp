// SPDX-License-Identifier: MIT
#include "gguf/stream.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "runtime/error.hpp"

namespace skn_core::gguf {
namespace {

uint64_t padding(uint64_t at, uint64_t alignment) { return (alignment - at % alignment) % alignment; }

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Six characters that differ between processes, threads and calls. They
// need not be unpredictable: the file is created with O_EXCL, so a name
// already taken is retried, never shared.
std::string random_suffix() {
    static std::atomic<uint64_t> counter{0};
    const uint64_t t = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    uint64_t x = mix(t ^ (uint64_t(::getpid()) << 32) ^ mix(counter.fetch_add(1, std::memory_order_relaxed)));
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s(6, 'a');
    for (char& c : s) {
        c = kChars[x % 36];
        x /= 36;
    }
    return s;
}

}  // namespace

Stream::Stream(const Writer& writer, std::string path) : path_(std::move(path)) {
    if (path_.empty()) fail(SKN_E_INVALID_ARGUMENT, "path must not be empty");
    // 0666 less the umask, as a file fopen creates: the finished file gets
    // the permissions any other new file in that directory would.
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp_ = path_ + ".skn-partial-" + random_suffix();
        fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) fail(SKN_E_IO, "cannot create {}: {}", tmp_, std::strerror(errno));
    }
    if (fd < 0) fail(SKN_E_IO, "cannot create a temporary file beside {}: 100 names were taken", path_);
    file_ = ::fdopen(fd, "wb");
    if (file_ == nullptr) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp_.c_str());
        fail(SKN_E_IO, "cannot open {} for writing: {}", tmp_, std::strerror(err));
    }
    start(writer);
}

Stream::Stream(const Writer& writer, int fd) : path_(fmt::format("file descriptor {}", fd)) {
    const int flags = fd >= 0 ? ::fcntl(fd, F_GETFL) : -1;
    if (flags < 0)
        fail(SKN_E_INVALID_ARGUMENT, "fd {} is not an open file descriptor", fd);
    if ((flags & O_ACCMODE) == O_RDONLY)
        fail(SKN_E_INVALID_ARGUMENT, "fd {} is open read-only: open it for writing (O_WRONLY or O_RDWR)", fd);
    // A duplicate, so that closing the buffered FILE leaves the caller's
    // descriptor open; it shares the caller's file position.
    const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) fail(SKN_E_IO, "cannot duplicate fd {}: {}", fd, std::strerror(errno));
    file_ = ::fdopen(own, "wb");
    if (file_ == nullptr) {
        const int err = errno;
        ::close(own);
        fail(SKN_E_IO, "cannot open fd {} for writing: {}", fd, std::strerror(err));
    }
    start(writer);
}

// Takes the writer's plan and writes the header; on failure nothing is left
// behind (the temporary file, if any, is removed).
void Stream::start(const Writer& writer) {
    try {
        Writer::StreamPlan plan = writer.stream_plan();
        tensors_ = std::move(plan.tensors);
        alignment_ = plan.alignment;
        file_size_ = plan.file_size;
        put(plan.header.data(), plan.header.size());
    } catch (...) {
        discard();
        throw;
    }
}

Stream::~Stream() {
    if (!finished_) discard();
}

void Stream::discard() noexcept {
    if (file_ != nullptr) {
        std::fclose(file_);
        file_ = nullptr;
    }
    if (!tmp_.empty() && !finished_) ::unlink(tmp_.c_str());
}

void Stream::break_stream(skn_status status, std::string message) {
    broken_ = message;
    discard();
    throw Error(status, std::move(message));
}

void Stream::require_usable() const {
    if (finished_) fail(SKN_E_INVALID_ARGUMENT, "the stream to {} is finished: nothing more can be written", path_);
    if (!broken_.empty())
        fail(SKN_E_IO, "the stream to {} failed earlier and was abandoned ({}){}: start a new stream", path_, broken_,
             tmp_.empty() ? "" : "; its temporary file is removed");
}

void Stream::put(const void* p, size_t n) {
    if (n != 0 && std::fwrite(p, 1, n, file_) != n)
        break_stream(SKN_E_IO, fmt::format("cannot write {} at byte {}: {}", tmp_.empty() ? path_ : tmp_, at_,
                                           std::strerror(errno)));
    at_ += n;
}

void Stream::zeros(uint64_t n) {
    static const uint8_t kZeros[64] = {};
    while (n > 0) {
        const size_t k = n < sizeof kZeros ? size_t(n) : sizeof kZeros;
        put(kZeros, k);
        n -= k;
    }
}

void Stream::write(std::string_view name, std::span<const uint8_t> bytes) {
    require_usable();
    if (bytes.data() == nullptr && !bytes.empty()) fail(SKN_E_INVALID_ARGUMENT, "data must not be NULL");
    if (current_ == tensors_.size())
        fail(SKN_E_INVALID_ARGUMENT,
             "tensor \"{}\": every declared tensor ({}) is already written in full: call finish", name,
             tensors_.size());
    const auto& [expected, size] = tensors_[current_];
    if (name != expected) {
        for (size_t i = 0; i < tensors_.size(); ++i) {
            if (tensors_[i].first != name) continue;
            if (i < current_)
                fail(SKN_E_INVALID_ARGUMENT,
                     "tensor \"{}\" (position {} in the file) is already written in full ({} bytes); the stream is at "
                     "tensor \"{}\" (position {}, {} of {} bytes written)",
                     name, i, tensors_[i].second, expected, current_, written_, size);
            fail(SKN_E_INVALID_ARGUMENT,
                 "tensor \"{}\" is at position {} in the file but the stream is at tensor \"{}\" (position {}, {} of {} "
                 "bytes written): write tensors in the order they were declared",
                 name, i, expected, current_, written_, size);
        }
        fail(SKN_E_INVALID_ARGUMENT,
             "no tensor \"{}\" was declared; the stream is at tensor \"{}\" (position {}, {} of {} bytes written)", name,
             expected, current_, written_, size);
    }
    const uint64_t remaining = size - written_;
    if (bytes.size() > remaining)
        fail(SKN_E_INVALID_ARGUMENT,
             "tensor \"{}\" is {} bytes and {} are written: a chunk of {} bytes is {} too many ({} remain)", name,
             size, written_, bytes.size(), bytes.size() - remaining, remaining);
    put(bytes.data(), bytes.size());
    written_ += bytes.size();
    if (written_ == size) {
        zeros(padding(size, alignment_));
        ++current_;
        written_ = 0;
        // Zero-byte tensors cannot exist (dimensions are positive), so the
        // next tensor always waits for bytes.
    }
}

void Stream::finish() {
    require_usable();
    if (current_ < tensors_.size())
        fail(SKN_E_INVALID_ARGUMENT,
             "tensor \"{}\" (position {} of {}) has {} of its {} bytes: write every declared tensor in full before "
             "finishing (the stream is unchanged and can go on)",
             tensors_[current_].first, current_, tensors_.size(), written_, tensors_[current_].second);
    if (at_ != file_size_)
        break_stream(SKN_E_INTERNAL, fmt::format("the stream wrote {} bytes but the file is {}", at_, file_size_));
    // Data first on disk, then the name: a crash between the two leaves the
    // old file (or none) at `path`, never a file whose pages are missing.
    const std::string& target = tmp_.empty() ? path_ : tmp_;
    if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0)
        break_stream(SKN_E_IO, fmt::format("cannot finish writing {}: {}", target, std::strerror(errno)));
    const int closed = std::fclose(file_);
    const int close_err = errno;
    file_ = nullptr;
    if (closed != 0) break_stream(SKN_E_IO, fmt::format("cannot finish writing {}: {}", target, std::strerror(close_err)));
    if (tmp_.empty()) {  // the caller's descriptor: it places the file
        finished_ = true;
        return;
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
        break_stream(SKN_E_IO, fmt::format("cannot move {} to {}: {}", tmp_, path_, std::strerror(errno)));
    finished_ = true;
}

}  // namespace skn_core::gguf
