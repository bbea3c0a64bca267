// SPDX-License-Identifier: MIT
#include "formats/grid_iq3_search.hpp"

#include <algorithm>
#include <cfloat>
#include <span>

#include "formats/grid_iq3_tables.hpp"

namespace skn_core::codec {
namespace {

constexpr int kQuadruples = 4096;  // 8 levels ^ 4 elements

Iq3Search build(std::span<const uint16_t> coords, int rings) {
    const int grid_size = int(coords.size());
    Iq3Search s;
    s.points.resize(size_t(4 * grid_size));
    for (int k = 0; k < grid_size; ++k)
        for (int i = 0; i < 4; ++i) s.points[size_t(4 * k + i)] = int8_t(2 * iq3_coord_level(coords[size_t(k)], i) + 1);
    s.index_of.assign(kQuadruples, -1);
    for (int k = 0; k < grid_size; ++k) s.index_of[coords[size_t(k)]] = k;

    s.first.assign(kQuadruples, 0);
    s.count.assign(kQuadruples, 0);
    struct Candidate {
        int d2;
        int index;
    };
    std::vector<Candidate> by_distance(size_t(grid_size), Candidate{});
    for (int u = 0; u < kQuadruples; ++u) {
        if (s.index_of[size_t(u)] >= 0) continue;
        for (int j = 0; j < grid_size; ++j) {
            int d2 = 0;
            for (int i = 0; i < 4; ++i) {
                const int diff = s.points[size_t(4 * j + i)] - (2 * iq3_coord_level(uint16_t(u), i) + 1);
                d2 += diff * diff;
            }
            by_distance[size_t(j)] = {d2, j};
        }
        // (distance, index) is a total order, so this is the reference's qsort order.
        std::sort(by_distance.begin(), by_distance.end(),
                  [](const Candidate& a, const Candidate& b) { return a.d2 != b.d2 ? a.d2 < b.d2 : a.index < b.index; });
        s.first[size_t(u)] = uint32_t(s.neighbours.size());
        int ring_d2 = by_distance[0].d2;
        int have = 1;
        for (const Candidate& c : by_distance) {
            if (c.d2 > ring_d2) {
                if (have == rings) break;
                ring_d2 = c.d2;
                ++have;
            }
            s.neighbours.push_back(uint16_t(c.index));
        }
        s.count[size_t(u)] = uint16_t(s.neighbours.size() - s.first[size_t(u)]);
    }
    s.neighbours.shrink_to_fit();
    return s;
}

}  // namespace

const Iq3Search& iq3xxs_search() {
    static const Iq3Search s = build(kIq3xxsCoords, 2);
    return s;
}

const Iq3Search& iq3s_search() {
    static const Iq3Search s = build(kIq3sCoords, 3);
    return s;
}

// Float operations in the reference's order: d2 accumulates w * diff * diff
// left to right over the 4 elements; only a strictly smaller d2 replaces.
int iq3_best_neighbour(const Iq3Search& s, uint16_t u, const float* x, const float* w, float scale, int8_t* L) {
    float best_d2 = FLT_MAX;
    int best = -1;
    const uint16_t* nb = s.neighbours.data() + s.first[u];
    for (int j = 0; j < int(s.count[u]); ++j) {
        const int8_t* pg = &s.points[size_t(4 * nb[j])];
        float d2 = 0;
        for (int i = 0; i < 4; ++i) {
            const float q = float(pg[i]);
            const float diff = scale * q - x[i];
            d2 += w[i] * diff * diff;
        }
        if (d2 < best_d2) {
            best_d2 = d2;
            best = nb[j];
        }
    }
    // With a NaN distance nothing is ever smaller than FLT_MAX; the reference
    // then aborts. Fall back to the first (nearest) neighbour instead.
    if (best < 0) best = nb[0];
    const int8_t* pg = &s.points[size_t(4 * best)];
    for (int i = 0; i < 4; ++i) L[i] = int8_t((pg[i] - 1) / 2);
    return best;
}

}  // namespace skn_core::codec
