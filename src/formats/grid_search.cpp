// SPDX-License-Identifier: MIT
#include "formats/grid_search.hpp"

#include <array>
#include <climits>

#include "formats/grid_points.hpp"

namespace skn_core::codec::grid {

namespace {

// Packed levels are below this: 0xAAAA (every level 2) is the largest key a
// quantizer forms.
constexpr size_t kKeys = 0xAAAA + 1;
// Levels differ by at most 2 per element: squared distances are 0 .. 8 * 4.
constexpr int kMaxDistance = 32;

bool all_levels_below_3(uint32_t u) {
    for (int j = 0; j < 8; ++j)
        if (((u >> (2 * j)) & 3) == 3) return false;
    return true;
}

}  // namespace

SearchTables::SearchTables(std::span<const uint16_t> points, int nearest_distances)
    : points_(points), map_(kKeys, INT32_MIN) {
    std::vector<bool> on_lattice(kKeys, false);
    for (size_t i = 0; i < points.size(); ++i) {
        map_[points[i]] = int32_t(i);
        on_lattice[points[i]] = true;
    }
    // Only keys with every level in {0, 1, 2} are ever looked up (codes are
    // clamped to 0..2 before packing); the rest keep INT32_MIN and are never
    // read.
    std::array<std::vector<uint16_t>, kMaxDistance + 1> by_distance;
    for (uint32_t u = 0; u < kKeys; ++u) {
        if (on_lattice[u] || !all_levels_below_3(u)) continue;
        for (auto& b : by_distance) b.clear();
        for (size_t i = 0; i < points.size(); ++i) {
            int d2 = 0;
            for (int j = 0; j < 8; ++j) {
                const int diff = level_of(points[i], j) - level_of(uint16_t(u), j);
                d2 += diff * diff;
            }
            by_distance[size_t(d2)].push_back(uint16_t(i));  // i ascending within a distance
        }
        const size_t at = neighbours_.size();
        neighbours_.push_back(0);
        int distances = 0;
        for (const auto& b : by_distance) {
            if (b.empty()) continue;
            neighbours_.insert(neighbours_.end(), b.begin(), b.end());
            if (++distances == nearest_distances) break;
        }
        neighbours_[at] = uint16_t(neighbours_.size() - at - 1);
        map_[u] = -int32_t(at) - 1;
    }
    neighbours_.shrink_to_fit();
}

const SearchTables& search_tables(Lattice lattice) {
    // How many distinct nearest distances a candidate's list spans is the
    // reference's choice per format (iq2xs_init_impl's nwant).
    switch (lattice) {
        case Lattice::Iq2xxs: {
            static const SearchTables t(kIq2xxsPoints, 2);
            return t;
        }
        case Lattice::Iq2xs: {
            static const SearchTables t(kIq2xsPoints, 2);
            return t;
        }
        case Lattice::Iq2s: {
            static const SearchTables t(kIq2sPoints, 1);
            return t;
        }
        case Lattice::Iq1s: break;
    }
    static const SearchTables t(kIq1sPoints, 3);
    return t;
}

}  // namespace skn_core::codec::grid
