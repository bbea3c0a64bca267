// SPDX-License-Identifier: MIT
// The row-interleaved formats (ik_llama.cpp's _R4 / _R8 / _R16 types): one
// block holds R output rows' canonical blocks of one input block, re-encoded
// so that the R rows' scales sit together and their codes are interleaved in
// the order one wide load feeds R dot products. Every function here moves
// bits and computes nothing, so interleave and deinterleave are exact
// inverses for any bytes, and decoding goes through the canonical decoder:
// to_float of an interleaved weight is the canonical to_float to the bit.
//
// The byte positions are ik_llama.cpp's (its offline repack, the form its
// GGUF files hold): docs/formats/interleaved.md lists them in prose.
#include "formats/interleaved.hpp"

#include <cstring>

#include "formats/codecs.hpp"
#include "formats/interleaved_decode.hpp"
#include "formats/le_bytes.hpp"

namespace skn_core::codec {
namespace {

// Nibble plane h (0: low nibbles, 1: high) of four bytes, one per byte.
constexpr uint32_t kLowNibbles = 0x0F0F0F0Fu;
uint32_t nibbles(uint32_t w, int h) { return (w >> (4 * h)) & kLowNibbles; }
// Four bytes pairing two nibble planes, the first in the low nibbles.
uint32_t pair_nibbles(uint32_t lo, uint32_t hi) { return lo | (hi << 4); }

// ---------------------------------------------------------------------------
// Scale first, then codes moved in 4-byte chunks: Q4_0_R8 (fp16 d, 16 code
// bytes), MXFP4_R8 (E8M0 byte, 16 code bytes), Q8_0_R8 (fp16 d, 32 code
// bytes). Interleaved block: the R scales, then for each 4-byte chunk c of a
// row's codes, R chunks side by side: code byte 4c + i of row k at
// codes[R * 4 * c + 4 * k + i]. (ik_llama.cpp orders Q8_0_R8's second half
// after the first half's R x 16 bytes, which is this rule with c = 4..7.)
template <int R, int ScaleBytes, int CodeBytes>
void interleave_chunks(const uint8_t* const* rows, uint8_t* y) {
    uint8_t* codes = y + R * ScaleBytes;
    for (int k = 0; k < R; ++k) {
        std::memcpy(y + k * ScaleBytes, rows[k], ScaleBytes);
        for (int c = 0; c < CodeBytes / 4; ++c) std::memcpy(codes + R * 4 * c + 4 * k, rows[k] + ScaleBytes + 4 * c, 4);
    }
}

template <int R, int ScaleBytes, int CodeBytes>
void deinterleave_chunks(const uint8_t* y, uint8_t* const* rows) {
    const uint8_t* codes = y + R * ScaleBytes;
    for (int k = 0; k < R; ++k) {
        std::memcpy(rows[k], y + k * ScaleBytes, ScaleBytes);
        for (int c = 0; c < CodeBytes / 4; ++c) std::memcpy(rows[k] + ScaleBytes + 4 * c, codes + R * 4 * c + 4 * k, 4);
    }
}

// ---------------------------------------------------------------------------
// IQ4_NL_R4: 4 fp16 scales, then 64 code bytes. IQ4_NL element j < 16 is the
// low nibble of code byte j, element j + 16 its high nibble. In the
// interleaved block, byte 16 * q + 4 * k + i of row k (i < 4) pairs two
// elements, low nibble first:
//   q = 0: elements i, i + 8       q = 1: elements 16 + i, 24 + i
//   q = 2: elements 4 + i, 12 + i  q = 3: elements 20 + i, 28 + i
constexpr int kNlPair[4][2] = {{0, 8}, {16, 24}, {4, 12}, {20, 28}};


// The 16 code bytes `qs` of a 32-element block whose element j < 16 is the
// low nibble of byte j and 16 + j its high nibble (IQ4_NL, Q5_0's low
// nibbles), as row k's share of the four 16-byte pair groups at `codes`.
void nl_pairs_to(const uint8_t* qs, uint8_t* codes, int k) {
    for (int q = 0; q < 4; ++q) {
        const int h = q & 1;  // pair q takes code bytes kNlPair[q][*] % 16 in plane q % 2
        store_u32le(codes + 16 * q + 4 * k, pair_nibbles(nibbles(load_u32le(qs + kNlPair[q][0] % 16), h),
                                                       nibbles(load_u32le(qs + kNlPair[q][1] % 16), h)));
    }
}
void nl_pairs_from(const uint8_t* codes, int k, uint8_t* qs) {
    // Pairs 0 and 1 hold code bytes 0..3 and 8..11 (low, high planes),
    // pairs 2 and 3 code bytes 4..7 and 12..15.
    for (int q = 0; q < 4; q += 2) {
        const uint32_t lo = load_u32le(codes + 16 * q + 4 * k), hi = load_u32le(codes + 16 * (q + 1) + 4 * k);
        store_u32le(qs + kNlPair[q][0], pair_nibbles(nibbles(lo, 0), nibbles(hi, 0)));
        store_u32le(qs + kNlPair[q][1], pair_nibbles(nibbles(lo, 1), nibbles(hi, 1)));
    }
}

void interleave_iq4_nl_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < 4; ++k) {
        std::memcpy(y + 2 * k, rows[k], 2);
        nl_pairs_to(rows[k] + 2, y + 8, k);
    }
}

