// SPDX-License-Identifier: MIT
// The x86-64 provider: registers every SIMD kernel family (one folder each,
// <family>/register.cpp) and the vectorized activation quantizers. The
// families' tier sources are compiled with their ISA's flags; this file and
// every register.cpp are built without them and only take their functions.
#include "dispatch/registry.hpp"

namespace skn_core {

void register_activation_kernels(Registry& r);
void register_q32_kernels(Registry& r);
void register_superblock_kernels(Registry& r);
void register_low_bit_kernels(Registry& r);
void register_dense_kernels(Registry& r);
void register_nvfp4_kernels(Registry& r);
void register_exact_kernels(Registry& r);
void register_grid_kernels(Registry& r);

void register_x86_64_kernels(Registry& r) {
    register_activation_kernels(r);
    register_q32_kernels(r);
    register_superblock_kernels(r);
    register_low_bit_kernels(r);
    register_dense_kernels(r);
    register_nvfp4_kernels(r);
    register_exact_kernels(r);
    register_grid_kernels(r);
}

void register_target_kernels(Registry& r) { register_x86_64_kernels(r); }

}  // namespace skn_core
