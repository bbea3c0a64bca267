/* SPDX-License-Identifier: MIT */
/* SHA-1 (FIPS 180-4), incremental: for the model UUID gguf-py's
 * gguf_hash.py derives from it (skn verify --model-hash). Not for security. */
#ifndef SKN_TOOL_SHA1_H
#define SKN_TOOL_SHA1_H

#include <stddef.h>
#include <stdint.h>

#include "md_block.h"

typedef struct {
    uint32_t h[5];
    skn_md_buffer block;
} skn_sha1;

void skn_sha1_init(skn_sha1* s);
void skn_sha1_update(skn_sha1* s, const void* data, size_t n);
/* The 20-byte digest. */
void skn_sha1_final(skn_sha1* s, unsigned char digest[20]);

#endif
