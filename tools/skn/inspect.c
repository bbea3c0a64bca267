/* SPDX-License-Identifier: MIT */
/* skn inspect [FILE]: print a GGUF file's metadata and tensor table, using
 * the public C API only. Without FILE it inspects an embedded sample that it
 * builds in memory with the GGUF writer. */
#define _DEFAULT_SOURCE /* open_memstream */
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "skn/skn.h"
#include "tensor_util.h"

enum { kPreviewElements = 4, kPreviewChars = 48, kMaxGgmlName = 63 };

/* Whether the terminal takes UTF-8: the locale's character set (LANG,
 * LC_ALL, LC_CTYPE) is UTF-8. Set once by skn_cmd_inspect. */
static int g_utf8 = 0;

/* The length of the valid UTF-8 sequence of a non-ASCII character at
 * s[0..n) that a terminal shows as a character, or 0: invalid UTF-8, ASCII
 * and the C1 control characters are shown as \xNN instead. */
static size_t utf8_sequence(const unsigned char* s, size_t n) {
    uint32_t cp;
    const size_t len = skn_utf8_decode(s, n, &cp);
    return len > 1 && !(cp >= 0x80 && cp < 0xa0) ? len : 0;
}

/* Print `len` bytes as a quoted string, eliding the middle of long strings.
 * Printable ASCII as is; valid UTF-8 as is when the terminal takes it; every
 * other byte (controls, invalid sequences) as \xNN. */
static void print_quoted(FILE* out, const char* s, size_t len) {
    putc('"', out);
    const size_t shown = len > kPreviewChars ? kPreviewChars : len;
    const unsigned char* u = (const unsigned char*)s;
    for (size_t i = 0; i < shown; ++i) {
        const unsigned char c = u[i];
        size_t seq;
        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
        } else if (c >= 0x20 && c < 0x7f) {
            putc(c, out);
        } else if (g_utf8 && (seq = utf8_sequence(u + i, shown - i)) > 0) {
            fwrite(u + i, 1, seq, out);
            i += seq - 1;
        } else {
            fprintf(out, "\\x%02x", c);
        }
    }
    putc('"', out);
    if (shown < len) fprintf(out, "... (%zu bytes)", len);
}

/* One element of a numeric array, read with memcpy (the data may be unaligned). */
static void print_number(FILE* out, skn_gguf_type type, const unsigned char* p) {
    union {
        uint8_t u8;
        int8_t i8;
        uint16_t u16;
        int16_t i16;
        uint32_t u32;
        int32_t i32;
        uint64_t u64;
        int64_t i64;
        float f32;
        double f64;
    } v;
    switch (type) {
        case SKN_GGUF_TYPE_U8: memcpy(&v.u8, p, 1); fprintf(out, "%u", (unsigned)v.u8); break;
        case SKN_GGUF_TYPE_I8: memcpy(&v.i8, p, 1); fprintf(out, "%d", (int)v.i8); break;
        case SKN_GGUF_TYPE_BOOL: memcpy(&v.u8, p, 1); fprintf(out, "%s", v.u8 ? "true" : "false"); break;
        case SKN_GGUF_TYPE_U16: memcpy(&v.u16, p, 2); fprintf(out, "%u", (unsigned)v.u16); break;
        case SKN_GGUF_TYPE_I16: memcpy(&v.i16, p, 2); fprintf(out, "%d", (int)v.i16); break;
        case SKN_GGUF_TYPE_U32: memcpy(&v.u32, p, 4); fprintf(out, "%" PRIu32, v.u32); break;
        case SKN_GGUF_TYPE_I32: memcpy(&v.i32, p, 4); fprintf(out, "%" PRId32, v.i32); break;
        case SKN_GGUF_TYPE_U64: memcpy(&v.u64, p, 8); fprintf(out, "%" PRIu64, v.u64); break;
        case SKN_GGUF_TYPE_I64: memcpy(&v.i64, p, 8); fprintf(out, "%" PRId64, v.i64); break;
        case SKN_GGUF_TYPE_F32: memcpy(&v.f32, p, 4); fprintf(out, "%.9g", (double)v.f32); break;
        case SKN_GGUF_TYPE_F64: memcpy(&v.f64, p, 8); fprintf(out, "%.17g", v.f64); break;
        default: fprintf(out, "?"); break;
    }
}