void deinterleave_iq4_nl_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 4; ++k) {
        std::memcpy(rows[k], y + 2 * k, 2);
        nl_pairs_from(y + 8, k, rows[k] + 2);
    }
}

// Q5_0: d @0, qh (u32: bit j the fifth bit of element j) @2, low nibbles @6
// as IQ4_NL's. Q5_0_R4 (88 bytes): 4 fp16 d @0; qh[16] @8; the low nibbles
// @24 as IQ4_NL_R4's codes. qh byte 4 * k + i holds, at bit q, the fifth bit
// of element kNlPair[q][0] + i of row k and at bit 4 + q that of
// kNlPair[q][1] + i.
//
// (spread4 / gather4: formats/interleaved_decode.hpp.)

void interleave_q5_0_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < 4; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x, 2);
        const uint32_t h = load_u32le(x + 2);
        uint32_t w = 0;
        for (int q = 0; q < 4; ++q)
            w |= (spread4((h >> kNlPair[q][0]) & 0xF) << q) | (spread4((h >> kNlPair[q][1]) & 0xF) << (4 + q));
        store_u32le(y + 8 + 4 * k, w);
        nl_pairs_to(x + 6, y + 24, k);
    }
}

void deinterleave_q5_0_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 4; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x, y + 2 * k, 2);
        const uint32_t w = load_u32le(y + 8 + 4 * k);
        uint32_t h = 0;
        for (int q = 0; q < 4; ++q)
            h |= (gather4(w >> q) << kNlPair[q][0]) | (gather4(w >> (4 + q)) << kNlPair[q][1]);
        store_u32le(x + 2, h);
        nl_pairs_from(y + 24, k, x + 6);
    }
}

