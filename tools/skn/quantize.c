/* SPDX-License-Identifier: MIT */
/* skn quantize IN.gguf OUT.gguf TYPE: convert a GGUF file's weights to one
 * format, streaming through libskn's GGUF writer: memory holds the metadata
 * and a few million values of one tensor, never the model. On the public C
 * API only. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "help_text.h"
#include "skn/skn.h"
#include "tensor_util.h"

/* Rows converted per step: about this many values (a tensor with a
 * per-tensor trailer, I2_S, is converted whole). */
enum { kChunkElements = 1 << 22, kMaxThreads = 256 };

/* llama.cpp's general.quantization_version (GGML_QNT_VERSION). */
enum { kQuantizationVersion = 2 };

/* general.file_type as llama.cpp's llama-quantize writes it for each plain
 * type name (llama_ftype; "Q4_K" is its alias for Q4_K_M, and so on).
 * Formats without a llama_ftype get no general.file_type. */
static const struct {
    skn_format format;
    uint32_t file_type;
} k_file_types[] = {
    {SKN_FORMAT_F32, 0},     {SKN_FORMAT_F16, 1},    {SKN_FORMAT_Q4_0, 2},   {SKN_FORMAT_Q4_1, 3},
    {SKN_FORMAT_Q8_0, 7},    {SKN_FORMAT_Q5_0, 8},   {SKN_FORMAT_Q5_1, 9},   {SKN_FORMAT_Q2_K, 10},
    {SKN_FORMAT_Q3_K, 12},   {SKN_FORMAT_Q4_K, 15},  {SKN_FORMAT_Q5_K, 17},  {SKN_FORMAT_Q6_K, 18},
    {SKN_FORMAT_IQ4_NL, 25}, {SKN_FORMAT_IQ4_XS, 30}, {SKN_FORMAT_BF16, 32}, {SKN_FORMAT_TQ1_0, 36},
    {SKN_FORMAT_TQ2_0, 37},  {SKN_FORMAT_MXFP4, 38}, {SKN_FORMAT_NVFP4, 39},
    {SKN_FORMAT_IQ3_XXS, 23}, {SKN_FORMAT_IQ3_S, 26},
};

static int file_type_of(skn_format f, uint32_t* out) {
    for (size_t i = 0; i < sizeof k_file_types / sizeof k_file_types[0]; ++i)
        if (k_file_types[i].format == f) {
            *out = k_file_types[i].file_type;
            return 1;
        }
    return 0;
}

/* Keys llama.cpp sets itself (appended after the copied ones) or drops. */
static int is_replaced_key(const char* key) {
    return strcmp(key, "general.quantization_version") == 0 || strcmp(key, "general.file_type") == 0 ||
           strcmp(key, "split.no") == 0 || strcmp(key, "split.count") == 0 || strcmp(key, "split.tensors.count") == 0;
}

