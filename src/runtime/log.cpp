// SPDX-License-Identifier: MIT
#include "runtime/log.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

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

skn_log_level from_spdlog(spdlog::level::level_enum l) {
    switch (l) {
        case spdlog::level::trace: return SKN_LOG_TRACE;
        case spdlog::level::debug: return SKN_LOG_DEBUG;
        case spdlog::level::info: return SKN_LOG_INFO;
        case spdlog::level::warn: return SKN_LOG_WARN;
        default: return SKN_LOG_ERROR;
    }
}

// Forwards formatted records to the C callback. The callback and its user
// pointer are read under the sink's mutex, so replacing them is race-free.
class CallbackSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
    void set(skn_log_fn fn, void* user) {
        std::lock_guard<std::mutex> lock(mutex_);
        fn_ = fn;
        user_ = user;
    }

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        if (fn_ == nullptr) return;
        const std::string text(msg.payload.data(), msg.payload.size());
        fn_(from_spdlog(msg.level), text.c_str(), user_);
    }
    void flush_() override {}

private:
    skn_log_fn fn_ = nullptr;
    void* user_ = nullptr;
};

struct Logging {
    std::shared_ptr<CallbackSink> callback = std::make_shared<CallbackSink>();
    std::shared_ptr<spdlog::sinks::stderr_sink_mt> stderr_sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    spdlog::logger callback_logger{"skn", callback};
    spdlog::logger stderr_logger{"skn", stderr_sink};
    std::atomic<bool> use_callback{false};
    std::atomic<int> level{SKN_LOG_OFF};

    Logging() {
        stderr_logger.set_pattern("skn %l: %v");
        // Default: silent unless SKN_LOG names a level (then WARN+ or that level).
        if (const char* env = std::getenv("SKN_LOG"); env != nullptr && *env != 0) {
            auto l = spdlog::level::from_str(env);
            level = l == spdlog::level::off ? SKN_LOG_WARN : from_spdlog(l);
        }
        stderr_logger.set_level(spdlog::level::trace);
        callback_logger.set_level(spdlog::level::trace);
    }
};

Logging& logging() {
    static Logging instance;
    return instance;
}

}  // namespace

bool log_enabled(skn_log_level level) { return level >= logging().level.load(std::memory_order_relaxed); }

void log_message(skn_log_level level, const std::string& message) {
    Logging& l = logging();
    auto& logger = l.use_callback.load() ? l.callback_logger : l.stderr_logger;
    logger.log(to_spdlog(level), "{}", message);
}

bool set_log_callback(skn_log_level level, skn_log_fn fn, void* user) {
    if (level < SKN_LOG_TRACE || level > SKN_LOG_OFF || level == 5) return false;
    Logging& l = logging();
    l.callback->set(fn, user);
    if (fn != nullptr) {
        l.use_callback = true;
        l.level = level;
    } else {
        l.use_callback = false;
        const char* env = std::getenv("SKN_LOG");
        l.level = (env != nullptr && *env != 0) ? SKN_LOG_WARN : SKN_LOG_OFF;
    }
    return true;
}

}  // namespace skn_core
