// SPDX-License-Identifier: MIT
// The fast ternary and low-bit (Q1_0, Q2_0) kernels' accumulation contract (x86's avx2 tier and the
// NEON tiers: src/kernels/aarch64/low_bit/kernels.hpp), written out with
// std::fma: 8 exact integer lanes per unit, one rounding per float step and
// the fixed lane sum. Shared by the NEON contract test and the x86 test that
// holds the avx2 kernels to the same bits.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/format.hpp"
#include "layout/scope.hpp"
#include "layout/view.hpp"

namespace skn_core::test {

// y [n, out] by the contract from ROW_MAJOR bytes of TQ2_0, TQ1_0, I2_S,
// Q1_0 or Q2_0 (I2_S: the codes, then the trailer; tensor_scale is its
// scale), the activations quantized with the format's activation quantizer.
// A unit is a Q8_K block (TQ) or a Q8_0 block (the others); Q1_0 and Q2_0
// scale a unit's lanes by d_x * d_w.
std::vector<float> low_bit_contract_y(const FormatTraits& f, const uint8_t* rm, int64_t out, int64_t in,
                                      const std::vector<float>& x, int64_t n, const float* bias, float tensor_scale);

// Byte offset of a block's fp16 d (TQ2_0, TQ1_0, Q1_0, Q2_0).
int ternary_d_at(FormatId f);

// ROW_MAJOR bytes (resized by nothing; I2_S: tensor_scale written to the
// trailer first) as a view of class cls, packed into scope if needed. False
// when the shape's only layout is another class (one row or one block).
bool ternary_view(const FormatTraits& f, std::vector<uint8_t>& rm, int64_t out, int64_t in, LayoutClass cls,
                  float tensor_scale, Scope* scope, View* v);

}  // namespace skn_core::test
