// SPDX-License-Identifier: MIT
#include "dispatch/registry.hpp"

#include <algorithm>

#include "runtime/error.hpp"

namespace skn_core {
namespace {

uint64_t lookup_key(FormatId weight, LayoutClass layout, FormatId activation) {
    return uint64_t(uint32_t(weight)) << 40 | uint64_t(uint32_t(layout)) << 20 | uint64_t(uint32_t(activation));
}

}  // namespace

void Registry::add(Kernel k) {
    for (const Kernel& e : kernels_)
        if (e.key == k.key && e.variant == k.variant) fail(SKN_E_INTERNAL, "kernel {} registered twice", e.name);
    if (k.name.empty()) k.name = kernel_name(k.key) + (k.variant.empty() ? "" : "_" + k.variant);
    by_key_[lookup_key(k.key.weight, k.key.layout, k.key.activation)].push_back(uint32_t(kernels_.size()));
    kernels_.push_back(std::move(k));
}

void Registry::rebuild_index() {
    by_key_.clear();
    for (size_t i = 0; i < kernels_.size(); ++i) {
        const KernelKey& key = kernels_[i].key;
        by_key_[lookup_key(key.weight, key.layout, key.activation)].push_back(uint32_t(i));
    }
}

bool Registry::remove(const std::string& name) {
    auto it = std::find_if(kernels_.begin(), kernels_.end(), [&](const Kernel& k) { return k.name == name; });
    if (it == kernels_.end()) return false;
    kernels_.erase(it);
    rebuild_index();
    return true;
}

const Kernel* Registry::best(FormatId weight, LayoutClass layout, FormatId activation, skn_isa cap, const Layout* w,
                             const Tuning* tuning) const {
    const auto candidates = by_key_.find(lookup_key(weight, layout, activation));
    if (candidates == by_key_.end()) return nullptr;
    const Kernel* found = nullptr;
    for (const uint32_t i : candidates->second) {
        const Kernel& k = kernels_[i];
        if (!isa_allows(cap, k.key.isa) || !cpu_runs(k.key.isa)) continue;
        if (w != nullptr && k.supports != nullptr && !k.supports(*w)) continue;
        if (found == nullptr || isa_better(k.key.isa, found->key.isa)) found = &k;
    }
    if (found == nullptr) return nullptr;
    // Of the best tier's variants: the one the tuning names, else the plain
    // kernel (registered first by convention; any of them gives the same bits).
    const Kernel* plain = nullptr;
    const Kernel* named = nullptr;
    const std::string* want = nullptr;
    bool have_variants = false;
    for (const uint32_t i : candidates->second) {
        const Kernel& k = kernels_[i];
        if (k.key.isa != found->key.isa) continue;
        if (w != nullptr && k.supports != nullptr && !k.supports(*w)) continue;
        if (!k.variant.empty()) have_variants = true;
        if (k.variant.empty() && plain == nullptr) plain = &k;
    }
    if (!have_variants) return found;
    want = (tuning != nullptr ? *tuning : Tuning::process()).variant(kernel_name(found->key), isa_tag(found->key.isa));
    if (want != nullptr)
        for (const uint32_t i : candidates->second) {
            const Kernel& k = kernels_[i];
            if (k.key.isa == found->key.isa && k.variant == *want && (w == nullptr || k.supports == nullptr || k.supports(*w)))
                named = &k;
        }
    return named != nullptr ? named : plain != nullptr ? plain : found;
}

std::vector<const Kernel*> Registry::variants_of(const Kernel& k) const {
    std::vector<const Kernel*> out;
    const auto candidates = by_key_.find(lookup_key(k.key.weight, k.key.layout, k.key.activation));
    if (candidates == by_key_.end()) return out;
    for (const uint32_t i : candidates->second)
        if (kernels_[i].key == k.key) out.push_back(&kernels_[i]);
    return out;
}

void Registry::apply_tasks(const Tuning& tuning) {
    for (Kernel& k : kernels_)
        if (const auto rows = tuning.few_rows_per_task(kernel_name(k.key), isa_tag(k.key.isa))) {
            k.few_rows_per_task = *rows;
            if (k.few_rows_max_n == 0) k.few_rows_max_n = 8;
        }
}

void Registry::add_quantizer(ActivationQuantizer q) {
    for (const ActivationQuantizer& e : quantizers_)
        if (e.format == q.format && e.isa == q.isa) fail(SKN_E_INTERNAL, "quantizer {} registered twice", e.name);
    if (q.name.empty()) q.name = quantizer_name(q.format, q.isa);
    quantizers_.push_back(std::move(q));
}

const ActivationQuantizer* Registry::best_quantizer(FormatId activation, skn_isa cap) const {
    const ActivationQuantizer* found = nullptr;
    for (const ActivationQuantizer& q : quantizers_) {
        if (q.format != activation || !isa_allows(cap, q.isa) || !cpu_runs(q.isa)) continue;
        if (found == nullptr || isa_better(q.isa, found->isa)) found = &q;
    }
    return found;
}

const Registry& default_registry() {
    static const Registry registry = [] {
        Registry r;
        register_reference_kernels(r);
        register_target_kernels(r);
        r.apply_tasks(Tuning::process());
        return r;
    }();
    return registry;
}

}  // namespace skn_core
