// SPDX-License-Identifier: MIT
// Armv8.6 i8mm fast-precision kernels for Q4_K, Q5_K and Q6_K
// (superblock/kernels.hpp). SMMLA multiplies a 2x8 int8 matrix by an 8x2 one
// into four int32 lanes: two weight rows x two activation rows, exact
// partial sums over an 8-element k-slice. The integers S and M are the ones
// SDOT gives and the float steps are superblock/body.inc's, so y is the
// contract's bits, as the other tiers'.
//
// Scheme: activation rows go in pairs. Per chunk of super-blocks, each
// pair's Q8_K codes are interleaved once into SMMLA's operand order (slice s
// of row a, then slice s of row b), 32 elements of every pair together, so
// one post-indexed pointer walks them. A tile is 4 output rows x 1 or 2
// pairs, walked one weight row pair at a time and, within it, 32 elements
// at a time in element order: the row pair's bytes come in by single-
// structure LD4 of 8-byte lanes (one row per lane: the slices without a
// ZIP), are decoded to 4 slices, and go through SMMLA into running sums
// that are never cleared within the super-block; per sub-block one MLA by
// the Abel differences of the rows' scales ([c r0, c r1, c r0, c r1], one
// DUP of a 64-bit lane) gives S. So only one row pair's group of slices, the
// group's activations and the sums are live: few spills, where a whole decoded
// super-block of two rows used to fill the register file. ZIP1 / ZIP2 of
// the 64-bit halves turn the two row pairs' S into one 4-row vector per
// activation row; M takes the 4 rows' mins transposed against sums of pairs
// of the Q8_K bsums. Between chunks the partial sums wait in y, stored and
// reloaded unchanged. An odd last activation row runs the neondotprod
// kernel. Built with -fno-schedule-insns: GCC's pre-allocation scheduler
// hoisted the activation loads of a whole super-block and spilled them (in
// an earlier version of the tile).
//
// Exactness: a running sum's lane is at most 256 * 63 * 128 in magnitude,
// times an Abel difference of at most 255: below 2^31; int32 wraps, so the
// sum of those products is S exactly, and S stays below 2^28.
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "formats/facts.hpp"
#include "kernels/aarch64/common/activation_pairs.hpp"
#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

// superblock/body.inc's n = 1 tile is not used here, but the body needs its dot.
inline int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) { return vdotq_s32(acc, w, x); }

}  // namespace

#include "kernels/aarch64/superblock/body.inc"
#include "kernels/aarch64/superblock/pair_chunk.inc"

