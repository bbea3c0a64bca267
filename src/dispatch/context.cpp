// SPDX-License-Identifier: MIT
#include "dispatch/context.hpp"

#include <cstdlib>

#include "dispatch/tuning.hpp"
#include "runtime/isa.hpp"
#include "runtime/error.hpp"

namespace skn_core {

Context::Context() : cap_(detected_isa()), registry_(&default_registry()), tuning_(Tuning::process()) {
    if (const char* env = std::getenv("SKN_ISA"); env != nullptr && *env != 0) {
        skn_isa cap;
        if (!parse_isa(env, &cap))
            fail(SKN_E_INVALID_ARGUMENT, "SKN_ISA=\"{}\" is not one of {}", env, isa_name_list());
        cap_ = cap;
    }
    if (const char* bad = nullptr; !stream_env_valid(&bad))
        fail(SKN_E_INVALID_ARGUMENT, "SKN_STREAM=\"{}\" is not one of auto, near, far", bad);
}

void Context::set_tuning(const std::string& choice, const std::string& subject, const std::string& value) {
    const auto c = parse_tuning_choice(choice);
    if (!c) fail(SKN_E_INVALID_ARGUMENT, "tuning choice \"{}\" is not variant, tasks or prefer", choice);
    if (subject.empty()) fail(SKN_E_INVALID_ARGUMENT, "a tuning {} needs a subject (a kernel name glob, or FORMAT:REGIME)", choice);
    std::string s = subject, v = value;
    check_tuning_value(*c, &s, &v);
    tuning_.set(*c, std::move(s), std::move(v), "context");
}

void Context::set_threads(int n) {
    if (n < 1 || n > 1024) fail(SKN_E_INVALID_ARGUMENT, "thread count {} is outside 1..1024", n);
    if (n == threads_ && (n == 1 || pool_)) return;
    pool_.reset();
    threads_ = n;
    if (n > 1) pool_ = std::make_unique<ThreadPool>(n);
}

void Context::run(int64_t count, const std::function<void(int64_t)>& task) {
    if (parallel_for_.fn != nullptr) {
        struct Thunk {
            static void call(void* arg, int64_t i) { (*static_cast<const std::function<void(int64_t)>*>(arg))(i); }
        };
        parallel_for_.fn(&Thunk::call, const_cast<std::function<void(int64_t)>*>(&task), count, parallel_for_.user);
        return;
    }
    if (pool_) {
        pool_->parallel_for(count, task);
        return;
    }
    for (int64_t i = 0; i < count; ++i) task(i);
}

float* Context::float_scratch(size_t count) {
    if (floats_.size() < count) floats_.resize(count);
    return floats_.data();
}

uint8_t* Context::byte_scratch(size_t bytes) {
    if (bytes_.size() < bytes) bytes_.resize(bytes);
    return bytes_.data();
}

int64_t* Context::index_scratch(size_t count) {
    if (indices_.size() < count) indices_.resize(count);
    return indices_.data();
}

float* Context::output_scratch(size_t count) {
    if (outputs_.size() < count) outputs_.resize(count);
    return outputs_.data();
}

}  // namespace skn_core
