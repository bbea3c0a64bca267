// SPDX-License-Identifier: MIT
// Armv8.6 i8mm fast-precision kernels for the K-quant twins Q4_K_R4,
// Q5_K_R4 and Q6_K_R4 (byte positions: superblock/r4_formats.inc). SMMLA
// multiplies two weight rows by two activation rows over an 8-element
// slice; the integers S and M are the canonical ones and the float steps
// the contract's, so y equals the canonical SMMLA kernel's (and at n = 1,
// and for an odd last activation row, the canonical neondotprod kernel's,
// which the twin's neondotprod kernel already equals) bit for bit.
//
// Scheme: activation rows go in pairs, interleaved once per chunk of
// super-blocks into SMMLA's operand order (superblock/pair_chunk.inc, the
// canonical SMMLA kernel's), element slices 8t .. 8t + 7 of each 32-element
// sub-block. A tile is one block row (4 output rows: row pairs 0-1 and 2-3)
// x 1 or 2 activation pairs. A twin's 16-byte vector q of a sub-block holds
// in 32-bit lane k row k's bytes of 4 elements (superblock/r4_formats.inc);
// vectors q and q + 2 cover elements 16h .. 16h + 15 (h = q, low nibbles
// 16h + 0..7, high nibbles 16h + 8..15), so one ZIP1 (ZIP2) of their 32-bit
// lanes is rows 0, 1 (2, 3) of those 16 elements as two 2x8 operands, one
// per nibble plane, in the activation slices' element order. So a sub-block
// costs one LD1 of 64 bytes and 4 ZIP for the 4 rows, then the canonical
// per-slice value steps (the fifth or top bits are zipped the same way,
// pre-shifted so both 4-byte halves find theirs at the same bits). The
// running sums of SMMLA are never cleared within a super-block and take the
// Abel differences of the scales (c_j = sc_j - sc_{j+1}, the last c_j = sc_j)
// once per scale group: S = sum_j c_j R_j, as superblock/neoni8mm.cpp. The
// 4 rows' scales and mins are side by side in the block, so they unpack
// for all 4 rows at once.
//
// Exactness: a running sum's lane is at most 256 * 128 * 128 in magnitude
// (Q6_K_R4's operands are 4 (v - 32)), times an Abel difference of at most
// 255: below 2^31; int32 wraps, so the sum of those products is S exactly
// (4 S for Q6_K_R4, below 2^30).
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/aarch64/common/activation_pairs.hpp"
#include "kernels/aarch64/superblock/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