static int ends_with(const char* s, const char* suffix) {
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

typedef struct {
    skn_gguf_tensor_props in;
    int64_t index;
    skn_format out_format;
    uint64_t out_bytes;
    const char* why; /* why it is kept as is, or NULL when converted */
} plan_row;

/* ---- metadata: every pair copied, arrays of arrays included */

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

static skn_status copy_pair(const skn_gguf* g, int64_t k, const char* key, skn_gguf_writer* w) {
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

/* ---- tensors: decode rows, quantize them, on `threads` threads */

typedef struct {
    const skn_gguf* g;
    const plan_row* row;
    int64_t row0, nrows;
    float* floats;
    unsigned char* out;
    size_t out_size;
    skn_status status;
    char message[512];
} work;

static void* convert_rows(void* arg) {
    work* w = arg;
    const int64_t cols = w->row->in.ne[0];
    w->status = skn_tensor_decode_rows(w->g, w->row->index, &w->row->in, w->row0, w->nrows, w->floats);
    if (w->status == SKN_OK)
        w->status = skn_quantize(w->row->out_format, w->floats, w->nrows, cols, w->out, w->out_size);
    if (w->status != SKN_OK) snprintf(w->message, sizeof w->message, "%s", skn_last_error());
    return NULL;
}

/* Convert rows [row0, row0 + n) into `out`, split over `threads` threads
 * by whole rows: each row's bytes depend on that row alone, so the output
 * is the same for any thread count. */
static int convert_chunk(const skn_gguf* g, const plan_row* r, int64_t row0, int64_t n, float* floats,
                         unsigned char* out, int threads) {
    const int64_t cols = r->in.ne[0];
    size_t row_bytes = 0;
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(r->out_format, &fp) != SKN_OK) return -1;
    const int whole = fp.tensor_trailer_bytes > 0; /* one scale for the whole tensor: one call */
    if (!whole) row_bytes = (size_t)(cols / fp.block_elems) * (size_t)fp.block_bytes;
    int parts = whole ? 1 : threads;
    if (parts > n) parts = (int)n;
    work ws[kMaxThreads];
    pthread_t tids[kMaxThreads];
    int64_t at = row0;
    for (int t = 0; t < parts; ++t) {
        const int64_t k = n / parts + (t < n % parts ? 1 : 0);
        ws[t] = (work){g, r, at, k, floats + (at - row0) * cols, out + (size_t)(at - row0) * row_bytes,
                       whole ? (size_t)r->out_bytes : (size_t)k * row_bytes, SKN_OK, ""};
        at += k;
    }
    int started = 0;
    for (int t = 1; t < parts; ++t) {
        if (pthread_create(&tids[t], NULL, convert_rows, &ws[t]) != 0) break;
        started = t;
    }
    convert_rows(&ws[0]);
    for (int t = started + 1; t < parts; ++t) convert_rows(&ws[t]); /* threads that did not start */
    for (int t = 1; t <= started; ++t) pthread_join(tids[t], NULL);
    for (int t = 0; t < parts; ++t)
        if (ws[t].status != SKN_OK) {
            fprintf(stderr, "skn quantize: tensor \"%s\", rows %" PRId64 "..%" PRId64 ": %s: %s\n", r->in.name,
                    ws[t].row0, ws[t].row0 + ws[t].nrows - 1, skn_status_name(ws[t].status), ws[t].message);
            return -1;
        }
    return 0;
}

static int stream_tensor(const skn_gguf* g, const plan_row* r, skn_gguf_stream* s, int threads) {
    if (r->why != NULL) { /* copied as stored */
        const void* data = NULL;
        size_t size = 0;
        if (skn_gguf_tensor_data(g, r->index, &data, &size) != SKN_OK ||
            skn_gguf_stream_write(s, r->in.name, data, size) != SKN_OK) {
            fprintf(stderr, "skn quantize: tensor \"%s\": %s\n", r->in.name, skn_last_error());
            return -1;
        }
        return 0;
    }
    const int64_t cols = r->in.ne[0], rows = skn_tensor_rows(&r->in);
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(r->out_format, &fp) != SKN_OK) return -1;
    int64_t step = cols >= kChunkElements ? 1 : kChunkElements / cols;
    if (fp.tensor_trailer_bytes > 0 || step > rows) step = rows;
    const size_t row_bytes = (size_t)(cols / fp.block_elems) * (size_t)fp.block_bytes;
    const size_t out_cap = fp.tensor_trailer_bytes > 0 ? (size_t)r->out_bytes : (size_t)step * row_bytes;
    float* floats = malloc((size_t)(step * cols) * sizeof(float));
    unsigned char* out = malloc(out_cap);
    int rc = 0;
    if (floats == NULL || out == NULL) {
        fprintf(stderr, "skn quantize: tensor \"%s\": cannot allocate %" PRId64 " rows of %" PRId64 " values\n",
                r->in.name, step, cols);
        rc = -1;
    }
    for (int64_t row0 = 0; row0 < rows && rc == 0; row0 += step) {
        const int64_t n = rows - row0 < step ? rows - row0 : step;
        rc = convert_chunk(g, r, row0, n, floats, out, threads);
        const size_t bytes = fp.tensor_trailer_bytes > 0 ? (size_t)r->out_bytes : (size_t)n * row_bytes;
        if (rc == 0 && skn_gguf_stream_write(s, r->in.name, out, bytes) != SKN_OK) {
            fprintf(stderr, "skn quantize: tensor \"%s\": %s\n", r->in.name, skn_last_error());
            rc = -1;
        }
    }
    free(floats);
    free(out);
    return rc;
}

static int usage_error(const char* what, const char* arg) {
    fputs("skn quantize: ", stderr);
    fprintf(stderr, what, arg);
    fputs("\n\n", stderr);
    fputs(skn_help_skn_quantize, stderr);
    return 2;
}

