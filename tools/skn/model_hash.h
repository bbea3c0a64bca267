/* SPDX-License-Identifier: MIT */
/* A whole-model hash as gguf-py's gguf_hash.py computes it (skn verify
 * --model-hash): SHA-1, SHA-256 and a UUIDv5 over the bytes of every tensor
 * concatenated in the file's tensor order (the order of the tensor infos,
 * not of the data), padding excluded, skipping tensors whose name ends in
 * ".attention.masked_bias", ".attention.bias" or ".rotary_emb.inv_freq".
 * Metadata is not hashed: two files with the same weights hash alike. */
#ifndef SKN_TOOL_MODEL_HASH_H
#define SKN_TOOL_MODEL_HASH_H

#include <stdint.h>

#include "skn/skn.h"

typedef struct {
    char sha1[41];
    char sha256[65];
    char uuid[37]; /* UUIDv5 in llama.cpp's namespace, from SHA-1(namespace, bytes) */
    int64_t tensors; /* hashed */
    uint64_t bytes;  /* hashed */
} skn_model_hash;

/* Hash `g`'s tensors, reading them in chunks and releasing the pages read.
 * Returns SKN_OK, or the status of a tensor whose bytes cannot be located
 * (skn_last_error() names it). */
skn_status skn_model_hash_compute(const skn_gguf* g, skn_model_hash* out);

#endif
