// SPDX-License-Identifier: MIT
// The aarch64 provider. No SIMD kernel family exists for Arm yet, so every
// format runs through the reference kernels (kernels/ref) with a FALLBACK
// trace event, bit-identical to x86-64's reference results. A NEON family
// goes in kernels/aarch64/<family>/ and is registered here.
#include "dispatch/registry.hpp"

namespace skn_core {

void register_aarch64_kernels(Registry& r) { (void)r; }

void register_target_kernels(Registry& r) { register_aarch64_kernels(r); }

}  // namespace skn_core