static size_t number_size(skn_gguf_type type) {
    switch (type) {
        case SKN_GGUF_TYPE_U8: case SKN_GGUF_TYPE_I8: case SKN_GGUF_TYPE_BOOL: return 1;
        case SKN_GGUF_TYPE_U16: case SKN_GGUF_TYPE_I16: return 2;
        case SKN_GGUF_TYPE_U32: case SKN_GGUF_TYPE_I32: case SKN_GGUF_TYPE_F32: return 4;
        default: return 8;
    }
}

/* "string[151936] ["<unk>", "<s>", ...]": element type, length, the first few elements. */
static int print_array(FILE* out, const skn_gguf* g, uint64_t array, int depth) {
    skn_gguf_type type;
    uint64_t count = 0;
    if (skn_gguf_array_info(g, array, &type, &count) != SKN_OK) return -1;
    fprintf(out, "%s[%" PRIu64 "] [", skn_gguf_type_name(type), count);
    const uint64_t shown = count < kPreviewElements ? count : kPreviewElements;
    const void* data = NULL;
    uint64_t n = 0;
    if (type != SKN_GGUF_TYPE_STRING && type != SKN_GGUF_TYPE_ARRAY &&
        skn_gguf_array_data(g, array, &data, &n) != SKN_OK)
        return -1;
    for (uint64_t i = 0; i < shown; ++i) {
        if (i > 0) fprintf(out, ", ");
        if (type == SKN_GGUF_TYPE_STRING) {
            const char* s = NULL;
            size_t len = 0;
            if (skn_gguf_array_string(g, array, i, &s, &len) != SKN_OK) return -1;
            print_quoted(out, s, len);
        } else if (type == SKN_GGUF_TYPE_ARRAY) {
            uint64_t inner = 0;
            if (skn_gguf_array_nested(g, array, i, &inner) != SKN_OK) return -1;
            if (depth >= 2) {
                fprintf(out, "[...]");
            } else if (print_array(out, g, inner, depth + 1) != 0) {
                return -1;
            }
        } else {
            print_number(out, type, (const unsigned char*)data + i * number_size(type));
        }
    }
    fprintf(out, "%s]", shown < count ? ", ..." : "");
    return 0;
}

static int print_value(FILE* out, const skn_gguf* g, int64_t key, skn_gguf_type type) {
    if (type == SKN_GGUF_TYPE_ARRAY) return print_array(out, g, (uint64_t)key, 0);
    if (type == SKN_GGUF_TYPE_STRING) {
        const char* s = NULL;
        size_t len = 0;
        if (skn_gguf_get_string(g, key, &s, &len) != SKN_OK) return -1;
        print_quoted(out, s, len);
        return 0;
    }
    unsigned char raw[8];
    skn_status st = SKN_OK;
    switch (type) {
        case SKN_GGUF_TYPE_U8: st = skn_gguf_get_u8(g, key, (uint8_t*)raw); break;
        case SKN_GGUF_TYPE_I8: st = skn_gguf_get_i8(g, key, (int8_t*)raw); break;
        case SKN_GGUF_TYPE_U16: { uint16_t v; st = skn_gguf_get_u16(g, key, &v); memcpy(raw, &v, 2); break; }
        case SKN_GGUF_TYPE_I16: { int16_t v; st = skn_gguf_get_i16(g, key, &v); memcpy(raw, &v, 2); break; }
        case SKN_GGUF_TYPE_U32: { uint32_t v; st = skn_gguf_get_u32(g, key, &v); memcpy(raw, &v, 4); break; }
        case SKN_GGUF_TYPE_I32: { int32_t v; st = skn_gguf_get_i32(g, key, &v); memcpy(raw, &v, 4); break; }
        case SKN_GGUF_TYPE_F32: { float v; st = skn_gguf_get_f32(g, key, &v); memcpy(raw, &v, 4); break; }
        case SKN_GGUF_TYPE_U64: { uint64_t v; st = skn_gguf_get_u64(g, key, &v); memcpy(raw, &v, 8); break; }
        case SKN_GGUF_TYPE_I64: { int64_t v; st = skn_gguf_get_i64(g, key, &v); memcpy(raw, &v, 8); break; }
        case SKN_GGUF_TYPE_F64: { double v; st = skn_gguf_get_f64(g, key, &v); memcpy(raw, &v, 8); break; }
        case SKN_GGUF_TYPE_BOOL: { int v; st = skn_gguf_get_bool(g, key, &v); raw[0] = (unsigned char)v; break; }
        default: return -1;
    }
    if (st != SKN_OK) return -1;
    print_number(out, type, raw);
    return 0;
}

