// SPDX-License-Identifier: MIT
// K-quant SIMD kernels (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K and IQ4_XS, which also pairs with Q8_K) against Q8_K activations. The
// per-ISA translation units (superblock/<isa>.cpp) export only these functions;
// the registration code (superblock/register.cpp, built without ISA flags)
// hands them the plain PackedArgs (kernels/common/packed_args.hpp), so the ISA
// code never instantiates an inline function shared with other TUs.
//
// Every kernel computes each y[i, o] the same way (see docs/kernels/superblock.md):
// per super-block exact integer sums, then a fixed sequence of float32
// operations in block order. Results are bit-identical across the two block
// orders, the ISA tiers, the GEMV/GEMM paths and any split of the output rows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::x86_64 {

void kq_q2_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_iq4_xs_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q2_k_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_iq4_xs_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q2_k_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_iq4_xs_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// The row-interleaved twins Q2_K_R4, Q3_K_R4, Q4_K_R4, Q5_K_R4 and Q6_K_R4
// (superblock/r4_body.inc): bit-identical to kq_q2_k ... kq_q6_k of the same tier.
void kq_q4_k_r4_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_r4_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q4_k_r4_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q2_k_r4_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q2_k_r4_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q2_k_r4_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_r4_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_r4_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q3_k_r4_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_r4_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_r4_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q5_k_r4_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_r4_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_r4_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void kq_q6_k_r4_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);

// The GEMM of kq_q2_k ... kq_q6_k at the AVX-512 tiers over a twin's weight
// (superblock/body512.inc, r4_pack512.inc), for the twins' batched calls:
// output rows ob .. in 16-row tiles while they fit (ob, oe multiples of 4);
// returns the first row left.
int64_t kq_q2_k_r4_gemm_avx512(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q3_k_r4_gemm_avx512(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q4_k_r4_gemm_avx512(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q5_k_r4_gemm_avx512(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q6_k_r4_gemm_avx512(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q2_k_r4_gemm_avx512vnni(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q3_k_r4_gemm_avx512vnni(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q4_k_r4_gemm_avx512vnni(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q5_k_r4_gemm_avx512vnni(const PackedArgs& a, int64_t ob, int64_t oe);
int64_t kq_q6_k_r4_gemm_avx512vnni(const PackedArgs& a, int64_t ob, int64_t oe);

// IQ4_XS_R8 (superblock/xs_r8_body.inc, built per tier as
// superblock/<tier>_xs_r8.cpp): bit-identical to kq_iq4_xs of the same tier;
// output rows o0 .. o1 - 1 are whole block rows (multiples of 8).
void kq_iq4_xs_r8_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_iq4_xs_r8_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_iq4_xs_r8_avx2(const PackedArgs& a, int64_t o0, int64_t o1);

}  // namespace skn_core::kernels::x86_64
