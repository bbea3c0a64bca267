// SPDX-License-Identifier: MIT
// The n >= 2 driver of the neoni8mm (SMMLA) kernels, q32/neoni8mm.cpp and
// superblock/neoni8mm.cpp: SMMLA multiplies two weight rows by two activation
// rows, so the activation rows go in pairs, up to kPairs pairs per tile.
// Each chunk of input blocks is interleaved once for every output tile; an
// odd last row runs the family's neondotprod kernel (`single`), whose bits
// are the contract's too. Plain C++ over PackedArgs: included by tier sources.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/common/packed_args.hpp"

namespace skn_core::kernels::aarch64 {

// interleave(i0, P, k0, nb): pairs i0 / 2 .. i0 / 2 + P - 1 of blocks
// k0 .. k0 + nb - 1 into the tile's operand order; tile(p, o, R, i0, k0, nb):
// output rows o .. o + R - 1 (R <= kRows) against those P pairs, P given as
// p = std::integral_constant<int, P> so the tile can be a template on it.
template <int kRows, int kPairs, int64_t kChunk, class Interleave, class Tile>
inline void run_activation_pairs(const PackedArgs& a, int64_t o0, int64_t o1, Interleave&& interleave, Tile&& tile,
                                 void (*single)(const PackedArgs& a, int64_t o0, int64_t o1)) {
    static_assert(kPairs == 1 || kPairs == 2, "tiles take one or two activation pairs");
    const int64_t paired = a.n & ~int64_t(1);
    for (int64_t i0 = 0; i0 < paired;) {
        const int P = paired - i0 >= 2 * kPairs ? kPairs : int((paired - i0) / 2);
        for (int64_t k0 = 0; k0 < a.bpr; k0 += kChunk) {
            const int64_t nb = a.bpr - k0 < kChunk ? a.bpr - k0 : kChunk;
            interleave(i0, P, k0, nb);
            const auto tiles = [&](auto p) {
                for (int64_t o = o0; o < o1; o += kRows) tile(p, o, o1 - o < kRows ? int(o1 - o) : kRows, i0, k0, nb);
            };
            if (kPairs == 2 && P == 2)
                tiles(std::integral_constant<int, kPairs>{});
            else
                tiles(std::integral_constant<int, 1>{});
        }
        i0 += 2 * P;
    }
    if (paired < a.n) {
        PackedArgs one = a;
        one.n = 1;
        one.xq = a.xq + size_t(paired) * a.xq_stride;
        one.y = a.y + paired * a.y_stride;
        single(one, o0, o1);
    }
}

}  // namespace skn_core::kernels::aarch64
