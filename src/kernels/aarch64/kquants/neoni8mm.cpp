// SPDX-License-Identifier: MIT
// Armv8.6 i8mm fast-precision kernels for Q4_K, Q5_K and Q6_K
// (kquants/kernels.hpp). SMMLA multiplies a 2x8 int8 matrix by an 8x2 one
// into four int32 lanes: two weight rows x two activation rows, exact
// partial sums over an 8-element k-slice. The integers S and M are the ones
// SDOT gives and the float steps are kquants/body.inc's, so y is the
// contract's bits, as the other tiers'.
//
// Scheme: activation rows go in pairs. Per chunk of super-blocks, each
// pair's Q8_K codes are interleaved once into SMMLA's operand order (slice s
// of row a, then slice s of row b). A tile is 4 output rows x 1 or 2 pairs:
// each weight block of the 4 rows is decoded once (kquants/body.inc's
// format structs), its two row pairs zipped into slices; per sub-block the
// SMMLA sums of an activation pair and a row pair ([a r0, a r1, b r0, b r1])
// are multiplied by the rows' scales ([sc r0, sc r1, sc r0, sc r1], one DUP
// of a 64-bit lane, one MLA) into S. ZIP1 / ZIP2 of the 64-bit halves turn
// the two row pairs' S into one 4-row vector per activation row; M takes
// the 4 rows' mins transposed against sums of pairs of the Q8_K bsums.
// Between chunks the partial sums wait in y, stored and reloaded unchanged.
// An odd last activation row runs the neondotprod kernel. Built with
// -fno-schedule-insns: GCC's pre-allocation scheduler hoists the activation
// loads of a whole super-block and spills them (4x the stack traffic).
//
// Exactness: a sub-block's SMMLA lane is at most 32 * 31 * 128 (Q4_K / Q5_K)
// or 16 * 32 * 128 (Q6_K) in magnitude, times a scale of at most 63 (128),
// summed over 8 (16) sub-blocks: below 2^28.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "formats/facts.hpp"
#include "kernels/aarch64/common/activation_pairs.hpp"
#include "kernels/aarch64/kquants/kernels.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

// kquants/body.inc's n = 1 tile is not used here, but the body needs its dot.
inline int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) { return vdotq_s32(acc, w, x); }

}  // namespace

#include "kernels/aarch64/kquants/body.inc"

