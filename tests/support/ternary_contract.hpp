// SPDX-License-Identifier: MIT
// The fast ternary kernels' accumulation contract (x86's avx2 tier and the
// NEON tiers: src/kernels/aarch64/ternary/kernels.hpp), written out with
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

// y [n, out] by the contract from ROW_MAJOR bytes of TQ2_0, TQ1_0 or I2_S
// (I2_S: the codes, then the trailer; tensor_scale is its scale), the
// activations quantized with the format's activation quantizer.
std::vector<float> ternary_contract_y(const FormatTraits& f, const uint8_t* rm, int64_t out, int64_t in,
                                      const std::vector<float>& x, int64_t n, const float* bias, float tensor_scale);

// ROW_MAJOR bytes (resized by nothing; I2_S: tensor_scale written to the
// trailer first) as a view of class cls, packed into scope if needed. False
// when the shape's only layout is another class (one row or one block).
bool ternary_view(const FormatTraits& f, std::vector<uint8_t>& rm, int64_t out, int64_t in, LayoutClass cls,
                  float tensor_scale, Scope* scope, View* v);

}  // namespace skn_core::test