// ---------------------------------------------------------------------------
// Transposes. The K-quants' 2-bit codes (Q2_K, Q3_K) and their single high
// bits (Q3_K's third, Q5_K's fifth) sit in the canonical bytes by element
// and bit plane, in the interleaved bytes the other way round. Take rows of
// four bytes (byte lane i of row r): within every lane, the rows' fields
// (2-bit codes at bits 2 c, or single bits at bit c) form a square matrix
// whose transpose is the other layout. A transpose is its own inverse, so
// one routine serves both directions. It swaps blocks of fields between rows
// d apart, d = 1, 2 (, 4): the classic delta swap, all four lanes at once in
// 64-bit words. Word q holds rows 2 q (low half) and 2 q + 1 (high half);
// `field` is the field width in bits, `mask` the fields a swap leaves alone.
[[gnu::always_inline]] inline void swap_rows_in_word(uint64_t& w, int field, uint32_t mask) {
    const uint64_t t = ((w >> field) ^ (w >> 32)) & mask;
    w ^= (t << 32) | (t << field);
}
[[gnu::always_inline]] inline void swap_rows_across_words(uint64_t& lo, uint64_t& hi, int shift, uint64_t mask) {
    const uint64_t t = ((lo >> shift) ^ hi) & mask;
    hi ^= t;
    lo ^= t << shift;
}
// Four lanes of a 4 x 4 matrix of 2-bit fields: rows 0..3 in w0, w1.
[[gnu::always_inline]] inline void transpose_pairs_4x4(uint64_t& w0, uint64_t& w1) {
    swap_rows_in_word(w0, 2, 0x33333333u);
    swap_rows_in_word(w1, 2, 0x33333333u);
    swap_rows_across_words(w0, w1, 4, 0x0F0F0F0F0F0F0F0Full);
}
// Four lanes of an 8 x 8 bit matrix: rows 0..7 in w0..w3.
[[gnu::always_inline]] inline void transpose_bits_8x8(uint64_t& w0, uint64_t& w1, uint64_t& w2, uint64_t& w3) {
    swap_rows_in_word(w0, 1, 0x55555555u);
    swap_rows_in_word(w1, 1, 0x55555555u);
    swap_rows_in_word(w2, 1, 0x55555555u);
    swap_rows_in_word(w3, 1, 0x55555555u);
    swap_rows_across_words(w0, w1, 2, 0x3333333333333333ull);
    swap_rows_across_words(w2, w3, 2, 0x3333333333333333ull);
    swap_rows_across_words(w0, w2, 4, 0x0F0F0F0F0F0F0F0Full);
    swap_rows_across_words(w1, w3, 4, 0x0F0F0F0F0F0F0F0Full);
}
// Two 4-byte rows into one word and back: row r of a transposed matrix sits
// in word r / 2, half r % 2.
uint64_t join_rows(uint32_t even, uint32_t odd) { return uint64_t(even) | uint64_t(odd) << 32; }
uint32_t row_of(uint64_t w, int half) { return uint32_t(w >> (32 * half)); }

// Eight rows of single bits: row f of the canonical bytes, four bytes at
// src + row_at[f], becomes bit f of the four interleaved bytes at dst + 16 s
// (s the bit of the canonical row), and back.
[[gnu::always_inline]] inline void bit_rows_to(const uint8_t* src, const int* row_at, uint8_t* dst) {
    uint64_t w[4];
    for (int q = 0; q < 4; ++q) w[q] = join_rows(load_u32le(src + row_at[2 * q]), load_u32le(src + row_at[2 * q + 1]));
    transpose_bits_8x8(w[0], w[1], w[2], w[3]);
    for (int s = 0; s < 8; ++s) store_u32le(dst + 16 * s, row_of(w[s / 2], s % 2));
}
[[gnu::always_inline]] inline void bit_rows_from(const uint8_t* src, uint8_t* dst, const int* row_at) {
    uint64_t w[4];
    for (int q = 0; q < 4; ++q) w[q] = join_rows(load_u32le(src + 32 * q), load_u32le(src + 32 * q + 16));
    transpose_bits_8x8(w[0], w[1], w[2], w[3]);
    for (int f = 0; f < 8; ++f) store_u32le(dst + row_at[f], row_of(w[f / 2], f % 2));
}

// Four rows of 2-bit fields: row f, four bytes at src + row_at[f], becomes
// field f of the four interleaved bytes at dst + 32 j (j the field of the
// canonical row), and back.
[[gnu::always_inline]] inline void pair_rows_to(const uint8_t* src, const int* row_at, uint8_t* dst) {
    uint64_t w0 = join_rows(load_u32le(src + row_at[0]), load_u32le(src + row_at[1]));
    uint64_t w1 = join_rows(load_u32le(src + row_at[2]), load_u32le(src + row_at[3]));
    transpose_pairs_4x4(w0, w1);
    store_u32le(dst, row_of(w0, 0));
    store_u32le(dst + 32, row_of(w0, 1));
    store_u32le(dst + 64, row_of(w1, 0));
    store_u32le(dst + 96, row_of(w1, 1));
}
[[gnu::always_inline]] inline void pair_rows_from(const uint8_t* src, uint8_t* dst, const int* row_at) {
    uint64_t w0 = join_rows(load_u32le(src), load_u32le(src + 32));
    uint64_t w1 = join_rows(load_u32le(src + 64), load_u32le(src + 96));
    transpose_pairs_4x4(w0, w1);
    store_u32le(dst + row_at[0], row_of(w0, 0));
    store_u32le(dst + row_at[1], row_of(w0, 1));
    store_u32le(dst + row_at[2], row_of(w1, 0));
    store_u32le(dst + row_at[3], row_of(w1, 1));
}

