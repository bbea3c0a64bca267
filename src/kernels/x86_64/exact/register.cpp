// SPDX-License-Identifier: MIT
// Registers the exact-precision kernels (exact/<isa>.cpp) for every block
// format that is not row-interleaved, in both block orders. Built without ISA flags: it
// fills the plain ExactArgs from MatmulArgs; the kernel bodies run only once
// the registry has checked the CPU.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/exact/kernels.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

using kernels::x86_64::ExactArgs;
using kernels::x86_64::ExactFn;

template <ExactFn F>
void entry(const MatmulArgs& m, int64_t out_begin, int64_t out_end) {
    const View& w = *m.w;
    const Layout& l = w.layout;
    const int64_t bb = l.format->block_bytes;
    ExactArgs a;
    a.format = l.format->id;
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
    F(a, out_begin, out_end);
}

void add(Registry& r, FormatId f, skn_isa isa, MatmulKernelFn fn) {
    for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
        Kernel k;
        k.key = KernelKey{Op::MatmulWt, f, c, FormatId::F32, isa};
        k.fn = fn;
        k.needs = kNeedsFloat;
        k.rows_per_task = 128;  // a multiple of every row tile; the batched path reuses each activation chunk across a task
        r.add(std::move(k));
    }
}

}  // namespace

namespace kernels::x86_64 {
void exact_unknown_format(FormatId format) {
    const FormatTraits* f = find_format(format);
    fail(SKN_E_INTERNAL, "exact kernel asked for format {} ({}), which it has no decoder for",
         f != nullptr ? f->name : "unknown", static_cast<int32_t>(format));
}
}  // namespace kernels::x86_64

void register_exact_kernels(Registry& r) {
    namespace kx = kernels::x86_64;
    // Every block format of the format table but the row-interleaved ones
    // (which run the reference kernel until their own kernels come): the
    // tiers decode each one (exact/driver.inc walks the same table). The table
    // is data, not a call into the ISA translation units, which must not run
    // before the registry has checked the CPU.
    for (const FormatTraits& f : all_formats()) {
        if (!f.block_quantized || f.interleaved()) continue;
        add(r, f.id, SKN_ISA_AVX2, entry<kx::exact_matmul_avx2>);
        add(r, f.id, SKN_ISA_AVX512, entry<kx::exact_matmul_avx512>);
    }
}

}  // namespace skn_core
