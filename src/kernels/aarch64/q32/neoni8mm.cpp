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
// then slice s of row b; 64 bytes a block) next to their d_x (and the _1
// formats' d_x * sum of codes), repeated in SMMLA's lane order, so one
// pointer walks a block of both pairs. A tile is 4 output rows x 1 or 2
// pairs: each weight block of the 4 rows is brought into two row pairs'
// slices once — Q8_0, Q4_0, IQ4_NL and MXFP4 by single-structure loads
// (LD4 / LD2 of 8-byte lanes, one row per lane, no ZIP), the others decoded
// (the format structs of q32/body.inc) and zipped — and multiplied with
// every pair, the activations first: lanes (act a . row 0, act a . row 1,
// act b . row 0, act b . row 1). The float steps run in that lane order
// (d_w as (row 0, row 1, row 0, row 1), d_x as (a, a, b, b)); ZIP1 / ZIP2 of
// the 64-bit halves give 4-row vectors once per tile. An odd last
// activation row runs the neondotprod kernel (n = 1 is GEMV, where SMMLA
// would spend half its lanes on a missing row).
#include <arm_neon.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "formats/facts.hpp"
#include "kernels/aarch64/common/activation_pairs.hpp"
#include "kernels/aarch64/q32/kernels.hpp"
#include "kernels/common/row_tiles.hpp"

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

// One block of the tile's activation pairs, as the tile loads it (one
// pointer, post-indexed): pair q's codes in SMMLA order (slice s of row 2q,
// then of row 2q + 1), its d_x and (_1 formats) d_x * float(sum of codes)
// in the lanes of an SMMLA result with the activations first: (row 2q,
// row 2q, row 2q + 1, row 2q + 1).
struct alignas(16) PairBlock {
    int8_t x[kPairs][kSliceBytes];
    float dx[kPairs][4];
    float mx[kPairs][4];
};
static_assert(sizeof(PairBlock) == 192);

struct PairChunk {
    PairBlock blk[kPairChunk];
};

