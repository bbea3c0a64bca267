/* SPDX-License-Identifier: MIT */
/* Context, matmul_wt, prepack_for_matmul and the kernel listing, from C. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"

struct counts {
    int kernel, fallback, adapter;
    char last_kernel[128];
};

static void on_trace(const skn_trace_event* e, void* user) {
    struct counts* c = (struct counts*)user;
    if (e->kind == SKN_TRACE_KERNEL) {
        c->kernel++;
        snprintf(c->last_kernel, sizeof c->last_kernel, "%s", e->name);
        CHECK(e->nanoseconds >= 0 && e->out == 7 && e->in == 768 && e->n == 3);
    }
    if (e->kind == SKN_TRACE_FALLBACK) c->fallback++;
    if (e->kind == SKN_TRACE_ADAPTER) c->adapter++;
}

static struct {
    int calls;
} g_lender;

static void lend(skn_task_fn task, void* arg, int64_t count, void* user) {
    (void)user;
    g_lender.calls++;
    for (int64_t i = 0; i < count; ++i) task(arg, i);
}

int main(void) {
    enum { OUT = 7, IN = 768, N = 3 };
    static float w[OUT * IN], x[N * IN], y1[N * OUT], y2[N * OUT], y3[N * OUT], bias[OUT];
    for (int i = 0; i < OUT * IN; ++i) w[i] = sinf((float)i * 0.013f) * (float)(1 + i % 4);
    for (int i = 0; i < N * IN; ++i) x[i] = cosf((float)i * 0.029f);
    for (int o = 0; o < OUT; ++o) bias[o] = (float)o * 0.5f;
    size_t n = 0;
    CHECK(skn_quantized_size(SKN_FORMAT_Q4_K, OUT, IN, &n) == SKN_OK);
    unsigned char* q = malloc(n);
    if (!q) return 1;
    CHECK(skn_quantize(SKN_FORMAT_Q4_K, w, OUT, IN, q, n) == SKN_OK);
    const int64_t shape[2] = {OUT, IN};
    skn_view* v = NULL;
    CHECK(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_K, shape, 2, SKN_ORDER_ROW_MAJOR, &v) == SKN_OK);

    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    struct counts c;
    memset(&c, 0, sizeof c);
    CHECK(skn_context_set_trace(ctx, on_trace, &c) == SKN_OK);
    CHECK(skn_matmul_wt(ctx, x, N, IN, v, bias, y1, OUT, NULL) == SKN_OK);
    CHECK(c.kernel == 1 && strncmp(c.last_kernel, "matmul_wt_q4_k_", 15) == 0);

    /* Prepack once at load; twice copies nothing. */
    skn_scope* scope = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    skn_view* p1 = NULL;
    skn_view* p2 = NULL;
    CHECK(skn_prepack_for_matmul(ctx, v, scope, &p1) == SKN_OK);
    uint64_t before = 0, after = 0;
    CHECK(skn_scope_allocated(scope, &before) == SKN_OK);
    CHECK(skn_prepack_for_matmul(ctx, p1, scope, &p2) == SKN_OK);
    CHECK(p2 == p1);
    skn_view_release(p2); /* the same handle, one more reference: give it back */
    CHECK(skn_scope_allocated(scope, &after) == SKN_OK && after == before);

    /* Same y from either order, any thread count, the caller's threads. */
    CHECK(skn_context_set_threads(ctx, 2) == SKN_OK);
    CHECK(skn_matmul_wt(ctx, x, N, IN, p1, bias, y2, OUT, NULL) == SKN_OK);
    CHECK(skn_context_set_parallel_for(ctx, lend, NULL) == SKN_OK);
    CHECK(skn_matmul_wt(ctx, x, N, IN, v, bias, y3, OUT, NULL) == SKN_OK);
    CHECK(g_lender.calls == 1);
    CHECK(memcmp(y1, y3, sizeof y1) == 0);
    if (skn_view_order(p1) == SKN_ORDER_ROW_MAJOR || c.fallback == 0) CHECK(memcmp(y1, y2, sizeof y1) == 0);
    CHECK(skn_context_set_parallel_for(ctx, NULL, NULL) == SKN_OK);

    /* Exact precision is close to a double computation over decoded weights. */
    static float wd[OUT * IN];
    CHECK(skn_dequantize(SKN_FORMAT_Q4_K, q, n, OUT, IN, wd, OUT * IN) == SKN_OK);
    skn_matmul_options opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.precision = SKN_PRECISION_EXACT;
    CHECK(skn_matmul_wt(ctx, x, N, IN, v, NULL, y2, OUT, &opts) == SKN_OK);
    for (int i = 0; i < N; ++i)
        for (int o = 0; o < OUT; ++o) {
            double acc = 0, mag = 0;
            for (int k = 0; k < IN; ++k) {
                acc += (double)x[i * IN + k] * wd[o * IN + k];
                mag += fabs((double)x[i * IN + k] * wd[o * IN + k]);
            }
            CHECK(fabs(y2[i * OUT + o] - acc) <= 1e-4 * mag);
        }

    /* Errors. */
    CHECK_ERROR(skn_matmul_wt(NULL, x, N, IN, v, NULL, y2, OUT, NULL), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_matmul_wt(ctx, x, N, IN, NULL, NULL, y2, OUT, NULL), SKN_E_INVALID_ARGUMENT, "w");
    CHECK_ERROR(skn_matmul_wt(ctx, x, N, IN - 1, v, NULL, y2, OUT, NULL), SKN_E_INVALID_ARGUMENT, "x_row_stride");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 0, IN, v, NULL, y2, OUT, NULL), SKN_E_INVALID_ARGUMENT, "x_rows");
    opts.struct_size = 4;
    CHECK_ERROR(skn_matmul_wt(ctx, x, N, IN, v, NULL, y2, OUT, &opts), SKN_E_INVALID_ARGUMENT, "struct_size");
    opts.struct_size = sizeof opts;
    opts.precision = (skn_precision)5;
    CHECK_ERROR(skn_matmul_wt(ctx, x, N, IN, v, NULL, y2, OUT, &opts), SKN_E_INVALID_ARGUMENT, "precision");
    CHECK_ERROR(skn_context_set_threads(ctx, 0), SKN_E_INVALID_ARGUMENT, "thread");
    CHECK_ERROR(skn_context_set_isa(ctx, (skn_isa)9), SKN_E_INVALID_ARGUMENT, "ISA");
    CHECK(skn_context_set_isa(ctx, SKN_ISA_SCALAR) == SKN_OK);
    CHECK_ERROR(skn_context_create(NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_prepack_for_matmul(ctx, NULL, scope, &p2), SKN_E_INVALID_ARGUMENT, "w");
    /* Both dimensions aligned: the guard cannot tell, and stays quiet. */
    skn_view* bad = NULL;
    const int64_t qswapped[2] = {64, 32};
    unsigned char qb[64 * 34];
    memset(qb, 0, sizeof qb);
    CHECK(skn_view_from_bytes(qb, sizeof qb, SKN_FORMAT_Q8_0, qswapped, 2, SKN_ORDER_ROW_MAJOR, &bad) == SKN_OK);
    CHECK(skn_prepack_for_matmul(ctx, bad, scope, &p2) == SKN_OK);
    skn_view_release(p2);
    skn_view_release(bad);

    const int32_t kc = skn_kernel_count();
    CHECK(kc > 90);
    int have_ref_ibm = 0;
    for (int32_t i = 0; i < kc; ++i) have_ref_ibm |= strcmp(skn_kernel_name(i), "matmul_wt_q4_k_ibm_q8_k_scalar") == 0;
    CHECK(have_ref_ibm);
    CHECK(skn_kernel_name(-1) == NULL && skn_kernel_name(kc) == NULL);

    skn_view_release(p1);
    skn_view_release(v);
    skn_scope_destroy(scope);
    skn_context_destroy(ctx);
    skn_context_destroy(NULL);
    free(q);
    return check_summary();
}
