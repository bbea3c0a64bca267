// SPDX-License-Identifier: MIT
// Vectorized activation quantizers for fast precision: each writes exactly
// the bytes of the codec's scalar quantize_row for its format (src/formats),
// so every kernel sees the same activations whichever quantizer ran.
// Inputs are finite (the dispatcher checks before quantizing).
#pragma once

#include <cstdint>

namespace skn_core::kernels::x86_64 {

void quantize_row_q8_0_avx2(const float* src, int64_t n, uint8_t* dst);
void quantize_row_q8_k_avx2(const float* src, int64_t n, uint8_t* dst);
void quantize_row_q8_0_avx512(const float* src, int64_t n, uint8_t* dst);

}  // namespace skn_core::kernels::x86_64
