// SPDX-License-Identifier: MIT
// Registers the NEON dense (CONTIGUOUS F32 / F16 / BF16) kernels
// (dense/neon.cpp). Built without ISA flags: it only turns MatmulArgs into
// the plain DenseArgs the tier source reads.
//
// As on x86: fast precision pairs BF16 weights with BF16 activations (xq)
// and F16 with F16; exact precision pairs every dense weight with F32
// activations (xf). Everything the kernels use is Armv8.0, so they sit at
// the `neon` tier and serve every arm64 CPU.
#include "dispatch/registry.hpp"
#include "kernels/aarch64/dense/kernels.hpp"

namespace skn_core {
namespace {

using kernels::aarch64::DenseArgs;
using DenseFn = void (*)(const DenseArgs& a, int64_t out_begin, int64_t out_end);

template <DenseFn F, bool kQuantizedX>
void entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    const View& w = *a.w;
    const Layout& l = w.layout;
    const int64_t eb = l.format->block_bytes;
    DenseArgs d;
    d.w = w.data + l.offset * eb;
    d.row_stride = l.strides[0] * eb;
    d.in = a.in;
    d.n = a.n;
    if constexpr (kQuantizedX) {
        d.x = a.xq;
        d.x_stride = a.xq_stride;
    } else {
        d.x = reinterpret_cast<const uint8_t*>(a.xf);
        d.x_stride = size_t(a.xf_stride) * sizeof(float);
    }
    d.bias = a.bias;
    d.y = a.y;
    d.y_stride = a.y_stride;
    F(d, out_begin, out_end);
}

// The contiguous class allows a column stride other than 1 only for a single
// column; the kernels read rows as consecutive elements.
bool unit_columns(const Layout& l) { return l.rank == 2 && (l.strides[1] == 1 || l.grid[1] == 1); }

struct Entry {
    FormatId weight, activation;
    MatmulKernelFn fn;
    uint32_t needs;
};

}  // namespace

void register_aarch64_dense_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using F = FormatId;
    const Entry entries[] = {
        {F::BF16, F::BF16, entry<ka::dense_bf16_bf16_neon, true>, kNeedsQuantized},
        {F::F16, F::F16, entry<ka::dense_f16_f16_neon, true>, kNeedsQuantized},
        {F::BF16, F::F32, entry<ka::dense_bf16_f32_neon, false>, kNeedsFloat},
        {F::F16, F::F32, entry<ka::dense_f16_f32_neon, false>, kNeedsFloat},
        {F::F32, F::F32, entry<ka::dense_f32_f32_neon, false>, kNeedsFloat},
    };
    for (const Entry& e : entries) {
        Kernel k;
        k.key = KernelKey{Op::MatmulWt, e.weight, LayoutClass::Contiguous, e.activation, SKN_ISA_NEON};
        k.fn = e.fn;
        k.needs = e.needs;
        k.rows_per_task = 32;  // a multiple of the row tile (4)
        k.supports = unit_columns;
        r.add(std::move(k));
    }
}

}  // namespace skn_core
