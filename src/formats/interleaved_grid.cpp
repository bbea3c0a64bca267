// SPDX-License-Identifier: MIT
// The row-interleaved twins of the grid formats (ik_llama.cpp's IQ2_XXS_R4,
// IQ2_XS_R4, IQ2_S_R4, IQ3_XXS_R4 and IQ3_S_R4): 256-element blocks of four
// rows whose grid indices, signs and scales sit in field order for all four
// rows. As in interleaved.cpp every function moves bits and computes
// nothing, so the two directions are exact inverses for any bytes, and
// decoding goes through the canonical decoder.
//
// The byte positions are ik_llama.cpp's offline repack (docs/formats/
// interleaved.md lists them in prose). Sub-block ib is the ib-th run of 32
// elements of a row's block; row k is the k-th of the four.
#include <cstring>

#include "formats/interleaved.hpp"
#include "formats/interleaved_decode.hpp"
#include "formats/le_bytes.hpp"

namespace skn_core::codec {
namespace {

constexpr int R = 4;

// ---------------------------------------------------------------------------
// The sign fields of IQ2_XXS, IQ2_XS and IQ3_XXS: a 7-bit index s whose bit
// j is the sign of element j of an 8-element group; the eighth sign is the
// parity of the seven. The twins store t, the running XOR of s (bit j of t =
// s_0 ^ ... ^ s_j), so that a kernel recovers all eight signs from a byte
// 2t with one shift and one XOR: sign j = bit j ^ bit j + 1 of 2t, and the
// top bit of t is the parity. The inverse is s = (t ^ 2t) & 127.
//
// Four 7-bit values in the low bits of four bytes, each run through the
// running XOR (or its inverse) at once: the shifts stay inside a byte.
uint32_t running_xor7x4(uint32_t s) {
    s ^= (s << 1) & 0xFEFEFEFEu;
    s ^= (s << 2) & 0xFCFCFCFCu;
    s ^= (s << 4) & 0xF0F0F0F0u;
    return s & 0x7F7F7F7Fu;
}
uint32_t sign_index7x4(uint32_t t) { return (t ^ (t << 1)) & 0x7F7F7F7Fu; }

// IQ2_XXS's and IQ3_XXS's per-sub-block word: four 7-bit sign indices at
// bits 7j and a 4-bit scale at bit 28. The twin's word: byte j = 2 t_j | bit
// j of the scale.
uint32_t sas_to(uint32_t w) {
    const uint32_t s = (w & 0x7Fu) | ((w >> 7) & 0x7Fu) << 8 | ((w >> 14) & 0x7Fu) << 16 | ((w >> 21) & 0x7Fu) << 24;
    return running_xor7x4(s) << 1 | spread4(w >> 28);
}
uint32_t sas_from(uint32_t y) {
    const uint32_t s = sign_index7x4((y >> 1) & 0x7F7F7F7Fu);
    return (s & 0x7Fu) | ((s >> 8) & 0x7Fu) << 7 | ((s >> 16) & 0x7Fu) << 14 | ((s >> 24) & 0x7Fu) << 21 |
           gather4(y) << 28;
}

// One 7-bit value at a time (IQ2_XS's 16-bit codes).
uint8_t running_xor7(uint8_t s) { return uint8_t(running_xor7x4(s)); }
uint8_t sign_index7(uint8_t t) { return uint8_t(sign_index7x4(t)); }

// ---------------------------------------------------------------------------
// IQ2_XXS (66 bytes): d @0; per sub-block 8 bytes @2 + 8 ib: four grid
// indices, then the sign/scale word. IQ2_XXS_R4 (264 bytes): the 4 rows' d
// @0; words @8 (word 4 ib + k: row k's sub-block ib, as sas_to makes it);
// grid indices @136 (byte 16 ib + 4 k + i: index i of row k's sub-block ib).
void interleave_iq2_xxs_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < R; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x, 2);
        for (int ib = 0; ib < 8; ++ib) {
            std::memcpy(y + 136 + 16 * ib + 4 * k, x + 2 + 8 * ib, 4);
            store_u32le(y + 8 + 4 * (4 * ib + k), sas_to(load_u32le(x + 2 + 8 * ib + 4)));
        }
    }
}
void deinterleave_iq2_xxs_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < R; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x, y + 2 * k, 2);
        for (int ib = 0; ib < 8; ++ib) {
            std::memcpy(x + 2 + 8 * ib, y + 136 + 16 * ib + 4 * k, 4);
            store_u32le(x + 2 + 8 * ib + 4, sas_from(load_u32le(y + 8 + 4 * (4 * ib + k))));
        }
    }
}