namespace {

// The walks' per-group lambdas must inline like the SKN_KQ_INLINE helpers.
#define SKN_KQ_LAMBDA __attribute__((always_inline))

// 32 bytes of two weight rows as four 8-byte slices, one row per lane:
// register s = (bytes 8s..8s+7 of row 0, the same of row 1). Single-
// structure LD4 of 8-byte lanes: no ZIP. Both pointers advance by 32.
SKN_KQ_INLINE uint8x16x4_t ld4_rows(const uint8_t*& p0, const uint8_t*& p1) {
    uint8x16x4_t v;
    asm("ld4 {%S0.d, %T0.d, %U0.d, %V0.d}[0], [%1], #32\n\t"
        "ld4 {%S0.d, %T0.d, %U0.d, %V0.d}[1], [%2], #32"
        : "=&w"(v), "+r"(p0), "+r"(p1)
        : "m"(*Bytes<32>(p0)), "m"(*Bytes<32>(p1)));
    return v;
}

// The running sums of a row pair against P activation pairs (lanes: act a .
// row 0, act a . row 1, act b . row 0, act b . row 1) are never cleared
// within a super-block: with R_j the sums after sub-block j and c_j =
// sc_j - sc_{j+1} (the last c_j = sc_j), S = sum_j sc_j (R_j - R_{j-1}) =
// sum_j c_j R_j (exact: int32 wraps and S fits). So each sub-block costs
// one MLA by its row pair's c (one DUP of a 64-bit lane), no clearing.
// z[k]: int32 lanes (c_a 2k, c_b 2k, c_a 2k+1, c_b 2k+1) from the rows'
// int16 scales (lanes 0..7: sub-blocks 0..7, 8..15 in hi).
template <int kSub>
SKN_KQ_INLINE void abel_pair_scales(int16x8_t lo_a, int16x8_t hi_a, int16x8_t lo_b, int16x8_t hi_b, int32x4_t (&z)[8]) {
    const int16x8_t zero = vdupq_n_s16(0);
    const auto widen = [&](int16x8_t ca, int16x8_t cb, int at) {
        const int16x8_t l = vzip1q_s16(ca, cb), h = vzip2q_s16(ca, cb);
        z[at] = vmovl_s16(vget_low_s16(l));
        z[at + 1] = vmovl_high_s16(l);
        z[at + 2] = vmovl_s16(vget_low_s16(h));
        z[at + 3] = vmovl_high_s16(h);
    };
    if constexpr (kSub == 32) {  // 8 sub-blocks, hi unused
        widen(vsubq_s16(lo_a, vextq_s16(lo_a, zero, 1)), vsubq_s16(lo_b, vextq_s16(lo_b, zero, 1)), 0);
    } else {
        widen(vsubq_s16(lo_a, vextq_s16(lo_a, hi_a, 1)), vsubq_s16(lo_b, vextq_s16(lo_b, hi_b, 1)), 0);
        widen(vsubq_s16(hi_a, vextq_s16(hi_a, zero, 1)), vsubq_s16(hi_b, vextq_s16(hi_b, zero, 1)), 4);
    }
}

template <int j>
SKN_KQ_INLINE int32x4_t sub_scale(const int32x4_t (&z)[8]) {
    return vreinterpretq_s32_s64(vdupq_laneq_s64(vreinterpretq_s64_s32(z[j / 2]), j % 2));
}

// One 32-element group of a row pair (slices w) against P activation pairs
// read at x: 4 SMMLA per pair into the running sums, then the scale steps
// (one per 32-element sub-block, two for 16-element ones: sub-blocks j0, j0 + 1).
template <int P, int kSub, int j0>
SKN_KQ_INLINE void group_step(const int8x16_t (&w)[4], const int8_t*& x, const int32x4_t (&z)[8],
                              int32x4_t (&r)[kPairs], int32x4_t (&s)[kPairs]) {
    int8x16_t xa[kPairs][4];
    ld_act<P>(x, xa);
    if constexpr (kSub == 32) {
#pragma GCC unroll 4
        for (int t = 0; t < 4; ++t)
#pragma GCC unroll 2
            for (int q = 0; q < P; ++q) r[q] = vmmlaq_s32(r[q], xa[q][t], w[t]);
        const int32x4_t c = sub_scale<j0>(z);
#pragma GCC unroll 2
        for (int q = 0; q < P; ++q) s[q] = vmlaq_s32(s[q], r[q], c);
    } else {
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
#pragma GCC unroll 2
            for (int t = 2 * h; t < 2 * h + 2; ++t)
#pragma GCC unroll 2
                for (int q = 0; q < P; ++q) r[q] = vmmlaq_s32(r[q], xa[q][t], w[t]);
            const int32x4_t c = sub_scale<j0>(z);
            const int32x4_t c1 = sub_scale<j0 + 1>(z);
#pragma GCC unroll 2
            for (int q = 0; q < P; ++q) s[q] = vmlaq_s32(s[q], r[q], h == 0 ? c : c1);
        }
    }
}

// Per format, a row pair's walk through a super-block: head(p) -> int16
// scales (lo: sub-blocks 0..7, hi: 8..15) and for affine formats the mins
// (each twice, per 16 elements, as superblock/body.inc); walk<P>(p0, p1, x, z,
// r, s) -> the row pair's values, group by group in element order, through
// group_step.
struct I8Q4K {
    using F = Q4K;
    SKN_KQ_INLINE static void head(const uint8_t* p, int16x8_t& lo, int16x8_t& hi, int16x8_t (&mn)[2]) {
        uint8_t sm[16];
        scales_mins_k4(p + 4, sm);
        lo = vreinterpretq_s16_u16(vmovl_u8(vld1_u8(sm)));
        hi = vdupq_n_s16(0);
        mins_twice(sm + 8, mn);
    }
    template <int P>
    SKN_KQ_INLINE static void walk(const uint8_t* p0, const uint8_t* p1, const int8_t* x, const int32x4_t (&z)[8],
                                   int32x4_t (&r)[kPairs], int32x4_t (&s)[kPairs]) {
        const uint8x16_t m = vdupq_n_u8(0x0F);
        const uint8_t *q0 = p0 + 16, *q1 = p1 + 16;
        // Group g of 64 elements: bytes 32g..32g+31, low nibbles sub-block 2g, high 2g + 1.
        [&]<int... g>(std::integer_sequence<int, g...>) SKN_KQ_LAMBDA {
            ([&]() SKN_KQ_LAMBDA {
                const uint8x16x4_t raw = ld4_rows(q0, q1);
                int8x16_t w[4];
                for (int t = 0; t < 4; ++t) w[t] = vreinterpretq_s8_u8(vandq_u8(raw.val[t], m));
                group_step<P, 32, 2 * g>(w, x, z, r, s);
                for (int t = 0; t < 4; ++t) w[t] = vreinterpretq_s8_u8(vshrq_n_u8(raw.val[t], 4));
                group_step<P, 32, 2 * g + 1>(w, x, z, r, s);
            }(), ...);
        }(std::make_integer_sequence<int, 4>());
    }
};

