// SPDX-License-Identifier: MIT
// Armv8.6 i8mm fast-precision kernels for the 32-element legacy formats
// (q32/kernels.hpp). SMMLA multiplies a 2x8 int8 matrix by an 8x2 one into
// four int32 lanes, so one instruction gives two weight rows x two activation
// rows their exact partial sums over an 8-element k-slice; four of them cover
// a block. The integer sums are the ones SDOT gives and the float steps are
// q32/body.inc's, so y is the contract's bits, as the other tiers'.
//
// Scheme: activation rows go in pairs. Per chunk of blocks, each pair's
// blocks are interleaved once into SMMLA's operand order (slice s of row a,
// then slice s of row b; 64 bytes a block, one LD1 of four registers in the
// tile) next to their d_x (and the _1 formats' d_x * sum of codes). A tile is
// 4 output rows x 1 or 2 pairs: each weight block of the 4 rows is decoded
// once (the format structs of q32/body.inc), its two row pairs zipped into
// slices (ZIP1/ZIP2 of 64-bit halves) and multiplied with every pair; UZP1 /
// UZP2 turn the two row pairs' results into one 4-row vector per activation
// row. An odd last activation row runs the neondotprod kernel (n = 1 is
// GEMV, where SMMLA would spend half its lanes on a missing row).
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "formats/facts.hpp"
#include "kernels/aarch64/common/activation_pairs.hpp"
#include "kernels/aarch64/q32/kernels.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

// q32/body.inc's n = 1 tile is not used here, but the body needs its dot.
inline int32x4_t dot32(int8x16_t w0, int8x16_t w1, int8x16_t x0, int8x16_t x1) {
    return vdotq_s32(vdotq_s32(vdupq_n_s32(0), w0, x0), w1, x1);
}

}  // namespace

#define SKN_Q32_WITHOUT_ONE_ROW  // n = 1 runs the neondotprod kernel
#include "kernels/aarch64/q32/body.inc"

