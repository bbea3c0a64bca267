// SPDX-License-Identifier: MIT
// The lookup tables the IQ3 quantizers search, built once per grid on first
// use (thread-safe) from the coordinate lists in grid_iq3_tables.cpp: a map
// from every one of the 8^4 level quadruples to its grid index, and for each
// quadruple that is not a grid point, its nearest grid points. Built as the
// reference's iq3xs_init_impl builds them, so ties resolve identically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace skn_core::codec {

struct Iq3Search {
    // The grid as 4 odd integers per point (2l + 1), the quantizer's units.
    std::vector<int8_t> points;  // 4 * grid_size
    // For each packed quadruple u (element i in bits 3i..3i+2): the grid
    // index when u is on the grid, else -1.
    std::vector<int32_t> index_of;  // 4096
    // For an off-grid u: neighbours[first[u] .. first[u] + count[u]) are the
    // grid points at the smallest `rings` distinct squared distances from u,
    // in increasing (distance, index) order.
    std::vector<uint32_t> first;   // 4096
    std::vector<uint16_t> count;   // 4096
    std::vector<uint16_t> neighbours;

    size_t bytes() const {
        return points.size() + index_of.size() * sizeof(int32_t) + first.size() * sizeof(uint32_t) +
               count.size() * sizeof(uint16_t) + neighbours.size() * sizeof(uint16_t);
    }
};

// IQ3_XXS's 256-point grid (2 distance rings) and IQ3_S's 512-point grid
// (3 rings). Built on first call; later calls return the same tables.
const Iq3Search& iq3xxs_search();
const Iq3Search& iq3s_search();

// Among u's neighbours, the grid point q minimising sum_i w[i] (scale q_i -
// x[i])^2 (the first one on ties); writes its levels to L and returns its index.
int iq3_best_neighbour(const Iq3Search& s, uint16_t u, const float* x, const float* w, float scale, int8_t* L);

}  // namespace skn_core::codec
