// SPDX-License-Identifier: MIT
// Ternary and low-bit matmul_wt kernels (TQ2_0, TQ1_0, I2_S, I2_S_G64, Q2_0,
// Q1_0) for x86. The ISA translation units (low_bit/avx2.cpp, and low_bit/body512.inc
// included by low_bit/avx512.cpp and low_bit/avx512vnni.cpp)
// see only this header and the plain PackedArgs (kernels/common/packed_args.hpp),
// filled by low_bit/register.cpp (built without ISA flags) from MatmulArgs,
// so no inline function of the library is compiled with wider ISA flags.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::x86_64 {

// Q8_K activations.
void tq2_0_q8_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void tq2_0_q8_k_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void tq2_0_q8_k_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void tq1_0_q8_k_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void tq1_0_q8_k_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void tq1_0_q8_k_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
// Q8_0 activations.
void i2_s_q8_0_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void i2_s_q8_0_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void i2_s_q8_0_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void i2_s_g64_q8_0_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void i2_s_g64_q8_0_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void i2_s_g64_q8_0_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void q2_0_q8_0_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void q2_0_q8_0_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void q2_0_q8_0_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void q1_0_q8_0_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void q1_0_q8_0_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void q1_0_q8_0_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);

}  // namespace skn_core::kernels::x86_64
