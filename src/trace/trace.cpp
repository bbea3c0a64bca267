// SPDX-License-Identifier: MIT
#include "trace/trace.hpp"

#include <fmt/format.h>

#include "runtime/log.hpp"

namespace skn_core {

void emit_adapter(const TraceSink& sink, const FormatTraits& from_format, const FormatTraits& to_format,
                  BlockOrder from, BlockOrder to, uint64_t bytes, int64_t nanoseconds, const std::string& subject) {
    if (!sink.enabled() && !log_enabled(SKN_LOG_DEBUG)) return;
    const bool same = &from_format == &to_format;
    const char* name = same ? "prepack" : "convert";
    const std::string detail =
        same ? fmt::format("prepack {} {}: {} -> {}, {} bytes copied", from_format.name, subject, order_name(from),
                           order_name(to), bytes)
             : fmt::format("convert {}: {} {} -> {} {}, {} bytes written", subject, from_format.name, order_name(from),
                           to_format.name, order_name(to), bytes);
    if (!sink.enabled()) {
        log_debug("adapter: {} ({} ns)", detail, nanoseconds);
        return;
    }
    skn_trace_event e{};
    e.struct_size = sizeof e;
    e.kind = SKN_TRACE_ADAPTER;
    e.name = name;
    e.detail = detail.c_str();
    e.format = static_cast<skn_format>(from_format.id);
    e.from_order = static_cast<skn_block_order>(from);
    e.to_order = static_cast<skn_block_order>(to);
    e.bytes = bytes;
    e.nanoseconds = nanoseconds;
    e.to_format = static_cast<skn_format>(to_format.id);
    sink.emit(e);
}

}  // namespace skn_core
