/* SPDX-License-Identifier: MIT */
#include "meta_list.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quant_meta.h"

/* ---- values ------------------------------------------------------------- */

static const struct {
    const char* name;
    skn_gguf_type type;
} k_type_names[] = {
    {"u8", SKN_GGUF_TYPE_U8},   {"i8", SKN_GGUF_TYPE_I8},   {"u16", SKN_GGUF_TYPE_U16},
    {"i16", SKN_GGUF_TYPE_I16}, {"u32", SKN_GGUF_TYPE_U32}, {"i32", SKN_GGUF_TYPE_I32},
    {"u64", SKN_GGUF_TYPE_U64}, {"i64", SKN_GGUF_TYPE_I64}, {"f32", SKN_GGUF_TYPE_F32},
    {"f64", SKN_GGUF_TYPE_F64}, {"bool", SKN_GGUF_TYPE_BOOL}, {"str", SKN_GGUF_TYPE_STRING},
};

static int is_unsigned(skn_gguf_type t) {
    return t == SKN_GGUF_TYPE_U8 || t == SKN_GGUF_TYPE_U16 || t == SKN_GGUF_TYPE_U32 || t == SKN_GGUF_TYPE_U64;
}

static int is_signed(skn_gguf_type t) {
    return t == SKN_GGUF_TYPE_I8 || t == SKN_GGUF_TYPE_I16 || t == SKN_GGUF_TYPE_I32 || t == SKN_GGUF_TYPE_I64;
}

int skn_meta_parse_as(skn_gguf_type type, const char* text, skn_meta_value* out, char* err, size_t errlen) {
    memset(out, 0, sizeof *out);
    out->type = type;
    char* end = NULL;
    errno = 0;
    if (is_unsigned(type)) {
        const uint64_t max = type == SKN_GGUF_TYPE_U8 ? UINT8_MAX : type == SKN_GGUF_TYPE_U16 ? UINT16_MAX
                             : type == SKN_GGUF_TYPE_U32 ? UINT32_MAX : UINT64_MAX;
        const unsigned long long v = strtoull(text, &end, 10);
        if (text[0] == 0 || text[0] == '-' || *end != 0 || errno == ERANGE || v > max) {
            snprintf(err, errlen, "\"%s\" is not a %s: give a whole number from 0 to %" PRIu64, text,
                     skn_gguf_type_name(type), max);
            return -1;
        }
        out->u = v;
        return 0;
    }
    if (is_signed(type)) {
        const int64_t max = type == SKN_GGUF_TYPE_I8 ? INT8_MAX : type == SKN_GGUF_TYPE_I16 ? INT16_MAX
                            : type == SKN_GGUF_TYPE_I32 ? INT32_MAX : INT64_MAX;
        const long long v = strtoll(text, &end, 10);
        if (text[0] == 0 || *end != 0 || errno == ERANGE || v > max || v < -max - 1) {
            snprintf(err, errlen, "\"%s\" is not an %s: give a whole number from %" PRId64 " to %" PRId64, text,
                     skn_gguf_type_name(type), -max - 1, max);
            return -1;
        }
        out->i = v;
        return 0;
    }
    if (type == SKN_GGUF_TYPE_F32 || type == SKN_GGUF_TYPE_F64) {
        const double v = strtod(text, &end);
        if (text[0] == 0 || *end != 0 || (type == SKN_GGUF_TYPE_F32 && isfinite(v) && fabs(v) > FLT_MAX) ||
            (errno == ERANGE && isinf(v))) {
            snprintf(err, errlen, "\"%s\" is not an %s: give a number such as 0.5 or 1e-6", text,
                     skn_gguf_type_name(type));
            return -1;
        }
        out->f = v;
        return 0;
    }
    if (type == SKN_GGUF_TYPE_BOOL) {
        if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0) {
            snprintf(err, errlen, "\"%s\" is not a bool: give true or false", text);
            return -1;
        }
        out->u = text[0] == 't';
        return 0;
    }
    if (type == SKN_GGUF_TYPE_STRING) {
        out->len = strlen(text);
        out->str = malloc(out->len + 1);
        if (out->str == NULL) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        memcpy(out->str, text, out->len + 1);
        return 0;
    }
    snprintf(err, errlen, "a value of type %s cannot be given on the command line (only numbers, bools and strings)",
             skn_gguf_type_name(type));
    return -1;
}

