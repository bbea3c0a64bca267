// SPDX-License-Identifier: MIT
// NVFP4 matmul_wt kernels for x86 in fast precision (Q8_0 activations). The
// ISA translation units (nvfp4/avx2.cpp, and nvfp4/body512.inc included by
// nvfp4/avx512.cpp and nvfp4/avx512vnni.cpp) see only this header and the
// plain PackedArgs (kernels/common/packed_args.hpp) filled by
// nvfp4/register.cpp, which is built without ISA flags, so no inline
// function of the library is compiled with wider flags.
//
// An NVFP4 block is 64 elements (four 16-element sub-blocks, each with its
// own UE4M3 scale) and meets two Q8_0 activation blocks. Accumulation order
// per (weight row o, activation row i), shared by both block orders and any
// split of the rows: per weight block b in order, the 64 products are summed
// exactly in integers into lanes that each hold products of one sub-block,
// then acc = fma(float(lanes), s_w[o,b,sub] * d_x[i,2b or 2b+1], acc) lane by
// lane; at the end the lanes are summed with a fixed tree, then the bias is
// added. See docs/kernels/nvfp4.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::x86_64 {

void nvfp4_q8_0_avx2(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void nvfp4_q8_0_avx512(const PackedArgs& a, int64_t out_begin, int64_t out_end);
void nvfp4_q8_0_avx512vnni(const PackedArgs& a, int64_t out_begin, int64_t out_end);

}  // namespace skn_core::kernels::x86_64