// IQ3_XXS (98 bytes): d @0; grid indices @2 (8 per sub-block); the 8
// sign/scale words @66. IQ3_XXS_R4 (392 bytes): d @0; words @8 as
// IQ2_XXS_R4's; grid indices @136 (byte 32 ib + 8 k + i: index i of row k's
// sub-block ib).
void interleave_iq3_xxs_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < R; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x, 2);
        for (int ib = 0; ib < 8; ++ib) {
            std::memcpy(y + 136 + 32 * ib + 8 * k, x + 2 + 8 * ib, 8);
            store_u32le(y + 8 + 4 * (4 * ib + k), sas_to(load_u32le(x + 66 + 4 * ib)));
        }
    }
}
void deinterleave_iq3_xxs_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < R; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x, y + 2 * k, 2);
        for (int ib = 0; ib < 8; ++ib) {
            std::memcpy(x + 2 + 8 * ib, y + 136 + 32 * ib + 8 * k, 8);
            store_u32le(x + 66 + 4 * ib, sas_from(load_u32le(y + 8 + 4 * (4 * ib + k))));
        }
    }
}

// IQ2_XS (74 bytes): d @0; 32 u16 codes @2 (code 4 ib + i: a 9-bit grid
// index, a 7-bit sign index above it); scales[8] @66. IQ2_XS_R4 (296
// bytes): d @0; u16 codes @8 (code 16 ib + 4 k + i, its sign index as a
// running XOR); scales @264 (byte 4 ib + k: row k's scale byte ib).
uint16_t xs_code(uint16_t v, uint8_t (*signs)(uint8_t)) {
    return uint16_t((v & 511) | (signs(uint8_t(v >> 9)) << 9));
}
void interleave_iq2_xs_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < R; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x, 2);
        for (int ib = 0; ib < 8; ++ib) {
            for (int i = 0; i < 4; ++i)
                store_u16le(y + 8 + 2 * (16 * ib + 4 * k + i), xs_code(load_u16le(x + 2 + 2 * (4 * ib + i)), running_xor7));
            y[264 + 4 * ib + k] = x[66 + ib];
        }
    }
}
void deinterleave_iq2_xs_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < R; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x, y + 2 * k, 2);
        for (int ib = 0; ib < 8; ++ib) {
            for (int i = 0; i < 4; ++i)
                store_u16le(x + 2 + 2 * (4 * ib + i), xs_code(load_u16le(y + 8 + 2 * (16 * ib + 4 * k + i)), sign_index7));
            x[66 + ib] = y[264 + 4 * ib + k];
        }
    }
}

// IQ2_S (82 bytes): d @0; low grid-index bytes @2 (4 per sub-block); sign
// bytes @34 (4 per sub-block); qh[8] @66; scales[8] @74. IQ2_S_R4 (328
// bytes): d @0; index bytes @8 and sign bytes @168 (byte 16 ib + 4 k + i
// each); qh @136 and scales @296 (byte 4 ib + k each). Nothing is recoded.
void interleave_iq2_s_r4(const uint8_t* const* rows, uint8_t* y) {
    for (int k = 0; k < R; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x, 2);
        for (int ib = 0; ib < 8; ++ib) {
            std::memcpy(y + 8 + 16 * ib + 4 * k, x + 2 + 4 * ib, 4);
            std::memcpy(y + 168 + 16 * ib + 4 * k, x + 34 + 4 * ib, 4);
            y[136 + 4 * ib + k] = x[66 + ib];
            y[296 + 4 * ib + k] = x[74 + ib];
        }
    }
}
void deinterleave_iq2_s_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < R; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x, y + 2 * k, 2);
        for (int ib = 0; ib < 8; ++ib) {
            std::memcpy(x + 2 + 4 * ib, y + 8 + 16 * ib + 4 * k, 4);
            std::memcpy(x + 34 + 4 * ib, y + 168 + 16 * ib + 4 * k, 4);
            x[66 + ib] = y[136 + 4 * ib + k];
            x[74 + ib] = y[296 + 4 * ib + k];
        }
    }
}

