/* SPDX-License-Identifier: MIT */
/* skn quantize's metadata copy: every pair of the input, arrays of arrays
 * included, handed to the writer unchanged. On the public C API only. */
#include <stdlib.h>
#include <string.h>

#include "quant_meta.h"


typedef struct node_pool {
    skn_gguf_array_value** nodes;
    size_t count, cap;
    void** blocks;
    size_t nblocks, blocks_cap;
} node_pool;

static void* pool_keep(node_pool* p, void* block) {
    if (block == NULL) return NULL;
    if (p->nblocks == p->blocks_cap) {
        p->blocks_cap = p->blocks_cap ? 2 * p->blocks_cap : 16;
        void** grown = realloc(p->blocks, p->blocks_cap * sizeof *grown);
        if (grown == NULL) {
            free(block);
            return NULL;
        }
        p->blocks = grown;
    }
    p->blocks[p->nblocks++] = block;
    return block;
}

static void pool_free(node_pool* p) {
    for (size_t i = 0; i < p->nblocks; ++i) free(p->blocks[i]);
    free(p->blocks);
}

/* The reader's array `array` as an skn_gguf_array_value tree (strings and
 * numbers point into the input file; nodes live in the pool). */
static skn_gguf_array_value* array_tree(const skn_gguf* g, uint64_t array, node_pool* pool) {
    skn_gguf_array_value* v = pool_keep(pool, calloc(1, sizeof *v));
    if (v == NULL) return NULL;
    v->struct_size = sizeof *v;
    if (skn_gguf_array_info(g, array, &v->element_type, &v->count) != SKN_OK) return NULL;
    if (v->element_type == SKN_GGUF_TYPE_STRING) {
        const char** strs = pool_keep(pool, calloc(v->count ? v->count : 1, sizeof *strs));
        size_t* lens = pool_keep(pool, calloc(v->count ? v->count : 1, sizeof *lens));
        if (strs == NULL || lens == NULL) return NULL;
        for (uint64_t i = 0; i < v->count; ++i)
            if (skn_gguf_array_string(g, array, i, &strs[i], &lens[i]) != SKN_OK) return NULL;
        v->strings = strs;
        v->lengths = lens;
    } else if (v->element_type == SKN_GGUF_TYPE_ARRAY) {
        const skn_gguf_array_value** kids = pool_keep(pool, calloc(v->count ? v->count : 1, sizeof *kids));
        if (kids == NULL) return NULL;
        for (uint64_t i = 0; i < v->count; ++i) {
            uint64_t child = 0;
            if (skn_gguf_array_nested(g, array, i, &child) != SKN_OK || (kids[i] = array_tree(g, child, pool)) == NULL)
                return NULL;
        }
        v->arrays = kids;
    } else {
        uint64_t n = 0;
        if (skn_gguf_array_data(g, array, &v->data, &n) != SKN_OK) return NULL;
    }
    return v;
}

skn_status skn_quant_copy_pair(const skn_gguf* g, int64_t k, const char* key, skn_gguf_writer* w) {
    skn_gguf_type type;
    skn_status st = skn_gguf_kv_type(g, k, &type);
    if (st != SKN_OK) return st;
    switch (type) {
#define COPY(T, ctype, suffix)                                                        \
    case T: {                                                                         \
        ctype v;                                                                      \
        if ((st = skn_gguf_get_##suffix(g, k, &v)) != SKN_OK) return st;              \
        return skn_gguf_writer_add_##suffix(w, key, v);                               \
    }
        COPY(SKN_GGUF_TYPE_U8, uint8_t, u8)
        COPY(SKN_GGUF_TYPE_I8, int8_t, i8)
        COPY(SKN_GGUF_TYPE_U16, uint16_t, u16)
        COPY(SKN_GGUF_TYPE_I16, int16_t, i16)
        COPY(SKN_GGUF_TYPE_U32, uint32_t, u32)
        COPY(SKN_GGUF_TYPE_I32, int32_t, i32)
        COPY(SKN_GGUF_TYPE_U64, uint64_t, u64)
        COPY(SKN_GGUF_TYPE_I64, int64_t, i64)
        COPY(SKN_GGUF_TYPE_F32, float, f32)
        COPY(SKN_GGUF_TYPE_F64, double, f64)
        COPY(SKN_GGUF_TYPE_BOOL, int, bool)
#undef COPY
        case SKN_GGUF_TYPE_STRING: {
            const char* s = NULL;
            size_t len = 0;
            if ((st = skn_gguf_get_string(g, k, &s, &len)) != SKN_OK) return st;
            return skn_gguf_writer_add_string(w, key, s, len);
        }
        case SKN_GGUF_TYPE_ARRAY: {
            node_pool pool = {0};
            skn_gguf_array_value* v = array_tree(g, (uint64_t)k, &pool);
            st = v != NULL ? skn_gguf_writer_add_array_value(w, key, v) : SKN_E_OUT_OF_MEMORY;
            pool_free(&pool);
            return st;
        }
        default: return SKN_E_INVALID_ARGUMENT;
    }
}

