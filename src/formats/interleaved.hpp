// SPDX-License-Identifier: MIT
// The row-interleaved formats' codecs (formats/interleaved.cpp): how one
// block of R rows moves to and from the R canonical blocks it holds, and its
// decoder (through the canonical one). The format table (table.cpp) puts one
// in each interleaved format's row; layout/ and formats/tensor_codec use it
// for conversion, quantization and decoding.
#pragma once

#include "formats/format.hpp"

namespace skn_core::codec {

#define SKN_DECLARE_INTERLEAVED(name)                                                    \
    void decode_##name(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst); \
    extern const InterleavedCodec kInterleaved_##name;
SKN_DECLARE_INTERLEAVED(q4_0_r8)
SKN_DECLARE_INTERLEAVED(q8_0_r8)
SKN_DECLARE_INTERLEAVED(q5_0_r4)
SKN_DECLARE_INTERLEAVED(q2_k_r4)
SKN_DECLARE_INTERLEAVED(q3_k_r4)
SKN_DECLARE_INTERLEAVED(q5_k_r4)
SKN_DECLARE_INTERLEAVED(mxfp4_r8)
SKN_DECLARE_INTERLEAVED(iq4_nl_r4)
SKN_DECLARE_INTERLEAVED(q4_k_r4)
SKN_DECLARE_INTERLEAVED(q6_k_r4)
SKN_DECLARE_INTERLEAVED(iq4_xs_r8)
SKN_DECLARE_INTERLEAVED(bf16_r16)
SKN_DECLARE_INTERLEAVED(iq2_xxs_r4)
SKN_DECLARE_INTERLEAVED(iq2_xs_r4)
SKN_DECLARE_INTERLEAVED(iq3_xxs_r4)
SKN_DECLARE_INTERLEAVED(iq3_s_r4)
SKN_DECLARE_INTERLEAVED(iq2_s_r4)
#undef SKN_DECLARE_INTERLEAVED

}  // namespace skn_core::codec
