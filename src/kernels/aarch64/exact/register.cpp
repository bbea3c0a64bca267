// SPDX-License-Identifier: MIT
// Registers the NEON exact-precision kernel (exact/neon.cpp) for every block
// format in both block orders. Built without ISA flags: it fills the plain
// ExactArgs from MatmulArgs, the format's scalar decoder included (the
// driver uses it for formats without a NEON decoder; ISA code must not
// include the formats' code itself).
#include "dispatch/registry.hpp"
#include "kernels/aarch64/exact/kernels.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

using kernels::aarch64::ExactArgs;

void entry(const MatmulArgs& m, int64_t out_begin, int64_t out_end) {
    const View& w = *m.w;
    const Layout& l = w.layout;
    const int64_t bb = l.format->block_bytes;
    ExactArgs a;
    a.format = l.format->id;
    a.scalar_decode = l.format->decode;
    a.block_elems = l.format->block_elems;
    a.block_bytes = bb;
    a.w = w.data + size_t(l.offset * bb);
    a.so = l.strides[0] * bb;
    a.sb = l.strides[1] * bb;
    a.bpr = l.grid[1];
    a.tensor_scale = w.tensor_scale;
    a.n = m.n;
    a.xf = m.xf;
    a.xf_stride = m.xf_stride;
    a.bias = m.bias;
    a.y = m.y;
    a.y_stride = m.y_stride;
    kernels::aarch64::exact_matmul_neon(a, out_begin, out_end);
}

}  // namespace

void register_aarch64_exact_kernels(Registry& r) {
    for (const FormatId id : kernels::aarch64::kExactFormats) {
        const FormatTraits* f = find_format(id);
        if (f == nullptr || !f->block_quantized || f->decode == nullptr || 1024 % f->block_elems != 0)
            fail(SKN_E_INTERNAL, "aarch64 exact kernels list format {}, which is not a block format they can decode",
                 static_cast<int32_t>(id));
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
            Kernel k;
            k.key = KernelKey{Op::MatmulWt, f->id, c, FormatId::F32, SKN_ISA_NEON};
            k.fn = entry;
            k.needs = kNeedsFloat;
            k.rows_per_task = 128;  // as x86's exact kernels; the driver has no row tile
            r.add(std::move(k));
        }
    }
}

}  // namespace skn_core
