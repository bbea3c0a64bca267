/* SPDX-License-Identifier: MIT */
/* The row-interleaved formats from C, for every one skn lists: the props
 * (block_rows, interleaves; not written for an older struct_size), the byte
 * conversion skn_packed_convert (lossless both ways, the same bytes as
 * quantizing straight into the interleaved format), the view conversion
 * skn_view_convert (any order in and out, one ADAPTER event "convert" naming
 * both formats, nothing done or traced when nothing changes), products on the
 * converted weight equal to the canonical ones bit for bit (on the reference
 * kernels: both capped at scalar), trace to_format on a prepack, and the
 * tagged fixture of an interleaved format, whose disagreement names the
 * block row and the rows it holds. Compiled as C11. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"

enum { GROUPS = 3, BLOCKS = 3, MAX_N = 3 };

/* The strings an event points at live only during the call: copied. */
struct events {
    int count, adapters;
    skn_trace_event last;
    char name[32], detail[512];
};

static void on_trace(const skn_trace_event* e, void* user) {
    struct events* ev = (struct events*)user;
    ev->count++;
    if (e->kind != SKN_TRACE_ADAPTER) return;
    ev->adapters++;
    ev->last = *e;
    snprintf(ev->name, sizeof ev->name, "%s", e->name);
    snprintf(ev->detail, sizeof ev->detail, "%s", e->detail != NULL ? e->detail : "");
}

static skn_format_props props_of(skn_format f) {
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    CHECK(skn_format_info(f, &p) == SKN_OK);
    return p;
}

static int same_floats(const float* a, const float* b, size_t n) { return memcmp(a, b, n * sizeof(float)) == 0; }

/* skn_quantize, with unit importance weights for the formats that quantize
 * only with them (IQ2_XXS, IQ2_XS and their twins). */
static skn_status quantize(skn_format f, const float* w, int64_t rows, int64_t cols, void* dst, size_t n) {
    if (!props_of(f).needs_importance) return skn_quantize(f, w, rows, cols, dst, n);
    float* ones = malloc((size_t)cols * sizeof(float));
    if (ones == NULL) return SKN_E_OUT_OF_MEMORY;
    for (int64_t i = 0; i < cols; ++i) ones[i] = 1.0f;
    skn_quantize_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.importance = ones;
    o.importance_count = cols;
    const skn_status st = skn_quantize_with_options(f, w, rows, cols, dst, n, &o);
    free(ones);
    return st;
}

static void test_props(void) {
    int interleaved = 0;
    for (int32_t i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        const skn_format_props p = props_of(f);
        if (p.block_rows == 1) {
            CHECK(p.interleaves == f);
            continue;
        }
        ++interleaved;
        const skn_format_props c = props_of(p.interleaves);
        CHECK(p.block_rows == 4 || p.block_rows == 8 || p.block_rows == 16);
        CHECK(c.block_rows == 1 && c.interleaves == p.interleaves);
        CHECK(p.is_block_quantized == 1 && p.activation_format == c.activation_format);
        CHECK(p.bits_per_weight == c.bits_per_weight);
        /* block_bytes is one row's share of a block: a row is as many bytes as the twin's. */
        CHECK((int64_t)p.block_bytes * (c.block_elems > 1 ? c.block_elems : 1) ==
              (int64_t)c.block_bytes * p.block_elems);
    }
    CHECK(interleaved == 17);
    const skn_format_props q = props_of(SKN_FORMAT_Q4_0_R8);
    CHECK(q.block_rows == 8 && q.interleaves == SKN_FORMAT_Q4_0 && q.block_elems == 32 && q.block_bytes == 18);
    CHECK(props_of(SKN_FORMAT_BF16_R16).block_rows == 16 && props_of(SKN_FORMAT_BF16_R16).interleaves == SKN_FORMAT_BF16);
    CHECK(props_of(SKN_FORMAT_Q4_K_R4).block_rows == 4 && props_of(SKN_FORMAT_IQ4_XS_R8).block_rows == 8);
    /* A caller built before block_rows: neither new field is written. */
    skn_format_props old;
    memset(&old, 0x5a, sizeof old);
    old.struct_size = offsetof(skn_format_props, block_rows);
    CHECK(skn_format_info(SKN_FORMAT_Q4_0_R8, &old) == SKN_OK && old.block_elems == 32);
    CHECK(old.block_rows == 0x5a5a5a5a && (int32_t)old.interleaves == 0x5a5a5a5a);
    /* Names find them. */
    skn_format f = SKN_FORMAT_F32;
    CHECK(skn_format_from_name("q4_k_r4", &f) == SKN_OK && f == SKN_FORMAT_Q4_K_R4);
    CHECK(skn_format_from_name("MXFP4_R8", &f) == SKN_OK && f == SKN_FORMAT_MXFP4_R8);
}

