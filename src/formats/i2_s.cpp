// SPDX-License-Identifier: MIT
// I2_S: BitNet b1.58's ternary format as bitnet.cpp writes it on x86 (its
// default ACT_PARALLEL build). 128 elements per 32-byte block, four 2-bit
// codes per byte, and ONE float32 scale for the whole tensor after the last
// block, in a 32-byte trailer. See docs/formats/ternary.md for the sources.
#include <cmath>
#include <cstring>
#include <vector>

#include "formats/codecs.hpp"
#include "formats/half.hpp"
#include "runtime/row_ranges.hpp"

namespace skn_core::codec {

namespace {

constexpr int kBlockElems = 128;
constexpr int kBlockBytes = 32;
constexpr int kTrailerBytes = 32;  // float32 scale, then 28 bytes nobody reads

// Code -> multiple of the scale. bitnet.cpp's dequantizer maps the unused
// code 3 to 0, not to +2 as (code - 1) would.
constexpr float kCodeValue[4] = {-1.0f, 0.0f, 1.0f, 0.0f};

// Element i of a block sits in byte i % 32 at bits 7-2g..6-2g, g = i / 32:
// the four 32-element quarters of a block share each byte, first quarter on top.
int code_shift(int i) { return 6 - 2 * (i / 32); }

// bitnet.cpp's code of one weight. It is a sign quantizer: it expects weights
// that are already ternary {-s, 0, +s} (BitNet's training-time weight_quant
// ran before export) and maps anything within 1e-6 of zero to 0, everything
// else to its sign. The comparison is in double, as bitnet.cpp does it.
uint8_t ternary_code(float w) {
    const double v = double(w);
    if (std::fabs(v) < 1e-6) return 1;
    return v > 0.0 ? 2 : 0;
}

}  // namespace

void decode_i2_s(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += kBlockBytes, dst += kBlockElems)
        for (int i = 0; i < kBlockElems; ++i)
            dst[i] = tensor_scale * kCodeValue[(src[i % 32] >> code_shift(i)) & 3];
}

void quantize_tensor_i2_s(const float* src, int64_t rows, int64_t n_per_row, uint8_t* dst, const RowRanges& ranges) {
    // Every row is whole blocks (n_per_row is a multiple of 128), so each
    // range encodes its own rows. The scale is max |w| over the whole tensor
    // (taken in double, exact for floats), so ternary input {-s, 0, +s}
    // decodes back to itself; a maximum does not depend on the order it is
    // taken in, so the per-range maxima reduce to the same value however the
    // rows were split.
    std::vector<double> range_max(size_t(ranges.count()), 0.0);
    const int64_t blocks_per_row = n_per_row / kBlockElems;
    ranges.run([&](int64_t range, int64_t first, int64_t end) {
        const float* x = src + first * n_per_row;
        const int64_t n = (end - first) * n_per_row;
        // A compare-and-keep loop, not std::fmax: Debian 12's aarch64 g++ 12
        // dies with an internal compiler error (vect_transform_reduction)
        // vectorizing the fmax reduction at -O3. Same result as fmax: a NaN
        // compares false and is skipped, as fmax skips it; amax never is NaN.
        double amax = 0.0;
        for (int64_t i = 0; i < n; ++i) {
            const double a = std::fabs(double(x[i]));
            if (a > amax) amax = a;
        }
        range_max[size_t(range)] = amax;
        uint8_t* block = dst + first * blocks_per_row * kBlockBytes;
        for (int64_t b = 0; b < (end - first) * blocks_per_row; ++b, x += kBlockElems, block += kBlockBytes) {
            std::memset(block, 0, kBlockBytes);
            for (int i = 0; i < kBlockElems; ++i)
                block[i % 32] = uint8_t(block[i % 32] | (ternary_code(x[i]) << code_shift(i)));
        }
    });
    double amax = 0.0;
    for (const double m : range_max)
        if (m > amax) amax = m;
    // bitnet.cpp leaves the 28 bytes after the scale unwritten; zero them so
    // our output is deterministic (its Python writers zero them too).
    uint8_t* trailer = dst + rows * blocks_per_row * kBlockBytes;
    std::memset(trailer, 0, kTrailerBytes);
    store_f32le(trailer, float(amax));
}

float read_tensor_scale_i2_s(const uint8_t* trailer) { return load_f32le(trailer); }

}  // namespace skn_core::codec