int skn_cmd_quantize(int argc, char** argv) {
    const char* pos[3] = {NULL, NULL, NULL};
    int npos = 0, dry_run = 0, allow_requantize = 0, threads = 1;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (skn_is_help_flag(a)) {
            fputs(skn_help_skn_quantize, stdout);
            return 0;
        } else if (strcmp(a, "--dry-run") == 0) {
            dry_run = 1;
        } else if (strcmp(a, "--allow-requantize") == 0) {
            allow_requantize = 1;
        } else if (strcmp(a, "--threads") == 0) {
            char* end = NULL;
            errno = 0;
            const long t = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || errno != 0 || *end != 0 || t < 1 || t > kMaxThreads)
                return usage_error("--threads needs a count from 1 to 256%s", "");
            threads = (int)t;
            ++i;
        } else if (a[0] == '-' && a[1] != 0) {
            return usage_error("unknown option \"%s\"", a);
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            return usage_error("unexpected argument \"%s\": give IN.gguf OUT.gguf TYPE", a);
        }
    }
    if (dry_run && npos == 2) { /* OUT may be left out with --dry-run */
        pos[2] = pos[1];
        pos[1] = NULL;
        npos = 3;
    }
    if (npos != 3) return usage_error("give IN.gguf, OUT.gguf and TYPE%s", "");
    const char* in_path = pos[0];
    const char* out_path = pos[1];
    skn_format target;
    if (skn_format_from_name(pos[2], &target) != SKN_OK) {
        fprintf(stderr, "skn quantize: %s\n", skn_last_error());
        return 2;
    }
    skn_format_props tp;
    memset(&tp, 0, sizeof tp);
    tp.struct_size = sizeof tp;
    if (skn_format_info(target, &tp) != SKN_OK) return 2;

    skn_gguf* g = NULL;
    skn_status st = skn_tool_open(in_path, &g);
    if (st != SKN_OK) {
        fprintf(stderr, "skn quantize: %s: %s\n", skn_status_name(st), skn_last_error());
        return 1;
    }
    const int64_t nt = skn_gguf_tensor_count(g);
    plan_row* plan = calloc((size_t)(nt > 0 ? nt : 1), sizeof *plan);
    skn_gguf_writer* w = NULL;
    skn_gguf_stream* s = NULL;
    int rc = 1, reported = 0;
    if (plan == NULL || skn_gguf_writer_create(&w) != SKN_OK) goto done;

    /* The plan: which tensors change, and what they weigh. */
    int refused = 0;
    uint64_t in_total = 0, out_total = 0;
    for (int64_t i = 0; i < nt; ++i) {
        plan_row* r = &plan[i];
        r->index = i;
        r->in.struct_size = sizeof r->in;
        if (skn_gguf_tensor_info(g, i, &r->in) != SKN_OK) goto done;
        r->out_format = r->in.format;
        r->out_bytes = r->in.size;
        skn_format_props ip;
        memset(&ip, 0, sizeof ip);
        ip.struct_size = sizeof ip;
        /* As llama.cpp with a plain type (--pure): weights of two or more
         * dimensions, except the few it keeps (norms are 1-D already). */
        if (!ends_with(r->in.name, "weight") || r->in.rank < 2)
            r->why = r->in.rank < 2 ? "1-D: kept" : "not a weight: kept";
        else if (ends_with(r->in.name, "ffn_gate_inp.weight") || strstr(r->in.name, "pos_embd") != NULL ||
                 strstr(r->in.name, "token_types") != NULL || ends_with(r->in.name, "_norm.weight") ||
                 strstr(r->in.name, "ssm_conv1d") != NULL)
            r->why = "kept as llama.cpp keeps it";
        else if (!r->in.supported)
            r->why = "a type skn does not decode: kept";
        else if (r->in.ne[0] % tp.block_elems != 0)
            r->why = "rows not a multiple of the block size: kept";
        else if (r->in.format == target)
            r->why = "already in the type: copied";
        else if (skn_format_info(r->in.format, &ip) == SKN_OK && ip.is_block_quantized && !allow_requantize) {
            fprintf(stderr,
                    "skn quantize: tensor \"%s\" is already %s: quantizing it again compounds the error of both "
                    "quantizations; pass --allow-requantize to do it anyway\n",
                    r->in.name, r->in.type_name);
            refused = 1;
            r->why = "refused: already quantized";
        }
        if (r->why == NULL) {
            size_t bytes = 0;
            if (skn_quantized_size(target, skn_tensor_rows(&r->in), r->in.ne[0], &bytes) != SKN_OK) goto done;
            r->out_format = target;
            r->out_bytes = bytes;
        }
        in_total += r->in.size;
        out_total += r->out_bytes;
    }
    if (refused) {
        reported = 1;
        goto done;
    }

    /* The metadata, in order; then llama.cpp's two keys. */
    const int64_t nkv = skn_gguf_kv_count(g);
    for (int64_t k = 0; k < nkv; ++k) {
        const char* key = NULL;
        if (skn_gguf_kv_key(g, k, &key, NULL) != SKN_OK) goto done;
        if (is_replaced_key(key)) continue;
        if ((st = copy_pair(g, k, key, w)) != SKN_OK) {
            reported = 1;
            fprintf(stderr, "skn quantize: cannot copy key \"%s\": %s\n", key, skn_last_error());
            goto done;
        }
    }
    uint32_t file_type = 0;
    const int has_file_type = file_type_of(target, &file_type);
    if (skn_gguf_writer_add_u32(w, "general.quantization_version", kQuantizationVersion) != SKN_OK ||
        (has_file_type && skn_gguf_writer_add_u32(w, "general.file_type", file_type) != SKN_OK))
        goto done;
    for (int64_t i = 0; i < nt; ++i) {
        const plan_row* r = &plan[i];
        const int32_t rank = r->in.rank;
        if (skn_gguf_writer_declare_tensor(w, r->in.name, r->out_format, rank, r->in.ne) != SKN_OK) {
            reported = 1;
            fprintf(stderr, "skn quantize: tensor \"%s\": %s\n", r->in.name, skn_last_error());
            goto done;
        }
    }
    uint64_t out_size = 0;
    if (skn_gguf_writer_size(w, &out_size) != SKN_OK) goto done;

    if (dry_run) {
        printf("%s -> %s as %s (general.file_type ", in_path, out_path ? out_path : "(dry run)", tp.name);
        if (has_file_type)
            printf("%u", file_type);
        else
            printf("not set: %s has no llama.cpp file type", tp.name);
        printf(")\n  %-32s %-8s %-8s %12s %12s  %s\n", "tensor", "from", "to", "bytes in", "bytes out", "note");
        for (int64_t i = 0; i < nt; ++i) {
            const plan_row* r = &plan[i];
            skn_format_props op;
            memset(&op, 0, sizeof op);
            op.struct_size = sizeof op;
            const char* to = skn_format_info(r->out_format, &op) == SKN_OK ? op.name : r->in.type_name;
            printf("  %-32s %-8s %-8s %12" PRIu64 " %12" PRIu64 "  %s\n", r->in.name, r->in.type_name, to, r->in.size,
                   r->out_bytes, r->why ? r->why : "converted");
        }
        printf("  %-32s %-8s %-8s %12" PRIu64 " %12" PRIu64 "\n", "total tensor bytes", "", "", in_total, out_total);
        printf("  output file: %" PRIu64 " bytes\n", out_size);
        rc = 0;
        goto done;
    }

    if ((st = skn_gguf_stream_begin(w, out_path, &s)) != SKN_OK) {
        reported = 1;
        fprintf(stderr, "skn quantize: %s: %s\n", skn_status_name(st), skn_last_error());
        goto done;
    }
    skn_gguf_writer_destroy(w); /* the stream holds what it needs */
    w = NULL;
    for (int64_t i = 0; i < nt; ++i)
        if (stream_tensor(g, &plan[i], s, threads) != 0) { /* destroying s removes the partial file */
            reported = 1;
            goto done;
        }
    if ((st = skn_gguf_stream_finish(s)) != SKN_OK) {
        reported = 1;
        fprintf(stderr, "skn quantize: %s: %s\n", skn_status_name(st), skn_last_error());
        goto done;
    }
    printf("%s: %" PRId64 " tensors, %" PRIu64 " bytes (tensors %" PRIu64 " -> %" PRIu64 " bytes)\n", out_path, nt,
           out_size, in_total, out_total);
    rc = 0;
done:
    if (rc != 0 && !reported)
        fprintf(stderr, "skn quantize: %s\n", skn_last_error()[0] ? skn_last_error() : "out of memory");
    skn_gguf_stream_destroy(s);
    skn_gguf_writer_destroy(w);
    free(plan);
    skn_gguf_close(g);
    return rc;
}
