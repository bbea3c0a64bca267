// SPDX-License-Identifier: MIT
// The measured speed of each block order's kernel (order_table.inc, written
// by `skn bench --order-table`) and the rule that turns it into the order
// skn_prepack_for_matmul returns.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "layout/block_order.hpp"
#include "skn/skn.h"

namespace skn_core {

enum class BatchRegime { Gemv, Gemm };  // n = 1; n >= 32

struct OrderMeasurement {
    std::string format;  // FormatTraits::name, "Q4_0"
    std::string isa;     // isa_tag, "avx512vnni"
    BatchRegime regime;
    double row_major;          // GB/s (gemv) or GFLOP/s (gemm)
    double input_block_major;
};

// The checked-in table.
const std::vector<OrderMeasurement>& order_table();

// Why the table has no rows for the architecture of tier `isa` (isa_tag,
// "neon"), when it states that architecture not measured
// (order_table_unmeasured.inc); nullptr when the architecture is measured,
// for scalar and for a name that is no tier. A pair of kernels on an
// unmeasured architecture keeps the weight's own order.
const char* order_unmeasured_reason(const char* isa);

// The architectures the table states not measured (isa_table.def words).
std::vector<std::string> order_unmeasured_architectures();

// Orders closer than this (relative) are a tie: within the run-to-run noise
// docs/performance.md reports, so not worth a copy of the weight.
constexpr double kOrderTieRatio = 1.05;

// The faster order for (format, isa) from `table`: the n = 1 regime decides
// (an engine streams every weight once per generated token); on a tie the
// n >= 32 regime; on a tie there too, or with no measurement for this tier,
// std::nullopt (keep the weight's order).
std::optional<BlockOrder> measured_faster_order(const std::vector<OrderMeasurement>& table, const FormatTraits& f,
                                                const char* isa);

}  // namespace skn_core
