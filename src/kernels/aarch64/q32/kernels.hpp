// SPDX-License-Identifier: MIT
// NEON matmul_wt kernels for the 32-element block formats (Q4_0, Q8_0,
// IQ4_NL, MXFP4, Q5_0 against Q8_0 activations; Q4_1, Q5_1 against Q8_1) in
// fast precision. The kernels live in translation units built with their tier's
// flags (q32/neon.cpp, q32/neondotprod.cpp, one body: q32/body.inc;
// q32/neoni8mm.cpp, SMMLA tiles over pairs of activation rows) and see
// only the plain struct of kernels/common/packed_args.hpp; q32/register.cpp (built
// without ISA flags) fills it from MatmulArgs.
//
// Accumulation order: the one x86's q32 fast kernels follow
// (x86_64/q32/kernels.hpp, docs/kernels/q32.md), so both block orders, every
// split of the output rows, the NEON tiers and the x86 tiers give
// bit-identical y: for each (i, o), acc = 0; for each block b in order:
// sumi = exact integer dot of the weight block's values (offset removed;
// MXFP4: the E2M1 grid doubled, with d_w = 2^(e - 128) from its E8M0 byte)
// with the activation block's int8 codes; acc = fma(d_w[o,b] * d_x[i,b],
// float(sumi), acc); (Q4_1, Q5_1: then acc = fma(m_w[o,b], d_x[i,b] *
// float(sum of the activation codes), acc)). Finally y = acc (+ bias[o]).
// See docs/kernels/neon.md.
#pragma once

#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

// One function per format and tier; the same function serves both block
// orders (it reads blocks through the byte strides).

// Armv8.6 i8mm: SMMLA over pairs of activation rows; an odd last row (and
// n = 1) runs the neondotprod kernel above.
void q32_q4_0_q8_0_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_q8_0_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_q8_0_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_q8_0_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_q8_0_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_1_q8_1_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_1_q8_1_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);

// Armv8.2 dotprod: SDOT.
void q32_q4_0_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_1_q8_1_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);  // xq: Q8_1 rows
void q32_q5_1_q8_1_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);  // xq: Q8_1 rows

// Armv8.0 NEON: SMULL + SADALP (exact 16-bit products widened pairwise).
void q32_q4_0_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_1_q8_1_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_1_q8_1_neon(const PackedArgs& a, int64_t o0, int64_t o1);

// The row-interleaved twins Q4_0_R8, Q8_0_R8, MXFP4_R8, IQ4_NL_R4 and Q5_0_R4
// (q32/r8_body.inc), block row by block row; out_begin and out_end are
// multiples of the format's R. The neoni8mm tier registers the neondotprod
// functions.
void q32_q4_0_r8_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_r8_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_r8_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_r4_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_r4_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q4_0_r8_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q8_0_r8_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_mxfp4_r8_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_iq4_nl_r4_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void q32_q5_0_r4_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);

}  // namespace skn_core::kernels::aarch64
