#include "runtime/dense_backend.hpp"

#include <libxsmm.h>

#include <fmt/format.h>

namespace skn {

std::string dense_backend_description() {
    const char* arch = libxsmm_get_target_arch();
    return fmt::format("libxsmm {} (target: {})", LIBXSMM_VERSION, arch != nullptr ? arch : "unknown");
}

}  // namespace skn
