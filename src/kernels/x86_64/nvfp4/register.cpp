// SPDX-License-Identifier: MIT
// Registers the NVFP4 SIMD kernels (fast precision, Q8_0 activations) for
// both block orders (kernels/common/registration.hpp). Built without ISA
// flags: it only turns MatmulArgs into the plain PackedArgs the ISA
// translation units read.
//
// The kernels address block (o, b) through the layout's strides, so one
// function reads ROW_MAJOR and INPUT_BLOCK_MAJOR alike: the rm and ibm
// kernels of a tier are the same code and give bit-identical results.
#include "kernels/common/registration.hpp"
#include "kernels/x86_64/nvfp4/kernels.hpp"

namespace skn_core {

void register_nvfp4_kernels(Registry& r) {
    namespace k = kernels::x86_64;
    using kernels::packed_entry;
    const auto add = [&r](skn_isa isa, MatmulKernelFn fn) {
        // rows_per_task 32: a multiple of every row tile (4 and 2).
        Kernel kn = kernels::blocked_kernel(FormatId::NVFP4, FormatId::Q8_0, isa, fn, 32);
        kernels::take_few_row_tasks(kn, SKN_ISA_AVX512);
        kernels::add_both_orders(r, kn);
    };
    add(SKN_ISA_AVX2, packed_entry<k::nvfp4_q8_0_avx2>);
    add(SKN_ISA_AVX512, packed_entry<k::nvfp4_q8_0_avx512>);
    add(SKN_ISA_AVX512_VNNI, packed_entry<k::nvfp4_q8_0_avx512vnni>);
}

}  // namespace skn_core
