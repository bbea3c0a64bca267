// SPDX-License-Identifier: MIT
#include "gguf/mapping.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

FileMapping::FileMapping(const std::string& path) {
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) fail(SKN_E_INVALID_ARGUMENT, "cannot open {}: {}", path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail(SKN_E_INVALID_ARGUMENT, "cannot stat {}: {}", path, std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail(SKN_E_INVALID_ARGUMENT, "{} is not a regular file", path);
    if (st.st_size == 0) fail(SKN_E_FORMAT, "{}: the file is empty, not a GGUF file", path);
    const uint64_t size = uint64_t(st.st_size);
    void* p = ::mmap(nullptr, size_t(size), PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (p == MAP_FAILED) fail(SKN_E_INVALID_ARGUMENT, "cannot map {} ({} bytes): {}", path, size, std::strerror(errno));
    data_ = static_cast<const uint8_t*>(p);
    size_ = size;
}

FileMapping::~FileMapping() { release(); }

FileMapping::FileMapping(FileMapping&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

FileMapping& FileMapping::operator=(FileMapping&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void FileMapping::release() noexcept {
    if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_t(size_));
    data_ = nullptr;
    size_ = 0;
}

}  // namespace skn_core::gguf
