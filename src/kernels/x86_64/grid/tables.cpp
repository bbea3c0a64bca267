// SPDX-License-Identifier: MIT
// The grid kernels' byte tables, derived at compile time from the one copy
// of the lattice points (formats/grid_points.hpp). Built without ISA flags.
#include <cstdint>

#include "formats/grid_points.hpp"
#include "kernels/x86_64/grid/kernels.hpp"

namespace skn_core::kernels::x86_64 {
namespace {

// Each 2-bit level of a point mapped through `levels`, element j to byte j.
template <int N>
constexpr GridBytes<N> bytes_of(const uint16_t (&points)[N], const int (&levels)[3]) {
    GridBytes<N> t{};
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < 8; ++j) t.v[i] |= uint64_t(uint8_t(levels[(points[i] >> (2 * j)) & 3])) << (8 * j);
    return t;
}

constexpr int kIq2Levels[3] = {8, 25, 43};  // ggml-common.h's iq2*_grid bytes
constexpr int kIq1Levels8[3] = {-8, 0, 8};  // 8 * iq1s_grid's {-1, 0, +1}

}  // namespace

constinit const GridBytes<256> kGridIq2xxsBytes = bytes_of(codec::grid::kIq2xxsPoints, kIq2Levels);
constinit const GridBytes<512> kGridIq2xsBytes = bytes_of(codec::grid::kIq2xsPoints, kIq2Levels);
constinit const GridBytes<1024> kGridIq2sBytes = bytes_of(codec::grid::kIq2sPoints, kIq2Levels);
constinit const GridBytes<2048> kGridIq1Bytes8 = bytes_of(codec::grid::kIq1sPoints, kIq1Levels8);

}  // namespace skn_core::kernels::x86_64
