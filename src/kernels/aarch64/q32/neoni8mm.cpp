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

#include "formats/facts.hpp"
#include "kernels/aarch64/q32/kernels.hpp"

namespace skn_core::kernels::aarch64 {
namespace {

// q32/body.inc's n = 1 tile is not used here, but the body needs its dot.
inline int32x4_t dot32(int8x16_t w0, int8x16_t w1, int8x16_t x0, int8x16_t x1) {
    return vdotq_s32(vdotq_s32(vdupq_n_s32(0), w0, x0), w1, x1);
}

}  // namespace

#include "kernels/aarch64/q32/body.inc"

namespace {

constexpr int kPairs = 2;        // activation row pairs per tile
constexpr int kPairChunk = 128;  // blocks per interleaved activation chunk
constexpr int kSliceBytes = 64;  // one block of a pair in SMMLA order

// Activation pairs of one chunk: interleaved codes, d_x and (_1 formats)
// d_x * float(sum of codes), rounded once as the contract says.
struct PairChunk {
    alignas(16) int8_t x[kPairs][kPairChunk][kSliceBytes];
    float dx[2 * kPairs][kPairChunk];
    float mx[2 * kPairs][kPairChunk];
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
                ch.dx[2 * p + h][b] = d;
                if constexpr (kQ81)
                    ch.mx[2 * p + h][b] = d * float(int(vaddlvq_s8(q[h][0])) + int(vaddlvq_s8(q[h][1])));
            }
            int8x16x4_t s;
            s.val[0] = zip_lo(q[0][0], q[1][0]);
            s.val[1] = zip_hi(q[0][0], q[1][0]);
            s.val[2] = zip_lo(q[0][1], q[1][1]);
            s.val[3] = zip_hi(q[0][1], q[1][1]);
            vst1q_s8_x4(ch.x[p][b], s);
        }
    }
}

// Four SMMLA: lanes (row a . act a, row a . act b, row b . act a, row b . act b)
// of one weight row pair's block against one activation pair's.
inline int32x4_t mmla_block(const int8x16_t (&w)[4], const int8x16x4_t& x) {
    int32x4_t s = vmmlaq_s32(vdupq_n_s32(0), w[0], x.val[0]);
    s = vmmlaq_s32(s, w[1], x.val[1]);
    s = vmmlaq_s32(s, w[2], x.val[2]);
    return vmmlaq_s32(s, w[3], x.val[3]);
}

// One tile over blocks k0 .. k0 + nb - 1 of output rows o .. o + R - 1 and
// activation rows i0 .. i0 + 2P - 1.
template <class F, int P>
void pair_tile(const PackedArgs& a, int64_t o, int R, int64_t i0, int64_t k0, int64_t nb, const PairChunk& ch) {
    constexpr int C = 2 * P;
    const bool first = k0 == 0, last = k0 + nb == a.bpr;
    const uint8_t* rows[kRows];
    for (int r = 0; r < kRows; ++r) rows[r] = a.w + (o + (r < R ? r : 0)) * a.so + k0 * a.sb;
    float32x4_t acc[C];
    for (int c = 0; c < C; ++c) {
        float part[kRows] = {0.0f, 0.0f, 0.0f, 0.0f};
        if (!first)
            for (int r = 0; r < R; ++r) part[r] = a.y[(i0 + c) * a.y_stride + o + r];
        acc[c] = vld1q_f32(part);
    }
    for (int64_t b = 0; b < nb; ++b) {
        int8x16_t w[kRows][2];
        const uint8_t* p[kRows];
        uint16_t mh[kRows];
        for (int r = 0; r < kRows; ++r) {
            p[r] = rows[r] + b * a.sb;
            F::decode(p[r], w[r][0], w[r][1]);
            mh[r] = F::kQ81 ? load_u16(p[r] + 2) : 0;
        }
        const float32x4_t dw = F::scales(p);
        const float32x4_t mw = fp16x4(mh);
        const int8x16_t w01[4] = {zip_lo(w[0][0], w[1][0]), zip_hi(w[0][0], w[1][0]), zip_lo(w[0][1], w[1][1]),
                                  zip_hi(w[0][1], w[1][1])};
        const int8x16_t w23[4] = {zip_lo(w[2][0], w[3][0]), zip_hi(w[2][0], w[3][0]), zip_lo(w[2][1], w[3][1]),
                                  zip_hi(w[2][1], w[3][1])};
        for (int q = 0; q < P; ++q) {
            const int8x16x4_t x = vld1q_s8_x4(ch.x[q][b]);
            const int32x4_t m01 = mmla_block(w01, x), m23 = mmla_block(w23, x);
            // lane r: row r's exact block dot with activation row 2q (even) / 2q + 1 (odd)
            const int32x4_t s[2] = {vuzp1q_s32(m01, m23), vuzp2q_s32(m01, m23)};
            for (int h = 0; h < 2; ++h) {
                const int c = 2 * q + h;
                const float32x4_t sc = vmulq_n_f32(dw, ch.dx[c][b]);
                acc[c] = vfmaq_f32(acc[c], sc, vcvtq_f32_s32(s[h]));
                if constexpr (F::kQ81) acc[c] = vfmaq_f32(acc[c], mw, vdupq_n_f32(ch.mx[c][b]));
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
template <class F, Q32Fn kSingle>
void run_pairs(const PackedArgs& a, int64_t o0, int64_t o1) {
    const int64_t paired = a.n & ~int64_t(1);
    PairChunk ch;
    for (int64_t i0 = 0; i0 < paired;) {
        const int P = paired - i0 >= 2 * kPairs ? kPairs : int((paired - i0) / 2);
        for (int64_t k0 = 0; k0 < a.bpr; k0 += kPairChunk) {
            const int64_t nb = a.bpr - k0 < kPairChunk ? a.bpr - k0 : kPairChunk;
            interleave<F::kQ81>(a, i0, P, k0, nb, ch);
            for (int64_t o = o0; o < o1; o += kRows) {
                const int R = o1 - o < kRows ? int(o1 - o) : kRows;
                if (P == 2)
                    pair_tile<F, 2>(a, o, R, i0, k0, nb, ch);
                else
                    pair_tile<F, 1>(a, o, R, i0, k0, nb, ch);
            }
        }
        i0 += 2 * P;
    }
    if (paired < a.n) {
        PackedArgs one = a;
        one.n = 1;
        one.xq = a.xq + size_t(paired) * a.xq_stride;
        one.y = a.y + paired * a.y_stride;
        kSingle(one, o0, o1);
    }
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