int skn_meta_parse_typed(const char* text, int llama_form, skn_meta_value* out, char* err, size_t errlen) {
    memset(out, 0, sizeof *out);
    const char* colon = strchr(text, ':');
    const size_t n = colon != NULL ? (size_t)(colon - text) : 0;
    if (llama_form) {
        const char* v = colon != NULL ? colon + 1 : "";
        if (n == 3 && strncmp(text, "int", 3) == 0) {
            /* llama-quantize writes an int override as u32 of its absolute value. */
            skn_meta_value wide;
            if (skn_meta_parse_as(SKN_GGUF_TYPE_I64, v, &wide, err, errlen) != 0) return -1;
            const uint64_t mag = wide.i < 0 ? (uint64_t)(-(wide.i + 1)) + 1 : (uint64_t)wide.i;
            memset(out, 0, sizeof *out);
            out->type = SKN_GGUF_TYPE_U32;
            out->u = (uint32_t)mag;
            return 0;
        }
        if (n == 5 && strncmp(text, "float", 5) == 0) return skn_meta_parse_as(SKN_GGUF_TYPE_F32, v, out, err, errlen);
        if (n == 4 && strncmp(text, "bool", 4) == 0) return skn_meta_parse_as(SKN_GGUF_TYPE_BOOL, v, out, err, errlen);
        if (n == 3 && strncmp(text, "str", 3) == 0) {
            if (strlen(v) > 127) {
                snprintf(err, errlen, "a str value is at most 127 bytes (llama.cpp's limit), this one is %zu",
                         strlen(v));
                return -1;
            }
            return skn_meta_parse_as(SKN_GGUF_TYPE_STRING, v, out, err, errlen);
        }
        snprintf(err, errlen, "\"%s\": give TYPE:VALUE with TYPE int, float, bool or str", text);
        return -1;
    }
    for (size_t i = 0; colon != NULL && i < sizeof k_type_names / sizeof k_type_names[0]; ++i)
        if (strlen(k_type_names[i].name) == n && strncmp(text, k_type_names[i].name, n) == 0)
            return skn_meta_parse_as(k_type_names[i].type, colon + 1, out, err, errlen);
    snprintf(err, errlen, "\"%s\": give TYPE:VALUE with TYPE one of u8 i8 u16 i16 u32 i32 u64 i64 f32 f64 bool str",
             text);
    return -1;
}

void skn_meta_value_free(skn_meta_value* v) {
    free(v->str);
    v->str = NULL;
}

static int value_copy(skn_meta_value* dst, const skn_meta_value* src) {
    *dst = *src;
    if (src->type != SKN_GGUF_TYPE_STRING) return 0;
    dst->str = malloc(src->len + 1);
    if (dst->str == NULL) return -1;
    if (src->len) memcpy(dst->str, src->str, src->len);
    dst->str[src->len] = 0;
    return 0;
}

void skn_meta_value_print(const skn_meta_value* v) {
    if (v->type == SKN_GGUF_TYPE_STRING)
        printf("\"%.*s\"", (int)v->len, v->str);
    else if (v->type == SKN_GGUF_TYPE_BOOL)
        printf("%s", v->u ? "true" : "false");
    else if (is_unsigned(v->type))
        printf("%" PRIu64, v->u);
    else if (is_signed(v->type))
        printf("%" PRId64, v->i);
    else
        printf("%.9g", v->f);
}

/* ---- the list ----------------------------------------------------------- */

static int grow(skn_meta_list* l) {
    if (l->n < l->cap) return 0;
    const size_t cap = l->cap ? 2 * l->cap : 64;
    skn_meta_entry* e = realloc(l->e, cap * sizeof *e);
    if (e == NULL) return -1;
    l->e = e;
    l->cap = cap;
    return 0;
}

static char* dup_text(const char* s) {
    const size_t n = strlen(s) + 1;
    char* d = malloc(n);
    if (d != NULL) memcpy(d, s, n);
    return d;
}

int skn_meta_list_init(skn_meta_list* l, const skn_gguf* g) {
    memset(l, 0, sizeof *l);
    const int64_t n = g != NULL ? skn_gguf_kv_count(g) : 0;
    for (int64_t k = 0; k < n; ++k) {
        const char* key = NULL;
        if (skn_gguf_kv_key(g, k, &key, NULL) != SKN_OK || grow(l) != 0) return -1;
        skn_meta_entry* e = &l->e[l->n];
        memset(e, 0, sizeof *e);
        if ((e->key = dup_text(key)) == NULL) return -1;
        e->source = k;
        ++l->n;
    }
    return 0;
}

static void entry_free(skn_meta_entry* e) {
    free(e->key);
    skn_meta_value_free(&e->value);
}

void skn_meta_list_free(skn_meta_list* l) {
    for (size_t i = 0; i < l->n; ++i) entry_free(&l->e[i]);
    free(l->e);
    memset(l, 0, sizeof *l);
}

