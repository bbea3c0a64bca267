// SPDX-License-Identifier: MIT
// NEON matmul_wt kernels for the ternary formats in fast precision: TQ2_0
// and TQ1_0 (Q8_K activations) and I2_S (skn's I2_S, bitnet.cpp's x86
// layout; Q8_0 activations), and for the low-bit Q1_0 and Q2_0 (Q8_0
// activations). The kernels live in translation units built with their
// tier's flags (low_bit/neon.cpp, low_bit/neondotprod.cpp; bodies:
// low_bit/body.inc, low_bit/body_low_bit.inc) and see only the plain struct of
// kernels/common/packed_args.hpp; low_bit/register.cpp (built without ISA flags)
// fills it from MatmulArgs.
//
// Accumulation order: the one of x86's avx2 ternary kernels
// (docs/kernels/low_bit.md), which keep 8 float lanes per (i, o). Lane j
// (0..7) of a unit holds the exact integer L_j = sum of v_e * q_e over the
// unit's elements e with (e mod 32) / 4 == j (Q2_0: e mod 32 == 16h + 4m + k
// with j == 4h + k, x86 avx2's k-major order for it), v_e the decoded value
// (code - 1; TQ2_0 and Q2_0 code 3 is +2, I2_S code 3 is 0; Q1_0 +-1) and
// q_e the activation code. A unit is a 256-element block (TQ2_0, TQ1_0) or
// one 32-element Q8_0 block (I2_S, Q1_0, Q2_0). For each (i, o), acc[0..7]
// = 0; for each unit in order
//   TQ2_0, TQ1_0, Q1_0, Q2_0:  acc_j = fma(float(L_j), d_w * d_x, acc_j)
//   I2_S:                      acc_j = fma(float(L_j), d_x, acc_j)
// (Q1_0, Q2_0: d_w of the weight block that holds the unit)
// then s_k = acc_k + acc_{k+4} (k = 0..3), sum = (s_0 + s_2) + (s_1 + s_3),
// I2_S: sum = sum * tensor_scale; y = sum (+ bias[o]). Both block orders,
// every split of the output rows, both NEON tiers and x86's avx2 tier give
// bit-identical y (x86's AVX-512 tiers keep 16 lanes: other bits). See
// docs/kernels/neon.md.
#pragma once

#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

// One function per format and tier; the same function serves both block
// orders (it reads blocks through the byte strides).

// Armv8.2 dotprod: SDOT.
void tern_tq2_0_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_tq1_0_q8_k_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_i2_s_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_q1_0_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_q2_0_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);

// Armv8.0 NEON: SMLAL into int16, pairs widened at the end of a unit.
void tern_tq2_0_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_tq1_0_q8_k_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_i2_s_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_q1_0_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_q2_0_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);

// I2_S_G64 (bitnet.cpp's arm64 I2_S layout; low_bit/i2s_g64_body.inc): I2_S's
// contract, so the same y as I2_S of the same weights. Q8_0 activations.
void tern_i2_s_g64_q8_0_neondotprod(const PackedArgs& a, int64_t o0, int64_t o1);
void tern_i2_s_g64_q8_0_neon(const PackedArgs& a, int64_t o0, int64_t o1);

}  // namespace skn_core::kernels::aarch64
