// SPDX-License-Identifier: MIT
// Trace sink: where adapter / kernel / fallback events go. A conversion is
// never silent (rule 3): whoever moves blocks emits an adapter event here.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "formats/format.hpp"
#include "layout/block_order.hpp"
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

// An adapter (a conversion). `subject` names what was converted and where
// the copy went (the tensor's name when known, the scope), so an engine can
// tell which weight it is. With no sink set the event still goes to the
// library log at DEBUG: a conversion is never silent (rule 3).
// A change of encoding (a row-interleaved format and its canonical twin)
// names both formats; a prepack passes the same format twice.
void emit_adapter(const TraceSink& sink, const FormatTraits& from_format, const FormatTraits& to_format,
                  BlockOrder from, BlockOrder to, uint64_t bytes, int64_t nanoseconds, const std::string& subject);

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