static void shape_text(char* out, size_t cap, int rank, const int64_t* dims) {
    size_t at = (size_t)snprintf(out, cap, "[");
    for (int d = 0; d < rank && at < cap; ++d)
        at += (size_t)snprintf(out + at, cap - at, "%s%" PRId64, d ? ", " : "", dims[d]);
    if (at < cap) snprintf(out + at, cap - at, "]");
}

/* Tensor i's facts and its element count (for bits per weight). */
static int tensor_facts(const skn_gguf* g, int64_t i, skn_gguf_tensor_props* t, double* elements) {
    memset(t, 0, sizeof *t);
    t->struct_size = sizeof *t;
    if (skn_gguf_tensor_info(g, i, t) != SKN_OK) return -1;
    *elements = 1.0;
    for (int d = 0; d < t->rank; ++d) *elements *= (double)t->ne[d];
    return 0;
}

/* One line per row-interleaved format among the file's tensors, in order of
 * first use: its canonical format and block rows (a tensor's rows are
 * stored in groups of that many). Returns how many were printed. */
static int interleaved_notes(const skn_gguf* g, const char* before, const char* after) {
    skn_format seen[64];
    int n = 0;
    for (int64_t i = 0; i < skn_gguf_tensor_count(g) && n < 64; ++i) {
        skn_gguf_tensor_props t;
        double elements;
        if (tensor_facts(g, i, &t, &elements) != 0 || !t.supported) continue;
        const int64_t rows = skn_format_rows_per_block(t.format);
        int known = rows == 1;
        for (int k = 0; k < n && !known; ++k) known = seen[k] == t.format;
        if (known) continue;
        seen[n++] = t.format;
        const char* canonical = skn_tool_format_name(skn_format_canonical(t.format));
        printf("%s%s is %s row-interleaved: one block holds %" PRId64 " rows, so rows are stored in groups of %" PRId64
               "%s\n",
               before, t.type_name, canonical, rows, rows, after);
    }
    return n;
}

