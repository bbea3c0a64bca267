// SPDX-License-Identifier: MIT
// Trace sink: where adapter / kernel / fallback events go. A conversion is
// never silent (rule 3): whoever moves blocks emits an adapter event here
// (layout/prepack.cpp), whoever runs a kernel its kernel or fallback event
// (dispatch/). It knows no format, layout or kernel: it sits below them.
#pragma once

#include <chrono>
#include <cstdint>

#include "skn/skn.h"

namespace skn_core {

struct TraceSink {
    skn_trace_fn fn = nullptr;
    void* user = nullptr;

    bool enabled() const { return fn != nullptr; }
    void emit(const skn_trace_event& e) const {
        if (fn != nullptr) fn(&e, user);
    }
};

class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    int64_t nanoseconds() const {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

}  // namespace skn_core
