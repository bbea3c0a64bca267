// SPDX-License-Identifier: MIT
#include "trace/trace.hpp"

#include <fmt/format.h>

namespace skn_core {

void emit_adapter(const TraceSink& sink, const FormatTraits& f, BlockOrder from, BlockOrder to, uint64_t bytes,
                  int64_t nanoseconds) {
    if (!sink.enabled()) return;
    const std::string detail =
        fmt::format("prepack {}: {} -> {}, {} bytes copied", f.name, order_name(from), order_name(to), bytes);
    skn_trace_event e{};
    e.struct_size = sizeof e;
    e.kind = SKN_TRACE_ADAPTER;
    e.name = "prepack";
    e.detail = detail.c_str();
    e.format = static_cast<skn_format>(f.id);
    e.from_order = static_cast<skn_block_order>(from);
    e.to_order = static_cast<skn_block_order>(to);
    e.bytes = bytes;
    e.nanoseconds = nanoseconds;
    sink.emit(e);
}

}  // namespace skn_core
