// SPDX-License-Identifier: MIT
// What a packed-weight kernel reads, as a plain struct: the ISA translation
// units see only this (no library inline function is compiled with wider ISA
// flags), and the flag-free registration code fills it from MatmulArgs.
// Shared by the families whose kernels read packed blocks with integer
// activations: q32, superblock, grid, nvfp4 and low_bit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace skn_core {
struct MatmulArgs;
}

namespace skn_core::kernels::x86_64 {

struct PackedArgs {
    const uint8_t* w = nullptr;  // block (0, 0) of the weight
    int64_t so = 0, sb = 0;      // bytes between blocks (o, b) and (o + 1, b) / (o, b + 1)
    int64_t bpr = 0;             // weight blocks per row
    int64_t n = 0;               // activation rows
    const uint8_t* xq = nullptr; // quantized activation rows, xq_stride bytes apart
    size_t xq_stride = 0;
    const float* bias = nullptr;
    float* y = nullptr;
    int64_t y_stride = 0;
    float tensor_scale = 1.0f;   // per-tensor scale (I2_S), 1 otherwise
    // Stream tuning the registration chose for this kernel on this core
    // (runtime/stream_tuning.hpp), which kernel code may not read itself:
    // whether the few-row ROW_MAJOR walk prefetches the next row tile in
    // software (q32). Never changes a result.
    bool row_tile_ahead = true;
};

// Built without ISA flags (common/packed_args.cpp).
PackedArgs packed_args(const MatmulArgs& m);

}  // namespace skn_core::kernels::x86_64
