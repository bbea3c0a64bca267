/* SPDX-License-Identifier: MIT */
#include "quant_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An integer key of any integer type; for an array of integers (per-layer
 * values such as head_count in some models) its first element, as llama.cpp
 * uses layer 0's. Returns 1 when read. */
static int read_int(const skn_gguf* g, const char* key, int64_t* out) {
    int64_t k = -1;
    skn_gguf_type t;
    if (skn_gguf_find_key(g, key, &k) != SKN_OK || k < 0 || skn_gguf_kv_type(g, k, &t) != SKN_OK) return 0;
    const void* data = NULL;
    uint64_t count = 0;
    if (t == SKN_GGUF_TYPE_ARRAY) {
        if (skn_gguf_array_info(g, (uint64_t)k, &t, &count) != SKN_OK || count == 0 ||
            skn_gguf_array_data(g, (uint64_t)k, &data, &count) != SKN_OK)
            return 0;
    }
    union {
        uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32; uint64_t u64; int64_t i64;
    } v;
    skn_status st = SKN_E_INVALID_ARGUMENT;
    /* Array elements may be unaligned: memcpy; scalars through the getters. */
#define GET(T, field, getter)                                                   \
    case T:                                                                     \
        if (data != NULL) {                                                     \
            memcpy(&v.field, data, sizeof v.field);                             \
            st = SKN_OK;                                                        \
        } else {                                                                \
            st = getter(g, k, &v.field);                                        \
        }                                                                       \
        if (st == SKN_OK) *out = (int64_t)v.field;                              \
        break;
    switch (t) {
        GET(SKN_GGUF_TYPE_U8, u8, skn_gguf_get_u8)
        GET(SKN_GGUF_TYPE_I8, i8, skn_gguf_get_i8)
        GET(SKN_GGUF_TYPE_U16, u16, skn_gguf_get_u16)
        GET(SKN_GGUF_TYPE_I16, i16, skn_gguf_get_i16)
        GET(SKN_GGUF_TYPE_U32, u32, skn_gguf_get_u32)
        GET(SKN_GGUF_TYPE_I32, i32, skn_gguf_get_i32)
        GET(SKN_GGUF_TYPE_U64, u64, skn_gguf_get_u64)
        GET(SKN_GGUF_TYPE_I64, i64, skn_gguf_get_i64)
        default: break;
    }
#undef GET
    return st == SKN_OK;
}

void skn_model_facts_read(const skn_gguf* g, const char* const* names, int64_t n, skn_model_facts* m) {
    memset(m, 0, sizeof *m);
    int64_t k = -1;
    const char* s = NULL;
    size_t len = 0;
    if (skn_gguf_find_key(g, "general.architecture", &k) == SKN_OK && k >= 0 &&
        skn_gguf_get_string(g, k, &s, &len) == SKN_OK && len < sizeof m->arch) {
        memcpy(m->arch, s, len);
        m->arch[len] = 0;
    }
    char key[128];
    snprintf(key, sizeof key, "%s.block_count", m->arch);
    if (m->arch[0] == 0 || !read_int(g, key, &m->n_layer)) {
        m->n_layer_guessed = 1;
        m->n_layer = 0;
        for (int64_t i = 0; i < n; ++i)
            if (strncmp(names[i], "blk.", 4) == 0) {
                const int64_t b = strtoll(names[i] + 4, NULL, 10);
                if (b + 1 > m->n_layer) m->n_layer = b + 1;
            }
    }
    snprintf(key, sizeof key, "%s.expert_count", m->arch);
    if (m->arch[0] == 0 || !read_int(g, key, &m->n_expert)) m->n_expert = 0;
    snprintf(key, sizeof key, "%s.attention.head_count", m->arch);
    if (m->arch[0] == 0 || !read_int(g, key, &m->n_head)) m->n_head = 0;
    snprintf(key, sizeof key, "%s.attention.head_count_kv", m->arch);
    if (m->arch[0] == 0 || !read_int(g, key, &m->n_head_kv)) m->n_head_kv = m->n_head;
}
