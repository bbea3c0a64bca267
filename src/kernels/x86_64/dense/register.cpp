// SPDX-License-Identifier: MIT
// Registers the dense (CONTIGUOUS F32 / F16 / BF16) SIMD kernels. Built
// without ISA flags: it only turns MatmulArgs into the plain DenseArgs the
// ISA translation units read.
//
// Fast precision pairs BF16 weights with BF16 activations (xq) and F16 with
// F16; exact precision pairs every dense weight with F32 activations (xf).
// The AVX512 BF16 fast kernel uses vdpbf16ps, so it is registered only when
// the CPU has AVX512_BF16 (the avx512vnni tier does not imply it); without
// it the AVX2 kernel serves that key. The AVX-512 F32 kernel hands batches of
// kXsmmMinRows activation rows or more to libxsmm (dense/xsmm.cpp), with our
// AVX-512 kernel as its fallback; libxsmm lost to our kernels elsewhere.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/dense/kernels.hpp"
#include "runtime/cpu.hpp"

#include <vector>

namespace skn_core {
namespace {

using kernels::x86_64::DenseArgs;
using kernels::x86_64::DenseKernelFn;

template <DenseKernelFn F, bool kQuantizedX, bool kXsmm = false>
void entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    const View& w = *a.w;
    const Layout& l = w.layout;
    const int64_t eb = l.format->block_bytes;
    DenseArgs d;
    d.w = w.data + l.offset * eb;
    d.row_stride = l.strides[0] * eb;
    d.out = a.out;
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
    if constexpr (kXsmm)
        kernels::x86_64::dense_xsmm_f32(F, d, out_begin, out_end);
    else
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

void register_dense_kernels(Registry& r) {
    namespace k = kernels::x86_64;
    using F = FormatId;
    std::vector<Entry> entries = {
        {F::BF16, F::BF16, SKN_ISA_AVX2, entry<k::bf16_bf16_avx2, true>, kNeedsQuantized},
        {F::F16, F::F16, SKN_ISA_AVX2, entry<k::f16_f16_avx2, true>, kNeedsQuantized},
        {F::F16, F::F16, SKN_ISA_AVX512, entry<k::f16_f16_avx512, true>, kNeedsQuantized},
        {F::BF16, F::F32, SKN_ISA_AVX2, entry<k::bf16_f32_avx2, false>, kNeedsFloat},
        {F::BF16, F::F32, SKN_ISA_AVX512, entry<k::bf16_f32_avx512, false>, kNeedsFloat},
        {F::F16, F::F32, SKN_ISA_AVX2, entry<k::f16_f32_avx2, false>, kNeedsFloat},
        {F::F16, F::F32, SKN_ISA_AVX512, entry<k::f16_f32_avx512, false>, kNeedsFloat},
        {F::F32, F::F32, SKN_ISA_AVX2, entry<k::f32_f32_avx2, false>, kNeedsFloat},
        {F::F32, F::F32, SKN_ISA_AVX512, entry<k::f32_f32_avx512, false, true>, kNeedsFloat},
    };
    if (cpu_features().avx512bf16)
        entries.push_back({F::BF16, F::BF16, SKN_ISA_AVX512_VNNI, entry<k::bf16_bf16_avx512bf16, true>, kNeedsQuantized});
    for (const Entry& e : entries) {
        Kernel k;
        k.key = KernelKey{Op::MatmulWt, e.weight, LayoutClass::Contiguous, e.activation, e.isa};
        k.fn = e.fn;
        k.needs = e.needs;
        k.rows_per_task = 32;  // a multiple of the row tiles (4; 32 on the libxsmm path)
        k.supports = unit_columns;
        r.add(std::move(k));
    }
}

}  // namespace skn_core
