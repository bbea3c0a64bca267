// SPDX-License-Identifier: MIT
// Thread-local error messages behind skn_last_error(), and the exception the
// C++ core throws so the C API can turn it into a status at the boundary.
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

#include "skn/skn.h"

namespace skn_core {

class Error : public std::runtime_error {
public:
    Error(skn_status status, std::string message) : std::runtime_error(std::move(message)), status_(status) {}
    skn_status status() const noexcept { return status_; }

private:
    skn_status status_;
};

template <typename... Args>
[[noreturn]] void fail(skn_status status, fmt::format_string<Args...> f, Args&&... args) {
    throw Error(status, fmt::format(f, std::forward<Args>(args)...));
}

// "SKN_E_INVALID_ARGUMENT" for a status, "unknown status" otherwise.
const char* status_name(skn_status status);

// Record `message` as this thread's last error and return `status`.
skn_status set_last_error(skn_status status, std::string message);
void clear_last_error();
const char* last_error_message();

}  // namespace skn_core
