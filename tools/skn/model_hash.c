/* SPDX-License-Identifier: MIT */
#include "model_hash.h"

#include <stdio.h>
#include <string.h>

#include "sha1.h"
#include "sha256.h"
#include "tensor_copy.h"

enum { kHashChunkBytes = 16 << 20 };

/* gguf_hash.py's UUID_NAMESPACE_LLAMA_CPP, uuid5(NAMESPACE_URL, "en.wikipedia.org/wiki/Llama.cpp"). */
static const unsigned char k_namespace[16] = {0xef, 0x00, 0x12, 0x06, 0xda, 0xdc, 0x5f, 0x6d,
                                              0xa1, 0x5f, 0x33, 0x59, 0xe5, 0x77, 0xd4, 0xe5};

static int skipped(const char* name) {
    static const char* const suffixes[] = {".attention.masked_bias", ".attention.bias", ".rotary_emb.inv_freq"};
    const size_t n = strlen(name);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; ++i) {
        const size_t m = strlen(suffixes[i]);
        if (n >= m && strcmp(name + n - m, suffixes[i]) == 0) return 1;
    }
    return 0;
}

skn_status skn_model_hash_compute(const skn_gguf* g, skn_model_hash* out) {
    memset(out, 0, sizeof *out);
    skn_sha1 sha1, uuid;
    skn_sha256 sha256;
    skn_sha1_init(&sha1);
    skn_sha1_init(&uuid);
    skn_sha256_init(&sha256);
    skn_sha1_update(&uuid, k_namespace, sizeof k_namespace);
    for (int64_t i = 0; i < skn_gguf_tensor_count(g); ++i) {
        skn_gguf_tensor_props t;
        memset(&t, 0, sizeof t);
        t.struct_size = sizeof t;
        skn_status st = skn_gguf_tensor_info(g, i, &t);
        if (st != SKN_OK) return st;
        if (skipped(t.name)) continue;
        const void* data = NULL;
        size_t size = 0;
        if ((st = skn_gguf_tensor_data(g, i, &data, &size)) != SKN_OK) return st;
        for (size_t at = 0; at < size;) {
            const size_t n = size - at < (size_t)kHashChunkBytes ? size - at : (size_t)kHashChunkBytes;
            const unsigned char* p = (const unsigned char*)data + at;
            skn_sha1_update(&sha1, p, n);
            skn_sha1_update(&uuid, p, n);
            skn_sha256_update(&sha256, p, n);
            skn_release_input(data, at + n);
            at += n;
        }
        ++out->tensors;
        out->bytes += size;
    }
    unsigned char d[20];
    skn_sha1_final(&sha1, d);
    skn_md_hex(d, 20, out->sha1);
    skn_sha256_final(&sha256, out->sha256);
    skn_sha1_final(&uuid, d);
    d[6] = (unsigned char)((d[6] & 0x0f) | 0x50); /* version 5 */
    d[8] = (unsigned char)((d[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    char hex[33];
    skn_md_hex(d, 16, hex);
    snprintf(out->uuid, sizeof out->uuid, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
    return SKN_OK;
}
