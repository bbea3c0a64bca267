// SPDX-License-Identifier: MIT
// Reference matmul_wt kernels: one clear scalar implementation registered for
// every format, both block orders (and dense layouts), both precisions. It
// reads the weight through its layout, so it is the same code for every order
// and the yardstick every SIMD kernel is tested against.
//
// Accumulation order (fixed, so results are bit-identical for either block
// order and any split of the output rows): for each (i, o), a float partial
// sum per block over its elements in index order, added to a float
// accumulator in block order; then the bias.
#include <algorithm>
#include <span>
#include <vector>

#include "dispatch/registry.hpp"

namespace skn_core {
namespace {

// One output row's floats times every activation row, in the order above.
void dot_rows(const MatmulArgs& a, const float* row, int64_t o, int64_t bpr, int64_t be) {
    for (int64_t i = 0; i < a.n; ++i) {
        const float* x = a.xf + i * a.xf_stride;
        float acc = 0.0f;
        for (int64_t b = 0; b < bpr; ++b) {
            float partial = 0.0f;
            for (int64_t j = b * be; j < (b + 1) * be; ++j) partial += row[j] * x[j];
            acc += partial;
        }
        a.y[i * a.y_stride + o] = a.bias != nullptr ? acc + a.bias[o] : acc;
    }
}

void matmul_wt_reference(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    const Layout& l = a.w->layout;
    const FormatTraits& f = *l.format;
    const int64_t be = f.block_quantized ? f.block_elems : 1;
    const int64_t bpr = l.grid[1];
    const int64_t so = l.strides[0], sb = l.strides[1];
    // One output row decoded once, then reused by every activation row. A
    // row-interleaved block decodes to its R rows ([R][be]): the rows of a
    // block row are decoded together, each the canonical decoder's floats,
    // so the sums are the canonical format's to the bit.
    const int64_t R = f.block_rows;
    thread_local std::vector<float> rows;
    rows.resize(size_t(R * bpr * be));
    thread_local std::vector<float> tile;
    tile.resize(size_t(R * be));
    for (int64_t o = out_begin; o < out_end;) {
        const int64_t g = o / R;  // the block row holding output row o
        const int64_t row0 = l.offset + g * so;
        for (int64_t b = 0; b < bpr; ++b) {
            if (R == 1) {
                f.decode(a.w->block_at(row0 + b * sb), 1, a.w->tensor_scale, rows.data() + b * be);
                continue;
            }
            f.decode(a.w->block_at(row0 + b * sb), 1, a.w->tensor_scale, tile.data());
            for (int64_t k = 0; k < R; ++k)
                std::copy(tile.data() + k * be, tile.data() + (k + 1) * be, rows.data() + (k * bpr + b) * be);
        }
        for (const int64_t end = std::min(out_end, (g + 1) * R); o < end; ++o)
            dot_rows(a, rows.data() + (o - g * R) * bpr * be, o, bpr, be);
    }
}

}  // namespace

void register_reference_kernels(Registry& r) {
    const LayoutClass packed[] = {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor};
    const LayoutClass dense[] = {LayoutClass::Contiguous, LayoutClass::Strided};
    for (const FormatTraits& f : all_formats()) {
        // Fast precision pairs the weight with its activation format; exact
        // with F32 (for F32 weights the two are one key).
        std::vector<FormatId> activations = {f.activation};
        if (f.activation != FormatId::F32) activations.push_back(FormatId::F32);
        for (LayoutClass c : f.block_quantized ? std::span<const LayoutClass>(packed) : std::span<const LayoutClass>(dense))
            for (FormatId act : activations) {
                Kernel k;
                k.key = KernelKey{Op::MatmulWt, f.id, c, act, SKN_ISA_SCALAR};
                k.fn = matmul_wt_reference;
                k.needs = kNeedsFloat;
                k.rows_per_task = 8;
                r.add(std::move(k));
            }
    }
}

}  // namespace skn_core