/* One interleaved format and its twin on a [3R, 3 blocks] weight. */
static void test_format(skn_format fi, skn_context* ctx, skn_scope* scope) {
    const skn_format_props pi = props_of(fi);
    const skn_format fc = pi.interleaves;
    const skn_format_props pc = props_of(fc);
    const int64_t rows = rows_for(fi, GROUPS), cols = BLOCKS * (int64_t)pi.block_elems;
    const size_t count = (size_t)(rows * cols);
    float* w = malloc(count * sizeof(float));
    float* want = malloc(count * sizeof(float));
    float* got = malloc(count * sizeof(float));
    size_t n = 0, ni = 0;
    CHECK(skn_quantized_size(fc, rows, cols, &n) == SKN_OK && skn_quantized_size(fi, rows, cols, &ni) == SKN_OK);
    CHECK(n == ni);
    unsigned char* canon = malloc(n);
    unsigned char* direct = malloc(n);
    unsigned char* conv = malloc(n);
    unsigned char* back = malloc(n);
    if (!w || !want || !got || !canon || !direct || !conv || !back) return;
    for (size_t i = 0; i < count; ++i) w[i] = sinf((float)i * 0.173f) * (float)(1 + i % 7);

    /* Bytes: quantize-then-convert is quantizing straight in; converting back restores the twin's bytes. */
    CHECK(quantize(fc, w, rows, cols, canon, n) == SKN_OK);
    CHECK(quantize(fi, w, rows, cols, direct, n) == SKN_OK);
    CHECK(skn_packed_convert(fc, fi, canon, n, conv, n, rows, cols) == SKN_OK);
    CHECK(memcmp(conv, direct, n) == 0);
    CHECK(memcmp(conv, canon, n) != 0);
    CHECK(skn_packed_convert(fi, fc, conv, n, back, n, rows, cols) == SKN_OK);
    CHECK(memcmp(back, canon, n) == 0);
    CHECK(skn_packed_convert(fi, fi, conv, n, back, n, rows, cols) == SKN_OK); /* the same format: a copy */
    CHECK(memcmp(back, conv, n) == 0);
    CHECK_ERROR(skn_packed_convert(fc, fi, canon, n, back, n, rows - 1, cols), SKN_E_INVALID_ARGUMENT, "multiple of");
    CHECK(skn_dequantize(fc, canon, n, rows, cols, want, count) == SKN_OK);
    CHECK(skn_dequantize(fi, direct, n, rows, cols, got, count) == SKN_OK);
    CHECK(same_floats(got, want, count));

    /* Views: every order in and out, one "convert" event each, the same floats. */
    const int64_t shape[2] = {rows, cols};
    skn_view* vc = NULL;
    CHECK(skn_view_from_bytes(canon, n, fc, shape, 2, SKN_ORDER_ROW_MAJOR, &vc) == SKN_OK);
    if (!pc.is_block_quantized) {
        /* A dense view in its own format and order: nothing to do, the same handle back; INPUT_BLOCK_MAJOR refused. */
        skn_view* same = NULL;
        CHECK(skn_view_convert(vc, fc, SKN_ORDER_ROW_MAJOR, NULL, NULL, NULL, &same) == SKN_OK && same == vc);
        skn_view_release(same);
        CHECK_ERROR(skn_view_convert(vc, fc, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &same),
                    SKN_E_INVALID_ARGUMENT, "only order is ROW_MAJOR");
    }
    for (int from = 0; from < 2; ++from) {
        if (!pc.is_block_quantized && from == 1) continue; /* dense BF16: one order */
        skn_view* src = NULL;
        if (from == 0)
            src = skn_view_retain(vc);
        else
            CHECK(skn_view_prepack(vc, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &src) == SKN_OK);
        for (int to = 0; to < 2; ++to) {
            struct events ev;
            memset(&ev, 0, sizeof ev);
            skn_view* vi = NULL;
            CHECK(skn_view_convert(src, fi, (skn_block_order)to, scope, on_trace, &ev, &vi) == SKN_OK);
            CHECK(vi != NULL && vi != src);
            CHECK(ev.count == 1 && ev.adapters == 1 && strcmp(ev.name, "convert") == 0);
            CHECK(ev.last.struct_size >= offsetof(skn_trace_event, to_format) + sizeof(skn_format));
            CHECK(ev.last.format == fc && ev.last.to_format == fi);
            CHECK((int)ev.last.from_order == from && (int)ev.last.to_order == to && ev.last.bytes == n);
            CHECK(strstr(ev.detail, pi.name) != NULL && strstr(ev.detail, pc.name) != NULL);
            CHECK(skn_view_format(vi) == fi && (int)skn_view_order(vi) == to);
            CHECK(skn_view_to_float(vi, got, count) == SKN_OK && same_floats(got, want, count));
            const int64_t last[2] = {rows - 1, cols - 1}, mid[2] = {pi.block_rows + 1, cols / 2};
            float a = 0, b = 0;
            CHECK(skn_view_get(vi, last, 2, &a) == SKN_OK && memcmp(&a, &want[count - 1], 4) == 0);
            CHECK(skn_view_get(vi, mid, 2, &b) == SKN_OK &&
                  memcmp(&b, &want[(size_t)((pi.block_rows + 1) * cols + cols / 2)], 4) == 0);
            /* Converting to what the view already is: the very same view, nothing traced. */
            skn_view* same = NULL;
            memset(&ev, 0, sizeof ev);
            CHECK(skn_view_convert(vi, fi, (skn_block_order)to, NULL, on_trace, &ev, &same) == SKN_OK);
            CHECK(same == vi && ev.count == 0);
            skn_view_release(same);
            /* Back to the twin in its first order: the same floats. */
            skn_view* again = NULL;
            CHECK(skn_view_convert(vi, fc, (skn_block_order)from, scope, NULL, NULL, &again) == SKN_OK);
            CHECK(skn_view_format(again) == fc);
            CHECK(skn_view_to_float(again, got, count) == SKN_OK && same_floats(got, want, count));
            skn_view_release(again);

            /* Products: the converted weight gives the twin's bits (both on the reference, capped at scalar). */
            static float x[MAX_N * 4096], y[MAX_N * 512], yc[MAX_N * 512];
            if (cols <= 4096 && rows <= 512) {
                for (int64_t k = 0; k < MAX_N * cols; ++k) x[k] = cosf((float)k * 0.031f);
                for (int p = 0; p < 2; ++p) {
                    skn_matmul_options o;
                    memset(&o, 0, sizeof o);
                    o.struct_size = sizeof o;
                    o.precision = p ? SKN_PRECISION_EXACT : SKN_PRECISION_FAST;
                    CHECK(skn_matmul_wt(ctx, x, MAX_N, cols, vi, NULL, y, rows, &o) == SKN_OK);
                    CHECK(skn_matmul_wt(ctx, x, MAX_N, cols, src, NULL, yc, rows, &o) == SKN_OK);
                    CHECK(same_floats(y, yc, (size_t)(MAX_N * rows)));
                }
            }
            skn_view_release(vi);
        }
        skn_view_release(src);
    }
    /* A prepack's event names the same format as both ends. */
    if (pc.is_block_quantized) {
        struct events ev;
        memset(&ev, 0, sizeof ev);
        skn_view* p = NULL;
        CHECK(skn_view_convert(vc, fc, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, on_trace, &ev, &p) == SKN_OK);
        CHECK(ev.adapters == 1 && strcmp(ev.name, "prepack") == 0 && ev.last.format == fc && ev.last.to_format == fc);
        skn_view_release(p);
    }
    /* Rows that split a block of R rows cannot become the interleaved format. */
    const int64_t short_shape[2] = {rows - 1, cols};
    skn_view* vs = NULL;
    skn_view* out = NULL;
    CHECK(skn_view_from_bytes(canon, n, fc, short_shape, 2, SKN_ORDER_ROW_MAJOR, &vs) == SKN_OK);
    char r_text[32];
    snprintf(r_text, sizeof r_text, "multiple of %d", (int)pi.block_rows);
    const char* needle = r_text;
    CHECK_ERROR(skn_view_convert(vs, fi, SKN_ORDER_ROW_MAJOR, scope, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT,
                needle);
    CHECK(out == NULL);
    skn_view_release(vs);
    skn_view_release(vc);
    free(w);
    free(want);
    free(got);
    free(canon);
    free(direct);
    free(conv);
    free(back);
}

/* A tagged fixture of 4 rows of blocks: its disagreement names the block row
 * and the rows it holds. */
static void test_fixture(skn_format f) {
    const skn_format_props p = props_of(f);
    const int64_t R = p.block_rows, rows = rows_for(f, 4);
    size_t n = 0;
    CHECK(skn_fixture_bytes(f, 1, rows, 3, NULL, 0, &n) == SKN_OK);
    CHECK(n == (size_t)(rows * 3 * p.block_bytes));
    unsigned char* ibm = malloc(n);
    unsigned char* rm = malloc(n);
    if (!ibm || !rm) return;
    CHECK(skn_fixture_bytes(f, 1, rows, 3, ibm, n, &n) == SKN_OK);
    CHECK(skn_fixture_bytes(f, 0, rows, 3, rm, n, &n) == SKN_OK);
    CHECK(skn_fixture_disagreement(rm, n, f, 0, rows, 3) == NULL);
    /* Kernel-order bytes checked as canonical: flat index 1 holds block row 1's first block. */
    const char* m = skn_fixture_disagreement(ibm, n, f, 0, rows, 3);
    char want[160];
    snprintf(want, sizeof want,
             "flat index 1 should hold block (block row 0 = rows 0..%d, block 1) but holds block (block row 1 = "
             "rows %d..%d, block 0)",
             (int)(R - 1), (int)R, (int)(2 * R - 1));
    CHECK(m != NULL && strstr(m, want) != NULL);
    if (m != NULL && strstr(m, want) == NULL) fprintf(stderr, "  message: %s\n  wanted:  %s\n", m, want);
    /* A block moved by one row's share is no fixture block at all. */
    memmove(rm, rm + p.block_bytes, n - (size_t)p.block_bytes);
    m = skn_fixture_disagreement(rm, n, f, 0, rows, 3);
    CHECK(m != NULL && strstr(m, "no fixture block") != NULL);
    /* Rows that are no whole number of blocks, or too few of them. */
    CHECK_ERROR(skn_fixture_bytes(f, 0, rows + 1, 3, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, "multiple of");
    CHECK_ERROR(skn_fixture_bytes(f, 0, R, 3, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, NULL);
    free(ibm);
    free(rm);
}

int main(void) {
    test_props();
    skn_context* ctx = NULL;
    skn_scope* scope = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK && skn_scope_create(&scope) == SKN_OK);
    CHECK(skn_context_set_isa(ctx, SKN_ISA_SCALAR) == SKN_OK);
    for (int32_t i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        if (props_of(f).block_rows == 1) continue;
        test_format(f, ctx, scope);
        test_fixture(f);
    }
    skn_scope_destroy(scope);
    skn_context_destroy(ctx);
    return check_summary();
}