inline int8x16_t zip_lo(int8x16_t a, int8x16_t b) {
    return vreinterpretq_s8_s64(vzip1q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

inline int8x16_t zip_hi(int8x16_t a, int8x16_t b) {
    return vreinterpretq_s8_s64(vzip2q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

inline float32x4_t zip_lo(float32x4_t a, float32x4_t b) {
    return vreinterpretq_f32_f64(vzip1q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
}

inline float32x4_t zip_hi(float32x4_t a, float32x4_t b) {
    return vreinterpretq_f32_f64(vzip2q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
}

template <bool kQ81>
void interleave(const PackedArgs& a, int64_t i0, int P, int64_t k0, int64_t nb, PairChunk& ch) {
    constexpr int kAB = kQ81 ? 36 : 34, kAQ = kQ81 ? 4 : 2;
    for (int p = 0; p < P; ++p) {
        const uint8_t* ra = a.xq + size_t(i0 + 2 * p) * a.xq_stride + size_t(k0) * kAB;
        const uint8_t* rb = ra + a.xq_stride;
        for (int64_t b = 0; b < nb; ++b) {
            const uint8_t* blk[2] = {ra + b * kAB, rb + b * kAB};
            PairBlock& out = ch.blk[b];
            int8x16_t q[2][2];
            for (int h = 0; h < 2; ++h) {
                q[h][0] = vld1q_s8(reinterpret_cast<const int8_t*>(blk[h] + kAQ));
                q[h][1] = vld1q_s8(reinterpret_cast<const int8_t*>(blk[h] + kAQ + 16));
                const float d = fp16_to_float(load_u16(blk[h]));
                out.dx[p][2 * h] = out.dx[p][2 * h + 1] = d;
                if constexpr (kQ81)
                    out.mx[p][2 * h] = out.mx[p][2 * h + 1] =
                        d * float(int(vaddlvq_s8(q[h][0])) + int(vaddlvq_s8(q[h][1])));
            }
            int8x16x4_t s;
            s.val[0] = zip_lo(q[0][0], q[1][0]);
            s.val[1] = zip_hi(q[0][0], q[1][0]);
            s.val[2] = zip_lo(q[0][1], q[1][1]);
            s.val[3] = zip_hi(q[0][1], q[1][1]);
            vst1q_s8_x4(out.x[p], s);
        }
    }
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

// Q5_0, Q4_1, Q5_1 (and any format without a Loads below): the four rows'
// blocks through PairDecode, their scales through the format struct.
template <class F>
struct DecodedRows {
    const uint8_t* p[kRows];
    int64_t sb;
    DecodedRows(const PackedArgs& a, int64_t o, int R, int64_t k0) : sb(a.sb) {
        for (int r = 0; r < kRows; ++r) p[r] = a.w + (o + (r < R ? r : 0)) * a.so + k0 * a.sb;
    }
    inline void next(int8x16_t (&w01)[4], int8x16_t (&w23)[4], float32x4_t& dw, float32x4_t& mw) {
        PairDecode<F>::run(p[0], p[1], w01);
        PairDecode<F>::run(p[2], p[3], w23);
        if constexpr (std::is_base_of_v<Fp16Scale, F>)
            dw = Fp16Scale::scales(p);
        else
            dw = F::scales(p);
        if constexpr (F::kQ81) {
            const uint16_t m[kRows] = {load_u16(p[0] + 2), load_u16(p[1] + 2), load_u16(p[2] + 2), load_u16(p[3] + 2)};
            mw = fp16x4(m);
        }
        for (int r = 0; r < kRows; ++r) p[r] += sb;
    }
};

// Q8_0, Q4_0, IQ4_NL, MXFP4: per row two post-indexed loads in one asm
// statement (GCC folds no pointer increment into a lane load's post-index):
// the scale into lane r of a scale vector (fp16: H lane r; E8M0: byte 4r,
// the other bytes staying zero), then the payload as single-structure loads
// of 8-byte lanes into lane r & 1 of the row pair's registers: LD4 of
// Q8_0's 32 codes gives the four slices (row 2h's slice s in lane 0 of
// register s, row 2h + 1's in lane 1), LD2 of 16 nibble bytes gives their
// low / high 8 bytes, whose nibbles are the slices. No ZIP; the pointer
// ends at the next block (step = block stride - head bytes).
template <int N>
using Bytes = const uint8_t (*)[N];

#define SKN_I8_HEAD_H(lane, p) "ld1 {%[h].h}[" lane "], [%[" p "]], #2\n\t"
#define SKN_I8_HEAD_B(lane, p) "ld1 {%[h].b}[" lane "], [%[" p "]], #1\n\t"
#define SKN_I8_LD4(t, lane, p) \
    "ld4 {%S[" t "].d, %T[" t "].d, %U[" t "].d, %V[" t "].d}[" lane "], [%[" p "]], %[st]\n\t"
#define SKN_I8_LD2(t, lane, p) "ld2 {%S[" t "].d, %T[" t "].d}[" lane "], [%[" p "]], %[st]\n\t"
#define SKN_I8_ROWS                                                                                          \
    [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), [p3] "+r"(p3)                                                \
        : [st] "r"(step), "m"(*Bytes<34>(p0)), "m"(*Bytes<34>(p1)), "m"(*Bytes<34>(p2)), "m"(*Bytes<34>(p3))

struct LoadRows {
    const uint8_t *p0, *p1, *p2, *p3;
    int64_t step;
    LoadRows(const PackedArgs& a, int64_t o, int R, int64_t k0, int head)
        : p0(a.w + o * a.so + k0 * a.sb),
          p1(a.w + (o + (R > 1 ? 1 : 0)) * a.so + k0 * a.sb),
          p2(a.w + (o + (R > 2 ? 2 : 0)) * a.so + k0 * a.sb),
          p3(a.w + (o + (R > 3 ? 3 : 0)) * a.so + k0 * a.sb),
          step(a.sb - head) {}
    inline void q8_0(uint16x4_t& h, int8x16x4_t& w01, int8x16x4_t& w23) {
        asm(SKN_I8_HEAD_H("0", "p0") SKN_I8_LD4("a", "0", "p0") SKN_I8_HEAD_H("1", "p1") SKN_I8_LD4("a", "1", "p1")
                SKN_I8_HEAD_H("2", "p2") SKN_I8_LD4("b", "0", "p2") SKN_I8_HEAD_H("3", "p3") SKN_I8_LD4("b", "1", "p3")
            : [h] "=&w"(h), [a] "=&w"(w01), [b] "=&w"(w23), SKN_I8_ROWS);
    }
    inline void nibbles_h(uint16x4_t& h, uint8x16x2_t& w01, uint8x16x2_t& w23) {
        asm(SKN_I8_HEAD_H("0", "p0") SKN_I8_LD2("a", "0", "p0") SKN_I8_HEAD_H("1", "p1") SKN_I8_LD2("a", "1", "p1")
                SKN_I8_HEAD_H("2", "p2") SKN_I8_LD2("b", "0", "p2") SKN_I8_HEAD_H("3", "p3") SKN_I8_LD2("b", "1", "p3")
            : [h] "=&w"(h), [a] "=&w"(w01), [b] "=&w"(w23), SKN_I8_ROWS);
    }
    inline void nibbles_b(uint8x16_t& h, uint8x16x2_t& w01, uint8x16x2_t& w23) {
        asm(SKN_I8_HEAD_B("0", "p0") SKN_I8_LD2("a", "0", "p0") SKN_I8_HEAD_B("4", "p1") SKN_I8_LD2("a", "1", "p1")
                SKN_I8_HEAD_B("8", "p2") SKN_I8_LD2("b", "0", "p2") SKN_I8_HEAD_B("12", "p3") SKN_I8_LD2("b", "1", "p3")
            : [h] "+w"(h), [a] "=&w"(w01), [b] "=&w"(w23), SKN_I8_ROWS);
    }
};
#undef SKN_I8_HEAD_H
#undef SKN_I8_HEAD_B
#undef SKN_I8_LD4
#undef SKN_I8_LD2
#undef SKN_I8_ROWS

// The slices of a nibble row pair loaded by LD2 (lo: bytes 0..7 of both
// rows, hi: bytes 8..15): low nibbles are elements 0..7 / 8..15, high
// nibbles 16..23 / 24..31.
template <class Value>
inline void nibble_slices(const uint8x16x2_t& q, int8x16_t (&s)[4], Value value) {
    const uint8x16_t m = vdupq_n_u8(0x0F);
    s[0] = value(vandq_u8(q.val[0], m));
    s[1] = value(vandq_u8(q.val[1], m));
    s[2] = value(vshrq_n_u8(q.val[0], 4));
    s[3] = value(vshrq_n_u8(q.val[1], 4));
}

template <class F>
struct Rows : DecodedRows<F> {
    using DecodedRows<F>::DecodedRows;
};

template <>
struct Rows<Q8_0F> : LoadRows {
    Rows(const PackedArgs& a, int64_t o, int R, int64_t k0) : LoadRows(a, o, R, k0, 2) {}
    inline void next(int8x16_t (&w01)[4], int8x16_t (&w23)[4], float32x4_t& dw, float32x4_t&) {
        uint16x4_t h;
        int8x16x4_t a, b;
        q8_0(h, a, b);
        for (int s = 0; s < 4; ++s) w01[s] = a.val[s], w23[s] = b.val[s];
        dw = vcvt_f32_f16(vreinterpret_f16_u16(h));
    }
};

template <class F, class Value>
struct NibbleRowsH : LoadRows {
    NibbleRowsH(const PackedArgs& a, int64_t o, int R, int64_t k0) : LoadRows(a, o, R, k0, 2) {}
    inline void next(int8x16_t (&w01)[4], int8x16_t (&w23)[4], float32x4_t& dw, float32x4_t&) {
        uint16x4_t h;
        uint8x16x2_t a, b;
        nibbles_h(h, a, b);
        nibble_slices(a, w01, Value());
        nibble_slices(b, w23, Value());
        dw = vcvt_f32_f16(vreinterpret_f16_u16(h));
    }
};

struct Q4_0Value {
    int8x16_t operator()(uint8x16_t v) const { return minus(v, 8); }
};
struct Iq4NlValue {
    int8x16_t levels = vld1q_s8(kIq4nlValues);
    int8x16_t operator()(uint8x16_t v) const { return vqtbl1q_s8(levels, v); }
};
struct E2M1Value {
    int8x16_t grid = vld1q_s8(kE2M1Doubled);
    int8x16_t operator()(uint8x16_t v) const { return vqtbl1q_s8(grid, v); }
};

template <>
struct Rows<Q4_0F> : NibbleRowsH<Q4_0F, Q4_0Value> {
    using NibbleRowsH::NibbleRowsH;
};
template <>
struct Rows<Iq4NlF> : NibbleRowsH<Iq4NlF, Iq4NlValue> {
    using NibbleRowsH::NibbleRowsH;
};

template <>
struct Rows<Mxfp4F> : LoadRows {
    uint8x16_t e = vdupq_n_u8(0);  // the E8M0 bytes in bytes 0, 4, 8, 12; the rest stay zero
    Rows(const PackedArgs& a, int64_t o, int R, int64_t k0) : LoadRows(a, o, R, k0, 1) {}
    inline void next(int8x16_t (&w01)[4], int8x16_t (&w23)[4], float32x4_t& dw, float32x4_t&) {
        uint8x16x2_t qa, qb;
        nibbles_b(e, qa, qb);
        nibble_slices(qa, w01, E2M1Value());
        nibble_slices(qb, w23, E2M1Value());
        // 2^(e - 128), as Mxfp4F::scales: (e - 1) << 23 for e >= 2, 0x00200000 << e below.
        const uint32x4_t u = vreinterpretq_u32_u8(e);
        const uint32x4_t normal = vshlq_n_u32(vsubq_u32(u, vdupq_n_u32(1)), 23);
        const uint32x4_t sub = vshlq_u32(vdupq_n_u32(0x00200000), vreinterpretq_s32_u32(u));
        dw = vreinterpretq_f32_u32(vbslq_u32(vcltq_u32(u, vdupq_n_u32(2)), sub, normal));
    }
};

// Four SMMLA with the activations first: lanes (act a . row 0, act a . row 1,
// act b . row 0, act b . row 1) of one activation pair's block against one
// weight row pair's.
inline int32x4_t mmla_block(const int8x16x4_t& x, const int8x16_t (&w)[4]) {
    int32x4_t s = vmmlaq_s32(vdupq_n_s32(0), x.val[0], w[0]);
    s = vmmlaq_s32(s, x.val[1], w[1]);
    s = vmmlaq_s32(s, x.val[2], w[2]);
    return vmmlaq_s32(s, x.val[3], w[3]);
}

// The contract's float steps for one row pair and activation pair, lane by
// lane in SMMLA's order: d_w (and m_w) of the row pair repeat as
// (row 0, row 1, row 0, row 1), d_x (and d_x * sum) as (a, a, b, b).
template <class F>
inline float32x4_t pair_float(float32x4_t acc, int32x4_t dot, float32x4_t dw, float32x4_t dx, float32x4_t mw,
                              float32x4_t mx) {
    acc = vfmaq_f32(acc, vmulq_f32(dw, dx), vcvtq_f32_s32(dot));
    if constexpr (F::kQ81) acc = vfmaq_f32(acc, mw, mx);
    return acc;
}

// One tile over blocks k0 .. k0 + nb - 1 of output rows o .. o + R - 1 and
// activation rows i0 .. i0 + 2P - 1. acc[h][q] holds rows 2h, 2h + 1 against
// activation rows 2q, 2q + 1 in SMMLA's lane order; ZIP1 / ZIP2 of the
// 64-bit halves turn them into 4-row vectors once per tile.
template <class F, int P>
[[gnu::noinline]] void pair_tile(const PackedArgs& a, int64_t o, int R, int64_t i0, int64_t k0, int64_t nb, const PairChunk& ch) {
    const bool first = k0 == 0, last = k0 + nb == a.bpr;
    float32x4_t acc[2][P];
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h)
#pragma GCC unroll 2
        for (int q = 0; q < P; ++q) {
            float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            if (!first)
                for (int l = 0; l < 4; ++l) {
                    const int r = 2 * h + (l & 1), c = 2 * q + (l >> 1);
                    if (r < R) part[l] = a.y[(i0 + c) * a.y_stride + o + r];
                }
            acc[h][q] = vld1q_f32(part);
        }
    Rows<F> rows(a, o, R, k0);
    for (const PairBlock *x = ch.blk, *end = ch.blk + nb; x != end; ++x) {
        int8x16_t w01[4], w23[4];
        float32x4_t dw, mw = vdupq_n_f32(0.0f);
        rows.next(w01, w23, dw, mw);
        const float32x4_t dw01 = zip_lo(dw, dw), dw23 = zip_hi(dw, dw);
        float32x4_t mw01 = mw, mw23 = mw;
        if constexpr (F::kQ81) mw01 = zip_lo(mw, mw), mw23 = zip_hi(mw, mw);
#pragma GCC unroll 2
        for (int q = 0; q < P; ++q) {
            const int8x16x4_t xq = vld1q_s8_x4(x->x[q]);
            const float32x4_t dx = vld1q_f32(x->dx[q]);
            float32x4_t mx = vdupq_n_f32(0.0f);
            if constexpr (F::kQ81) mx = vld1q_f32(x->mx[q]);
            acc[0][q] = pair_float<F>(acc[0][q], mmla_block(xq, w01), dw01, dx, mw01, mx);
            acc[1][q] = pair_float<F>(acc[1][q], mmla_block(xq, w23), dw23, dx, mw23, mx);
        }
    }
#pragma GCC unroll 2
    for (int q = 0; q < P; ++q)
#pragma GCC unroll 2
        for (int e = 0; e < 2; ++e) {
            float v[kRows];
            vst1q_f32(v, e == 0 ? zip_lo(acc[0][q], acc[1][q]) : zip_hi(acc[0][q], acc[1][q]));
            float* yrow = a.y + (i0 + 2 * q + e) * a.y_stride + o;
            for (int r = 0; r < R; ++r) yrow[r] = last && a.bias != nullptr ? v[r] + a.bias[o + r] : v[r];
        }
}

// kSingle: the format's neondotprod kernel, for an odd last activation row.
template <class F, PackedKernelFn kSingle>
void run_pairs(const PackedArgs& a, int64_t o0, int64_t o1) {
    PairChunk ch;
    run_activation_pairs<kRows, kPairs, kPairChunk>(
        a, o0, o1, [&](int64_t i0, int P, int64_t k0, int64_t nb) { interleave<F::kQ81>(a, i0, P, k0, nb, ch); },
        [&](auto p, int64_t o, int R, int64_t i0, int64_t k0, int64_t nb) {
            pair_tile<F, decltype(p)::value>(a, o, R, i0, k0, nb, ch);
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