static int inspect(const skn_gguf* g, const char* label, int no_tensors) {
    const int64_t nkv = skn_gguf_kv_count(g);
    const int64_t nt = skn_gguf_tensor_count(g);
    printf("%s: GGUF v%u, %" PRIu64 " bytes, alignment %u, data at byte %" PRIu64 "\n", label, skn_gguf_version(g),
           skn_gguf_file_size(g), skn_gguf_alignment(g), skn_gguf_data_offset(g));
    printf("\nmetadata (%" PRId64 " keys):\n", nkv);
    for (int64_t k = 0; k < nkv; ++k) {
        const char* key = NULL;
        skn_gguf_type type;
        if (skn_gguf_kv_key(g, k, &key, NULL) != SKN_OK || skn_gguf_kv_type(g, k, &type) != SKN_OK) return -1;
        printf("  %-40s %-6s = ", key, skn_gguf_type_name(type));
        if (print_value(stdout, g, k, type) != 0) return -1;
        putchar('\n');
    }
    printf("\ntensors (%" PRId64 ", %" PRId64 " of types skn does not implement)%s\n", nt,
           skn_gguf_unsupported_count(g), no_tensors ? "" : ":");
    if (no_tensors) return 0;
    printf("  %-28s %-10s %-22s %-22s %12s %7s\n", "name", "format", "shape AS_STORED", "shape OUT_IN", "bytes",
           "bits/w");
    uint64_t total = 0;
    int long_names = 0, i2s_unknown = 0;
    for (int64_t i = 0; i < nt; ++i) {
        skn_gguf_tensor_props t;
        double elements;
        if (tensor_facts(g, i, &t, &elements) != 0) return -1;
        /* The file was opened OUT_IN, so `shape` is OUT_IN and `ne` the stored order. */
        char stored[64], out_in[64], bits[16];
        shape_text(stored, sizeof stored, t.rank, t.ne);
        shape_text(out_in, sizeof out_in, t.rank, t.shape);
        if (t.size > 0)
            snprintf(bits, sizeof bits, "%.3f", (double)t.size * 8.0 / elements);
        else
            snprintf(bits, sizeof bits, "?");
        /* Types skn does not implement carry their numeric id too: an
         * "unknown" name alone does not say which type the file holds. */
        char type_text[48];
        if (!t.supported && t.type_id == 36) ++i2s_unknown;
        if (t.supported)
            snprintf(type_text, sizeof type_text, "%s", t.type_name);
        else
            snprintf(type_text, sizeof type_text, "%s(%" PRId32 ")*", t.type_name, (int32_t)t.type_id);
        const size_t name_len = strlen(t.name);
        if (name_len > kMaxGgmlName) ++long_names;
        printf("  %-28s %-10s %-22s %-22s %12" PRIu64 " %7s%s\n", t.name, type_text, stored, out_in, t.size, bits,
               name_len > kMaxGgmlName ? " !" : "");
        total += t.size;
    }
    printf("  %-28s %-10s %-22s %-22s %12" PRIu64 "\n", "total", "", "", "", total);
    interleaved_notes(g, "  (", ")");
    if (skn_gguf_unsupported_count(g) > 0)
        printf("  (* a type skn does not implement, with its GGUF type id: listed, not decodable)\n");
    if (i2s_unknown > 0)
        printf("  (type 36 is I2_S, and %s)\n", skn_tool_i2s_layout_advice());
    if (long_names > 0)
        printf("  (! a name longer than %d bytes: ggml keeps tensor names in a 64-byte buffer, so llama.cpp cannot "
               "load this file; %d such tensor(s))\n",
               kMaxGgmlName, long_names);
    return 0;
}

/* ---- --json: the same content as the table, values in full */

static void json_number(skn_gguf_type type, const unsigned char* p) {
    float f32;
    double f64;
    switch (type) {
        case SKN_GGUF_TYPE_F32: memcpy(&f32, p, 4); skn_json_float(stdout, (double)f32, 9); break;
        case SKN_GGUF_TYPE_F64: memcpy(&f64, p, 8); skn_json_float(stdout, f64, 17); break;
        default: print_number(stdout, type, p); break; /* integers and bools print as JSON already */
    }
}

static int json_array(const skn_gguf* g, uint64_t array) {
    skn_gguf_type type;
    uint64_t count = 0;
    if (skn_gguf_array_info(g, array, &type, &count) != SKN_OK) return -1;
    const void* data = NULL;
    uint64_t n = 0;
    if (type != SKN_GGUF_TYPE_STRING && type != SKN_GGUF_TYPE_ARRAY &&
        skn_gguf_array_data(g, array, &data, &n) != SKN_OK)
        return -1;
    putchar('[');
    for (uint64_t i = 0; i < count; ++i) {
        if (i > 0) printf(", ");
        if (type == SKN_GGUF_TYPE_STRING) {
            const char* s = NULL;
            size_t len = 0;
            if (skn_gguf_array_string(g, array, i, &s, &len) != SKN_OK) return -1;
            skn_json_string(stdout, s, len);
        } else if (type == SKN_GGUF_TYPE_ARRAY) {
            uint64_t inner = 0;
            if (skn_gguf_array_nested(g, array, i, &inner) != SKN_OK || json_array(g, inner) != 0) return -1;
        } else {
            json_number(type, (const unsigned char*)data + i * number_size(type));
        }
    }
    putchar(']');
    return 0;
}

