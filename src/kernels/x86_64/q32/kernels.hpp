// SPDX-License-Identifier: MIT
// SIMD matmul_wt kernels for the 32-element block formats (Q4_0, Q8_0,
// IQ4_NL, MXFP4, Q5_0 against Q8_0 activations; Q4_1, Q5_1 against Q8_1)
// in fast precision (exact precision: exact/kernels.hpp). The kernels live in translation units built
// with their ISA's flags (q32/<isa>.cpp) and see only the plain PackedArgs
// (kernels/common/packed_args.hpp); q32/register.cpp (built without ISA
// flags) fills it from MatmulArgs.
//
// Accumulation order, shared by every kernel of one tier and by both block
// orders, so ROW_MAJOR and INPUT_BLOCK_MAJOR give bit-identical y and any
// split of the output rows does too: for each (i, o), acc = 0; for each
// block b in order, fast precision: sumi = exact integer dot of the block's
// codes with the activation block's int8 codes; acc = fma(d_w[o,b] *
// d_x[i,b], float(sumi), acc); (Q4_1, Q5_1: then acc = fma(m_w[o,b],
// d_x[i,b] * float(sum of the activation codes), acc)). Finally
// y = acc (+ bias[o]).
// See docs/kernels/q32.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::x86_64 {

// Fast precision (Q8_0 / Q8_1 activations), one function per format and ISA;
// the same function serves both block orders. avx512vnni and avx512 share
// their body (q32/body512.inc).
void q32_q4_0_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_1_q8_1_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);  // xq: Q8_1 rows
void q32_q5_1_q8_1_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);  // xq: Q8_1 rows

// The avx512vnni kernels with far prefetch (q32/avx512vnni_far.cpp): the
// "far" variant of the INPUT_BLOCK_MAJOR kernels, which the tuning table
// picks on the cores that stream better so (Zen 4); the same bits.
void q32_q4_0_q8_0_far_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_q8_0_far_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_q8_0_far_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_q8_0_far_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_1_q8_1_far_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_1_q8_1_far_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);

// The same body without VNNI (q32/avx512.cpp): bit-identical to avx512vnni.
void q32_q4_0_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_1_q8_1_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_1_q8_1_avx512(const PackedArgs& a, int64_t o0, int64_t o1);

void q32_q4_0_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_1_q8_1_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_1_q8_1_avx2(const PackedArgs& a, int64_t o0, int64_t o1);

// The row-interleaved twins of Q4_0, Q8_0, MXFP4, IQ4_NL and Q5_0 (q32/r8_body.inc,
// built per tier as q32/<tier>_r8.cpp): bit-identical to the canonical
// kernel of the same tier on the same weight before interleaving (the order
// above, per output row). out_begin and out_end are multiples of R (8; 4 for
// IQ4_NL_R4 and Q5_0_R4); PackedArgs' so is the byte distance between block rows (R
// output rows).
void q32_q4_0_r8_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_r8_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_r8_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_r4_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_r4_q8_0_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_0_r8_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_r8_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_r8_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_r4_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_r4_q8_0_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_0_r8_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_r8_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_r8_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_r4_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_r4_q8_0_avx2(const PackedArgs& a, int64_t o0, int64_t o1);

}  // namespace skn_core::kernels::x86_64
