// SPDX-License-Identifier: MIT
#include "dispatch/order_preference.hpp"

#include <cstring>

#include "runtime/isa.hpp"

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

struct Unmeasured {
    const char* arch;
    const char* reason;
};

constexpr Unmeasured kUnmeasured[] = {
#include "dispatch/order_table_unmeasured.inc"
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

const char* order_unmeasured_reason(const char* isa) {
    skn_isa tier;
    if (isa == nullptr || !parse_isa(isa, &tier)) return nullptr;
    const char* arch = arch_name(find_isa(tier)->arch);
    for (const Unmeasured& u : kUnmeasured)
        if (std::strcmp(u.arch, arch) == 0) return u.reason;
    return nullptr;
}

std::vector<std::string> order_unmeasured_architectures() {
    std::vector<std::string> out;
    for (const Unmeasured& u : kUnmeasured) out.emplace_back(u.arch);
    return out;
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