static int json_value(const skn_gguf* g, int64_t key, skn_gguf_type type) {
    if (type == SKN_GGUF_TYPE_ARRAY) {
        skn_gguf_type element;
        uint64_t count = 0;
        if (skn_gguf_array_info(g, (uint64_t)key, &element, &count) != SKN_OK) return -1;
        printf("\"element_type\": \"%s\", \"count\": %" PRIu64 ", \"value\": ", skn_gguf_type_name(element), count);
        return json_array(g, (uint64_t)key);
    }
    printf("\"value\": ");
    if (type == SKN_GGUF_TYPE_STRING) {
        const char* s = NULL;
        size_t len = 0;
        if (skn_gguf_get_string(g, key, &s, &len) != SKN_OK) return -1;
        skn_json_string(stdout, s, len);
        return 0;
    }
    if (type == SKN_GGUF_TYPE_F32) {
        float v;
        if (skn_gguf_get_f32(g, key, &v) != SKN_OK) return -1;
        skn_json_float(stdout, (double)v, 9);
        return 0;
    }
    if (type == SKN_GGUF_TYPE_F64) {
        double v;
        if (skn_gguf_get_f64(g, key, &v) != SKN_OK) return -1;
        skn_json_float(stdout, v, 17);
        return 0;
    }
    return print_value(stdout, g, key, type);
}

static void json_dims(int rank, const int64_t* dims) {
    putchar('[');
    for (int d = 0; d < rank; ++d) printf("%s%" PRId64, d ? ", " : "", dims[d]);
    putchar(']');
}

static int inspect_json(const skn_gguf* g, const char* label, int no_tensors) {
    const int64_t nkv = skn_gguf_kv_count(g);
    const int64_t nt = skn_gguf_tensor_count(g);
    printf("{\"file\": ");
    skn_json_string(stdout, label, strlen(label));
    printf(", \"version\": %u, \"file_size\": %" PRIu64 ", \"alignment\": %u, \"data_offset\": %" PRIu64 ",\n",
           skn_gguf_version(g), skn_gguf_file_size(g), skn_gguf_alignment(g), skn_gguf_data_offset(g));
    printf(" \"metadata\": [");
    for (int64_t k = 0; k < nkv; ++k) {
        const char* key = NULL;
        size_t key_len = 0;
        skn_gguf_type type;
        if (skn_gguf_kv_key(g, k, &key, &key_len) != SKN_OK || skn_gguf_kv_type(g, k, &type) != SKN_OK) return -1;
        printf("%s\n  {\"key\": ", k ? "," : "");
        skn_json_string(stdout, key, key_len);
        printf(", \"type\": \"%s\", ", skn_gguf_type_name(type));
        if (json_value(g, k, type) != 0) return -1;
        putchar('}');
    }
    if (no_tensors) {
        printf("%s],\n \"tensor_count\": %" PRId64 ", \"unsupported_count\": %" PRId64 "}\n", nkv ? "\n " : "", nt,
               skn_gguf_unsupported_count(g));
        return 0;
    }
    printf("%s],\n \"tensors\": [", nkv ? "\n " : "");
    uint64_t total = 0;
    for (int64_t i = 0; i < nt; ++i) {
        skn_gguf_tensor_props t;
        double elements;
        if (tensor_facts(g, i, &t, &elements) != 0) return -1;
        printf("%s\n  {\"name\": ", i ? "," : "");
        skn_json_string(stdout, t.name, t.name_len);
        printf(", \"type\": \"%s\", \"type_id\": %" PRId32 ", \"supported\": %s, \"shape_as_stored\": ", t.type_name,
               (int32_t)t.type_id, t.supported ? "true" : "false");
        json_dims(t.rank, t.ne);
        printf(", \"shape_out_in\": ");
        json_dims(t.rank, t.shape);
        printf(", \"offset\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"bits_per_weight\": ", t.offset, t.size);
        if (t.size > 0)
            printf("%.3f", (double)t.size * 8.0 / elements);
        else
            printf("null");
        printf(", \"name_too_long\": %s, \"block_rows\": ", t.name_len > kMaxGgmlName ? "true" : "false");
        if (t.supported) printf("%" PRId64, skn_format_rows_per_block(t.format)); else printf("null");
        printf(", \"interleaves\": ");
        if (t.supported && skn_format_rows_per_block(t.format) > 1)
            printf("\"%s\"", skn_tool_format_name(skn_format_canonical(t.format)));
        else
            printf("null");
        printf("}");
        total += t.size;
    }
    printf("%s],\n \"total_bytes\": %" PRIu64 ", \"unsupported_count\": %" PRId64 "}\n", nt ? "\n " : "", total,
           skn_gguf_unsupported_count(g));
    return 0;
}