namespace {

constexpr int kPairs = 2;           // activation row pairs per tile
// Small enough that the contract tests' 5-block rows cross a chunk boundary;
// the partial sums' store and reload per chunk is small next to 4 blocks.
constexpr int kSbChunk = 4;         // super-blocks per interleaved activation chunk
constexpr int kPairSbBytes = 512;   // one super-block of a pair in SMMLA order

struct PairChunk {
    alignas(16) int8_t x[kPairs][kSbChunk][kPairSbBytes];
};

inline int8x16_t zip_lo(int8x16_t a, int8x16_t b) {
    return vreinterpretq_s8_s64(vzip1q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

inline int8x16_t zip_hi(int8x16_t a, int8x16_t b) {
    return vreinterpretq_s8_s64(vzip2q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

void interleave(const PackedArgs& a, int64_t i0, int P, int64_t k0, int64_t nb, PairChunk& ch) {
    for (int p = 0; p < P; ++p) {
        const uint8_t* ra = a.xq + size_t(i0 + 2 * p) * a.xq_stride + size_t(k0) * kQ8kBytes + kQ8kQs;
        const uint8_t* rb = ra + a.xq_stride;
        for (int64_t b = 0; b < nb; ++b) {
            const int8_t* qa = reinterpret_cast<const int8_t*>(ra + b * kQ8kBytes);
            const int8_t* qb = reinterpret_cast<const int8_t*>(rb + b * kQ8kBytes);
            int8_t* dst = ch.x[p][b];
            for (int t = 0; t < 16; ++t) {
                const int8x16_t va = vld1q_s8(qa + 16 * t), vb = vld1q_s8(qb + 16 * t);
                vst1q_s8(dst + 32 * t, zip_lo(va, vb));
                vst1q_s8(dst + 32 * t + 16, zip_hi(va, vb));
            }
        }
    }
}

// The sub-block scales of a row pair as int32 lanes (a_j, b_j, a_j+1, b_j+1):
// z[g] holds sub-blocks 2g, 2g + 1; 4 vectors for 8 sub-blocks, 8 for 16.
template <class F>
SKN_KQ_INLINE void pair_scales(int8x16_t sc_a, int8x16_t sc_b, int32x4_t (&z)[8]) {
    const int8x16_t lo = vzip1q_s8(sc_a, sc_b);  // a0 b0 a1 b1 .. a7 b7
    const int16x8_t l0 = vmovl_s8(vget_low_s8(lo)), l1 = vmovl_high_s8(lo);
    z[0] = vmovl_s16(vget_low_s16(l0));
    z[1] = vmovl_high_s16(l0);
    z[2] = vmovl_s16(vget_low_s16(l1));
    z[3] = vmovl_high_s16(l1);
    if constexpr (F::kSub == 16) {
        const int8x16_t hi = vzip2q_s8(sc_a, sc_b);  // a8 b8 .. a15 b15
        const int16x8_t h0 = vmovl_s8(vget_low_s8(hi)), h1 = vmovl_high_s8(hi);
        z[4] = vmovl_s16(vget_low_s16(h0));
        z[5] = vmovl_high_s16(h0);
        z[6] = vmovl_s16(vget_low_s16(h1));
        z[7] = vmovl_high_s16(h1);
    }
}

// Sub-block j of a row pair against P activation pairs: SMMLA with the
// activations first gives lanes (act a . row a, act a . row b, act b . row a,
// act b . row b), so the rows' scales (a_j, b_j) repeat as one 64-bit lane.
// j is a template argument: DUP by element takes an immediate.
template <class F, int P, int j>
SKN_KQ_INLINE void pair_sub(const int8x16_t (&w)[32], const int32x4_t (&z)[8], const int8_t* const (&xs)[kPairs],
                            int32x4_t (&s)[kPairs]) {
    constexpr int kSlices = F::kSub / 8;
    const int32x4_t scale = vreinterpretq_s32_s64(vdupq_laneq_s64(vreinterpretq_s64_s32(z[j / 2]), j % 2));
#pragma GCC unroll 2
    for (int q = 0; q < P; ++q) {
        int32x4_t m = vdupq_n_s32(0);
#pragma GCC unroll 4
        for (int t = 0; t < kSlices; ++t) m = vmmlaq_s32(m, vld1q_s8(xs[q] + 16 * (j * kSlices + t)), w[j * kSlices + t]);
        s[q] = vmlaq_s32(s[q], m, scale);
    }
}

template <class F, int P, int... j>
SKN_KQ_INLINE void pair_subs(const int8x16_t (&w)[32], const int32x4_t (&z)[8], const int8_t* const (&xs)[kPairs],
                             int32x4_t (&s)[kPairs], std::integer_sequence<int, j...>) {
    (pair_sub<F, P, j>(w, z, xs, s), ...);
}

// S of a row pair (weight rows at p0, p1) against P activation pairs; and
// each row's mins.
template <class F, int P>
SKN_KQ_INLINE void pair_s(const uint8_t* p0, const uint8_t* p1, const int8_t* const (&xs)[kPairs],
                          int32x4_t (&s)[kPairs], int16x8_t (&mn0)[2], int16x8_t (&mn1)[2]) {
    int8x16_t w[32];
    int32x4_t z[8];
    {
        int8x16_t v0[16], v1[16], sc0, sc1;
        F::decode(p0, v0, sc0, mn0);
        F::decode(p1, v1, sc1, mn1);
#pragma GCC unroll 16
        for (int t = 0; t < 16; ++t) {
            w[2 * t] = zip_lo(v0[t], v1[t]);
            w[2 * t + 1] = zip_hi(v0[t], v1[t]);
        }
        pair_scales<F>(sc0, sc1, z);
    }
#pragma GCC unroll 2
    for (int q = 0; q < P; ++q) s[q] = vdupq_n_s32(0);
    pair_subs<F, P>(w, z, xs, s, std::make_integer_sequence<int, 256 / F::kSub>());
}

// The affine formats here (Q4_K, Q5_K) have 8 mins, one per 32-element
// sub-block (decode gives each twice, per 16 elements). mt[k] holds
// sub-blocks 2k and 2k + 1 of the 4 rows: lanes (j, r) = min of row r,
// sub-block j, in the order (2k, 0..3), (2k + 1, 0..3).
static_assert(Q4K::kSub == 32 && Q5K::kSub == 32);
SKN_KQ_INLINE void mins_by_sub_block(const int16x8_t (&mn)[kRows][2], int16x8_t (&mt)[4]) {
    int16x8_t u[kRows];
    for (int r = 0; r < kRows; ++r) u[r] = vuzp1q_s16(mn[r][0], mn[r][1]);
    const int16x8_t a[4] = {vzip1q_s16(u[0], u[1]), vzip2q_s16(u[0], u[1]), vzip1q_s16(u[2], u[3]),
                            vzip2q_s16(u[2], u[3])};
    const auto zip32 = [](int16x8_t x, int16x8_t y, bool high) {
        const int32x4_t x32 = vreinterpretq_s32_s16(x), y32 = vreinterpretq_s32_s16(y);
        return vreinterpretq_s16_s32(high ? vzip2q_s32(x32, y32) : vzip1q_s32(x32, y32));
    };
    mt[0] = zip32(a[0], a[2], false);
    mt[1] = zip32(a[0], a[2], true);
    mt[2] = zip32(a[1], a[3], false);
    mt[3] = zip32(a[1], a[3], true);
}

// M of the 4 rows against one Q8_K block: the mins times the sums of the
// activation codes over each sub-block (pairs of the block's 16 bsums), exact.
SKN_KQ_INLINE int32x4_t mins_dot(const int16x8_t (&mt)[4], const uint8_t* bsums) {
    const int16x8_t b0 = vld1q_s16(reinterpret_cast<const int16_t*>(bsums));
    const int16x8_t b1 = vld1q_s16(reinterpret_cast<const int16_t*>(bsums + 16));
    const int16x8_t bs = vpaddq_s16(b0, b1);  // lane j: sub-block j's sum, at most 32 * 128
    int32x4_t m = vmull_laneq_s16(vget_low_s16(mt[0]), bs, 0);
    m = vmlal_high_laneq_s16(m, mt[0], bs, 1);
    m = vmlal_laneq_s16(m, vget_low_s16(mt[1]), bs, 2);
    m = vmlal_high_laneq_s16(m, mt[1], bs, 3);
    m = vmlal_laneq_s16(m, vget_low_s16(mt[2]), bs, 4);
    m = vmlal_high_laneq_s16(m, mt[2], bs, 5);
    m = vmlal_laneq_s16(m, vget_low_s16(mt[3]), bs, 6);
    return vmlal_high_laneq_s16(m, mt[3], bs, 7);
}

// One tile over super-blocks k0 .. k0 + nb - 1 of output rows o .. o + R - 1
// and activation rows i0 .. i0 + 2P - 1.
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
    const uint8_t* xrow[C];
    for (int c = 0; c < C; ++c) xrow[c] = a.xq + size_t(i0 + c) * a.xq_stride + size_t(k0) * kQ8kBytes;
    for (int64_t b = 0; b < nb; ++b) {
        const uint8_t* p[kRows];
        uint16_t dh[kRows], mh[kRows];
        for (int r = 0; r < kRows; ++r) {
            p[r] = a.w + (o + (r < R ? r : 0)) * a.so + (k0 + b) * a.sb;
            dh[r] = load_u16(p[r] + F::kD);
            mh[r] = F::kAffine ? load_u16(p[r] + F::kDmin) : 0;
        }
        int32x4_t s[2][kPairs];  // row pair h, activation pair q
        int16x8_t mn[kRows][2];
        const int8_t* xs[kPairs] = {ch.x[0][b], ch.x[1][b]};
        pair_s<F, P>(p[0], p[1], xs, s[0], mn[0], mn[1]);
        pair_s<F, P>(p[2], p[3], xs, s[1], mn[2], mn[3]);
        const float32x4_t dw = fp16x4(dh);
        const float32x4_t dmw = fp16x4(mh);
        int16x8_t mt[4];
        if constexpr (F::kAffine) mins_by_sub_block(mn, mt);
        for (int q = 0; q < P; ++q) {
            // lane r: row r's S against activation row 2q (even) / 2q + 1 (odd)
            const int32x4_t sv[2] = {
                vreinterpretq_s32_s64(vzip1q_s64(vreinterpretq_s64_s32(s[0][q]), vreinterpretq_s64_s32(s[1][q]))),
                vreinterpretq_s32_s64(vzip2q_s64(vreinterpretq_s64_s32(s[0][q]), vreinterpretq_s64_s32(s[1][q])))};
            for (int e = 0; e < 2; ++e) {
                const int c = 2 * q + e;
                const uint8_t* xb = xrow[c] + b * kQ8kBytes;
                const float dx = load_f32(xb);
                const float32x4_t sf = vcvtq_f32_s32(sv[e]);
                const float32x4_t ddx = vmulq_n_f32(dw, dx);
                if constexpr (F::kAffine) {
                    const float32x4_t t = vmulq_f32(vcvtq_f32_s32(mins_dot(mt, xb + kQ8kBsums)), vmulq_n_f32(dmw, dx));
                    // fmsub(S, d * dx, t): one rounding of S * (d * dx) - t.
                    acc[c] = vaddq_f32(acc[c], vfmaq_f32(vnegq_f32(t), sf, ddx));
                } else {
                    acc[c] = vfmaq_f32(acc[c], sf, ddx);
                }
            }
        }
    }
    for (int c = 0; c < C; ++c) {
        float v[kRows];
        vst1q_f32(v, acc[c]);
        float* yrow = a.y + (i0 + c) * a.y_stride + o;
        for (int r = 0; r < R; ++r) yrow[r] = last && a.bias != nullptr ? v[r] + a.bias[o + r] : v[r];
    }
}

// kSingle: the format's neondotprod kernel, for an odd last activation row.
template <class F, KqFn kSingle>
void run_pairs(const PackedArgs& a, int64_t o0, int64_t o1) {
    PairChunk ch;
    run_activation_pairs<kRows, kPairs, kSbChunk>(
        a, o0, o1, [&](int64_t i0, int P, int64_t k0, int64_t nb) { interleave(a, i0, P, k0, nb, ch); },
        [&](int P, int64_t o, int R, int64_t i0, int64_t k0, int64_t nb) {
            if (P == 2)
                pair_tile<F, 2>(a, o, R, i0, k0, nb, ch);
            else
                pair_tile<F, 1>(a, o, R, i0, k0, nb, ch);
        },
        kSingle);
}

}  // namespace

#define SKN_KQ_I8MM_DEFINE(name, F, single) \
    void name(const PackedArgs& a, int64_t o0, int64_t o1) { run_pairs<F, single>(a, o0, o1); }

SKN_KQ_I8MM_DEFINE(kq_q4_k_q8_k_neoni8mm, Q4K, kq_q4_k_q8_k_neondotprod)
SKN_KQ_I8MM_DEFINE(kq_q5_k_q8_k_neoni8mm, Q5K, kq_q5_k_q8_k_neondotprod)
SKN_KQ_I8MM_DEFINE(kq_q6_k_q8_k_neoni8mm, Q6K, kq_q6_k_q8_k_neondotprod)

}  // namespace skn_core::kernels::aarch64
