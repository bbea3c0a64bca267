// SPDX-License-Identifier: MIT
#include "gguf/mapping.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

#include "runtime/error.hpp"

namespace skn_core::gguf {
namespace {

// Closes the descriptor on every path out of the constructor.
class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

}  // namespace

// ENOENT and ENOTDIR say the path names nothing; every other failure is the
// system's, reported as I/O with its reason.
[[noreturn]] static void fail_errno(int err, const char* what, const std::string& path) {
    if (err == ENOENT || err == ENOTDIR)
        fail(SKN_E_NOT_FOUND, "cannot {} {}: {}: check the path", what, path, std::strerror(err));
    fail(SKN_E_IO, "cannot {} {}: {}", what, path, std::strerror(err));
}

FileMapping::FileMapping(const std::string& path, bool read_into_memory) {
    // O_NONBLOCK: opening a FIFO with no writer would otherwise block for
    // ever. The type is checked on the open descriptor (no race with a
    // rename), and nothing but a regular file is read.
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) fail_errno(errno, "open", path);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail_errno(errno, "stat", path);
    if (S_ISDIR(st.st_mode)) fail(SKN_E_INVALID_ARGUMENT, "{} is a directory, not a regular file: pass a GGUF file", path);
    if (!S_ISREG(st.st_mode))
        fail(SKN_E_INVALID_ARGUMENT, "{} is not a regular file (a FIFO, socket or device): pass a GGUF file", path);
    if (st.st_size == 0) fail(SKN_E_FORMAT, "{}: the file is empty, not a GGUF file", path);
    const uint64_t size = uint64_t(st.st_size);
    if (size > SIZE_MAX) fail(SKN_E_INVALID_ARGUMENT, "{} ({} bytes) is larger than this process can address", path, size);
    if (read_into_memory) {
        uint8_t* buf = new (std::nothrow) uint8_t[size_t(size)];
        if (buf == nullptr)
            fail(SKN_E_OUT_OF_MEMORY, "cannot allocate {} bytes to read {} into memory: map it instead "
                 "(read_into_memory = 0)", size, path);
        owned_.reset(buf);
        uint64_t done = 0;
        while (done < size) {
            const ssize_t n = ::pread(fd.get(), buf + done, size_t(size - done), off_t(done));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) fail_errno(errno, "read", path);
            if (n == 0)
                fail(SKN_E_IO, "{} shrank from {} to {} bytes while it was being read", path, size, done);
            done += uint64_t(n);
        }
        data_ = buf;
        size_ = size;
        return;
    }
    void* p = ::mmap(nullptr, size_t(size), PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (p == MAP_FAILED) fail(SKN_E_IO, "cannot map {} ({} bytes): {}", path, size, std::strerror(errno));
    data_ = static_cast<const uint8_t*>(p);
    size_ = size;
}

FileMapping::~FileMapping() { release(); }

FileMapping::FileMapping(FileMapping&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)), owned_(std::move(other.owned_)) {}

FileMapping& FileMapping::operator=(FileMapping&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        owned_ = std::move(other.owned_);
    }
    return *this;
}

void FileMapping::release() noexcept {
    if (owned_ != nullptr)
        owned_.reset();
    else if (data_ != nullptr)
        ::munmap(const_cast<uint8_t*>(data_), size_t(size_));
    data_ = nullptr;
    size_ = 0;
}

}  // namespace skn_core::gguf
