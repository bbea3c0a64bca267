// SPDX-License-Identifier: MIT
#include "runtime/isa.hpp"

#include <cstring>
#include <string>

#include "runtime/cpu.hpp"

namespace skn_core {

bool parse_isa(const char* text, skn_isa* out) {
    if (text == nullptr) return false;
    for (const IsaInfo& i : isa_table())
        if (std::strcmp(text, i.name) == 0) {
            *out = i.isa;
            return true;
        }
    return false;
}

const char* isa_name_list() {
    static const std::string list = [] {
        std::string s;
        for (const IsaInfo& i : isa_table()) s += (s.empty() ? "" : ", ") + std::string(i.name);
        return s;
    }();
    return list.c_str();
}

bool cpu_runs(skn_isa isa) {
    [[maybe_unused]] const CpuFeatures& f = cpu_features();
    switch (isa) {
#define SKN_ISA_ROW(e, name, arch, rank, flags, predicate) \
    case e: return (predicate);
#include "runtime/isa_table.def"
#undef SKN_ISA_ROW
    }
    return false;
}

skn_isa detected_isa() {
    skn_isa best = SKN_ISA_SCALAR;
    for (const IsaInfo& i : isa_table())
        if (i.arch == build_arch() && cpu_runs(i.isa) && isa_better(i.isa, best)) best = i.isa;
    return best;
}

}  // namespace skn_core
