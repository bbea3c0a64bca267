// SPDX-License-Identifier: MIT
// How the q32 and IQ4_XS_R8 bodies cut the input dimension into chunks of
// precomputed activation values (scale, offset sums): kEntries values per
// chunk, at [block * stride(C) + row] for a tile of C activation rows.
//
// Up to 4 activation rows (memory-bound) a chunk takes all the entries, so
// a one-row call walks a whole row of up to kEntries blocks and a ROW_MAJOR
// task streams its block rows one after the other (128-block chunks made a
// [4096, 14336] walk jump 121 KB after every 35 KB: Q4_0_R8 and MXFP4_R8
// took 1.3x the time, the canonical Q4_0 1.2x; Zen 5, 2026-12-05). From 5
// rows a chunk is kWideBlocks at the stride of the largest tile, as before:
// the chunk's activations then stay in L1 while every row tile reads them
// (Q4_0 at n = 8 took 1.14x the time with 256-block chunks, and 1.1x with
// the values packed at stride C).
#pragma once

#include <cstdint>

namespace skn_core::kernels::x86_64 {

template <int kEntries, int kMaxRows, int kWideBlocks>
struct ActivationChunk {
    static_assert(kWideBlocks * kMaxRows <= kEntries && kEntries % 4 == 0);
    static constexpr int kSize = kEntries;
    // Blocks per chunk for tiles of C activation rows.
    static constexpr int64_t blocks(int C) { return C <= 4 ? kEntries / C : kWideBlocks; }
    // Entries between one block's values and the next's.
    static constexpr int stride(int C) { return C <= 4 ? C : kMaxRows; }
};

}  // namespace skn_core::kernels::x86_64
