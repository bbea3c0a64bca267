// SPDX-License-Identifier: MIT
// Internal logging: spdlog, used header-only so libskn has no run-time
// dependency on it, forwarded to the caller's skn_log_fn.
#pragma once

#include <fmt/format.h>

#include "skn/skn.h"

namespace skn_core {

bool log_enabled(skn_log_level level);
void log_message(skn_log_level level, const std::string& message);

template <typename... Args>
void log_at(skn_log_level level, fmt::format_string<Args...> f, Args&&... args) {
    if (log_enabled(level)) log_message(level, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void log_debug(fmt::format_string<Args...> f, Args&&... args) {
    log_at(SKN_LOG_DEBUG, f, std::forward<Args>(args)...);
}
template <typename... Args>
void log_info(fmt::format_string<Args...> f, Args&&... args) {
    log_at(SKN_LOG_INFO, f, std::forward<Args>(args)...);
}
template <typename... Args>
void log_warn(fmt::format_string<Args...> f, Args&&... args) {
    log_at(SKN_LOG_WARN, f, std::forward<Args>(args)...);
}

// Install (fn != nullptr) or remove the caller's callback. Returns false for a
// level outside skn_log_level.
bool set_log_callback(skn_log_level level, skn_log_fn fn, void* user);

}  // namespace skn_core
