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

// SKN_STREAM's value is auto, near, far or unset; false (with the value in
// *bad) otherwise. Contexts refuse to be created with a bad value.
bool stream_env_valid(const char** bad);

}  // namespace skn_core
