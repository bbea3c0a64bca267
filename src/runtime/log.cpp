// SPDX-License-Identifier: MIT
#include "runtime/log.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace skn_core {
namespace {

spdlog::level::level_enum to_spdlog(skn_log_level l) {
    switch (l) {
        case SKN_LOG_TRACE: return spdlog::level::trace;
        case SKN_LOG_DEBUG: return spdlog::level::debug;
        case SKN_LOG_INFO: return spdlog::level::info;
        case SKN_LOG_WARN: return spdlog::level::warn;
        case SKN_LOG_ERROR: return spdlog::level::err;
        default: return spdlog::level::off;
    }
}

// What SKN_LOG asks for: a level name, "off", or (unset, empty, unknown)
// nothing. An unknown value is reported once, on stderr, and then ignored.
int level_from_environment() {
    const char* env = std::getenv("SKN_LOG");
    if (env == nullptr || *env == 0) return SKN_LOG_OFF;
    const std::string_view v(env);
    if (v == "trace") return SKN_LOG_TRACE;
    if (v == "debug") return SKN_LOG_DEBUG;
    if (v == "info") return SKN_LOG_INFO;
    if (v == "warn" || v == "warning") return SKN_LOG_WARN;
    if (v == "error" || v == "err") return SKN_LOG_ERROR;
    if (v == "off") return SKN_LOG_OFF;
    std::fprintf(stderr,
                 "skn: ignoring SKN_LOG=%s: not a level (use trace, debug, info, warn, error or off)\n", env);
    return SKN_LOG_OFF;
}

// Where messages go. Replaced as a whole under `mutex`, read as a whole once
// per message, so a message never sees one callback's level with another's
// destination.
struct Destination {
    skn_log_fn fn = nullptr;  // nullptr: stderr
    void* user = nullptr;
    int level = SKN_LOG_OFF;
};

struct Logging {
    std::mutex mutex;  // guards `current`; never held while a callback runs
    Destination current;
    std::atomic<int> level{SKN_LOG_OFF};  // == current.level: the lock-free early-out of log_enabled
    int env_level = SKN_LOG_OFF;          // the default destination's level, read once
    std::shared_ptr<spdlog::sinks::stderr_sink_mt> stderr_sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    spdlog::logger stderr_logger{"skn", stderr_sink};

    Logging() {
        env_level = level_from_environment();
        current.level = env_level;
        level = env_level;
        stderr_logger.set_pattern("skn %l: %v");
        stderr_logger.set_level(to_spdlog(skn_log_level(env_level)));
    }
};

Logging& logging() {
    static Logging instance;
    return instance;
}

// Set while this thread runs the caller's log callback. Messages raised by
// skn calls the callback makes are dropped rather than delivered to the
// callback again: that recursion would not end if the callback's own call
// fails every time.
thread_local bool t_in_callback = false;

}  // namespace

bool log_enabled(skn_log_level level) {
    return !t_in_callback && level >= logging().level.load(std::memory_order_relaxed);
}

void log_message(skn_log_level level, const std::string& message) {
    if (t_in_callback) return;
    Logging& l = logging();
    Destination d;
    {
        std::lock_guard<std::mutex> lock(l.mutex);
        d = l.current;
    }
    if (level < d.level) return;  // the destination that takes it decides, not an earlier read of the level
    if (d.fn == nullptr) {
        l.stderr_logger.log(to_spdlog(level), "{}", message);
        return;
    }
    // No lock is held here: the callback may call any skn function,
    // skn_set_log_callback included.
    t_in_callback = true;
    d.fn(level, message.c_str(), d.user);
    t_in_callback = false;
}

bool set_log_callback(skn_log_level level, skn_log_fn fn, void* user) {
    if (level < SKN_LOG_TRACE || level > SKN_LOG_OFF || level == 5) return false;
    Logging& l = logging();
    std::lock_guard<std::mutex> lock(l.mutex);
    // fn == NULL restores the default destination: stderr at the level SKN_LOG set.
    l.current = fn != nullptr ? Destination{fn, user, level} : Destination{nullptr, nullptr, l.env_level};
    l.level = l.current.level;
    return true;
}

}  // namespace skn_core