// ---------------------------------------------------------------------------
// The 256-element formats move their 32-element sub-blocks like IQ4_NL_R4
// moves a block: within sub-block s, byte 16 * q + 4 * k + i (of the 64
// bytes per sub-block for R = 4) pairs elements (kNlPair[q][0] + i,
// kNlPair[q][1] + i) of the sub-block, low nibble first. IQ4_XS_R8 pairs
// differently (see there).

// Q4_K: d @0, dmin @2, 12 bytes of eight 6-bit (scale, min) pairs @4, codes
// @16: element 64 * c + 32 * h + l is nibble h of byte 32 * c + l.
constexpr int kQ4kCodes = 16;
// Pair j's (scale, min): j < 4 low 6 bits of bytes j, j + 4; j >= 4 nibbles
// of byte j + 4 and the top two bits of bytes j - 4, j.
void q4_k_scale_min(const uint8_t* s, int j, uint8_t* d, uint8_t* m) {
    if (j < 4) {
        *d = s[j] & 63;
        *m = s[j + 4] & 63;
    } else {
        *d = uint8_t((s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4));
        *m = uint8_t((s[j + 4] >> 4) | ((s[j] >> 6) << 4));
    }
}
void q4_k_pack_scales(const uint8_t* d, const uint8_t* m, uint8_t* s) {
    for (int j = 0; j < 4; ++j) {
        s[j] = uint8_t(d[j] | ((d[j + 4] >> 4) << 6));
        s[j + 4] = uint8_t(m[j] | ((m[j + 4] >> 4) << 6));
        s[j + 8] = uint8_t((d[j + 4] & 0xF) | ((m[j + 4] & 0xF) << 4));
    }
}

// Q4_K_R4 (576 bytes): the 4 rows' d @0, their dmin @8; scales_h[16] @16,
// scales_l[32] @32, codes @64. Sub-block s of row k: its scale index
// t = 4 * s + k; scales_l[t] = scale low nibble | min low nibble << 4;
// scales_h[t % 16] bits 4 * (t / 16) .. +3 = scale bits 4-5 | min bits 4-5 << 2.
// Q5_K_R4 (704 bytes) has the same head and scales, its fifth bits @64 (see
// there) and the low nibbles, as Q4_K_R4's codes, @192.
//
// Row k's head (d, dmin, 6-bit scales) of a Q4_K / Q5_K block x (scales @4)
// and its 128 low-nibble bytes `qs` (element 64 c + 32 h + l is nibble h of
// byte 32 c + l) to the interleaved block y, codes at y + codes; y + 16
// zeroed first.
void k4_row_to(const uint8_t* x, const uint8_t* qs, uint8_t* y, int codes, int k) {
    std::memcpy(y + 2 * k, x, 2);
    std::memcpy(y + 8 + 2 * k, x + 2, 2);
    for (int s = 0; s < 8; ++s) {
        uint8_t d, m;
        q4_k_scale_min(x + 4, s, &d, &m);
        const int t = 4 * s + k;
        y[32 + t] = uint8_t((d & 0xF) | ((m & 0xF) << 4));
        y[16 + t % 16] |= uint8_t(((d >> 4) | ((m >> 4) << 2)) << (4 * (t / 16)));
        // Sub-block s is nibble plane s % 2 of code bytes 32 (s / 2) ...
        const uint8_t* src = qs + 32 * (s / 2);
        for (int q = 0; q < 4; ++q)
            store_u32le(y + codes + 64 * s + 16 * q + 4 * k, pair_nibbles(nibbles(load_u32le(src + kNlPair[q][0]), s % 2),
                                                                      nibbles(load_u32le(src + kNlPair[q][1]), s % 2)));
    }
}

