/* SPDX-License-Identifier: MIT */
/* The block buffering and padding SHA-1 and SHA-256 share (FIPS 180-4,
 * 5.1.1): 64-byte blocks, a 0x80 byte, zeros, the message length in bits
 * as a big-endian u64. */
#ifndef SKN_TOOL_MD_BLOCK_H
#define SKN_TOOL_MD_BLOCK_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t bytes;
    unsigned char buf[64];
    size_t used;
} skn_md_buffer;

/* Mixes one 64-byte block into the hash state h. */
typedef void (*skn_md_compress)(uint32_t* h, const unsigned char* block);

void skn_md_update(skn_md_buffer* b, uint32_t* h, skn_md_compress compress, const void* data, size_t n);
/* Pad and compress the last block(s). */
void skn_md_finish(skn_md_buffer* b, uint32_t* h, skn_md_compress compress);
/* The state words as big-endian bytes. */
void skn_md_digest(const uint32_t* h, int words, unsigned char* out);
/* Bytes as lower-case hex digits and a NUL. */
void skn_md_hex(const unsigned char* bytes, int n, char* hex);

#endif