namespace skn_core::kernels::aarch64 {

#include "kernels/aarch64/superblock/r4_formats.inc"

namespace {

constexpr int64_t kQ8kBytes = kR4Q8k;
constexpr int kQ8kQs = 4;

}  // namespace

#include "kernels/aarch64/superblock/pair_chunk.inc"

namespace {

#define SKN_R4_INLINE [[gnu::always_inline]] inline

// 64 bytes at p as 4 vectors; p advances by 64.
SKN_R4_INLINE void ld1x4(const uint8_t*& p, uint8x16_t (&q)[4]) {
    uint8x16x4_t v;
    asm("ld1 {%S0.16b, %T0.16b, %U0.16b, %V0.16b}, [%1], #64" : "=w"(v), "+r"(p) : "m"(*Bytes<64>(p)));
    for (int t = 0; t < 4; ++t) q[t] = v.val[t];
}

// Rows 2 rp, 2 rp + 1 of two twin vectors a, b (32-bit lane k: row k's 4
// bytes): (row 2 rp: a's 4 bytes, b's 4 bytes; row 2 rp + 1: the same),
// SMMLA's 2x8 operand.
template <int rp>
SKN_R4_INLINE uint8x16_t rows_of(uint8x16_t a, uint8x16_t b) {
    const uint32x4_t x = vreinterpretq_u32_u8(a), y = vreinterpretq_u32_u8(b);
    return vreinterpretq_u8_u32(rp == 0 ? vzip1q_u32(x, y) : vzip2q_u32(x, y));
}

// The int16 Abel differences of one scale group's 4 rows (lanes 0..3 of d
// for group G even, 4..7 odd) as the int32 factor of each row pair's SMMLA
// lanes: c[rp] = (c of row 2 rp, of row 2 rp + 1, the same again).
template <int G>
SKN_R4_INLINE void pair_factors(int16x8_t d, int32x4_t (&c)[2]) {
    const int32x4_t u = vreinterpretq_s32_s16(d);
    const int16x8_t z = vreinterpretq_s16_s32(G % 2 == 0 ? vzip1q_s32(u, u) : vzip2q_s32(u, u));
    c[0] = vmovl_s16(vget_low_s16(z));
    c[1] = vmovl_high_s16(z);
}

// A sub-block's raw bytes: the 4 code vectors and, for Q5_K_R4 / Q6_K_R4,
// per half h the two vectors its fifth / top bits are zipped from.
struct RawSub {
    uint8x16_t q[4];
    uint8x16_t h[2][2];
};

// Per format: F (the r4_formats.inc struct), kFracBits (S comes as
// S * 2^kFracBits), Abel (the scales' differences
// for a block: factors<G>(c)), load<S>(p, codes, raw) -> the sub-block's raw
// bytes (codes walks the 64-byte code vectors), operands<rp, h>(raw, w0, w1)
// -> row pair rp's operands of slices 2h (w0) and 2h + 1 (w1).
struct K4Abel {
    int8x16_t lo, hi;  // sub-blocks 0..3, 4..7; byte 4 s + k: row k
    SKN_R4_INLINE explicit K4Abel(const uint8_t* p) {
        uint8x16_t a, b;
        K4ScalesR4::scale_bytes(p, a, b);
        lo = vreinterpretq_s8_u8(vsubq_u8(a, vextq_u8(a, b, 4)));
        hi = vreinterpretq_s8_u8(vsubq_u8(b, vextq_u8(b, vdupq_n_u8(0), 4)));
    }
    template <int S>
    SKN_R4_INLINE void factors(int32x4_t (&c)[2]) const {
        const int8x16_t v = S < 4 ? lo : hi;
        pair_factors<S>(S % 4 < 2 ? vmovl_s8(vget_low_s8(v)) : vmovl_high_s8(v), c);
    }
};

struct I8Q4KR4 {
    using F = Q4KR4;
    static constexpr int kFracBits = 0;
    using Abel = K4Abel;
    template <int S>
    SKN_R4_INLINE static void load(const uint8_t*, const uint8_t*& codes, RawSub& r) {
        ld1x4(codes, r.q);
    }
    template <int rp, int h>
    SKN_R4_INLINE static void operands(const RawSub& raw, int8x16_t& w0, int8x16_t& w1) {
        const uint8x16_t z = rows_of<rp>(raw.q[h], raw.q[h + 2]);
        w0 = vreinterpretq_s8_u8(vandq_u8(z, vdupq_n_u8(0x0F)));
        w1 = vreinterpretq_s8_u8(vshrq_n_u8(z, 4));
    }
};

// Q5_K_R4: the fifth bits of q's low / high nibbles are bits 2 kPerm[q],
// 2 kPerm[q] + 1 of the sub-block's qh byte: (0, 1) for q = 0, (2, 3) for
// q = 2, (4, 5) for q = 1, (6, 7) for q = 3. Zipped as (qh << 4, qh << 2)
// for h = 0 and (qh, qh >> 2) for h = 1, both halves' low-nibble bit is at
// bit 4 and the high-nibble bit at bit 5.
struct I8Q5KR4 {
    using F = Q5KR4;
    static constexpr int kFracBits = 0;
    using Abel = K4Abel;
    template <int S>
    SKN_R4_INLINE static void load(const uint8_t* p, const uint8_t*& codes, RawSub& r) {
        ld1x4(codes, r.q);
        const uint8x16_t qh = vld1q_u8(p + F::kHigh + 16 * S);
        r.h[0][0] = vshlq_n_u8(qh, 4);
        r.h[0][1] = vshlq_n_u8(qh, 2);
        r.h[1][0] = qh;
        r.h[1][1] = vshrq_n_u8(qh, 2);
    }
    template <int rp, int h>
    SKN_R4_INLINE static void operands(const RawSub& raw, int8x16_t& w0, int8x16_t& w1) {
        const uint8x16_t b4 = vdupq_n_u8(0x10);
        const uint8x16_t z = rows_of<rp>(raw.q[h], raw.q[h + 2]);
        const uint8x16_t zh = rows_of<rp>(raw.h[h][0], raw.h[h][1]);
        // Low: the nibble under the bit (BIT); high: the bit, then the nibble shifted in (SRI).
        w0 = vreinterpretq_s8_u8(vbslq_u8(vdupq_n_u8(0x0F), z, vandq_u8(zh, b4)));
        w1 = vreinterpretq_s8_u8(vsriq_n_u8(vandq_u8(vshrq_n_u8(zh, 1), b4), z, 4));
    }
};

// Q6_K_R4: groups of 16 elements, two per sub-block (h). The Abel
// differences of four groups come from two 16-byte loads (the groups and
// the next four, or the last four shifted in zeros) and SSUBL / SSUBL2. The top bits: qh vector h holds q = h's
// fields 0 (low nibbles), 1 (high) and q = h + 2's fields 2, 3, so it is
// zipped with itself shifted right by 4: both halves find theirs at fields
// 0, 1. The operands are 4 (v - 32): ((v ^ 32) << 2) in a byte (qh ^ 0xAA
// flips each field's high bit), the nibble placed by SHL (low) or SRI of
// the nibble's bits alone (high), the field by SLI / SHL. So S comes 4
// times too large (below 2^30) and the float step converts it with 2
// fraction bits: no shift back per value.
struct I8Q6KR4 {
    using F = Q6KR4;
    static constexpr int kFracBits = 2;
    struct Abel {
        const uint8_t* p;
        SKN_R4_INLINE explicit Abel(const uint8_t* block) : p(block + Q6KR4::kScales) {}
        template <int G>
        SKN_R4_INLINE void factors(int32x4_t (&c)[2]) const {
            constexpr int at = 16 * (G / 4);  // groups G & ~3 .. G | 3
            const int8x16_t sc = vld1q_s8(reinterpret_cast<const int8_t*>(p + at));
            int8x16_t next;
            if constexpr (G < 12)
                next = vld1q_s8(reinterpret_cast<const int8_t*>(p + at + 4));
            else  // the last group's successor is 0
                next = vextq_s8(sc, vdupq_n_s8(0), 4);
            pair_factors<G>(G % 4 < 2 ? vsubl_s8(vget_low_s8(sc), vget_low_s8(next)) : vsubl_high_s8(sc, next), c);
        }
    };
    // h[h]: qh vector h ^ 0xAA, and that >> 4.
    template <int S>
    SKN_R4_INLINE static void load(const uint8_t* p, const uint8_t*& codes, RawSub& r) {
        ld1x4(codes, r.q);
        const uint8x16_t flip = vdupq_n_u8(0xAA);
        for (int h = 0; h < 2; ++h) {
            r.h[h][0] = veorq_u8(vld1q_u8(p + F::kHigh + 32 * S + 16 * h), flip);
            r.h[h][1] = vshrq_n_u8(r.h[h][0], 4);
        }
    }
    template <int rp, int h>
    SKN_R4_INLINE static void operands(const RawSub& raw, int8x16_t& w0, int8x16_t& w1) {
        const uint8x16_t z = rows_of<rp>(raw.q[h], raw.q[h + 2]);
        const uint8x16_t zh = rows_of<rp>(raw.h[h][0], raw.h[h][1]);
        w0 = vreinterpretq_s8_u8(vsliq_n_u8(vshlq_n_u8(z, 2), zh, 6));
        w1 = vreinterpretq_s8_u8(vsriq_n_u8(vshlq_n_u8(zh, 4), vandq_u8(z, vdupq_n_u8(0xF0)), 2));
    }
};

// S of the block row's 4 rows against P activation pairs (x: the block's
// slices in the chunk): s[rp][q] lanes (pair q's row a . row 2 rp, a . 2 rp
// + 1, b . 2 rp, b . 2 rp + 1).
template <class D, int P>
SKN_R4_INLINE void block_s(const uint8_t* p, const int8_t* x, int32x4_t (&s)[2][kPairs]) {
    using F = typename D::F;
    const typename D::Abel abel(p);
    int32x4_t r[2][kPairs];
    for (int rp = 0; rp < 2; ++rp)
        for (int q = 0; q < P; ++q) r[rp][q] = s[rp][q] = vdupq_n_s32(0);
    const uint8_t* codes = p + F::kCodes;
    // After scale group G: s += c_G * R_G for both row pairs.
    const auto scale = [&](int rp, const int32x4_t (&c)[2]) SKN_TILE_INLINE {
        for (int q = 0; q < P; ++q) s[rp][q] = vmlaq_s32(s[rp][q], r[rp][q], c[rp]);
    };
    r4_each<8>([&](auto S) SKN_TILE_INLINE {
        int8x16_t xa[kPairs][4];
        ld_act<P>(x, xa);
        RawSub raw;
        D::template load<S>(p, codes, raw);
        r4_each<2>([&](auto h) SKN_TILE_INLINE {
            int32x4_t c[2];
            if constexpr (F::kGroups == 16) abel.template factors<2 * S + h>(c);
            r4_each<2>([&](auto rp) SKN_TILE_INLINE {
                int8x16_t w0, w1;
                D::template operands<rp, h>(raw, w0, w1);
                for (int q = 0; q < P; ++q) {
                    r[rp][q] = vmmlaq_s32(r[rp][q], xa[q][2 * h], w0);
                    r[rp][q] = vmmlaq_s32(r[rp][q], xa[q][2 * h + 1], w1);
                }
                if constexpr (F::kGroups == 16) scale(rp, c);
            });
        });
        if constexpr (F::kGroups == 8) {
            int32x4_t c[2];
            abel.template factors<S>(c);
            scale(0, c);
            scale(1, c);
        }
    });
}

// One tile: output rows o .. o + 3 (one block row) x activation rows
// i0 .. i0 + 2P - 1, super-blocks k0 .. k0 + nb - 1. Between chunks the
// partial sums wait in y, stored and reloaded unchanged.
template <class D, int P>
[[gnu::noinline]] void r4_pair_tile(const PackedArgs& a, int64_t o, int64_t i0, int64_t k0, int64_t nb,
                                    const PairChunk& ch) {
    using F = typename D::F;
    constexpr int C = 2 * P;
    const bool first = k0 == 0, last = k0 + nb == a.bpr;
    float32x4_t acc[C];
    for (int c = 0; c < C; ++c) acc[c] = first ? vdupq_n_f32(0.0f) : vld1q_f32(a.y + (i0 + c) * a.y_stride + o);
    const uint8_t* p = a.w + (o / 4) * a.so + k0 * a.sb;
    const uint8_t* xb = a.xq + size_t(i0) * a.xq_stride + size_t(k0) * kQ8kBytes;
    for (int64_t b = 0; b < nb; ++b, p += a.sb, xb += kQ8kBytes) {
        int32x4_t s[2][kPairs];
        block_s<D, P>(p, &ch.x[b][0][0][0], s);
        const float32x4_t dw = vcvt_f32_f16(vreinterpret_f16_u8(vld1_u8(p)));
        float32x4_t dmw = dw;
        int16x8_t mn[F::kGroups / 2];
        if constexpr (F::kAffine) {
            dmw = vcvt_f32_f16(vreinterpret_f16_u8(vld1_u8(p + 8)));
            F::mins(p, mn);
        }
        for (int q = 0; q < P; ++q) {
            const int64x2_t s0 = vreinterpretq_s64_s32(s[0][q]), s1 = vreinterpretq_s64_s32(s[1][q]);
            const int32x4_t sa = vreinterpretq_s32_s64(vzip1q_s64(s0, s1)), sb = vreinterpretq_s32_s64(vzip2q_s64(s0, s1));
            acc[2 * q] = r4_float_step<F, D::kFracBits>(acc[2 * q], sa, dw, dmw, mn, xb + size_t(2 * q) * a.xq_stride);
            acc[2 * q + 1] =
                r4_float_step<F, D::kFracBits>(acc[2 * q + 1], sb, dw, dmw, mn, xb + size_t(2 * q + 1) * a.xq_stride);
        }
    }
    const bool add_bias = last && a.bias != nullptr;
    for (int c = 0; c < C; ++c)
        vst1q_f32(a.y + (i0 + c) * a.y_stride + o, add_bias ? vaddq_f32(acc[c], vld1q_f32(a.bias + o)) : acc[c]);
}

// Output rows o0 .. o1 - 1, both multiples of 4 (whole block rows; the task
// splitter cuts at multiples of rows_per_task, 128). kSingle: the twin's
// neondotprod kernel, for n = 1 and an odd last activation row.
template <class D, PackedKernelFn kSingle>
void r4_run_pairs(const PackedArgs& a, int64_t o0, int64_t o1) {
    PairChunk ch;
    run_activation_pairs<4, kPairs, kSbChunk>(
        a, o0, o1, [&](int64_t i0, int P, int64_t k0, int64_t nb) { interleave(a, i0, P, k0, nb, ch); },
        [&](auto p, int64_t o, int, int64_t i0, int64_t k0, int64_t nb) {
            r4_pair_tile<D, decltype(p)::value>(a, o, i0, k0, nb, ch);
        },
        kSingle);
}

}  // namespace

void kq_q4_k_r4_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1) {
    r4_run_pairs<I8Q4KR4, kq_q4_k_r4_q8_k_neondotprod>(a, o0, o1);
}
void kq_q5_k_r4_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1) {
    r4_run_pairs<I8Q5KR4, kq_q5_k_r4_q8_k_neondotprod>(a, o0, o1);
}
void kq_q6_k_r4_q8_k_neoni8mm(const PackedArgs& a, int64_t o0, int64_t o1) {
    r4_run_pairs<I8Q6KR4, kq_q6_k_r4_q8_k_neondotprod>(a, o0, o1);
}

}  // namespace skn_core::kernels::aarch64