void k4_row_from(const uint8_t* y, int codes, int k, uint8_t* x, uint8_t* qs) {
    std::memcpy(x, y + 2 * k, 2);
    std::memcpy(x + 2, y + 8 + 2 * k, 2);
    uint8_t d[8], m[8];
    for (int s = 0; s < 8; ++s) {
        const int t = 4 * s + k;
        const uint8_t h = uint8_t((y[16 + t % 16] >> (4 * (t / 16))) & 0xF);
        d[s] = uint8_t((y[32 + t] & 0xF) | ((h & 3) << 4));
        m[s] = uint8_t((y[32 + t] >> 4) | ((h >> 2) << 4));
    }
    q4_k_pack_scales(d, m, x + 4);
    // Sub-blocks 2j and 2j + 1 share code bytes 32 j ... (low, high planes).
    for (int j = 0; j < 4; ++j)
        for (int q = 0; q < 4; ++q) {
            const uint32_t lo = load_u32le(y + codes + 64 * (2 * j) + 16 * q + 4 * k);
            const uint32_t hi = load_u32le(y + codes + 64 * (2 * j + 1) + 16 * q + 4 * k);
            uint8_t* dst = qs + 32 * j;
            store_u32le(dst + kNlPair[q][0], pair_nibbles(nibbles(lo, 0), nibbles(hi, 0)));
            store_u32le(dst + kNlPair[q][1], pair_nibbles(nibbles(lo, 1), nibbles(hi, 1)));
        }
}

void interleave_q4_k_r4(const uint8_t* const* rows, uint8_t* y) {
    std::memset(y + 16, 0, 16);
    for (int k = 0; k < 4; ++k) k4_row_to(rows[k], rows[k] + kQ4kCodes, y, 64, k);
}

void deinterleave_q4_k_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 4; ++k) k4_row_from(y, 64, k, rows[k], rows[k] + kQ4kCodes);
}

// Q5_K: as Q4_K with qh[32] @16 (bit s of qh[l]: the fifth bit of element
// 32 s + l) and the low nibbles @48. Q5_K_R4's fifth bits: qh byte
// 16 * s + 4 * k + i holds, at bit f, that of element kQ5kHigh[f] + i of
// row k's sub-block s.
constexpr int kQ5kHigh[8] = {0, 8, 4, 12, 16, 24, 20, 28};

void interleave_q5_k_r4(const uint8_t* const* rows, uint8_t* y) {
    std::memset(y + 16, 0, 16);
    for (int k = 0; k < 4; ++k) {
        const uint8_t* x = rows[k];
        k4_row_to(x, x + 48, y, 192, k);
        bit_rows_to(x + 16, kQ5kHigh, y + 64 + 4 * k);
    }
}

void deinterleave_q5_k_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 4; ++k) {
        uint8_t* x = rows[k];
        k4_row_from(y, 192, k, x, x + 48);
        bit_rows_from(y + 64 + 4 * k, x + 16, kQ5kHigh);
    }
}

// Q2_K: scales[16] @0 (a byte per 16 elements), qs[64] @16, d @80, dmin @82;
// element 128 n + 32 j + l is bits 2 j .. 2 j + 1 of qs[32 n + l].
// Q2_K_R4 (336 bytes): the 4 rows' d @0, their dmin @8; scales[64] @16
// (byte 4 * b + k: row k's scale byte b); codes @80, 32 bytes per 32-element
// sub-block s: byte 32 * s + 16 * h + 4 * k + i holds, at bits 2 f .. 2 f + 1,
// the code of element 16 h + 4 f + i of row k's sub-block s.
// Q3_K: hmask[32] @0 (bit s of hmask[l]: the third bit of element 32 s + l),
// the low two bits qs[64] @32 as Q2_K's, scales[12] @96 (sixteen 6-bit),
// d @108. Q3_K_R4 (440 bytes): the 4 rows' d @0; scales_h[16] @8,
// scales_l[32] @24 (row k's scale b = 2 s + e: t = 8 s + 4 e + k, low nibble
// at scales_l[t % 32] bits 4 (t / 32), bits 4-5 at scales_h[t % 16] bits
// 2 (t / 16)); third bits @56, 16 bytes per sub-block: byte 16 * s + 4 * k + i
// holds, at bit f, that of element 4 f + i; low two bits @184 as Q2_K_R4's.
//
// Row k's 2-bit codes: the canonical bytes `qs` to the interleaved `codes`.
// Element 32 s + 16 h + 4 f + i (s = 4 n + j) is field j of canonical byte
// 32 n + 16 h + 4 f + i and field f of interleaved byte 32 s + 16 h + 4 k + i:
// for each (n, h), rows f of the canonical 16 bytes become rows j.
constexpr int kQ2kRows[4] = {0, 4, 8, 12};
void two_bit_row_to(const uint8_t* qs, uint8_t* codes, int k) {
    for (int n = 0; n < 2; ++n)
        for (int h = 0; h < 2; ++h) pair_rows_to(qs + 32 * n + 16 * h, kQ2kRows, codes + 32 * (4 * n) + 16 * h + 4 * k);
}
void two_bit_row_from(const uint8_t* codes, int k, uint8_t* qs) {
    for (int n = 0; n < 2; ++n)
        for (int h = 0; h < 2; ++h) pair_rows_from(codes + 32 * (4 * n) + 16 * h + 4 * k, qs + 32 * n + 16 * h, kQ2kRows);
}

