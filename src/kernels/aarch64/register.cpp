// SPDX-License-Identifier: MIT
// The aarch64 provider: registers every NEON kernel family (one folder each,
// <family>/register.cpp) and the vectorized activation quantizers. The
// families' tier sources are compiled with their tier's flags; this file and
// every register.cpp are built without them and only take their functions.
// Formats no family covers yet run through the reference kernels
// (kernels/ref) with a FALLBACK trace event (docs/kernels/neon.md).
#include "dispatch/registry.hpp"

namespace skn_core {

void register_aarch64_activation_kernels(Registry& r);
void register_aarch64_q32_kernels(Registry& r);
void register_aarch64_superblock_kernels(Registry& r);
void register_aarch64_grid_kernels(Registry& r);
void register_aarch64_low_bit_kernels(Registry& r);
void register_aarch64_nvfp4_kernels(Registry& r);
void register_aarch64_dense_kernels(Registry& r);
void register_aarch64_exact_kernels(Registry& r);

void register_aarch64_kernels(Registry& r) {
    register_aarch64_activation_kernels(r);
    register_aarch64_q32_kernels(r);
    register_aarch64_superblock_kernels(r);
    register_aarch64_grid_kernels(r);
    register_aarch64_low_bit_kernels(r);
    register_aarch64_nvfp4_kernels(r);
    register_aarch64_dense_kernels(r);
    register_aarch64_exact_kernels(r);
}

void register_target_kernels(Registry& r) { register_aarch64_kernels(r); }

}  // namespace skn_core
