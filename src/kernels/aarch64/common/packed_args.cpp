// SPDX-License-Identifier: MIT
#include "kernels/aarch64/common/packed_args.hpp"

#include "dispatch/kernel.hpp"

namespace skn_core::kernels::aarch64 {

PackedArgs packed_args(const MatmulArgs& m) {
    const View& w = *m.w;
    const Layout& l = w.layout;
    const int64_t bb = l.format->block_bytes;
    PackedArgs a;
    a.w = w.data + size_t(l.offset * bb);
    a.so = l.strides[0] * bb;
    a.sb = l.strides[1] * bb;
    a.bpr = l.grid[1];
    a.n = m.n;
    a.xq = m.xq;
    a.xq_stride = m.xq_stride;
    a.bias = m.bias;
    a.y = m.y;
    a.y_stride = m.y_stride;
    a.tensor_scale = w.tensor_scale;
    return a;
}

}  // namespace skn_core::kernels::aarch64
