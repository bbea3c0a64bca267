/* SPDX-License-Identifier: MIT */
/* SHA-1 as FIPS 180-4 specifies it (sections 4.1.1, 5.3.1, 6.1.2). Checked
 * against Python's hashlib by tests/tools/tool_files.py. */
#include "sha1.h"

#include <string.h>

static uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static void compress(uint32_t* h, const unsigned char* block) {
    uint32_t w[80];
    for (int t = 0; t < 16; ++t)
        w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 | (uint32_t)block[4 * t + 2] << 8 |
               (uint32_t)block[4 * t + 3];
    for (int t = 16; t < 80; ++t) w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 80; ++t) {
        uint32_t f, k;
        if (t < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999;
        } else if (t < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (t < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        const uint32_t temp = rotl(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = temp;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void skn_sha1_init(skn_sha1* s) {
    static const uint32_t initial[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    memcpy(s->h, initial, sizeof initial);
    memset(&s->block, 0, sizeof s->block);
}

void skn_sha1_update(skn_sha1* s, const void* data, size_t n) { skn_md_update(&s->block, s->h, compress, data, n); }

void skn_sha1_final(skn_sha1* s, unsigned char digest[20]) {
    skn_md_finish(&s->block, s->h, compress);
    skn_md_digest(s->h, 5, digest);
}
