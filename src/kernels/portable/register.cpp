// SPDX-License-Identifier: MIT
// The portable provider, for any Linux target without an architecture
// provider (and for -DSKN_KERNELS=portable): it adds nothing, so the library
// runs on the reference kernels alone, each call with a FALLBACK trace event.
#include "dispatch/registry.hpp"

namespace skn_core {

void register_portable_kernels(Registry& r) { (void)r; }

void register_target_kernels(Registry& r) { register_portable_kernels(r); }

}  // namespace skn_core
