// SPDX-License-Identifier: MIT
// The lattices of the grid formats and what their quantizers search them
// with: for every candidate point (eight levels in {0, 1, 2}) either its index
// on the lattice, or the list of nearest lattice points to try instead.
//
// The reference builds these lists at start-up (ggml's iq2xs_init_impl); here
// each lattice's tables are built on first use, once, thread-safely (a
// function-local static), and live until the process ends. Their sizes are in
// docs/formats/grid.md. The lists hold, for an off-lattice candidate, every
// lattice point whose squared distance is among the `nearest_distances`
// smallest distances, ordered by (distance, index): the quantizers take the
// first best point, so this order decides ties exactly as the reference does.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace skn_core::codec::grid {

enum class Lattice { Iq2xxs, Iq2xs, Iq2s, Iq1s };

// A lattice point packs levels l0..l7 (2 bits each, element j at bits 2j).
inline int level_of(uint16_t point, int j) { return (point >> (2 * j)) & 3; }

// The packed levels of eight codes (each 0..2), the key the tables are indexed by.
inline uint16_t pack_levels(const int8_t* levels) {
    uint16_t u = 0;
    for (int j = 0; j < 8; ++j) u = uint16_t(u | (levels[j] << (2 * j)));
    return u;
}

class SearchTables {
public:
    SearchTables(std::span<const uint16_t> points, int nearest_distances);

    std::span<const uint16_t> points() const { return points_; }

    // The lattice index of the point with packed levels `u`, or -1 when `u` is
    // not on the lattice.
    int index_of(uint16_t u) const { return map_[u] >= 0 ? map_[u] : -1; }

    // The candidates for an off-lattice `u` (index_of(u) < 0), nearest first;
    // never empty.
    std::span<const uint16_t> neighbours_of(uint16_t u) const {
        const int32_t at = -map_[u] - 1;
        return {neighbours_.data() + at + 1, neighbours_[size_t(at)]};
    }

private:
    std::span<const uint16_t> points_;
    // Indexed by packed levels: >= 0 a lattice index; < 0 -(offset + 1) of a
    // list in neighbours_ (its length, then its indices).
    std::vector<int32_t> map_;
    std::vector<uint16_t> neighbours_;
};

// The tables of `lattice`, built on first call.
const SearchTables& search_tables(Lattice lattice);

}  // namespace skn_core::codec::grid
