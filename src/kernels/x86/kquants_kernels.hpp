// K-quant SIMD kernels (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K and IQ4_XS, which also pairs with Q8_K) against Q8_K activations. The
// per-ISA translation units (kquants_<isa>.cpp) export only these functions;
// the registration code (register_kquants.cpp, built without ISA flags)
// reads the weight's layout and hands them plain byte strides, so the ISA
// code never instantiates an inline function shared with other TUs.
//
// Every kernel computes each y[i, o] the same way (see docs/kernels/k_quants.md):
// per super-block exact integer sums, then a fixed sequence of float32
// operations in block order. Results are bit-identical across the two block
// orders, the ISA tiers, the GEMV/GEMM paths and any split of the output rows.
#pragma once

#include <cstddef>
#include <cstdint>

namespace skn::kernels::x86 {

struct KqArgs {
    const uint8_t* w = nullptr;  // block (0, 0) of the weight
    int64_t so = 0;              // bytes from block (o, b) to (o + 1, b)
    int64_t sb = 0;              // bytes from block (o, b) to (o, b + 1)
    int64_t bpr = 0;             // super-blocks per row
    int64_t n = 0;               // activation rows
    const uint8_t* xq = nullptr;  // Q8_K activation rows (fast precision)
    size_t xq_stride = 0;
    const float* bias = nullptr;
    float* y = nullptr;
    int64_t y_stride = 0;
};

using KqFn = void (*)(const KqArgs& a, int64_t out_begin, int64_t out_end);

void kq_q2_k_avx2(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_avx2(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_avx2(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_avx2(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_avx2(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_iq4_xs_avx2(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q2_k_avx512(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_avx512(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_avx512(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_avx512(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_avx512(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_iq4_xs_avx512(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q2_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end);
void kq_iq4_xs_avx512vnni(const KqArgs& a, int64_t out_begin, int64_t out_end);

}  // namespace skn::kernels::x86
