// SPDX-License-Identifier: MIT
#include "dispatch/registry.hpp"

#include <algorithm>

#include "runtime/cpu.hpp"
#include "runtime/error.hpp"

namespace skn_core {

bool cpu_runs(skn_isa isa) {
    const CpuFeatures& f = cpu_features();
    const bool avx2 = f.avx2 && f.fma && f.f16c;
    const bool avx512 = avx2 && f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq;
    switch (isa) {
        case SKN_ISA_SCALAR: return true;
        case SKN_ISA_AVX2: return avx2;
        case SKN_ISA_AVX_VNNI: return avx2 && f.avx_vnni;
        case SKN_ISA_AVX512: return avx512;
        case SKN_ISA_AVX512_VNNI: return avx512 && f.avx512vnni;
        case SKN_ISA_NEON: return f.neon;
        case SKN_ISA_NEON_DOTPROD: return f.neon && f.neon_dotprod;
    }
    return false;
}

void Registry::add(Kernel k) {
    for (const Kernel& e : kernels_)
        if (e.key == k.key) fail(SKN_E_INTERNAL, "kernel {} registered twice", e.name);
    if (k.name.empty()) k.name = kernel_name(k.key);
    kernels_.push_back(std::move(k));
}

bool Registry::remove(const std::string& name) {
    auto it = std::find_if(kernels_.begin(), kernels_.end(), [&](const Kernel& k) { return k.name == name; });
    if (it == kernels_.end()) return false;
    kernels_.erase(it);
    return true;
}

const Kernel* Registry::best(FormatId weight, LayoutClass layout, FormatId activation, skn_isa cap,
                             const Layout* w) const {
    const Kernel* found = nullptr;
    for (const Kernel& k : kernels_) {
        if (k.key.weight != weight || k.key.layout != layout || k.key.activation != activation) continue;
        if (k.key.isa > cap || !cpu_runs(k.key.isa)) continue;
        if (w != nullptr && k.supports != nullptr && !k.supports(*w)) continue;
        if (found == nullptr || k.key.isa > found->key.isa) found = &k;
    }
    return found;
}

const Registry& default_registry() {
    static const Registry registry = [] {
        Registry r;
        register_reference_kernels(r);
#if defined(__x86_64__)
        // src/kernels/x86 is built for x86-64 targets only (src/CMakeLists.txt);
        // elsewhere every format runs on the reference kernels.
        register_x86_kernels(r);
#endif
        return r;
    }();
    return registry;
}

}  // namespace skn_core
