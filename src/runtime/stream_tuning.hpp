// SPDX-License-Identifier: MIT
// How the few-activation-row (memory-bound) kernels stream a weight from
// memory. It is a property of a core's memory system, not of an ISA tier:
// the same AVX-512 instructions want different software prefetch on Zen 4
// than on Zen 5 or Intel cores, so it is chosen per core family from
// measurements (docs/kernels/q32.md, "Streaming by core"), once per process,
// and can be forced with SKN_STREAM for benchmarks. It never changes a
// result: only where prefetches go and how big the tasks are.
#pragma once

#include <cstdint>

namespace skn_core {

enum class StreamMode : int32_t {
    // The q32 INPUT_BLOCK_MAJOR few-row walk prefetches into L1 two tiles
    // ahead, in tasks of 512 rows (Q8_0 256).
    Near = 0,
    // It prefetches into L2 eight tiles ahead (the q32/avx512vnni_far.cpp
    // kernels), in tasks of up to 2048 rows.
    Far = 1,
};

// The mode of this process: SKN_STREAM (auto|near|far) if set to near or
// far, else the CPU's (Far on AMD family 0x19 with AVX-512, i.e. Zen 4;
// Near elsewhere). Read once.
StreamMode stream_mode();

// Whether the AVX-512 q32 kernels' few-row ROW_MAJOR walk over Q8_0 (34-byte
// blocks: ~8.5 cache lines per block step) prefetches the next row tile in
// software, as it does for every other q32 format (rows of one 128-block
// chunk; longer rows never do). AMD: yes (Zen 5, 2026-12-04: n = 1 0.79-0.81x,
// n = 8 0.67-0.70x the time at [14336, 4096], [4096, 4096], [1024, 4096]);
// elsewhere no (the Intel guest of 2026-12-02, where the hardware prefetcher
// alone streamed n = 1 1.01-1.09x and n = 8 1.10x as fast). docs/kernels/q32.md, "Memory order".
// Read once; SKN_STREAM does not move it. The q32 registration passes it to
// the kernel (PackedArgs::row_tile_ahead).
bool q8_0_row_major_ahead();


}  // namespace skn_core