void interleave_q2_k_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < 4; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x + 80, 2);
        std::memcpy(y + 8 + 2 * k, x + 82, 2);
        for (int b = 0; b < 16; ++b) y[16 + 4 * b + k] = x[b];
        two_bit_row_to(x + 16, y + 80, k);
    }
}

void deinterleave_q2_k_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 4; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x + 80, y + 2 * k, 2);
        std::memcpy(x + 82, y + 8 + 2 * k, 2);
        for (int b = 0; b < 16; ++b) x[b] = y[16 + 4 * b + k];
        two_bit_row_from(y + 80, k, x + 16);
    }
}

// Q3_K's scales need no unpacking: with t = 8 s + 4 e + k = 4 b + k,
// scales_l[4 j + k] is canonical scale byte j (scales j and j + 8's low
// nibbles) and scales_h[4 m + k] canonical byte 8 + m (scales m, m + 4, m + 8,
// m + 12's top bits), so y + 8 holds the canonical bytes 8..11 then 0..7 of
// the four rows, byte for byte. The third bits: element 32 s + 4 f + i is bit
// s of hmask[4 f + i] and bit f of interleaved byte 16 s + 4 k + i, an 8 x 8
// bit transpose in each lane i.
constexpr int kQ3kScaleOrder[12] = {8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7};
constexpr int kQ3kHigh[8] = {0, 4, 8, 12, 16, 20, 24, 28};

void interleave_q3_k_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < 4; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x + 108, 2);
        for (int j = 0; j < 12; ++j) y[8 + 4 * j + k] = x[96 + kQ3kScaleOrder[j]];
        bit_rows_to(x, kQ3kHigh, y + 56 + 4 * k);
        two_bit_row_to(x + 32, y + 184, k);
    }
}

void deinterleave_q3_k_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 4; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x + 108, y + 2 * k, 2);
        for (int j = 0; j < 12; ++j) x[96 + kQ3kScaleOrder[j]] = y[8 + 4 * j + k];
        bit_rows_from(y + 56 + 4 * k, x, kQ3kHigh);
        two_bit_row_from(y + 184, k, x + 32);
    }
}

// Q6_K: ql[128] @0, qh[64] @128, int8 scales[16] @192, d @208. Element
// 128 * n + 32 * j + l (j < 4) has low nibble (j & 1 ? ql[64n + 32 + l]
// : ql[64n + l]) >> (j >= 2 ? 4 : 0) and high two bits (qh[32n + l] >> 2j) & 3.
//
// Q6_K_R4 (840 bytes): the 4 rows' d @0; scales[64] @8 (sub-block s of row
// k: its two 16-element scales at 8 * s + k and 8 * s + 4 + k); qh[256] @72;
// ql[512] @328. In sub-block s, ql byte 64 * s + 16 * q + 4 * k + i holds the
// low nibbles of the kNlPair[q] elements; qh byte 32 * s + 16 * h + 4 * k + i
// the top two bits of elements (16h + i, 16h + 8 + i, 16h + 4 + i, 16h + 12 + i):
// for each (n, h), the canonical qh rows at 16 h + kQ6kHigh[f] transposed
// (pair_rows_to), fields j becoming sub-blocks 4 n + j.
constexpr int kQ6kHigh[4] = {0, 8, 4, 12};

