// SPDX-License-Identifier: MIT
// I2_S and I2_S_G64: BitNet b1.58's ternary format in the two byte layouts
// bitnet.cpp writes under the same GGUF type 36. I2_S is its x86 layout (the
// default ACT_PARALLEL build: 128 elements per 32-byte block), I2_S_G64 its
// arm64 NEON layout (64 elements per 16-byte block). Both hold four 2-bit
// codes per byte, the block's four quarters sharing each byte, first quarter
// on top, and ONE float32 scale for the whole tensor after the last block, in
// a 32-byte trailer; the quantizer is the same. See docs/formats/ternary.md.
#include <cmath>
#include <cstring>
#include <vector>

#include "formats/codecs.hpp"
#include "formats/half.hpp"
#include "runtime/row_ranges.hpp"

namespace skn_core::codec {

namespace {

constexpr int kTrailerBytes = 32;  // float32 scale, then 28 bytes nobody reads

// Code -> multiple of the scale. bitnet.cpp's dequantizer maps the unused
// code 3 to 0, not to +2 as (code - 1) would.
constexpr float kCodeValue[4] = {-1.0f, 0.0f, 1.0f, 0.0f};

// The two layouts differ only in the block width. A block of kQuarter * 4
// elements is kQuarter bytes: element i sits in byte i % kQuarter at bits
// 7-2g..6-2g, g = i / kQuarter.
template <int kQuarter>
struct Layout {
    static constexpr int kBlockElems = 4 * kQuarter;
    static constexpr int kBlockBytes = kQuarter;
    static int byte_of(int i) { return i % kQuarter; }
    static int shift_of(int i) { return 6 - 2 * (i / kQuarter); }
};
using X86 = Layout<32>;    // I2_S
using Arm64 = Layout<16>;  // I2_S_G64

// bitnet.cpp's code of one weight. It is a sign quantizer: it expects weights
// that are already ternary {-s, 0, +s} (BitNet's training-time weight_quant
// ran before export) and maps anything within 1e-6 of zero to 0, everything
// else to its sign. The comparison is in double, as bitnet.cpp does it.
uint8_t ternary_code(float w) {
    const double v = double(w);
    if (std::fabs(v) < 1e-6) return 1;
    return v > 0.0 ? 2 : 0;
}

template <typename L>
void decode(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst) {
    constexpr int kBlockElems = L::kBlockElems, kBlockBytes = L::kBlockBytes;
    for (int64_t b = 0; b < nblocks; ++b, src += kBlockBytes, dst += kBlockElems)
        for (int i = 0; i < kBlockElems; ++i)
            dst[i] = tensor_scale * kCodeValue[(src[L::byte_of(i)] >> L::shift_of(i)) & 3];
}

template <typename L>
void quantize_tensor(const float* src, int64_t rows, int64_t n_per_row, uint8_t* dst, const RowRanges& ranges) {
    constexpr int kBlockElems = L::kBlockElems, kBlockBytes = L::kBlockBytes;
    // Every row is whole blocks (n_per_row is a multiple of the block), so each
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
                block[L::byte_of(i)] = uint8_t(block[L::byte_of(i)] | (ternary_code(x[i]) << L::shift_of(i)));
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

// Every code of `elements` moved from layout From to layout To (whole
// 128-element spans: both block widths divide 128), then the trailer.
template <typename From, typename To>
void change_layout(const uint8_t* src, int64_t elements, uint8_t* dst) {
    constexpr int kSpan = 128;
    const uint8_t* s = src;
    uint8_t* d = dst;
    for (int64_t e = 0; e < elements; e += kSpan, s += kSpan / 4, d += kSpan / 4) {
        std::memset(d, 0, kSpan / 4);
        for (int i = 0; i < kSpan; ++i) {
            const int from_block = i / From::kBlockElems, from_i = i % From::kBlockElems;
            const int to_block = i / To::kBlockElems, to_i = i % To::kBlockElems;
            const int code = (s[from_block * From::kBlockBytes + From::byte_of(from_i)] >> From::shift_of(from_i)) & 3;
            uint8_t& out = d[to_block * To::kBlockBytes + To::byte_of(to_i)];
            out = uint8_t(out | (code << To::shift_of(to_i)));
        }
    }
    std::memcpy(dst + elements / 4, src + elements / 4, kTrailerBytes);
}

}  // namespace

void i2_s_to_g64(const uint8_t* src, int64_t elements, uint8_t* dst) { change_layout<X86, Arm64>(src, elements, dst); }
void i2_s_g64_to_i2_s(const uint8_t* src, int64_t elements, uint8_t* dst) {
    change_layout<Arm64, X86>(src, elements, dst);
}

void decode_i2_s(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst) {
    decode<X86>(src, nblocks, tensor_scale, dst);
}
void decode_i2_s_g64(const uint8_t* src, int64_t nblocks, float tensor_scale, float* dst) {
    decode<Arm64>(src, nblocks, tensor_scale, dst);
}

void quantize_tensor_i2_s(const float* src, int64_t rows, int64_t n_per_row, uint8_t* dst, const RowRanges& ranges) {
    quantize_tensor<X86>(src, rows, n_per_row, dst, ranges);
}
void quantize_tensor_i2_s_g64(const float* src, int64_t rows, int64_t n_per_row, uint8_t* dst,
                              const RowRanges& ranges) {
    quantize_tensor<Arm64>(src, rows, n_per_row, dst, ranges);
}

float read_tensor_scale_i2_s(const uint8_t* trailer) { return load_f32le(trailer); }

}  // namespace skn_core::codec
