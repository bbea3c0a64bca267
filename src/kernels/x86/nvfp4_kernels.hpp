// NVFP4 matmul_wt kernels for x86 in fast precision (Q8_0 activations). The
// ISA translation units (nvfp4_avx2.cpp, and nvfp4_fast512.inc included by
// nvfp4_fast_avx512.cpp and nvfp4_avx512vnni.cpp) see only this header: a
// plain struct filled by register_nvfp4.cpp, which is built without ISA
// flags, so no inline function of the library is compiled with wider flags.
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

namespace skn::kernels::x86 {

struct Nvfp4Args {
    const uint8_t* w = nullptr;  // block (0, 0) of the weight
    int64_t so = 0, sb = 0;      // bytes between blocks (o, b) and (o + 1, b) / (o, b + 1)
    int64_t bpr = 0;             // weight blocks per row
    int64_t n = 0;               // activation rows
    const uint8_t* xq = nullptr; // Q8_0 activation rows, xq_stride bytes apart
    size_t xq_stride = 0;
    const float* bias = nullptr;
    float* y = nullptr;
    int64_t y_stride = 0;
};

using Nvfp4KernelFn = void (*)(const Nvfp4Args& a, int64_t out_begin, int64_t out_end);

void nvfp4_q8_0_avx2(const Nvfp4Args& a, int64_t out_begin, int64_t out_end);
void nvfp4_q8_0_avx512(const Nvfp4Args& a, int64_t out_begin, int64_t out_end);
void nvfp4_q8_0_avx512vnni(const Nvfp4Args& a, int64_t out_begin, int64_t out_end);

}  // namespace skn::kernels::x86
