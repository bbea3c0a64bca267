// SPDX-License-Identifier: MIT
// The x86 provider: registers every SIMD kernel family. Each family lives in
// its own translation unit compiled with its ISA's flags; this file is built
// without them and only takes their registration functions.
#include "dispatch/registry.hpp"

namespace skn_core {

void register_q32_kernels(Registry& r);
void register_kquants_kernels(Registry& r);
void register_ternary_kernels(Registry& r);
void register_dense_kernels(Registry& r);
void register_nvfp4_kernels(Registry& r);
void register_exact_kernels(Registry& r);

void register_x86_kernels(Registry& r) {
    (void)r;
    register_q32_kernels(r);
    register_kquants_kernels(r);
    register_ternary_kernels(r);
    register_dense_kernels(r);
    register_nvfp4_kernels(r);
    register_exact_kernels(r);
}

}  // namespace skn_core
