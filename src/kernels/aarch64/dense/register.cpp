// SPDX-License-Identifier: MIT
// Registers the NEON dense (CONTIGUOUS F32 / F16 / BF16) kernels
// (dense/neon.cpp). Built without ISA flags: it only turns MatmulArgs into
// the plain DenseArgs the tier source reads.
//
// As on x86: fast precision pairs BF16 weights with BF16 activations (xq)
// and F16 with F16; exact precision pairs every dense weight with F32
// activations (xf). Everything the kernels use is Armv8.0, so they sit at
// the `neon` tier and serve every arm64 CPU. BF16 x BF16 also has a BFDOT
// kernel, registered at `neoni8mm` only when the CPU has bf16 (no tier
// implies it), as x86 registers its AVX512_BF16 kernel.
#include "dispatch/registry.hpp"
#include "kernels/aarch64/dense/kernels.hpp"
#include "runtime/cpu.hpp"

#include <vector>

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
    skn_isa isa;
    MatmulKernelFn fn;
    uint32_t needs;
};

}  // namespace

void register_aarch64_dense_kernels(Registry& r) {
    namespace ka = kernels::aarch64;
    using F = FormatId;
    const skn_isa neon = SKN_ISA_NEON;
    std::vector<Entry> entries = {
        {F::BF16, F::BF16, neon, entry<ka::dense_bf16_bf16_neon, true>, kNeedsQuantized},
        {F::F16, F::F16, neon, entry<ka::dense_f16_f16_neon, true>, kNeedsQuantized},
        {F::BF16, F::F32, neon, entry<ka::dense_bf16_f32_neon, false>, kNeedsFloat},
        {F::F16, F::F32, neon, entry<ka::dense_f16_f32_neon, false>, kNeedsFloat},
        {F::F32, F::F32, neon, entry<ka::dense_f32_f32_neon, false>, kNeedsFloat},
    };
    if (cpu_features().neon_bf16)
        entries.push_back(
            {F::BF16, F::BF16, SKN_ISA_NEON_I8MM, entry<ka::dense_bf16_bf16_neonbf16, true>, kNeedsQuantized});
    for (const Entry& e : entries) {
        Kernel k;
        k.key = KernelKey{Op::MatmulWt, e.weight, LayoutClass::Contiguous, e.activation, e.isa};
        k.fn = e.fn;
        k.needs = e.needs;
        k.rows_per_task = 32;  // a multiple of the row tiles (4)
        k.supports = unit_columns;
        r.add(std::move(k));
    }
}

}  // namespace skn_core
