// SPDX-License-Identifier: MIT
// Dense matmul_wt kernels, Armv8.0 NEON (dense/kernels.hpp has the
// accumulation order; docs/kernels/dense.md the tiling). Plain NEON has no
// f16 arithmetic, only conversion: 16-bit operands are widened to float
// exactly (F16: FCVTL / FCVTL2; BF16: USHLL by 16) and multiplied with FMLA.
// The same operations run for a (row, activation) pair whatever tile it sits
// in, so the split of the output rows does not change y.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "kernels/aarch64/dense/kernels.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

constexpr int kChunk = 8;  // elements per step: two 4-lane vectors

// Eight elements as floats: elements 0..3 and 4..7.
struct V8 {
    float32x4_t lo, hi;
};

inline V8 f32x8(const uint8_t* p) {
    const float* f = reinterpret_cast<const float*>(p);
    return V8{vld1q_f32(f), vld1q_f32(f + 4)};
}
inline V8 f16x8(const uint8_t* p) {
    const float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(reinterpret_cast<const uint16_t*>(p)));
    return V8{vcvt_f32_f16(vget_low_f16(h)), vcvt_high_f32_f16(h)};
}
inline V8 bf16x8(const uint8_t* p) {
    const uint16x8_t h = vld1q_u16(reinterpret_cast<const uint16_t*>(p));
    return V8{vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16)), vreinterpretq_f32_u32(vshll_high_n_u16(h, 16))};
}

// Policies: WB / XB bytes per weight / activation element, lw / lx widen a chunk.
template <int kWB, V8 (*W)(const uint8_t*), int kXB, V8 (*X)(const uint8_t*)>
struct Pair {
    static constexpr int WB = kWB, XB = kXB;
    static V8 lw(const uint8_t* p) { return W(p); }
    static V8 lx(const uint8_t* p) { return X(p); }
};
using Bf16Bf16 = Pair<2, bf16x8, 2, bf16x8>;
using F16F16 = Pair<2, f16x8, 2, f16x8>;
using Bf16F32 = Pair<2, bf16x8, 4, f32x8>;
using F16F32 = Pair<2, f16x8, 4, f32x8>;
using F32F32 = Pair<4, f32x8, 4, f32x8>;

template <class P, int R, int N>
inline void chunk(V8 (&acc)[R][N], const uint8_t* const (&w)[R], const uint8_t* const (&x)[N]) {
    V8 wv[R];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) wv[r] = P::lw(w[r]);
#pragma GCC unroll 4
    for (int i = 0; i < N; ++i) {
        const V8 xv = P::lx(x[i]);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) {
            acc[r][i].lo = vfmaq_f32(acc[r][i].lo, wv[r].lo, xv.lo);
            acc[r][i].hi = vfmaq_f32(acc[r][i].hi, wv[r].hi, xv.hi);
        }
    }
}

// (s0 + s1) + (s2 + s3) of s = lo + hi: two explicit FADDP steps.
inline float reduce(V8 v) {
    const float32x4_t s = vaddq_f32(v.lo, v.hi);
    return vpadds_f32(vget_low_f32(vpaddq_f32(s, s)));
}

// R weight rows x N activation rows from (o0, i0).
template <class P, int R, int N>
void tile(const DenseArgs& a, int64_t o0, int64_t i0) {
    V8 acc[R][N];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int i = 0; i < N; ++i) acc[r][i] = V8{vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
    const uint8_t* wr[R];
    const uint8_t* xr[N];
    for (int r = 0; r < R; ++r) wr[r] = a.w + (o0 + r) * a.row_stride;
    for (int i = 0; i < N; ++i) xr[i] = a.x + size_t(i0 + i) * a.x_stride;
    int64_t k = 0;
    for (; k + kChunk <= a.in; k += kChunk) {
        const uint8_t* w[R];
        const uint8_t* x[N];
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) w[r] = wr[r] + k * P::WB;
#pragma GCC unroll 4
        for (int i = 0; i < N; ++i) x[i] = xr[i] + k * P::XB;
        chunk<P, R, N>(acc, w, x);
    }
    if (k < a.in) {  // the last, partial chunk, zero-padded on both sides
        const int64_t rem = a.in - k;
        alignas(16) uint8_t wb[R][kChunk * P::WB], xb[N][kChunk * P::XB];
        const uint8_t* w[R];
        const uint8_t* x[N];
        for (int r = 0; r < R; ++r) {
            for (int64_t j = 0; j < kChunk * P::WB; ++j) wb[r][j] = j < rem * P::WB ? wr[r][k * P::WB + j] : 0;
            w[r] = wb[r];
        }
        for (int i = 0; i < N; ++i) {
            for (int64_t j = 0; j < kChunk * P::XB; ++j) xb[i][j] = j < rem * P::XB ? xr[i][k * P::XB + j] : 0;
            x[i] = xb[i];
        }
        chunk<P, R, N>(acc, w, x);
    }
    for (int r = 0; r < R; ++r)
        for (int i = 0; i < N; ++i) {
            const float v = reduce(acc[r][i]);
            const int64_t o = o0 + r;
            a.y[(i0 + i) * a.y_stride + o] = a.bias != nullptr ? v + a.bias[o] : v;
        }
}

// 4 weight rows x 2 activation rows: 16 accumulators, 8 weight and 2
// activation vectors in the 32 registers.
template <class P, int R>
void row_tile(const DenseArgs& a, int64_t o0) {
    int64_t i = 0;
    for (; i + 2 <= a.n; i += 2) tile<P, R, 2>(a, o0, i);
    if (i < a.n) tile<P, R, 1>(a, o0, i);
}

template <class P>
void run(const DenseArgs& a, int64_t out_begin, int64_t out_end) {
    int64_t o = out_begin;
    for (; o + 4 <= out_end; o += 4) row_tile<P, 4>(a, o);
    for (; o < out_end; ++o) row_tile<P, 1>(a, o);
}

}  // namespace

void dense_bf16_bf16_neon(const DenseArgs& a, int64_t ob, int64_t oe) { run<Bf16Bf16>(a, ob, oe); }
void dense_f16_f16_neon(const DenseArgs& a, int64_t ob, int64_t oe) { run<F16F16>(a, ob, oe); }
void dense_bf16_f32_neon(const DenseArgs& a, int64_t ob, int64_t oe) { run<Bf16F32>(a, ob, oe); }
void dense_f16_f32_neon(const DenseArgs& a, int64_t ob, int64_t oe) { run<F16F32>(a, ob, oe); }
void dense_f32_f32_neon(const DenseArgs& a, int64_t ob, int64_t oe) { run<F32F32>(a, ob, oe); }

}  // namespace skn_core::kernels::aarch64
