// SPDX-License-Identifier: MIT
// The kernel registry: every kernel under its key. Providers register at
// first use: the reference kernels for every format and both orders, then the
// one architecture provider CMake linked (kernels/<arch>/register.cpp) with its
// SIMD kernels per ISA. Lookup picks the best ISA the CPU has within a cap,
// comparing tiers within one architecture only (runtime/isa.hpp). The registry
// knows no kernel family and no architecture.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "dispatch/kernel.hpp"
#include "dispatch/tuning.hpp"
#include "runtime/isa.hpp"

namespace skn_core {

class Registry {
public:
    // Adds a kernel; a second kernel with the same key and variant is a
    // programming error.
    void add(Kernel k);
    // Removes the kernel named `name`; returns whether it existed (tests build
    // registries with a kernel missing to exercise fallbacks).
    bool remove(const std::string& name);
    const std::vector<Kernel>& kernels() const { return kernels_; }

    // The highest-ISA kernel for (weight, layout, activation) that this CPU
    // runs and whose ISA is <= cap, and that supports `w` (if it says); of
    // that key's variants, the one `tuning` names for this core (the
    // process's tuning when null), else the plain kernel.
    const Kernel* best(FormatId weight, LayoutClass layout, FormatId activation, skn_isa cap, const Layout* w,
                       const Tuning* tuning = nullptr) const;
    // Every variant registered under `k`'s key, `k` included.
    std::vector<const Kernel*> variants_of(const Kernel& k) const;
    // Sets each kernel's few_rows_per_task where `tuning` has a tasks row for it.
    void apply_tasks(const Tuning& tuning);

    // Activation quantizers are kernels too: a provider may register a
    // vectorized quantize_row for an activation format, which must write the
    // codec's bytes exactly. A second one for the same (format, ISA) is a
    // programming error.
    void add_quantizer(ActivationQuantizer q);
    const std::vector<ActivationQuantizer>& quantizers() const { return quantizers_; }
    // The highest-ISA quantizer for `activation` this CPU runs within cap, or null.
    const ActivationQuantizer* best_quantizer(FormatId activation, skn_isa cap) const;

private:
    void rebuild_index();

    std::vector<Kernel> kernels_;
    // Positions in kernels_ by (weight, layout, activation), in registration
    // order: best() runs on every call, and a scan of every kernel cost
    // about 4 % of a [64, 4096] GEMV.
    std::unordered_map<uint64_t, std::vector<uint32_t>> by_key_;
    std::vector<ActivationQuantizer> quantizers_;
};

// The library's registry, populated once by every provider.
const Registry& default_registry();

// Providers. The reference provider is built everywhere (kernels/ref); the
// target provider is the one architecture provider CMake chose
// (kernels/x86_64, kernels/aarch64 or kernels/portable), which defines
// register_target_kernels by forwarding to its register_<arch>_kernels.
void register_reference_kernels(Registry& r);
void register_target_kernels(Registry& r);

}  // namespace skn_core