void interleave_q6_k_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < 4; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x + 208, 2);
        for (int s = 0; s < 8; ++s) {
            y[8 + 8 * s + k] = x[192 + 2 * s];
            y[8 + 8 * s + 4 + k] = x[192 + 2 * s + 1];
            // Sub-block s: j = s % 4 of half n = s / 4; low nibbles in plane
            // j / 2 of ql bytes 64 n + 32 (j % 2) ...
            const int n = s / 4, j = s % 4;
            const uint8_t* ql = x + 64 * n + 32 * (j % 2);
            for (int q = 0; q < 4; ++q)
                store_u32le(y + 328 + 64 * s + 16 * q + 4 * k, pair_nibbles(nibbles(load_u32le(ql + kNlPair[q][0]), j / 2),
                                                                           nibbles(load_u32le(ql + kNlPair[q][1]), j / 2)));
        }
        for (int n = 0; n < 2; ++n)
            for (int h = 0; h < 2; ++h)
                pair_rows_to(x + 128 + 32 * n + 16 * h, kQ6kHigh, y + 72 + 32 * (4 * n) + 16 * h + 4 * k);
    }
}

void deinterleave_q6_k_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 4; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x + 208, y + 2 * k, 2);
        for (int s = 0; s < 8; ++s) {
            x[192 + 2 * s] = y[8 + 8 * s + k];
            x[192 + 2 * s + 1] = y[8 + 8 * s + 4 + k];
        }
        // ql bytes 64 n + 32 m ... hold sub-blocks 4 n + m (low plane) and
        // 4 n + 2 + m (high plane).
        for (int n = 0; n < 2; ++n)
            for (int m = 0; m < 2; ++m) {
                const uint8_t* lo = y + 328 + 64 * (4 * n + m) + 4 * k;
                const uint8_t* hi = lo + 64 * 2;
                uint8_t* ql = x + 64 * n + 32 * m;
                for (int q = 0; q < 4; ++q) {
                    const uint32_t a = load_u32le(lo + 16 * q), b = load_u32le(hi + 16 * q);
                    store_u32le(ql + kNlPair[q][0], pair_nibbles(nibbles(a, 0), nibbles(b, 0)));
                    store_u32le(ql + kNlPair[q][1], pair_nibbles(nibbles(a, 1), nibbles(b, 1)));
                }
            }
        for (int n = 0; n < 2; ++n)
            for (int h = 0; h < 2; ++h)
                pair_rows_from(y + 72 + 32 * (4 * n) + 16 * h + 4 * k, x + 128 + 32 * n + 16 * h, kQ6kHigh);
    }
}

// IQ4_XS: d @0, scales_h (u16: 2 bits per sub-block) @2, scales_l[4] (a
// nibble per sub-block) @4, codes @8: sub-block s's element j < 16 is the low
// nibble of byte 16 * s + j, element 16 + j its high nibble.
//
// IQ4_XS_R8 (1088 bytes): the 8 rows' d @0; scales_h[16] @16, scales_l[32]
// @32 (sub-block s of row k, t = 8 * s + k: low nibble at scales_l[t % 32]
// bits 4 * (t / 32), high bits at scales_h[t % 16] bits 2 * (t / 16)); codes
// @64, 128 bytes per sub-block: byte 32 * q + 4 * k + i pairs the sub-block's
// canonical nibbles (byte, nibble) of kXsPair[q] at offset i, low first.
struct XsNibble {
    int byte, high;
};
constexpr XsNibble kXsPair[4][2] = {{{0, 0}, {4, 0}}, {{8, 0}, {12, 0}}, {{0, 1}, {4, 1}}, {{8, 1}, {12, 1}}};

void interleave_iq4_xs_r8(const uint8_t* const* rows, uint8_t* y) {
    std::memset(y + 16, 0, 48);
    for (int k = 0; k < 8; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x, 2);
        const uint16_t sh = load_u16le(x + 2);
        for (int s = 0; s < 8; ++s) {
            const uint8_t lo = uint8_t((x[4 + s / 2] >> (4 * (s % 2))) & 0xF);
            const uint8_t hi = uint8_t((sh >> (2 * s)) & 3);
            const int t = 8 * s + k;
            y[32 + t % 32] |= uint8_t(lo << (4 * (t / 32)));
            y[16 + t % 16] |= uint8_t(hi << (2 * (t / 16)));
            const uint8_t* qs = x + 8 + 16 * s;
            for (int q = 0; q < 4; ++q)
                store_u32le(y + 64 + 128 * s + 32 * q + 4 * k,
                          pair_nibbles(nibbles(load_u32le(qs + kXsPair[q][0].byte), kXsPair[q][0].high),
                                       nibbles(load_u32le(qs + kXsPair[q][1].byte), kXsPair[q][1].high)));
        }
    }
}

