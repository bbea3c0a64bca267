// SPDX-License-Identifier: MIT
// NEON matmul_wt kernels for the 256-element super-block formats that pair
// with Q8_K activations (Q4_K, Q5_K, Q6_K, Q2_K, Q3_K, IQ4_XS) in fast
// precision. The kernels live in translation units built with their tier's
// flags (superblock/neon.cpp, superblock/neondotprod.cpp, one body:
// superblock/body.inc; superblock/neoni8mm.cpp, SMMLA tiles over pairs of
// activation rows for Q4_K, Q5_K, Q6_K) and see only the plain struct of kernels/common/packed_args.hpp;
// superblock/register.cpp (built without ISA flags) fills it from MatmulArgs.
//
// Accumulation order: the one x86's K-quant kernels follow
// (docs/kernels/superblock.md), so both block orders, every split of the
// output rows, the NEON tiers and the x86 tiers give bit-identical y. For
// each (i, o), acc = 0; for each super-block b in order, with exact integer
// sums S and M of the block's codes, sub-block scales and the Q8_K block,
// and dx the Q8_K block's d:
//   Q2_K, Q4_K, Q5_K:    acc = acc + fmsub(float(S), d * dx, float(M) * (dmin * dx))
//   Q3_K, Q6_K, IQ4_XS:  acc = fma(float(S), d * dx, acc)
// Finally y = acc (+ bias[o]). See docs/kernels/neon.md.
#pragma once

#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

// One function per format and tier; the same function serves both block
// orders (it reads blocks through the byte strides).

// Armv8.6 i8mm: SMMLA over pairs of activation rows; an odd last row (and
// n = 1) runs the neondotprod kernel below.
void kq_q4_k_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q5_k_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q6_k_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);

// Armv8.2 dotprod: SDOT.
void kq_q2_k_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q3_k_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q4_k_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q5_k_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q6_k_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_iq4_xs_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);

// Armv8.0 NEON: SMULL + SADALP (exact 16-bit products widened pairwise).
void kq_q2_k_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q3_k_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q4_k_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q5_k_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q6_k_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_iq4_xs_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);

// IQ4_XS_R8 (superblock/xs_r8_body.inc), block row by block row; out_begin
// and out_end are multiples of 8. No neoni8mm kernel (IQ4_XS has none).
void kq_iq4_xs_r8_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_iq4_xs_r8_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
// The row-interleaved twins (superblock/r4_body.inc): one block row (4
// output rows) per tile, by-element SDOT (neondotprod; also registered at
// neoni8mm for Q2_K_R4 and Q3_K_R4) or SMLAL (neon); y equals the canonical
// format's bit for bit.
#define SKN_KQ_R4_DECLARE(tier)                                              \
    void kq_q4_k_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void kq_q5_k_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void kq_q6_k_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void kq_q2_k_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1); \
    void kq_q3_k_r4_q8_k_##tier(const PackedArgs& a, int64_t o0, int64_t o1);
SKN_KQ_R4_DECLARE(neondotprod)
SKN_KQ_R4_DECLARE(neon)
#undef SKN_KQ_R4_DECLARE
// Q4_K_R4, Q5_K_R4, Q6_K_R4 at i8mm (superblock/neoni8mm_r4.cpp): SMMLA
// over pairs of activation rows; n = 1 and an odd last row run the twin's
// neondotprod kernel.
void kq_q4_k_r4_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q5_k_r4_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_q6_k_r4_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1);

}  // namespace skn_core::kernels::aarch64