// v << k (k > 0), v >> -k (k < 0), per byte, k an immediate.
template <int k>
SKN_KQ_INLINE uint8x16_t shift_n(uint8x16_t v) {
    if constexpr (k > 0)
        return vshlq_n_u8(v, k);
    else if constexpr (k < 0)
        return vshrq_n_u8(v, -k);
    else
        return v;
}

struct I8Q5K {
    using F = Q5K;
    SKN_KQ_INLINE static void head(const uint8_t* p, int16x8_t& lo, int16x8_t& hi, int16x8_t (&mn)[2]) {
        I8Q4K::head(p, lo, hi, mn);
    }
    template <int P>
    SKN_KQ_INLINE static void walk(const uint8_t* p0, const uint8_t* p1, const int8_t* x, const int32x4_t (&z)[8],
                                   int32x4_t (&r)[kPairs], int32x4_t (&s)[kPairs]) {
        const uint8x16_t m = vdupq_n_u8(0x0F), bit4 = vdupq_n_u8(0x10);
        const uint8_t *h0 = p0 + 16, *h1 = p1 + 16;
        const uint8x16x4_t qh = ld4_rows(h0, h1);  // h0, h1 now at qs
        // Element 64g + l: bit 4 is bit 2g of qh[l % 32] (low nibbles), 2g + 1 (high).
        [&]<int... g>(std::integer_sequence<int, g...>) SKN_KQ_LAMBDA {
            ([&]() SKN_KQ_LAMBDA {
                const uint8x16x4_t raw = ld4_rows(h0, h1);
                int8x16_t w[4];
                for (int t = 0; t < 4; ++t)
                    w[t] = vreinterpretq_s8_u8(vbslq_u8(bit4, shift_n<4 - 2 * g>(qh.val[t]), vandq_u8(raw.val[t], m)));
                group_step<P, 32, 2 * g>(w, x, z, r, s);
                for (int t = 0; t < 4; ++t)
                    w[t] = vreinterpretq_s8_u8(vbslq_u8(bit4, shift_n<3 - 2 * g>(qh.val[t]), vshrq_n_u8(raw.val[t], 4)));
                group_step<P, 32, 2 * g + 1>(w, x, z, r, s);
            }(), ...);
        }(std::make_integer_sequence<int, 4>());
    }
};

// Q6_K: element 128h + 32k + l is 4 low bits from ql[64h + 32(k & 1) + l]
// (low nibble for k < 2, high for k >= 2) and bits 4..5 from bits 2k, 2k + 1
// of qh[32h + l], minus 32. Built as ((v ^ 32) << 2) in a byte, then SSHR
// by 2: the sign-extended 6-bit v ^ 32 is v - 32. The qh bits go to bits
// 6..7 (qh ^ 0xAA flips each field's high bit once per register), the
// nibble to bits 2..5 by SLI / SRI, whose other bits the shift drops.
struct I8Q6K {
    using F = Q6K;
    SKN_KQ_INLINE static void head(const uint8_t* p, int16x8_t& lo, int16x8_t& hi, int16x8_t (&)[2]) {
        const int8x16_t sc = vld1q_s8(reinterpret_cast<const int8_t*>(p + 192));
        lo = vmovl_s8(vget_low_s8(sc));
        hi = vmovl_high_s8(sc);
    }
    template <int k>
    SKN_KQ_INLINE static int8x16_t value(uint8x16_t ql, uint8x16_t qhx) {
        uint8x16_t v;
        if constexpr (k < 2)  // low nibble to bits 2..5 (bits 6..7 then overwritten), qh bits 2k, 2k+1 to 6..7
            v = vsliq_n_u8(vshlq_n_u8(ql, 2), k == 0 ? qhx : vshrq_n_u8(qhx, 2), 6);
        else  // qh bits to 6..7, the high nibble shifted in below them (bits 0..1 dropped later)
            v = vsriq_n_u8(shift_n<6 - 2 * k>(qhx), ql, 2);
        return vshrq_n_s8(vreinterpretq_s8_u8(v), 2);
    }
    template <int P>
    SKN_KQ_INLINE static void walk(const uint8_t* p0, const uint8_t* p1, const int8_t* x, const int32x4_t (&z)[8],
                                   int32x4_t (&r)[kPairs], int32x4_t (&s)[kPairs]) {
        const uint8x16_t flip = vdupq_n_u8(0xAA);
        const uint8_t *l0 = p0, *l1 = p1, *h0 = p0 + 128, *h1 = p1 + 128;
        [&]<int... h>(std::integer_sequence<int, h...>) SKN_KQ_LAMBDA {
            ([&]() SKN_KQ_LAMBDA {
                uint8x16x4_t qh = ld4_rows(h0, h1);
                for (int t = 0; t < 4; ++t) qh.val[t] = veorq_u8(qh.val[t], flip);
                const uint8_t *m0 = l0 + 32, *m1 = l1 + 32;
                const uint8x16x4_t qa = ld4_rows(l0, l1);  // k = 0 (low nibbles), 2 (high)
                const uint8x16x4_t qb = ld4_rows(m0, m1);  // k = 1, 3
                int8x16_t w[4];
                for (int t = 0; t < 4; ++t) w[t] = value<0>(qa.val[t], qh.val[t]);
                group_step<P, 16, 8 * h>(w, x, z, r, s);
                for (int t = 0; t < 4; ++t) w[t] = value<1>(qb.val[t], qh.val[t]);
                group_step<P, 16, 8 * h + 2>(w, x, z, r, s);
                for (int t = 0; t < 4; ++t) w[t] = value<2>(qa.val[t], qh.val[t]);
                group_step<P, 16, 8 * h + 4>(w, x, z, r, s);
                for (int t = 0; t < 4; ++t) w[t] = value<3>(qb.val[t], qh.val[t]);
                group_step<P, 16, 8 * h + 6>(w, x, z, r, s);
                l0 = m0, l1 = m1;
            }(), ...);
        }(std::make_integer_sequence<int, 2>());
    }
};

