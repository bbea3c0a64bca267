// SPDX-License-Identifier: MIT
#include "dispatch/order_preference.hpp"

namespace skn_core {
namespace {

struct Row {
    const char* format;
    const char* isa;
    const char* regime;
    double rm, ibm;
};

constexpr Row kRows[] = {
#include "dispatch/order_table.inc"
};

std::optional<BlockOrder> decide(const OrderMeasurement* m) {
    if (m == nullptr || m->row_major <= 0 || m->input_block_major <= 0) return std::nullopt;
    if (m->input_block_major > m->row_major * kOrderTieRatio) return BlockOrder::InputBlockMajor;
    if (m->row_major > m->input_block_major * kOrderTieRatio) return BlockOrder::RowMajor;
    return std::nullopt;
}

}  // namespace

const std::vector<OrderMeasurement>& order_table() {
    static const std::vector<OrderMeasurement> table = [] {
        std::vector<OrderMeasurement> t;
        for (const Row& r : kRows)
            t.push_back(OrderMeasurement{r.format, r.isa,
                                         std::string(r.regime) == "gemv" ? BatchRegime::Gemv : BatchRegime::Gemm, r.rm,
                                         r.ibm});
        return t;
    }();
    return table;
}

std::optional<BlockOrder> measured_faster_order(const std::vector<OrderMeasurement>& table, const FormatTraits& f,
                                                const char* isa) {
    const OrderMeasurement* gemv = nullptr;
    const OrderMeasurement* gemm = nullptr;
    for (const OrderMeasurement& m : table) {
        if (m.format != f.name || m.isa != isa) continue;
        (m.regime == BatchRegime::Gemv ? gemv : gemm) = &m;
    }
    if (auto o = decide(gemv)) return o;
    return decide(gemm);
}

}  // namespace skn_core
