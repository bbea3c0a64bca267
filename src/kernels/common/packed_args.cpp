// SPDX-License-Identifier: MIT
#include "kernels/common/packed_args.hpp"

#include <type_traits>

#include "dispatch/kernel.hpp"

namespace skn_core::kernels {

static_assert(std::is_same_v<ScalarDecodeFn, DecodeBlocksFn>, "PackedArgs hands kernels the formats' decoder");
static_assert(std::is_same_v<DeinterleaveRowsFn, DeinterleaveFn>, "PackedArgs hands kernels the codecs' deinterleave");

PackedArgs packed_args(const MatmulArgs& m) {
    const View& w = *m.w;
    const Layout& l = w.layout;
    // Strides count whole blocks: a row-interleaved block (R rows' shares)
    // is tile_bytes; for every other format the two are one.
    const int64_t bb = int64_t(l.format->tile_bytes());
    PackedArgs a;
    a.format = l.format->id;
    a.block_elems = l.format->block_elems;
    a.block_bytes = l.format->block_bytes;
    a.scalar_decode = l.format->decode;
    a.block_rows = l.format->block_rows;
    if (l.format->interleaved_codec != nullptr) a.deinterleave = l.format->interleaved_codec->deinterleave;
    a.w = w.data + size_t(l.offset * bb);
    a.so = l.strides[0] * bb;
    a.sb = l.strides[1] * bb;
    a.bpr = l.grid[1];
    a.out = m.out;
    a.in = m.in;
    a.n = m.n;
    a.xq = m.xq;
    a.xq_stride = m.xq_stride;
    a.xf = m.xf;
    a.xf_stride = m.xf_stride;
    a.bias = m.bias;
    a.y = m.y;
    a.y_stride = m.y_stride;
    a.tensor_scale = w.tensor_scale;
    return a;
}

}  // namespace skn_core::kernels