// IQ3_S (110 bytes): d @0; low grid-index bytes @2 (8 per sub-block); qh[8]
// @66; sign bytes @74 (4 per sub-block, bit b of byte m: element 8 m + b);
// four scale bytes @106 (nibble h of byte j: sub-block 2 j + h).
// IQ3_S_R4 (440 bytes): d @0; index bytes @8: byte 32 ib + 8 i + k holds
// index i and byte 32 ib + 8 i + 4 + k index i + 4 of row k's sub-block ib
// (i < 4); qh @264 (byte 4 ib + k); signs @296: byte 16 ib + 4 k + i holds,
// at bits 2 m and 2 m + 1, the signs of elements 8 m + i and 8 m + 4 + i;
// scales @424: with j = 8 jb + k, scale byte jb's low nibble is nibble
// j / 16 of byte j % 16, its high nibble nibble (j + 4) / 16 of byte
// (j + 4) % 16.
void put_nibble(uint8_t* base, int slot, uint8_t v) { base[slot % 16] |= uint8_t(v << (4 * (slot / 16))); }
uint8_t get_nibble(const uint8_t* base, int slot) { return uint8_t((base[slot % 16] >> (4 * (slot / 16))) & 0xF); }

void interleave_iq3_s_r4(const uint8_t* const* rows, uint8_t* y) {
    std::memset(y + 424, 0, 16);  // the scale nibbles are OR-ed in
    for (int k = 0; k < R; ++k) {
        const uint8_t* x = rows[k];
        std::memcpy(y + 2 * k, x, 2);
        for (int jb = 0; jb < 4; ++jb) {
            put_nibble(y + 424, 8 * jb + k, uint8_t(x[106 + jb] & 0xF));
            put_nibble(y + 424, 8 * jb + k + 4, uint8_t(x[106 + jb] >> 4));
        }
        for (int ib = 0; ib < 8; ++ib) {
            y[264 + 4 * ib + k] = x[66 + ib];
            for (int i = 0; i < 4; ++i) {
                y[8 + 32 * ib + 8 * i + k] = x[2 + 8 * ib + i];
                y[8 + 32 * ib + 8 * i + 4 + k] = x[2 + 8 * ib + i + 4];
            }
            // Byte i of the four takes bit i (at 2m) and bit 4 + i (at
            // 2m + 1) of sign byte m: a nibble spread over four bytes.
            uint32_t s = 0;
            for (int m = 0; m < 4; ++m) {
                const uint32_t b = x[74 + 4 * ib + m];
                s |= spread4(b & 0xF) << (2 * m) | spread4(b >> 4) << (2 * m + 1);
            }
            store_u32le(y + 296 + 16 * ib + 4 * k, s);
        }
    }
}
void deinterleave_iq3_s_r4(const uint8_t* y, uint8_t* const* rows) {
    for (int k = 0; k < R; ++k) {
        uint8_t* x = rows[k];
        std::memcpy(x, y + 2 * k, 2);
        for (int jb = 0; jb < 4; ++jb)
            x[106 + jb] = uint8_t(get_nibble(y + 424, 8 * jb + k) | (get_nibble(y + 424, 8 * jb + k + 4) << 4));
        for (int ib = 0; ib < 8; ++ib) {
            x[66 + ib] = y[264 + 4 * ib + k];
            for (int i = 0; i < 4; ++i) {
                x[2 + 8 * ib + i] = y[8 + 32 * ib + 8 * i + k];
                x[2 + 8 * ib + i + 4] = y[8 + 32 * ib + 8 * i + 4 + k];
            }
            const uint32_t s = load_u32le(y + 296 + 16 * ib + 4 * k);
            for (int m = 0; m < 4; ++m)
                x[74 + 4 * ib + m] = uint8_t(gather4(s >> (2 * m)) | gather4(s >> (2 * m + 1)) << 4);
        }
    }
}

}  // namespace

SKN_INTERLEAVED(iq2_xxs_r4, 4, 66, 256, 1, interleave_iq2_xxs_r4, deinterleave_iq2_xxs_r4, iq2_xxs)
SKN_INTERLEAVED(iq2_xs_r4, 4, 74, 256, 1, interleave_iq2_xs_r4, deinterleave_iq2_xs_r4, iq2_xs)
SKN_INTERLEAVED(iq2_s_r4, 4, 82, 256, 1, interleave_iq2_s_r4, deinterleave_iq2_s_r4, iq2_s)
SKN_INTERLEAVED(iq3_xxs_r4, 4, 98, 256, 1, interleave_iq3_xxs_r4, deinterleave_iq3_xxs_r4, iq3_xxs)
SKN_INTERLEAVED(iq3_s_r4, 4, 110, 256, 1, interleave_iq3_s_r4, deinterleave_iq3_s_r4, iq3_s)

}  // namespace skn_core::codec
