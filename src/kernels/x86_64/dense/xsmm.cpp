// SPDX-License-Identifier: MIT
// The libxsmm path of the AVX-512 F32 dense kernel. Built without ISA flags:
// it only calls libxsmm's JIT'd GEMMs and the AVX-512 packer.
//
// y[i, o] for a tile of T output rows is the GEMM C[rows, n] = A[rows, in] B[in, n]
// with A the tile's weight rows packed column-major, B the activation rows
// read in place and C a scratch tile copied to y with the bias. `in` is
// walked in blocks of KB; the first block overwrites C, later ones add to it.
// With more than 16 rows per GEMM, libxsmm adds the products of each C
// element one k after the other into one accumulator (docs/kernels/dense.md),
// so y does not depend on T, KB, n or on which tile a row falls in. Tiles sit
// at multiples of T from row 0, so the short last tile is the same for every
// split; when it has 16 rows or fewer, our kernel computes those rows.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/x86_64/dense/kernels.hpp"
#include "kernels/x86_64/dense/libxsmm_backend.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

constexpr int64_t kTile = 32;     // weight rows per GEMM (m)
constexpr int64_t kBlock = 1024;  // input columns per GEMM (k)
constexpr int64_t kMinGemmRows = 17;

struct Scratch {
    std::vector<float> a, c;
};

}  // namespace

void dense_xsmm_f32(PackedKernelFn fallback, const PackedArgs& a, int64_t ob, int64_t oe) {
    if (a.n < kXsmmMinRows || ob >= oe) {
        fallback(a, ob, oe);
        return;
    }
    const int64_t ldb = a.xf_stride;
    // Every GEMM shape this weight needs, asked for before any row is
    // computed: if one is missing the whole call (and, the answers being kept,
    // every later call of this shape) runs the fallback.
    const XsmmGemm* g[2][2] = {};  // [full tile, last tile][full block, last block]
    const int64_t ms[2] = {a.out >= kTile ? kTile : 0, a.out % kTile};
    const int64_t ks[2] = {a.in >= kBlock ? kBlock : 0, a.in % kBlock};
    for (int mi = 0; mi < 2; ++mi) {
        if (ms[mi] < kMinGemmRows) continue;
        for (int ki = 0; ki < 2; ++ki) {
            if (ks[ki] == 0) continue;
            g[mi][ki] = xsmm_sgemm(ms[mi], a.n, ks[ki], ldb);
            if (g[mi][ki] == nullptr) {
                fallback(a, ob, oe);
                return;
            }
        }
    }

    thread_local Scratch s;
    s.a.resize(size_t(kTile * kBlock));
    s.c.resize(size_t(kTile * a.n));
    for (int64_t r0 = ob / kTile * kTile; r0 < oe; r0 += kTile) {
        const int64_t rows = a.out - r0 < kTile ? a.out - r0 : kTile;
        const int64_t lo = ob > r0 ? ob : r0, hi = oe < r0 + rows ? oe : r0 + rows;
        if (rows < kMinGemmRows) {
            fallback(a, lo, hi);
            continue;
        }
        for (int64_t k0 = 0; k0 < a.in; k0 += kBlock) {
            const int64_t kb = a.in - k0 < kBlock ? a.in - k0 : kBlock;
            const XsmmGemm& gm = *g[rows == kTile ? 0 : 1][kb == kBlock ? 0 : 1];
            transpose32_avx512(a.w + r0 * a.so + k0 * 4, a.so, rows, kb, reinterpret_cast<uint32_t*>(s.a.data()));
            (k0 == 0 ? gm.first : gm.next)(s.a.data(), a.xf + k0, s.c.data());
        }
        for (int64_t i = 0; i < a.n; ++i) {
            const float* c = s.c.data() + i * rows;
            float* y = a.y + i * a.y_stride;
            for (int64_t o = lo; o < hi; ++o) y[o] = a.bias != nullptr ? c[o - r0] + a.bias[o] : c[o - r0];
        }
    }
}

}  // namespace skn_core::kernels::x86_64
