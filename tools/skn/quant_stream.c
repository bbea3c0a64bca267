/* SPDX-License-Identifier: MIT */
#include "quant_stream.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_copy.h"
#include "tensor_util.h"

typedef struct {
    const skn_quant_job* job;
    int64_t row0, nrows;
    float* floats;
    unsigned char* out;
    size_t out_size;
    skn_status status;
    char message[512];
} work;

/* Quantize rows [row0, row0 + nrows) of the job's tensor from `floats` into
 * `out`. With importance weights, rows are quantized one matrix (ne[2]
 * slice) at a time, each with its own matrix's weights, as llama-quantize
 * does for the experts of a 3-D weight. */
static skn_status quantize_rows(const skn_quant_job* j, int64_t row0, int64_t nrows, const float* floats,
                                unsigned char* out, size_t out_size) {
    const int64_t cols = j->in->ne[0];
    if (j->importance == NULL) return skn_quantize(j->out_format, floats, nrows, cols, out, out_size);
    const int64_t rows_per_matrix = j->in->rank >= 2 ? j->in->ne[1] : 1;
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    skn_status st = skn_format_info(j->out_format, &fp);
    if (st != SKN_OK) return st;
    /* One row's bytes (a row-interleaved format's share of its groups:
     * rows_per_matrix is a multiple of its block rows, so a matrix is whole
     * groups). */
    const size_t row_bytes = (size_t)(cols / fp.block_elems) * (size_t)fp.block_bytes;
    for (int64_t r = row0; st == SKN_OK && r < row0 + nrows;) {
        const int64_t slice = r / rows_per_matrix; /* the importance has one matrix per ne[2] slice */
        const int64_t matrix = j->in->rank >= 3 ? slice % j->in->ne[2] : 0;
        int64_t n = (slice + 1) * rows_per_matrix - r;
        if (n > row0 + nrows - r) n = row0 + nrows - r;
        skn_quantize_options qo;
        memset(&qo, 0, sizeof qo);
        qo.struct_size = sizeof qo;
        qo.importance = j->importance + matrix * cols;
        qo.importance_count = cols;
        qo.threads = 1; /* the tool splits rows over its own threads */
        const size_t at = (size_t)(r - row0) * row_bytes;
        st = skn_quantize_with_options(j->out_format, floats + (r - row0) * cols, n, cols, out + at, out_size - at, &qo);
        r += n;
    }
    return st;
}

static void* convert_rows(void* arg) {
    work* w = arg;
    w->status = skn_tensor_decode_rows(w->job->g, w->job->index, w->job->in, w->row0, w->nrows, w->floats);
    if (w->status == SKN_OK) w->status = quantize_rows(w->job, w->row0, w->nrows, w->floats, w->out, w->out_size);
    if (w->status != SKN_OK) snprintf(w->message, sizeof w->message, "%s", skn_last_error());
    return NULL;
}

/* Convert rows [row0, row0 + n) into `out`, split over `threads` threads
 * by whole units of `unit` rows (the groups a row-interleaved format, in or
 * out, keeps together): each group's bytes depend on its rows alone, so the
 * output is the same for any thread count. */
static int convert_chunk(const skn_quant_job* j, const skn_format_props* fp, int64_t unit, int64_t row0, int64_t n,
                         float* floats, unsigned char* out, int threads) {
    const int64_t cols = j->in->ne[0];
    const int whole = fp->tensor_trailer_bytes > 0; /* one scale for the whole tensor: one call */
    const size_t row_bytes = whole ? 0 : (size_t)(cols / fp->block_elems) * (size_t)fp->block_bytes;
    const int64_t units = n / unit;
    int parts = whole ? 1 : threads;
    if (parts > units) parts = (int)units;
    work ws[kQuantMaxThreads];
    pthread_t tids[kQuantMaxThreads];
    int64_t at = row0;
    for (int t = 0; t < parts; ++t) {
        const int64_t k = (units / parts + (t < units % parts ? 1 : 0)) * unit;
        ws[t] = (work){j, at, k, floats + (at - row0) * cols, out + (size_t)(at - row0) * row_bytes,
                       whole ? (size_t)j->out_bytes : (size_t)k * row_bytes, SKN_OK, ""};
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
            fprintf(stderr, "skn quantize: tensor \"%s\", rows %" PRId64 "..%" PRId64 ": %s: %s\n", j->in->name,
                    ws[t].row0, ws[t].row0 + ws[t].nrows - 1, skn_status_name(ws[t].status), ws[t].message);
            return -1;
        }
    return 0;
}

static int64_t gcd64(int64_t a, int64_t b) { return b == 0 ? a : gcd64(b, a % b); }

/* The rows a chunk (and a thread's share of it) must be a multiple of: the
 * groups of both formats' block rows. The tensor's row count is one (the
 * reader checks the input's; quant_choose.c chose the output's so). */
static int64_t group_unit(const skn_quant_job* j) {
    const int64_t a = skn_format_rows_per_block(j->in->format), b = skn_format_rows_per_block(j->out_format);
    return a / gcd64(a, b) * b;
}