void deinterleave_iq4_xs_r8(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 8; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x, y + 2 * k, 2);
        uint16_t sh = 0;
        std::memset(x + 4, 0, 4);
        for (int s = 0; s < 8; ++s) {
            const int t = 8 * s + k;
            const uint8_t lo = uint8_t((y[32 + t % 32] >> (4 * (t / 32))) & 0xF);
            const uint8_t hi = uint8_t((y[16 + t % 16] >> (2 * (t / 16))) & 3);
            x[4 + s / 2] |= uint8_t(lo << (4 * (s % 2)));
            sh = uint16_t(sh | (hi << (2 * s)));
            // Pairs 0 and 2 hold code bytes 0..7 (low, high nibbles of the
            // canonical bytes), pairs 1 and 3 code bytes 8..15.
            const uint8_t* codes = y + 64 + 128 * s + 4 * k;
            uint8_t* qs = x + 8 + 16 * s;
            for (int q = 0; q < 2; ++q) {
                const uint32_t low = load_u32le(codes + 32 * q), high = load_u32le(codes + 32 * (q + 2));
                store_u32le(qs + kXsPair[q][0].byte, pair_nibbles(nibbles(low, 0), nibbles(high, 0)));
                store_u32le(qs + kXsPair[q][1].byte, pair_nibbles(nibbles(low, 1), nibbles(high, 1)));
            }
        }
        store_u16le(x + 2, sh);
    }
}

// ---------------------------------------------------------------------------
// BF16_R16: 16 rows x 2 inputs; value j of row k at element 2 * k + j.
void interleave_bf16_r16(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < 16; ++k) std::memcpy(y + 4 * k, rows[k], 4);
}
void deinterleave_bf16_r16(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < 16; ++k) std::memcpy(rows[k], y + 4 * k, 4);
}

}  // namespace

SKN_INTERLEAVED(q4_0_r8, 8, 18, 32, 1, (interleave_chunks<8, 2, 16>), (deinterleave_chunks<8, 2, 16>), q4_0)
SKN_INTERLEAVED(q8_0_r8, 8, 34, 32, 1, (interleave_chunks<8, 2, 32>), (deinterleave_chunks<8, 2, 32>), q8_0)
SKN_INTERLEAVED(q5_0_r4, 4, 22, 32, 1, interleave_q5_0_r4, deinterleave_q5_0_r4, q5_0)
SKN_INTERLEAVED(q2_k_r4, 4, 84, 256, 1, interleave_q2_k_r4, deinterleave_q2_k_r4, q2_k)
SKN_INTERLEAVED(q3_k_r4, 4, 110, 256, 1, interleave_q3_k_r4, deinterleave_q3_k_r4, q3_k)
SKN_INTERLEAVED(q5_k_r4, 4, 176, 256, 1, interleave_q5_k_r4, deinterleave_q5_k_r4, q5_k)
SKN_INTERLEAVED(mxfp4_r8, 8, 17, 32, 1, (interleave_chunks<8, 1, 16>), (deinterleave_chunks<8, 1, 16>), mxfp4)
SKN_INTERLEAVED(iq4_nl_r4, 4, 18, 32, 1, interleave_iq4_nl_r4, deinterleave_iq4_nl_r4, iq4_nl)
SKN_INTERLEAVED(q4_k_r4, 4, 144, 256, 1, interleave_q4_k_r4, deinterleave_q4_k_r4, q4_k)
SKN_INTERLEAVED(q6_k_r4, 4, 210, 256, 1, interleave_q6_k_r4, deinterleave_q6_k_r4, q6_k)
SKN_INTERLEAVED(iq4_xs_r8, 8, 136, 256, 1, interleave_iq4_xs_r8, deinterleave_iq4_xs_r8, iq4_xs)
SKN_INTERLEAVED(bf16_r16, 16, 4, 2, 2, interleave_bf16_r16, deinterleave_bf16_r16, bf16)

}  // namespace skn_core::codec
