/* SPDX-License-Identifier: MIT */
#include "md_block.h"

#include <string.h>

void skn_md_update(skn_md_buffer* b, uint32_t* h, skn_md_compress compress, const void* data, size_t n) {
    const unsigned char* p = data;
    b->bytes += n;
    if (b->used > 0) {
        const size_t take = n < 64 - b->used ? n : 64 - b->used;
        memcpy(b->buf + b->used, p, take);
        b->used += take;
        p += take;
        n -= take;
        if (b->used < 64) return;
        compress(h, b->buf);
        b->used = 0;
    }
    for (; n >= 64; p += 64, n -= 64) compress(h, p);
    memcpy(b->buf, p, n);
    b->used = n;
}

void skn_md_finish(skn_md_buffer* b, uint32_t* h, skn_md_compress compress) {
    const uint64_t bits = b->bytes * 8;
    b->buf[b->used++] = 0x80;
    if (b->used > 56) {
        memset(b->buf + b->used, 0, 64 - b->used);
        compress(h, b->buf);
        b->used = 0;
    }
    memset(b->buf + b->used, 0, 56 - b->used);
    for (int i = 0; i < 8; ++i) b->buf[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
    compress(h, b->buf);
}

void skn_md_digest(const uint32_t* h, int words, unsigned char* out) {
    for (int i = 0; i < 4 * words; ++i) out[i] = (unsigned char)(h[i / 4] >> (24 - 8 * (i % 4)));
}

void skn_md_hex(const unsigned char* bytes, int n, char* hex) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < n; ++i) {
        hex[2 * i] = digits[bytes[i] >> 4];
        hex[2 * i + 1] = digits[bytes[i] & 15];
    }
    hex[2 * n] = 0;
}