int64_t skn_meta_list_find(const skn_meta_list* l, const char* key) {
    for (size_t i = 0; i < l->n; ++i)
        if (strcmp(l->e[i].key, key) == 0) return (int64_t)i;
    return -1;
}

int skn_meta_list_remove(skn_meta_list* l, const char* key) {
    const int64_t at = skn_meta_list_find(l, key);
    if (at < 0) return 0;
    entry_free(&l->e[at]);
    memmove(&l->e[at], &l->e[at + 1], (l->n - (size_t)at - 1) * sizeof l->e[0]);
    --l->n;
    return 1;
}

static int set_new(skn_meta_entry* e, const char* key, const skn_meta_value* v) {
    memset(e, 0, sizeof *e);
    e->source = -1;
    if ((e->key = dup_text(key)) == NULL) return -1;
    if (value_copy(&e->value, v) != 0) {
        free(e->key);
        e->key = NULL;
        return -1;
    }
    return 0;
}

int skn_meta_list_append(skn_meta_list* l, const char* key, const skn_meta_value* v) {
    skn_meta_list_remove(l, key);
    if (grow(l) != 0 || set_new(&l->e[l->n], key, v) != 0) return -1;
    ++l->n;
    return 0;
}

int skn_meta_list_put(skn_meta_list* l, const char* key, const skn_meta_value* v) {
    const int64_t at = skn_meta_list_find(l, key);
    if (at < 0) return skn_meta_list_append(l, key, v);
    skn_meta_entry fresh;
    if (set_new(&fresh, key, v) != 0) return -1;
    entry_free(&l->e[at]);
    l->e[at] = fresh;
    return 0;
}

int skn_meta_list_rename(skn_meta_list* l, int64_t at, const char* key) {
    char* k = dup_text(key);
    if (k == NULL) return -1;
    free(l->e[at].key);
    l->e[at].key = k;
    return 0;
}

skn_gguf_type skn_meta_list_type(const skn_meta_list* l, const skn_gguf* g, int64_t at) {
    const skn_meta_entry* e = &l->e[at];
    if (e->source < 0) return e->value.type;
    skn_gguf_type t = SKN_GGUF_TYPE_U8;
    (void)skn_gguf_kv_type(g, e->source, &t);
    return t;
}

static skn_status add_value(skn_gguf_writer* w, const char* key, const skn_meta_value* v) {
    switch (v->type) {
        case SKN_GGUF_TYPE_U8: return skn_gguf_writer_add_u8(w, key, (uint8_t)v->u);
        case SKN_GGUF_TYPE_I8: return skn_gguf_writer_add_i8(w, key, (int8_t)v->i);
        case SKN_GGUF_TYPE_U16: return skn_gguf_writer_add_u16(w, key, (uint16_t)v->u);
        case SKN_GGUF_TYPE_I16: return skn_gguf_writer_add_i16(w, key, (int16_t)v->i);
        case SKN_GGUF_TYPE_U32: return skn_gguf_writer_add_u32(w, key, (uint32_t)v->u);
        case SKN_GGUF_TYPE_I32: return skn_gguf_writer_add_i32(w, key, (int32_t)v->i);
        case SKN_GGUF_TYPE_U64: return skn_gguf_writer_add_u64(w, key, v->u);
        case SKN_GGUF_TYPE_I64: return skn_gguf_writer_add_i64(w, key, v->i);
        case SKN_GGUF_TYPE_F32: return skn_gguf_writer_add_f32(w, key, (float)v->f);
        case SKN_GGUF_TYPE_F64: return skn_gguf_writer_add_f64(w, key, v->f);
        case SKN_GGUF_TYPE_BOOL: return skn_gguf_writer_add_bool(w, key, (int)v->u);
        case SKN_GGUF_TYPE_STRING: return skn_gguf_writer_add_string(w, key, v->str, v->len);
        default: return SKN_E_INVALID_ARGUMENT;
    }
}

skn_status skn_meta_list_write(const skn_meta_list* l, const skn_gguf* g, skn_gguf_writer* w, const char* cmd) {
    for (size_t i = 0; i < l->n; ++i) {
        const skn_meta_entry* e = &l->e[i];
        const skn_status st = e->source >= 0 ? skn_quant_copy_pair(g, e->source, e->key, w)
                                             : add_value(w, e->key, &e->value);
        if (st != SKN_OK) {
            fprintf(stderr, "skn %s: key \"%s\": %s: %s\n", cmd, e->key, skn_status_name(st), skn_last_error());
            return st;
        }
    }
    return SKN_OK;
}
