/* SPDX-License-Identifier: MIT */
/* The metadata a command writes, as an ordered list: pairs copied from an
 * input file (by index, values never decoded) and new scalar or string
 * values. skn quantize applies llama-quantize's edits to it (set = remove,
 * then append, as ggml's gguf_set_val_* does), skn edit its own (a changed
 * key keeps its place), skn split and merge theirs. On the public C API only. */
#ifndef SKN_TOOL_META_LIST_H
#define SKN_TOOL_META_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "skn/skn.h"

/* A new value: a scalar type or SKN_GGUF_TYPE_STRING. */
typedef struct {
    skn_gguf_type type;
    uint64_t u;   /* unsigned integers and BOOL (0 or 1) */
    int64_t i;    /* signed integers */
    double f;     /* F32 and F64 */
    char* str;    /* STRING (owned; may hold NUL bytes) */
    size_t len;
} skn_meta_value;

/* Parse "TYPE:VALUE". With `llama_form` the types are llama.cpp's
 * --override-kv ones: int (written as u32 of the absolute value, as
 * llama-quantize does), float (f32), bool (true or false), str (at most 127
 * bytes); otherwise skn's: u8 i8 u16 i16 u32 i32 u64 i64 f32 f64 bool str.
 * Numbers must be whole and in range (strict, where llama.cpp's atol
 * takes a prefix). Returns 0, or -1 with a message for the user in `err`. */
int skn_meta_parse_typed(const char* text, int llama_form, skn_meta_value* out, char* err, size_t errlen);

/* Parse VALUE as a value of `type` (a scalar type or STRING). Returns 0 or
 * -1 with a message in `err`. */
int skn_meta_parse_as(skn_gguf_type type, const char* text, skn_meta_value* out, char* err, size_t errlen);

void skn_meta_value_free(skn_meta_value* v);

/* Print the value as skn inspect shows scalars (strings quoted). */
void skn_meta_value_print(const skn_meta_value* v);

typedef struct {
    char* key;
    int64_t source;       /* the pair's index in the input file, or -1 for a new value */
    skn_meta_value value; /* when source < 0 */
} skn_meta_entry;

typedef struct {
    skn_meta_entry* e;
    size_t n, cap;
} skn_meta_list;

/* Every pair of `g`, in order (g NULL: an empty list). Returns 0 or -1 (out of
 * memory). */
int skn_meta_list_init(skn_meta_list* l, const skn_gguf* g);
void skn_meta_list_free(skn_meta_list* l);

/* The position of `key`, or -1. */
int64_t skn_meta_list_find(const skn_meta_list* l, const char* key);

/* Remove `key`; returns 1 when it was there, else 0. */
int skn_meta_list_remove(skn_meta_list* l, const char* key);

/* Set `key` to a copy of `v`: removed from its place and appended, as
 * ggml's gguf_set_val_* does. Returns 0 or -1 (out of memory). */
int skn_meta_list_append(skn_meta_list* l, const char* key, const skn_meta_value* v);

/* Set `key` to a copy of `v` in its place, or append it when absent.
 * Returns 0 or -1. */
int skn_meta_list_put(skn_meta_list* l, const char* key, const skn_meta_value* v);

/* Rename entry `at` to `key`. Returns 0 or -1. */
int skn_meta_list_rename(skn_meta_list* l, int64_t at, const char* key);

/* Add every entry to `w` in order: copied pairs from `g` unchanged, new
 * values as given. Returns SKN_OK, or the failing status after printing
 * "skn CMD: key "K": why". */
skn_status skn_meta_list_write(const skn_meta_list* l, const skn_gguf* g, skn_gguf_writer* w, const char* cmd);

/* The type of entry `at` (copied pairs: their type in `g`). */
skn_gguf_type skn_meta_list_type(const skn_meta_list* l, const skn_gguf* g, int64_t at);

#endif