namespace {

constexpr int kPairs = 2;        // activation row pairs per tile
constexpr int kPairChunk = 128;  // blocks per interleaved activation chunk
constexpr int kSliceBytes = 64;  // one block of a pair in SMMLA order

// Activation pairs of one chunk: interleaved codes, d_x and (_1 formats)
// d_x * float(sum of codes), rounded once as the contract says.
// The scales of a block's activation rows sit side by side (one load per
// block in the tile).
struct PairChunk {
    alignas(16) int8_t x[kPairs][kPairChunk][kSliceBytes];
    alignas(16) float dx[kPairChunk][2 * kPairs];
    alignas(16) float mx[kPairChunk][2 * kPairs];
};

inline int8x16_t zip_lo(int8x16_t a, int8x16_t b) {
    return vreinterpretq_s8_s64(vzip1q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

inline int8x16_t zip_hi(int8x16_t a, int8x16_t b) {
    return vreinterpretq_s8_s64(vzip2q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

template <bool kQ81>
void interleave(const PackedArgs& a, int64_t i0, int P, int64_t k0, int64_t nb, PairChunk& ch) {
    constexpr int kAB = kQ81 ? 36 : 34, kAQ = kQ81 ? 4 : 2;
    for (int p = 0; p < P; ++p) {
        const uint8_t* ra = a.xq + size_t(i0 + 2 * p) * a.xq_stride + size_t(k0) * kAB;
        const uint8_t* rb = ra + a.xq_stride;
        for (int64_t b = 0; b < nb; ++b) {
            const uint8_t* blk[2] = {ra + b * kAB, rb + b * kAB};
            int8x16_t q[2][2];
            for (int h = 0; h < 2; ++h) {
                q[h][0] = vld1q_s8(reinterpret_cast<const int8_t*>(blk[h] + kAQ));
                q[h][1] = vld1q_s8(reinterpret_cast<const int8_t*>(blk[h] + kAQ + 16));
                const float d = fp16_to_float(load_u16(blk[h]));
                ch.dx[b][2 * p + h] = d;
                if constexpr (kQ81)
                    ch.mx[b][2 * p + h] = d * float(int(vaddlvq_s8(q[h][0])) + int(vaddlvq_s8(q[h][1])));
            }
            int8x16x4_t s;
            s.val[0] = zip_lo(q[0][0], q[1][0]);
            s.val[1] = zip_hi(q[0][0], q[1][0]);
            s.val[2] = zip_lo(q[0][1], q[1][1]);
            s.val[3] = zip_hi(q[0][1], q[1][1]);
            vst1q_s8_x4(ch.x[p][b], s);
        }
    }
    // A one-pair tile loads all four lanes of dx / mx and uses two: the
    // others get defined values, not stale or uninitialized stack.
    for (int c = 2 * P; c < 2 * kPairs; ++c)
        for (int64_t b = 0; b < nb; ++b) ch.dx[b][c] = ch.mx[b][c] = 0.0f;
}

// A weight row pair's block as SMMLA's four k-slices (slice s of row 0, then
// slice s of row 1). Any format: decode both rows, zip the 64-bit halves.
template <class F>
struct PairDecode {
    static inline void run(const uint8_t* p0, const uint8_t* p1, int8x16_t (&s)[4]) {
        int8x16_t a0, a1, b0, b1;
        F::decode(p0, a0, a1);
        F::decode(p1, b0, b1);
        s[0] = zip_lo(a0, b0);
        s[1] = zip_hi(a0, b0);
        s[2] = zip_lo(a1, b1);
        s[3] = zip_hi(a1, b1);
    }
};

// The nibble formats (16 bytes: element j in the low nibble of byte j, 16 + j
// in the high one): zipping the raw bytes first gives the slices in half the
// zips (low nibbles of each half: elements 0..7 / 8..15; high: 16..23 / 24..31).
template <int kQs, class Value>
inline void nibble_pair(const uint8_t* p0, const uint8_t* p1, int8x16_t (&s)[4], Value value) {
    const uint8x16_t q0 = vld1q_u8(p0 + kQs), q1 = vld1q_u8(p1 + kQs);
    const uint8x16_t lo = vreinterpretq_u8_u64(vzip1q_u64(vreinterpretq_u64_u8(q0), vreinterpretq_u64_u8(q1)));
    const uint8x16_t hi = vreinterpretq_u8_u64(vzip2q_u64(vreinterpretq_u64_u8(q0), vreinterpretq_u64_u8(q1)));
    const uint8x16_t m = vdupq_n_u8(0x0F);
    s[0] = value(vandq_u8(lo, m));
    s[1] = value(vandq_u8(hi, m));
    s[2] = value(vshrq_n_u8(lo, 4));
    s[3] = value(vshrq_n_u8(hi, 4));
}

template <>
struct PairDecode<Q4_0F> {
    static inline void run(const uint8_t* p0, const uint8_t* p1, int8x16_t (&s)[4]) {
        nibble_pair<2>(p0, p1, s, [](uint8x16_t v) { return minus(v, 8); });
    }
};

template <>
struct PairDecode<Q4_1F> {
    static inline void run(const uint8_t* p0, const uint8_t* p1, int8x16_t (&s)[4]) {
        nibble_pair<4>(p0, p1, s, [](uint8x16_t v) { return vreinterpretq_s8_u8(v); });
    }
};

template <>
struct PairDecode<Iq4NlF> {
    static inline void run(const uint8_t* p0, const uint8_t* p1, int8x16_t (&s)[4]) {
        const int8x16_t levels = vld1q_s8(kIq4nlValues);
        nibble_pair<2>(p0, p1, s, [levels](uint8x16_t v) { return vqtbl1q_s8(levels, v); });
    }
};

template <>
struct PairDecode<Mxfp4F> {
    static inline void run(const uint8_t* p0, const uint8_t* p1, int8x16_t (&s)[4]) {
        const int8x16_t grid = vld1q_s8(kE2M1Doubled);
        nibble_pair<1>(p0, p1, s, [grid](uint8x16_t v) { return vqtbl1q_s8(grid, v); });
    }
};

// Four fp16 values at byte offset kAt of the four rows' blocks, as floats.
template <int kAt>
inline float32x4_t fp16_lanes(const uint8_t* const (&p)[kRows]) {
    uint16x4_t h = vld1_dup_u16(reinterpret_cast<const uint16_t*>(p[0] + kAt));
    h = vld1_lane_u16(reinterpret_cast<const uint16_t*>(p[1] + kAt), h, 1);
    h = vld1_lane_u16(reinterpret_cast<const uint16_t*>(p[2] + kAt), h, 2);
    h = vld1_lane_u16(reinterpret_cast<const uint16_t*>(p[3] + kAt), h, 3);
    return vcvt_f32_f16(vreinterpret_f16_u16(h));
}

// d_w of the four rows: MXFP4's own rule, else the fp16 at the block's start.
template <class F>
inline float32x4_t weight_scales(const uint8_t* const (&p)[kRows]) {
    if constexpr (std::is_base_of_v<Fp16Scale, F>)
        return fp16_lanes<0>(p);
    else
        return F::scales(p);
}

// Four SMMLA: lanes (row a . act a, row a . act b, row b . act a, row b . act b)
// of one weight row pair's block against one activation pair's.
inline int32x4_t mmla_block(const int8x16_t (&w)[4], const int8x16x4_t& x) {
    int32x4_t s = vmmlaq_s32(vdupq_n_s32(0), w[0], x.val[0]);
    s = vmmlaq_s32(s, w[1], x.val[1]);
    s = vmmlaq_s32(s, w[2], x.val[2]);
    return vmmlaq_s32(s, w[3], x.val[3]);
}

// One block of the 4 weight rows against activation pair q (rows 2q, 2q + 1;
// lane c of dx / mx), in the contract's float steps. q is a template
// argument because the lane of FMUL / FMLA by element is an immediate.
template <class F, int q>
inline void pair_step(const int8x16_t (&w01)[4], const int8x16_t (&w23)[4], const int8_t* xs, float32x4_t dw,
                      float32x4_t dx, float32x4_t mw, float32x4_t mx, float32x4_t& acc_a, float32x4_t& acc_b) {
    const int8x16x4_t x = vld1q_s8_x4(xs);
    const int32x4_t m01 = mmla_block(w01, x), m23 = mmla_block(w23, x);
    // lane r: row r's exact block dot with activation row 2q / 2q + 1
    const int32x4_t sa = vuzp1q_s32(m01, m23), sb = vuzp2q_s32(m01, m23);
    acc_a = vfmaq_f32(acc_a, vmulq_laneq_f32(dw, dx, 2 * q), vcvtq_f32_s32(sa));
    if constexpr (F::kQ81) acc_a = vfmaq_laneq_f32(acc_a, mw, mx, 2 * q);
    acc_b = vfmaq_f32(acc_b, vmulq_laneq_f32(dw, dx, 2 * q + 1), vcvtq_f32_s32(sb));
    if constexpr (F::kQ81) acc_b = vfmaq_laneq_f32(acc_b, mw, mx, 2 * q + 1);
}

// One tile over blocks k0 .. k0 + nb - 1 of output rows o .. o + R - 1 and
// activation rows i0 .. i0 + 2P - 1.
template <class F, int P>
[[gnu::noinline]] void pair_tile(const PackedArgs& a, int64_t o, int R, int64_t i0, int64_t k0, int64_t nb, const PairChunk& ch) {
    constexpr int C = 2 * P;
    const bool first = k0 == 0, last = k0 + nb == a.bpr;
    float32x4_t acc[C];
    for (int c = 0; c < C; ++c) {
        float part[kRows] = {0.0f, 0.0f, 0.0f, 0.0f};
        if (!first)
            for (int r = 0; r < R; ++r) part[r] = a.y[(i0 + c) * a.y_stride + o + r];
        acc[c] = vld1q_f32(part);
    }
    const uint8_t* p[kRows];
    for (int r = 0; r < kRows; ++r) p[r] = a.w + (o + (r < R ? r : 0)) * a.so + k0 * a.sb;
    const int64_t sb = a.sb;
    for (int64_t b = 0; b < nb; ++b) {
        int8x16_t w01[4], w23[4];
        PairDecode<F>::run(p[0], p[1], w01);
        PairDecode<F>::run(p[2], p[3], w23);
        const float32x4_t dw = weight_scales<F>(p);
        float32x4_t mw = vdupq_n_f32(0.0f);
        if constexpr (F::kQ81) mw = fp16_lanes<2>(p);
        const float32x4_t dx = vld1q_f32(ch.dx[b]);
        float32x4_t mx = vdupq_n_f32(0.0f);
        if constexpr (F::kQ81) mx = vld1q_f32(ch.mx[b]);
        pair_step<F, 0>(w01, w23, ch.x[0][b], dw, dx, mw, mx, acc[0], acc[1]);
        if constexpr (P == 2) pair_step<F, 1>(w01, w23, ch.x[1][b], dw, dx, mw, mx, acc[2], acc[3]);
        for (int r = 0; r < kRows; ++r) p[r] += sb;
    }
    for (int c = 0; c < C; ++c) {
        float v[kRows];
        vst1q_f32(v, acc[c]);
        float* yrow = a.y + (i0 + c) * a.y_stride + o;
        for (int r = 0; r < R; ++r) yrow[r] = last && a.bias != nullptr ? v[r] + a.bias[o + r] : v[r];
    }
}

// kSingle: the format's neondotprod kernel, for an odd last activation row.
template <class F, Q32Fn kSingle>
void run_pairs(const PackedArgs& a, int64_t o0, int64_t o1) {
    PairChunk ch;
    run_activation_pairs<kRows, kPairs, kPairChunk>(
        a, o0, o1, [&](int64_t i0, int P, int64_t k0, int64_t nb) { interleave<F::kQ81>(a, i0, P, k0, nb, ch); },
        [&](int P, int64_t o, int R, int64_t i0, int64_t k0, int64_t nb) {
            if (P == 2)
                pair_tile<F, 2>(a, o, R, i0, k0, nb, ch);
            else
                pair_tile<F, 1>(a, o, R, i0, k0, nb, ch);
        },
        kSingle);
}

}  // namespace

#define SKN_Q32_I8MM_DEFINE(name, F, single) \
    void name(const PackedArgs& a, int64_t o0, int64_t o1) { run_pairs<F, single>(a, o0, o1); }

SKN_Q32_I8MM_DEFINE(q32_q4_0_q8_0_neoni8mm, Q4_0F, q32_q4_0_q8_0_neondotprod)
SKN_Q32_I8MM_DEFINE(q32_q8_0_q8_0_neoni8mm, Q8_0F, q32_q8_0_q8_0_neondotprod)
SKN_Q32_I8MM_DEFINE(q32_iq4_nl_q8_0_neoni8mm, Iq4NlF, q32_iq4_nl_q8_0_neondotprod)
SKN_Q32_I8MM_DEFINE(q32_mxfp4_q8_0_neoni8mm, Mxfp4F, q32_mxfp4_q8_0_neondotprod)
SKN_Q32_I8MM_DEFINE(q32_q5_0_q8_0_neoni8mm, Q5_0F, q32_q5_0_q8_0_neondotprod)
SKN_Q32_I8MM_DEFINE(q32_q4_1_q8_1_neoni8mm, Q4_1F, q32_q4_1_q8_1_neondotprod)
SKN_Q32_I8MM_DEFINE(q32_q5_1_q8_1_neoni8mm, Q5_1F, q32_q5_1_q8_1_neondotprod)

}  // namespace skn_core::kernels::aarch64
