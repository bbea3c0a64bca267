// SPDX-License-Identifier: MIT
// The kernel registry: every kernel under its key. Providers register at
// first use (reference kernels for every format and both orders, SIMD kernels
// per ISA); lookup picks the best ISA the CPU has within a cap.
#pragma once

#include <vector>

#include "dispatch/kernel.hpp"

namespace skn_core {

class Registry {
public:
    // Adds a kernel; a second kernel with the same key is a programming error.
    void add(Kernel k);
    // Removes the kernel named `name`; returns whether it existed (tests build
    // registries with a kernel missing to exercise fallbacks).
    bool remove(const std::string& name);
    const std::vector<Kernel>& kernels() const { return kernels_; }

    // The highest-ISA kernel for (weight, layout, activation) that this CPU
    // runs and whose ISA is <= cap, and that supports `w` (if it says).
    const Kernel* best(FormatId weight, LayoutClass layout, FormatId activation, skn_isa cap, const Layout* w) const;

private:
    std::vector<Kernel> kernels_;
};

// The library's registry, populated once by every provider.
const Registry& default_registry();

// Whether this CPU (and OS) can run code built for `isa`.
bool cpu_runs(skn_isa isa);

// Providers.
void register_reference_kernels(Registry& r);
void register_x86_kernels(Registry& r);

}  // namespace skn_core