/* ---- --markdown: the same content as GitHub-flavoured Markdown tables */

/* Write `text` for a table cell: '|' escaped, line breaks as spaces (the
 * values are already quoted and escaped as the text table shows them). */
static void md_cell(const char* text, size_t len) {
    for (size_t i = 0; i < len; ++i) {
        if (text[i] == '|') fputs("\\|", stdout);
        else if (text[i] == '\n' || text[i] == '\r') putchar(' ');
        else putchar(text[i]);
    }
}

static int md_value(const skn_gguf* g, int64_t key, skn_gguf_type type) {
    char* buf = NULL;
    size_t len = 0;
    FILE* mem = open_memstream(&buf, &len);
    if (mem == NULL) return -1;
    const int rc = print_value(mem, g, key, type);
    fclose(mem);
    if (rc == 0) {
        fputs("`", stdout);
        for (size_t i = 0; i < len; ++i) /* inside a code span a backtick would end it */
            if (buf[i] == '`') buf[i] = '\'';
        md_cell(buf, len);
        fputs("`", stdout);
    }
    free(buf);
    return rc;
}

static int inspect_markdown(const skn_gguf* g, const char* label, int no_tensors) {
    const int64_t nkv = skn_gguf_kv_count(g);
    const int64_t nt = skn_gguf_tensor_count(g);
    printf("# ");
    md_cell(label, strlen(label));
    printf("\n\nGGUF v%u, %" PRIu64 " bytes, alignment %u, data section at byte %" PRIu64 ".\n\n", skn_gguf_version(g),
           skn_gguf_file_size(g), skn_gguf_alignment(g), skn_gguf_data_offset(g));
    printf("## Metadata (%" PRId64 " keys)\n\n| # | key | type | value |\n|---:|---|---|---|\n", nkv);
    for (int64_t k = 0; k < nkv; ++k) {
        const char* key = NULL;
        size_t key_len = 0;
        skn_gguf_type type;
        if (skn_gguf_kv_key(g, k, &key, &key_len) != SKN_OK || skn_gguf_kv_type(g, k, &type) != SKN_OK) return -1;
        printf("| %" PRId64 " | ", k + 1);
        md_cell(key, key_len);
        printf(" | %s | ", skn_gguf_type_name(type));
        if (md_value(g, k, type) != 0) return -1;
        printf(" |\n");
    }
    printf("\n## Tensors (%" PRId64 ", %" PRId64 " of types skn does not implement)\n", nt,
           skn_gguf_unsupported_count(g));
    if (no_tensors) return 0;
    printf("\n| # | name | type | shape (ne, as stored) | shape [out, in] | offset | bytes | bits/weight |\n"
           "|---:|---|---|---|---|---:|---:|---:|\n");
    uint64_t total = 0;
    for (int64_t i = 0; i < nt; ++i) {
        skn_gguf_tensor_props t;
        double elements;
        if (tensor_facts(g, i, &t, &elements) != 0) return -1;
        char stored[64], out_in[64];
        shape_text(stored, sizeof stored, t.rank, t.ne);
        shape_text(out_in, sizeof out_in, t.rank, t.shape);
        printf("| %" PRId64 " | ", i + 1);
        md_cell(t.name, t.name_len);
        if (t.supported)
            printf(" | %s", t.type_name);
        else
            printf(" | %s (type %d, not decodable)", t.type_name, (int)t.type_id);
        printf(" | %s | %s | %" PRIu64 " | %" PRIu64 " | ", stored, out_in, t.offset, t.size);
        if (t.size > 0) printf("%.3f |\n", (double)t.size * 8.0 / elements);
        else printf("? |\n");
        total += t.size;
    }
    printf("\nTotal tensor bytes: %" PRIu64 ".\n", total);
    interleaved_notes(g, "\n", ".");
    return 0;
}