/* A lossless conversion between twins: the stored bytes, a chunk of whole
 * groups at a time, through skn_packed_convert (a few GB/s: one thread). */
static int repack_tensor(const skn_quant_job* j, skn_gguf_stream* s, skn_progress* progress, int64_t position) {
    const int64_t cols = j->in->ne[0], rows = skn_tensor_rows(j->in);
    const void* in_data = NULL;
    size_t in_size = 0;
    if (skn_gguf_tensor_data(j->g, j->index, &in_data, &in_size) != SKN_OK) {
        fprintf(stderr, "skn quantize: tensor \"%s\": %s\n", j->in->name, skn_last_error());
        return -1;
    }
    const size_t row_bytes = in_size / (size_t)rows; /* twins take the same bytes per row */
    const int64_t step = skn_chunk_rows(cols, rows, kQuantChunkElements, group_unit(j));
    unsigned char* out = malloc((size_t)step * row_bytes);
    if (out == NULL) {
        fprintf(stderr, "skn quantize: tensor \"%s\": cannot allocate %" PRId64 " rows of %zu bytes\n", j->in->name,
                step, row_bytes);
        return -1;
    }
    int rc = 0;
    for (int64_t row0 = 0; row0 < rows && rc == 0; row0 += step) {
        const int64_t n = rows - row0 < step ? rows - row0 : step;
        const size_t bytes = (size_t)n * row_bytes;
        const skn_status st = skn_packed_convert(j->in->format, j->out_format,
                                                 (const unsigned char*)in_data + (size_t)row0 * row_bytes, bytes, out,
                                                 bytes, n, cols);
        if (st != SKN_OK || skn_gguf_stream_write(s, j->in->name, out, bytes) != SKN_OK) {
            fprintf(stderr, "skn quantize: tensor \"%s\", rows %" PRId64 "..%" PRId64 ": %s\n", j->in->name, row0,
                    row0 + n - 1, skn_last_error());
            rc = -1;
            break;
        }
        skn_release_input(in_data, (size_t)(row0 + n) * row_bytes);
        skn_progress_step(progress, position, j->in->name, bytes);
    }
    free(out);
    return rc;
}

int skn_quant_stream_tensor(const skn_quant_job* j, skn_gguf_stream* s, int threads, skn_progress* progress,
                            int64_t position) {
    if (j->copy) return skn_copy_tensor("quantize", j->g, j->index, j->in->name, s, progress, position);
    if (j->repack) return repack_tensor(j, s, progress, position);
    const int64_t cols = j->in->ne[0], rows = skn_tensor_rows(j->in);
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(j->out_format, &fp) != SKN_OK) return -1;
    skn_format_props ip;
    memset(&ip, 0, sizeof ip);
    ip.struct_size = sizeof ip;
    if (skn_format_info(j->in->format, &ip) != SKN_OK) return -1;
    const void* in_data = NULL;
    size_t in_size = 0;
    if (skn_gguf_tensor_data(j->g, j->index, &in_data, &in_size) != SKN_OK) return -1;
    /* A per-tensor trailer (I2_S) ties every row to the whole tensor: one step. */
    const int whole = fp.tensor_trailer_bytes > 0 || ip.tensor_trailer_bytes > 0;
    const int64_t unit = group_unit(j);
    int64_t step = skn_chunk_rows(cols, rows, kQuantChunkElements, unit);
    if (whole) step = rows;
    const size_t row_bytes = (size_t)(cols / fp.block_elems) * (size_t)fp.block_bytes;
    const size_t in_row_bytes = whole ? 0 : in_size / (size_t)rows;
    const size_t out_cap = fp.tensor_trailer_bytes > 0 ? (size_t)j->out_bytes : (size_t)step * row_bytes;
    float* floats = malloc((size_t)(step * cols) * sizeof(float));
    unsigned char* out = malloc(out_cap);
    int rc = 0;
    if (floats == NULL || out == NULL) {
        fprintf(stderr, "skn quantize: tensor \"%s\": cannot allocate %" PRId64 " rows of %" PRId64 " values\n",
                j->in->name, step, cols);
        rc = -1;
    }
    for (int64_t row0 = 0; row0 < rows && rc == 0; row0 += step) {
        const int64_t n = rows - row0 < step ? rows - row0 : step;
        rc = convert_chunk(j, &fp, whole ? n : unit, row0, n, floats, out, threads);
        const size_t bytes = fp.tensor_trailer_bytes > 0 ? (size_t)j->out_bytes : (size_t)n * row_bytes;
        if (rc == 0 && skn_gguf_stream_write(s, j->in->name, out, bytes) != SKN_OK) {
            fprintf(stderr, "skn quantize: tensor \"%s\": %s\n", j->in->name, skn_last_error());
            rc = -1;
        }
        const size_t done_in = whole ? in_size : (size_t)n * in_row_bytes;
        if (rc == 0) {
            /* from the start: a page split between two chunks goes too */
            skn_release_input(in_data, whole ? in_size : (size_t)(row0 + n) * in_row_bytes);
            skn_progress_step(progress, position, j->in->name, done_in);
        }
    }
    free(floats);
    free(out);
    return rc;
}
