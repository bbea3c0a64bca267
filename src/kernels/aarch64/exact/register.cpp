// SPDX-License-Identifier: MIT
// Registers the NEON exact-precision kernel (exact/neon.cpp) for every block
// format the driver serves (kernels.hpp's exact_driver_serves: today all of
// them, which NeonExactContract asserts) in both block orders, so a new
// format is covered without editing a list. Built without ISA flags: it
// fills the plain ExactArgs from MatmulArgs, the format's scalar decoder
// included (the driver uses it for formats without a NEON decoder; ISA code
// must not include the formats' code itself).
#include "dispatch/registry.hpp"
#include "kernels/aarch64/exact/kernels.hpp"
#include "kernels/aarch64/common/packed_args.hpp"

namespace skn_core {
namespace {

using kernels::aarch64::ExactArgs;

void entry(const MatmulArgs& m, int64_t out_begin, int64_t out_end) {
    const FormatTraits& f = *m.w->layout.format;
    ExactArgs a;
    static_cast<kernels::aarch64::PackedArgs&>(a) = kernels::aarch64::packed_args(m);
    a.format = f.id;
    a.scalar_decode = f.decode;
    a.block_elems = f.block_elems;
    a.block_bytes = f.block_bytes;
    a.xf = m.xf;
    a.xf_stride = m.xf_stride;
    kernels::aarch64::exact_matmul_neon(a, out_begin, out_end);
}

}  // namespace

void register_aarch64_exact_kernels(Registry& r) {
    for (const FormatTraits& f : all_formats()) {
        if (!kernels::aarch64::exact_driver_serves(f.block_quantized, f.decode != nullptr, f.block_elems)) continue;
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
            Kernel k;
            k.key = KernelKey{Op::MatmulWt, f.id, c, FormatId::F32, SKN_ISA_NEON};
            k.fn = entry;
            k.needs = kNeedsFloat;
            k.rows_per_task = 128;  // as x86's exact kernels; the driver has no row tile
            r.add(std::move(k));
        }
    }
}

}  // namespace skn_core
