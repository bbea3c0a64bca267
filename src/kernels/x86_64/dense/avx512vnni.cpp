// SPDX-License-Identifier: MIT
// Dense matmul_wt kernel for BF16 weights against BF16 activations with
// vdpbf16ps. Built with the avx512vnni flags (which include -mavx512bf16);
// the tier does not imply AVX512_BF16, so registration also checks the CPU
// for it. Kernel functions only; the tiling is dense/body512.inc's.
#include "kernels/x86_64/dense/body512.inc"

namespace skn_core::kernels::x86_64 {
namespace {

// lane j += w[2j] x[2j] + w[2j+1] x[2j+1] over 32 bf16 pairs per chunk.
struct Bf16Bf16 {
    static constexpr int K = 32, WB = 2, XB = 2;
    using WV = __m512i;
    using XV = __m512i;
    static WV lw(const uint8_t* p) { return _mm512_loadu_si512(p); }
    static XV lx(const uint8_t* p) { return _mm512_loadu_si512(p); }
    static __m512 dot(__m512 acc, WV w, XV x) { return _mm512_dpbf16_ps(acc, (__m512bh)w, (__m512bh)x); }
};

}  // namespace

void bf16_bf16_avx512bf16(const PackedArgs& a, int64_t ob, int64_t oe) { run<Bf16Bf16>(a, ob, oe); }

}  // namespace skn_core::kernels::x86_64
