// SPDX-License-Identifier: MIT
// Instruction-set tiers, read from the one table (runtime/isa_table.def):
// name, architecture, rank within it, and whether this CPU runs it. Tiers are
// ordered within one architecture only; skn_isa's numeric values are names,
// never ranks (NEON = 16 must not read as "above AVX-512").
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>

#include "skn/skn.h"

namespace skn_core {

enum class Arch : uint8_t { Any, X86_64, Aarch64 };

struct IsaInfo {
    skn_isa isa;
    const char* name;  // lower case: the registry word, skn_isa_name, SKN_ISA
    Arch arch;         // Any for scalar only
    int rank;          // order within arch; scalar is 0
    const char* flags; // compile flags of a kernel tier (documentation here; CMake reads the .def)
};

namespace isa_detail {
inline constexpr Arch arch_any = Arch::Any;
inline constexpr Arch arch_x86_64 = Arch::X86_64;
inline constexpr Arch arch_aarch64 = Arch::Aarch64;
inline constexpr IsaInfo kTable[] = {
#define SKN_ISA_ROW(e, name, arch, rank, flags, predicate) {e, #name, arch_##arch, rank, flags},
#include "runtime/isa_table.def"
#undef SKN_ISA_ROW
};
}  // namespace isa_detail

// Every tier, scalar first, then each architecture's tiers by rank (the
// order skn_isa_at lists them in).
constexpr std::span<const IsaInfo> isa_table() { return isa_detail::kTable; }

namespace isa_detail {
constexpr bool rows_in_listing_order() {
    if (kTable[0].arch != Arch::Any || kTable[0].rank != 0) return false;
    for (size_t i = 1; i < std::size(kTable); ++i) {
        const IsaInfo &prev = kTable[i - 1], &row = kTable[i];
        if (row.arch == Arch::Any) return false;
        if (row.arch == prev.arch ? row.rank <= prev.rank : row.rank != 1) return false;
        for (size_t j = 1; j + 1 < i; ++j)  // an architecture's rows stand together
            if (kTable[j].arch == row.arch && prev.arch != row.arch) return false;
    }
    return true;
}
}  // namespace isa_detail
static_assert(isa_detail::rows_in_listing_order(),
              "runtime/isa_table.def: scalar first, then each architecture's rows together, by increasing rank");

// The row of `isa`, or null for a value that is no tier.
constexpr const IsaInfo* find_isa(int64_t raw) {
    for (const IsaInfo& i : isa_detail::kTable)
        if (static_cast<int64_t>(i.isa) == raw) return &i;
    return nullptr;
}

// The architecture this library was compiled for (its kernels' tiers).
constexpr Arch build_arch() {
#if defined(__x86_64__) || defined(_M_X64)
    return Arch::X86_64;
#elif defined(__aarch64__)
    return Arch::Aarch64;
#else
    return Arch::Any;
#endif
}

// The architecture's word in isa_table.def: "x86_64", "aarch64", "any".
constexpr const char* arch_name(Arch a) {
    switch (a) {
        case Arch::X86_64: return "x86_64";
        case Arch::Aarch64: return "aarch64";
        case Arch::Any: break;
    }
    return "any";
}

// Whether a cap of `cap` allows a kernel built for `isa`: scalar always; else
// only a tier of the cap's own architecture ranked at or below it. A cap
// naming another architecture's tier allows scalar alone.
constexpr bool isa_allows(skn_isa cap, skn_isa isa) {
    const IsaInfo* c = find_isa(cap);
    const IsaInfo* k = find_isa(isa);
    if (c == nullptr || k == nullptr) return false;
    if (k->arch == Arch::Any) return true;
    return k->arch == c->arch && k->rank <= c->rank;
}

// Whether `a` ranks above `b` when both are allowed by one cap (same
// architecture, or either is scalar).
constexpr bool isa_better(skn_isa a, skn_isa b) { return find_isa(a)->rank > find_isa(b)->rank; }

// "scalar", "avx512vnni", ... or "unknown".
constexpr const char* isa_name(int64_t raw) {
    const IsaInfo* i = find_isa(raw);
    return i != nullptr ? i->name : "unknown";
}

// Parses a tier name (as SKN_ISA takes it); false for anything else.
bool parse_isa(const char* text, skn_isa* out);

// "scalar, avx2, ..." for messages.
const char* isa_name_list();

// Whether this CPU (and OS) can run code built for `isa`.
bool cpu_runs(skn_isa isa);

// The best tier this CPU has for the architecture the library was built for.
skn_isa detected_isa();

// Every table value is a public skn_isa value, listed once, in rank order per
// architecture: checked here so a wrong row fails the build.
namespace isa_detail {
constexpr bool table_is_sound() {
    for (size_t i = 0; i < std::size(kTable); ++i) {
        if ((kTable[i].arch == Arch::Any) != (kTable[i].rank == 0)) return false;
        for (size_t j = 0; j < i; ++j) {
            if (kTable[i].isa == kTable[j].isa) return false;
            if (kTable[i].arch == kTable[j].arch && kTable[i].rank <= kTable[j].rank) return false;
        }
    }
    return true;
}
static_assert(table_is_sound(), "isa_table.def: duplicate tier, or ranks not increasing within an architecture");
static_assert(kTable[0].isa == SKN_ISA_SCALAR, "isa_table.def: scalar comes first");
}  // namespace isa_detail

}  // namespace skn_core