/* ---- the embedded sample */

static uint64_t g_state = 0x5eedf00dULL;
static float next_value(void) {
    g_state = g_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((float)(g_state >> 40) / 16777216.0f - 0.5f) * 0.2f;
}

/* Quantize a deterministic [out, in] weight to `format` and add it, ne = {in, out}. */
static int add_weight(skn_gguf_writer* w, const char* name, skn_format format, int64_t out, int64_t in) {
    size_t bytes = 0;
    if (skn_quantized_size(format, out, in, &bytes) != SKN_OK) return -1;
    float* src = malloc((size_t)(out * in) * sizeof(float));
    void* packed = malloc(bytes);
    int rc = -1;
    if (src != NULL && packed != NULL) {
        for (int64_t i = 0; i < out * in; ++i) src[i] = next_value();
        const int64_t ne[2] = {in, out};
        if (skn_quantize(format, src, out, in, packed, bytes) == SKN_OK &&
            skn_gguf_writer_add_tensor(w, name, format, out == 1 ? 1 : 2, ne, packed, bytes) == SKN_OK)
            rc = 0;
    }
    free(packed);
    free(src);
    return rc;
}

static unsigned char* build_sample(size_t* size) {
    skn_gguf_writer* w = NULL;
    unsigned char* buf = NULL;
    if (skn_gguf_writer_create(&w) != SKN_OK) return NULL;
    static const char* const vocab[] = {"<unk>", "<s>", "</s>", "\xe2\x96\x81" "the", "\xe2\x96\x81" "a", "ing", "ed", "."};
    const int32_t token_types[] = {2, 3, 3, 1, 1, 1, 1, 1};
    const float head_scales[] = {1.0f, 0.5f, 0.25f};
    uint64_t bytes = 0;
    if (skn_gguf_writer_add_string(w, "general.architecture", "llama", 5) != SKN_OK ||
        skn_gguf_writer_add_string(w, "general.name", "skn embedded sample", 19) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.context_length", 2048) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.embedding_length", 256) != SKN_OK ||
        skn_gguf_writer_add_f32(w, "llama.rope.freq_base", 10000.0f) != SKN_OK ||
        skn_gguf_writer_add_bool(w, "tokenizer.ggml.add_bos_token", 1) != SKN_OK ||
        skn_gguf_writer_add_string_array(w, "tokenizer.ggml.tokens", vocab, NULL, 8) != SKN_OK ||
        skn_gguf_writer_add_array(w, "tokenizer.ggml.token_type", SKN_GGUF_TYPE_I32, token_types, 8) != SKN_OK ||
        skn_gguf_writer_add_array(w, "skn.sample.head_scales", SKN_GGUF_TYPE_F32, head_scales, 3) != SKN_OK ||
        add_weight(w, "token_embd.weight", SKN_FORMAT_Q4_K, 8, 256) != 0 ||
        add_weight(w, "blk.0.attn_q.weight", SKN_FORMAT_Q8_0, 16, 256) != 0 ||
        add_weight(w, "blk.0.ffn_up.weight", SKN_FORMAT_IQ4_NL, 32, 256) != 0 ||
        add_weight(w, "blk.0.ffn_down.weight", SKN_FORMAT_Q6_K, 8, 512) != 0 ||
        add_weight(w, "blk.0.ffn_gate.weight", SKN_FORMAT_TQ2_0, 32, 256) != 0 ||
        add_weight(w, "blk.0.attn_norm.weight", SKN_FORMAT_F32, 1, 256) != 0 ||
        add_weight(w, "output.weight", SKN_FORMAT_I2_S, 8, 256) != 0 ||
        skn_gguf_writer_size(w, &bytes) != SKN_OK)
        goto done;
    buf = malloc((size_t)bytes);
    if (buf != NULL && skn_gguf_writer_write_memory(w, buf, (size_t)bytes) != SKN_OK) {
        free(buf);
        buf = NULL;
    }
    *size = (size_t)bytes;