template <class F>
struct I8Of;
template <>
struct I8Of<Q4K> {
    using type = I8Q4K;
};
template <>
struct I8Of<Q5K> {
    using type = I8Q5K;
};
template <>
struct I8Of<Q6K> {
    using type = I8Q6K;
};

// S of a row pair (weight rows at p0, p1) against P activation pairs; and
// each row's mins.
template <class F, int P>
SKN_KQ_INLINE void pair_s(const uint8_t* p0, const uint8_t* p1, const int8_t* x, int32x4_t (&s)[kPairs],
                          int16x8_t (&mn0)[2], int16x8_t (&mn1)[2]) {
    using W = typename I8Of<F>::type;
    int32x4_t z[8];
    {
        int16x8_t lo0, hi0, lo1, hi1;
        W::head(p0, lo0, hi0, mn0);
        W::head(p1, lo1, hi1, mn1);
        abel_pair_scales<F::kSub>(lo0, hi0, lo1, hi1, z);
    }
    int32x4_t r[kPairs];
#pragma GCC unroll 2
    for (int q = 0; q < P; ++q) r[q] = s[q] = vdupq_n_s32(0);
    W::template walk<P>(p0, p1, x, z, r, s);
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
    // The partial sums of earlier chunks, and below the stores: one vector
    // per activation row for a full tile (this runs once per tile and chunk
    // of 4 super-blocks), lane by lane for a short one.
    float32x4_t acc[C];
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c) {
        const float* yrow = a.y + (i0 + c) * a.y_stride + o;
        if (first) {
            acc[c] = vdupq_n_f32(0.0f);
        } else if (R == kRows) {
            acc[c] = vld1q_f32(yrow);
        } else {
            float part[kRows] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int r = 0; r < R; ++r) part[r] = yrow[r];
            acc[c] = vld1q_f32(part);
        }
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
        const int8_t* xs = &ch.x[b][0][0][0];
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
    const bool add_bias = last && a.bias != nullptr;
#pragma GCC unroll 4
    for (int c = 0; c < C; ++c) {
        float* yrow = a.y + (i0 + c) * a.y_stride + o;
        if (R == kRows) {
            vst1q_f32(yrow, add_bias ? vaddq_f32(acc[c], vld1q_f32(a.bias + o)) : acc[c]);
        } else {
            float v[kRows];
            vst1q_f32(v, acc[c]);
            for (int r = 0; r < R; ++r) yrow[r] = add_bias ? v[r] + a.bias[o + r] : v[r];
        }
    }
}

// kSingle: the format's neondotprod kernel, for an odd last activation row.
template <class F, PackedKernelFn kSingle>
void run_pairs(const PackedArgs& a, int64_t o0, int64_t o1) {
    PairChunk ch;
    run_activation_pairs<kRows, kPairs, kSbChunk>(
        a, o0, o1, [&](int64_t i0, int P, int64_t k0, int64_t nb) { interleave(a, i0, P, k0, nb, ch); },
        [&](auto p, int64_t o, int R, int64_t i0, int64_t k0, int64_t nb) {
            pair_tile<F, decltype(p)::value>(a, o, R, i0, k0, nb, ch);
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
