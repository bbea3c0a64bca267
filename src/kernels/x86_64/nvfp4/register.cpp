// SPDX-License-Identifier: MIT
// Registers the NVFP4 SIMD kernels (fast precision, Q8_0 activations) for
// both block orders. Built without ISA flags: it only turns MatmulArgs into
// the plain Nvfp4Args the ISA translation units read.
//
// The kernels address block (o, b) through the layout's strides, so one
// function reads ROW_MAJOR and INPUT_BLOCK_MAJOR alike: the rm and ibm
// kernels of a tier are the same code and give bit-identical results.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/common/registration.hpp"
#include "kernels/x86_64/nvfp4/kernels.hpp"

namespace skn_core {
namespace {

using kernels::x86_64::Nvfp4KernelFn;

template <Nvfp4KernelFn F>
void entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    F(kernels::x86_64::packed_args(a), out_begin, out_end);
}

}  // namespace

void register_nvfp4_kernels(Registry& r) {
    namespace k = kernels::x86_64;
    const struct {
        skn_isa isa;
        MatmulKernelFn fn;
    } entries[] = {
        {SKN_ISA_AVX2, entry<k::nvfp4_q8_0_avx2>},
        {SKN_ISA_AVX512, entry<k::nvfp4_q8_0_avx512>},
        {SKN_ISA_AVX512_VNNI, entry<k::nvfp4_q8_0_avx512vnni>},
    };
    for (const auto& e : entries)
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
            Kernel k;
            k.key = KernelKey{Op::MatmulWt, FormatId::NVFP4, c, FormatId::Q8_0, e.isa};
            k.fn = e.fn;
            k.needs = kNeedsQuantized;
            k.rows_per_task = 32;  // a multiple of every row tile (4 and 2)
            kernels::x86_64::take_few_row_tasks(k);
            r.add(std::move(k));
        }
}

}  // namespace skn_core