done:
    if (buf == NULL) fprintf(stderr, "skn inspect: building the sample failed: %s\n", skn_last_error());
    skn_gguf_writer_destroy(w);
    return buf;
}

int skn_cmd_inspect(int argc, char** argv) {
    int json = 0, markdown = 0, no_tensors = 0;
    const char* file = NULL;
    for (int i = 1; i < argc; ++i) {
        if (skn_cli_is_help(argv[i])) {
            return skn_cli_help(skn_help_skn_inspect);
        } else if (strcmp(argv[i], "--i2s-layout") == 0) {
            if (i + 1 >= argc || !skn_tool_set_i2s_layout(argv[++i]))
                return skn_cli_usage_error("inspect", skn_help_skn_inspect,
                                           "--i2s-layout needs x86 or arm64 (the bitnet.cpp build that wrote the "
                                           "file's I2_S tensors)");
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--markdown") == 0) {
            markdown = 1;
        } else if (strcmp(argv[i], "--no-tensors") == 0) {
            no_tensors = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return skn_cli_usage_error("inspect", skn_help_skn_inspect, "unknown option \"%s\"", argv[i]);
        } else if (file == NULL) {
            file = argv[i];
        } else {
            return skn_cli_usage_error("inspect", skn_help_skn_inspect, "give at most one FILE");
        }
    }
    if (json && markdown) return skn_cli_usage_error("inspect", skn_help_skn_inspect, "give --json or --markdown, not both");
    setlocale(LC_CTYPE, "");
    g_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    skn_gguf_options opts;
    skn_tool_gguf_options(&opts); /* lists every tensor, marking those skn cannot decode */
    skn_gguf* g = NULL;
    unsigned char* sample = NULL;
    size_t sample_size = 0;
    const char* label;
    skn_status st;
    if (file != NULL) {
        label = file;
        st = skn_gguf_open(label, &opts, &g);
    } else {
        label = "embedded sample";
        sample = build_sample(&sample_size);
        if (sample == NULL) return 1;
        st = skn_gguf_open_memory(sample, sample_size, &opts, &g);
    }
    if (st != SKN_OK) {
        fprintf(stderr, "skn inspect: %s: %s\n", skn_status_name(st), skn_last_error());
        free(sample);
        return 1;
    }
    const int rc = json       ? inspect_json(g, label, no_tensors)
                   : markdown ? inspect_markdown(g, label, no_tensors)
                              : inspect(g, label, no_tensors);
    if (rc != 0) fprintf(stderr, "skn inspect: %s\n", skn_last_error());
    skn_gguf_close(g);
    free(sample);
    return rc == 0 ? 0 : 1;
}
