/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), incremental. */
#ifndef SKN_TOOL_SHA256_H
#define SKN_TOOL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "md_block.h"

typedef struct skn_sha256 {
    uint32_t h[8];
    skn_md_buffer block;
} skn_sha256;

void skn_sha256_init(skn_sha256* s);
void skn_sha256_update(skn_sha256* s, const void* data, size_t n);
/* The digest as 64 lower-case hex digits and a NUL. */
void skn_sha256_final(skn_sha256* s, char hex[65]);

#endif
