// SPDX-License-Identifier: MIT
// The row-interleaved IQ4_XS_R8 x Q8_K kernels (superblock/xs_r8_body.inc,
// built per tier as superblock/<tier>_xs_r8.cpp): bit-identical to the
// canonical IQ4_XS kernel of the same tier (superblock/kernels.hpp). Output
// rows o0 .. o1 - 1 are whole block rows (multiples of 8).
#pragma once

#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::x86_64 {

void kq_iq4_xs_r8_avx512vnni(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_iq4_xs_r8_avx512(const PackedArgs& a, int64_t o0, int64_t o1);
void kq_iq4_xs_r8_avx2(const PackedArgs& a, int64_t o0, int64_t o1);

}  // namespace skn_core::kernels::x86_64
