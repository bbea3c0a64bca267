/* SPDX-License-Identifier: MIT */
#include "tune_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quantize_any.h"
#include "roofline.h"

int tune_weight_make(tune_weight* w, skn_format format, int64_t rows, int64_t cols, size_t min_total, char* err,
                     size_t err_cap) {
    memset(w, 0, sizeof *w);
    w->format = format;
    w->rows = rows;
    w->cols = cols;
    if (skn_quantized_size(format, rows, cols, &w->nbytes) != SKN_OK) {
        snprintf(err, err_cap, "%s", skn_last_error());
        return -1;
    }
    w->ncopies = (int)((min_total + w->nbytes - 1) / w->nbytes);
    if (w->ncopies < 2) w->ncopies = 2;
    w->bytes = calloc((size_t)w->ncopies, sizeof *w->bytes);
    w->views = calloc((size_t)w->ncopies, sizeof *w->views);
    float* src = malloc((size_t)(rows * cols) * sizeof(float));
    w->x = malloc((size_t)cols * sizeof(float));
    w->y = malloc((size_t)rows * sizeof(float));
    if (w->bytes == NULL || w->views == NULL || src == NULL || w->x == NULL || w->y == NULL ||
        skn_scope_create(&w->scope) != SKN_OK) {
        free(src);
        snprintf(err, err_cap, "out of memory for %d copies of %zu bytes", w->ncopies, w->nbytes);
        return -1;
    }
    /* Values with no pattern a kernel could exploit, the same every run. */
    uint32_t s = 0x9e3779b9u;
    for (int64_t i = 0; i < rows * cols; ++i) {
        s = s * 1664525u + 1013904223u;
        src[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * 0.1f;
    }
    for (int64_t i = 0; i < cols; ++i) w->x[i] = (float)((i * 37) % 17) * 0.125f - 1.0f;
    const int64_t shape[2] = {rows, cols};
    for (int k = 0; k < w->ncopies; ++k) {
        w->bytes[k] = malloc(w->nbytes);
        if (w->bytes[k] == NULL) {
            free(src);
            snprintf(err, err_cap, "out of memory for %d copies of %zu bytes", w->ncopies, w->nbytes);
            return -1;
        }
        skn_status st = k == 0 ? quantize_any(format, src, rows, cols, w->bytes[0], w->nbytes)
                               : (memcpy(w->bytes[k], w->bytes[0], w->nbytes), SKN_OK);
        if (st == SKN_OK)
            st = skn_view_from_bytes(w->bytes[k], w->nbytes, format, shape, 2, SKN_ORDER_ROW_MAJOR, &w->views[k]);
        if (st != SKN_OK) {
            free(src);
            snprintf(err, err_cap, "%s", skn_last_error());
            return -1;
        }
    }
    free(src);
    return 0;
}

void tune_weight_free(tune_weight* w) {
    for (int k = 0; w->views != NULL && k < w->ncopies; ++k) skn_view_release(w->views[k]);
    for (int k = 0; w->bytes != NULL && k < w->ncopies; ++k) free(w->bytes[k]);
    skn_scope_destroy(w->scope);
    free(w->views);
    free(w->bytes);
    free(w->x);
    free(w->y);
    memset(w, 0, sizeof *w);
}

int tune_candidate_prepare(tune_candidate* c, tune_weight* w, int threads, char* err, size_t err_cap) {
    c->copies = calloc((size_t)w->ncopies, sizeof *c->copies);
    if (c->copies == NULL) {
        snprintf(err, err_cap, "out of memory");
        return -1;
    }
    if (skn_context_create(&c->ctx) != SKN_OK || skn_context_set_threads(c->ctx, threads) != SKN_OK) {
        snprintf(err, err_cap, "%s", skn_last_error());
        return -1;
    }
    /* Each copy converts from its own ROW_MAJOR copy, so no two copies share
     * memory, nor two candidates' copies but the weight's own encoding's. */
    /* The weight's own encoding is the copy itself (skn_view_convert refuses
     * a dense view even then: it prepacks). */
    const int own = c->format == w->format && c->order == SKN_ORDER_ROW_MAJOR;
    for (int k = 0; k < w->ncopies; ++k)
        if (own)
            c->copies[k] = skn_view_retain(w->views[k]);
        else if (skn_view_convert(w->views[k], c->format, c->order, w->scope, NULL, NULL, &c->copies[k]) != SKN_OK) {
            snprintf(err, err_cap, "%s", skn_last_error());
            return -1;
        }
    return 0;
}

void tune_candidate_free(tune_candidate* c, const tune_weight* w) {
    for (int k = 0; c->copies != NULL && k < w->ncopies; ++k) skn_view_release(c->copies[k]);
    free(c->copies);
    c->copies = NULL;
    skn_context_destroy(c->ctx);
    c->ctx = NULL;
}

typedef struct {
    char* name;
    size_t cap;
    skn_isa isa;
    int fallback, seen;
} trace_sink;

static void on_trace(const skn_trace_event* e, void* user) {
    trace_sink* t = user;
    if (e->kind != SKN_TRACE_KERNEL && e->kind != SKN_TRACE_FALLBACK) return;
    snprintf(t->name, t->cap, "%s", e->name != NULL ? e->name : "?");
    t->isa = e->isa;
    t->fallback |= e->kind == SKN_TRACE_FALLBACK;
    t->seen = 1;
}

int tune_trace_call(skn_context* ctx, const tune_weight* w, const skn_view* view, char* name, size_t name_cap,
                    skn_isa* isa, int* fallback) {
    trace_sink t = {name, name_cap, SKN_ISA_SCALAR, 0, 0};
    name[0] = 0;
    skn_status st = skn_context_set_trace(ctx, on_trace, &t);
    if (st == SKN_OK) st = skn_matmul_wt(ctx, w->x, 1, w->cols, view, NULL, w->y, w->rows, NULL);
    skn_context_set_trace(ctx, NULL, NULL);
    if (st != SKN_OK || !t.seen) {
        snprintf(name, name_cap, "%s", st != SKN_OK ? skn_last_error() : "no kernel event was traced");
        return -1;
    }
    *isa = t.isa;
    *fallback = t.fallback;
    return 0;
}

static int cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

int tune_time_rounds(tune_candidate* cands, int ncands, tune_weight* w, int rounds_max, double deadline) {
    if (rounds_max > TUNE_MAX_ROUNDS) rounds_max = TUNE_MAX_ROUNDS;
    const int calls = w->ncopies < TUNE_CALLS_PER_ROUND ? w->ncopies : TUNE_CALLS_PER_ROUND;
    for (int j = 0; j < ncands; ++j)
        if (cands[j].rounds == 0) cands[j].next_copy = (int)((int64_t)j * w->ncopies / ncands);
    int rounds = 0;
    for (; rounds < rounds_max && roofline_now() < deadline; ++rounds)
        for (int j = 0; j < ncands; ++j) {
            /* Rotate who goes first: the first after a switch pays for it. */
            tune_candidate* c = &cands[(j + rounds) % ncands];
            if (c->dropped || c->rounds >= TUNE_MAX_ROUNDS) continue;
            const double t0 = roofline_now();
            for (int k = 0; k < calls; ++k) {
                skn_matmul_wt(c->ctx, w->x, 1, w->cols, c->copies[c->next_copy], NULL, w->y, w->rows, NULL);
                c->next_copy = (c->next_copy + 1) % w->ncopies;
            }
            c->us[c->rounds++] = (roofline_now() - t0) * 1e6 / calls;
        }
    for (int j = 0; j < ncands; ++j) {
        tune_candidate* c = &cands[j];
        if (c->rounds == 0) continue;
        double sorted[TUNE_MAX_ROUNDS];
        memcpy(sorted, c->us, (size_t)c->rounds * sizeof(double));
        qsort(sorted, (size_t)c->rounds, sizeof(double), cmp_double);
        c->median = sorted[c->rounds / 2];
        c->q1 = sorted[c->rounds / 4];
        c->q3 = sorted[(3 * c->rounds) / 4 < c->rounds ? (3 * c->rounds) / 4 : c->rounds - 1];
    }
    return rounds;
}
