// SPDX-License-Identifier: MIT
#include "runtime/error.hpp"

#include "runtime/log.hpp"

namespace skn_core {
namespace {
thread_local std::string t_last_error;
}

const char* status_name(skn_status status) {
    switch (status) {
        case SKN_OK: return "SKN_OK";
        case SKN_E_INVALID_ARGUMENT: return "SKN_E_INVALID_ARGUMENT";
        case SKN_E_UNKNOWN_FORMAT: return "SKN_E_UNKNOWN_FORMAT";
        case SKN_E_UNSUPPORTED: return "SKN_E_UNSUPPORTED";
        case SKN_E_BUFFER_TOO_SMALL: return "SKN_E_BUFFER_TOO_SMALL";
        case SKN_E_OUT_OF_MEMORY: return "SKN_E_OUT_OF_MEMORY";
        case SKN_E_FORMAT: return "SKN_E_FORMAT";
        case SKN_E_IO: return "SKN_E_IO";
        case SKN_E_NOT_FOUND: return "SKN_E_NOT_FOUND";
        case SKN_E_INTERNAL: return "SKN_E_INTERNAL";
    }
    return "unknown status";
}

skn_status set_last_error(skn_status status, std::string message) {
    log_debug("{}: {}", status_name(status), message);
    t_last_error = std::move(message);
    return status;
}

void clear_last_error() { t_last_error.clear(); }

const char* last_error_message() { return t_last_error.c_str(); }

}  // namespace skn_core
