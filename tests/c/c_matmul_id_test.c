/* SPDX-License-Identifier: MIT */
/* skn_matmul_wt_id from C, against skn_matmul_wt per expert.
 *
 * For every format, block order, shape, routing and ISA cap below, each
 * (row, slot) output must be bit-identical to the matching row of
 * skn_matmul_wt run on the batch of slots routed to that expert (in (row,
 * slot) order) with that expert's slice, times the slot's gate: the contract
 * skn.h states. In fast precision it must also equal skn_matmul_wt of the
 * row alone (the kernels exercised here do not depend on the batch size),
 * and in exact precision agree with an f64 sum over the decoded weights
 * within the float accumulation bound of docs/kernels.md. The two block
 * orders and one or two threads give the same bits, and the KERNEL event
 * names the kernel skn_matmul_wt ran on an expert slice.
 *
 * Routings: an expert no row uses with unsorted ids; an expert every row
 * uses; k equal to the number of experts; duplicate ids within a row. Rows:
 * n = 1 and n = 32. out = 7 and 33 (no tile multiple), 3 and 5 blocks per
 * row. Misuse at the end: NULLs, a rank-2 weight, k < 1, ids out of range
 * (the message names row, slot, id and E), overlapping outputs, y over x. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"
#include "routed_helpers.h"

enum { E = 6, MAX_N = 32 };

typedef enum { UNUSED_UNSORTED, EVERY_ROW, K_IS_E, DUPLICATES, N_ROUTINGS } routing;
static const char* const k_routing_names[] = {"unused-expert-unsorted", "every-row", "k-equals-E", "duplicates"};

struct trace_state {
    char kernel[128];
    int64_t n;
    skn_isa isa;
};

static void on_trace(const skn_trace_event* e, void* user) {
    struct trace_state* t = (struct trace_state*)user;
    if (e->kind != SKN_TRACE_KERNEL) return;
    snprintf(t->kernel, sizeof t->kernel, "%s", e->name);
    t->n = e->n;
    t->isa = e->isa;
}

/* One case's inputs. */
struct problem {
    skn_format format;
    int64_t out, in, n, k;
    routing route;
    int per_slot_x, with_gates, with_bias;
    skn_precision precision;
    int32_t ids[MAX_N * (E + 2)]; /* ids_stride = k + 2 */
    int64_t ids_stride;
    float gates[MAX_N * E];
    float* x;      /* per_slot_x: [n, k, in] with x_row_stride = k * in + 3; else [n, in + 5] */
    int64_t x_row_stride, x_slot_stride;
    float* bias;   /* [E, out] */
};

static int64_t k_for(routing r) {
    switch (r) {
        case UNUSED_UNSORTED: return 3;
        case EVERY_ROW: return 2;
        case K_IS_E: return E;
        case DUPLICATES: return 4;
        default: return 1;
    }
}

static void make_routing(struct problem* p) {
    p->ids_stride = p->k + 2; /* padded, as a view of a wider top-k result would be */
    for (int64_t i = 0; i < p->n; ++i)
        for (int64_t s = 0; s < p->k; ++s) {
            int32_t e = 0;
            switch (p->route) {
                case UNUSED_UNSORTED: e = (int32_t)(1 + (7 * i + 3 * (p->k - s)) % (E - 1)); break; /* never 0 */
                case EVERY_ROW: e = s == i % 2 ? E - 1 : (int32_t)((i + s) % (E - 1)); break;
                case K_IS_E: e = (int32_t)((E - 1 - s + i) % E); break;                           /* a permutation */
                case DUPLICATES: e = (int32_t)((i + s / 2) % E); break;                           /* pairs */
                default: break;
            }
            p->ids[i * p->ids_stride + s] = e;
            p->gates[i * p->k + s] = 0.25f + 0.125f * (float)((i + 3 * s) % 7);
        }
}

static const float* x_row(const struct problem* p, int64_t i, int64_t s) {
    return p->x + i * p->x_row_stride + s * p->x_slot_stride;
}

/* y of skn_matmul_wt_id in [n, k, out] with padded strides. */
enum { Y_SLOT_PAD = 1, Y_ROW_PAD = 2 };

static int run_id(skn_context* ctx, const struct problem* p, const skn_view* w, float* y) {
    const int64_t ys = p->out + Y_SLOT_PAD, yr = p->k * ys + Y_ROW_PAD;
    const skn_matmul_options o = options(p->precision);
    return skn_matmul_wt_id(ctx, p->x, p->n, p->x_row_stride, p->x_slot_stride, p->ids, p->k, p->ids_stride,
                            p->with_gates ? p->gates : NULL, p->k, w, p->with_bias ? p->bias : NULL, y, yr, ys,
                            &o) == SKN_OK;
}

static const float* y_at(const struct problem* p, const float* y, int64_t i, int64_t s) {
    const int64_t ys = p->out + Y_SLOT_PAD, yr = p->k * ys + Y_ROW_PAD;
    return y + i * yr + s * ys;
}

static int g_case_failures;
static char g_case[256];

static void mismatch(const char* what, int64_t i, int64_t s, int64_t o, float got, float want) {
    if (g_case_failures++ < 8)
        fprintf(stderr, "%s: %s at row %lld slot %lld out %lld: %.9g, want %.9g\n", g_case, what, (long long)i,
                (long long)s, (long long)o, got, want);
}

/* The checks against skn_matmul_wt per expert; returns the kernel's name via the trace. */
static void check_against_matmul_wt(skn_context* ctx, struct trace_state* tr, const struct problem* p,
                                    const skn_view* w, const float* y) {
    const skn_matmul_options o = options(p->precision);
    const int64_t out = p->out, in = p->in;
    float* xe = malloc((size_t)(p->n * p->k * in) * sizeof(float));
    float* ye = malloc((size_t)(p->n * p->k * out) * sizeof(float));
    int64_t* where = malloc((size_t)(p->n * p->k) * sizeof(int64_t));
    if (xe == NULL || ye == NULL || where == NULL) exit(1);
    const char* id_kernel = tr->kernel;
    char id_kernel_copy[128];
    snprintf(id_kernel_copy, sizeof id_kernel_copy, "%s", id_kernel);
    CHECK(tr->n == p->n * p->k);
    for (int64_t e = 0; e < E; ++e) {
        int64_t ne = 0;
        for (int64_t i = 0; i < p->n; ++i)
            for (int64_t s = 0; s < p->k; ++s)
                if (p->ids[i * p->ids_stride + s] == e) {
                    memcpy(xe + ne * in, x_row(p, i, s), (size_t)in * sizeof(float));
                    where[ne++] = i * p->k + s;
                }
        if (ne == 0) continue;
        skn_view* we = NULL;
        CHECK(skn_view_select(w, 0, e, &we) == SKN_OK);
        CHECK(skn_matmul_wt(ctx, xe, ne, in, we, p->with_bias ? p->bias + e * out : NULL, ye, out, &o) == SKN_OK);
        if (strcmp(tr->kernel, id_kernel_copy) != 0 && g_case_failures++ < 8)
            fprintf(stderr, "%s: matmul_wt_id ran %s, matmul_wt on expert %lld ran %s\n", g_case, id_kernel_copy,
                    (long long)e, tr->kernel);
        for (int64_t j = 0; j < ne; ++j) {
            const int64_t i = where[j] / p->k, s = where[j] % p->k;
            const float g = p->with_gates ? p->gates[i * p->k + s] : 1.0f;
            for (int64_t oo = 0; oo < out; ++oo) {
                const float want = p->with_gates ? g * ye[j * out + oo] : ye[j * out + oo];
                const float got = y_at(p, y, i, s)[oo];
                if (memcmp(&got, &want, sizeof got) != 0) mismatch("batch", i, s, oo, got, want);
            }
        }
        /* Fast precision: a row's bits do not depend on its batch here. */
        if (p->precision == SKN_PRECISION_FAST)
            for (int64_t j = 0; j < ne && j < 3; ++j) {
                const int64_t i = where[j] / p->k, s = where[j] % p->k;
                float y1[64];
                CHECK(skn_matmul_wt(ctx, x_row(p, i, s), 1, in, we, p->with_bias ? p->bias + e * out : NULL, y1, out,
                                    &o) == SKN_OK);
                const float g = p->with_gates ? p->gates[i * p->k + s] : 1.0f;
                for (int64_t oo = 0; oo < out; ++oo) {
                    const float want = p->with_gates ? g * y1[oo] : y1[oo];
                    const float got = y_at(p, y, i, s)[oo];
                    if (memcmp(&got, &want, sizeof got) != 0) mismatch("single row", i, s, oo, got, want);
                }
            }
        skn_view_release(we);
    }
    free(xe);
    free(ye);
    free(where);
}

/* Exact precision: within the float accumulation bound of an f64 sum. */
static void check_against_f64(const struct problem* p, const float* decoded, const float* y) {
    for (int64_t i = 0; i < p->n; ++i)
        for (int64_t s = 0; s < p->k; ++s) {
            const int64_t e = p->ids[i * p->ids_stride + s];
            const double g = p->with_gates ? p->gates[i * p->k + s] : 1.0;
            for (int64_t o = 0; o < p->out; ++o) {
                const float* wr = decoded + (e * p->out + o) * p->in;
                const float* xr = x_row(p, i, s);
                double acc = 0, mag = 0;
                for (int64_t c = 0; c < p->in; ++c) {
                    acc += (double)wr[c] * xr[c];
                    mag += fabs((double)wr[c] * xr[c]);
                }
                const double b = p->with_bias ? p->bias[e * p->out + o] : 0.0;
                const double want = g * (acc + b);
                const double bound = fabs(g) * ((double)(p->in + 2) * ldexp(1.0, -23) * mag + fabs(b) * ldexp(1.0, -23)) +
                                     fabs(want) * ldexp(1.0, -23);
                const float got = y_at(p, y, i, s)[o];
                if (!(fabs(got - want) <= bound)) mismatch("f64", i, s, o, got, (float)want);
            }
        }
}

/* Every tier this CPU runs, scalar first (skn_isa_at lists the table). */
static int caps_of_this_machine(skn_isa* caps) {
    int n = 0;
    for (int32_t i = 0; i < skn_isa_count(); ++i)
        if (skn_cpu_runs_isa((skn_isa)skn_isa_at(i))) caps[n++] = (skn_isa)skn_isa_at(i);
    return n;
}

static void run_format(skn_context* ctx, struct trace_state* tr, skn_format format, const skn_isa* caps, int ncaps,
                       unsigned* tiers_seen) {
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    CHECK(skn_format_info(format, &fp) == SKN_OK);
    /* Block formats: 3 and 5 blocks per row. Dense: in of 3 and 5 * 32. */
    const int64_t unit = fp.is_block_quantized ? fp.block_elems : 32;
    const int64_t outs[2] = {7, 33}, bprs[2] = {3, 5}, ns[2] = {1, MAX_N};
    skn_scope* scope = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    for (int si = 0; si < 2; ++si) {
        const int64_t out = outs[si], in = bprs[si] * unit;
        float* decoded = malloc((size_t)(E * out * in) * sizeof(float));
        float* bias = malloc((size_t)(E * out) * sizeof(float));
        float* x = malloc((size_t)(MAX_N * (E * in + 3)) * sizeof(float));
        float* y_rm = malloc((size_t)(MAX_N * (E * (out + Y_SLOT_PAD) + Y_ROW_PAD)) * sizeof(float));
        float* y_other = malloc((size_t)(MAX_N * (E * (out + Y_SLOT_PAD) + Y_ROW_PAD)) * sizeof(float));
        if (decoded == NULL || bias == NULL || x == NULL || y_rm == NULL || y_other == NULL) exit(1);
        for (int64_t i = 0; i < E * out; ++i) bias[i] = 0.5f - 0.0625f * (float)(i % 17);
        for (int64_t i = 0; i < MAX_N * (E * in + 3); ++i) x[i] = cosf((float)i * 0.0291f) * (float)(1 + i % 4);
        unsigned char* bytes = NULL;
        skn_view* w_rm = make_stacked_weight(format, E, out, in, SKN_ORDER_ROW_MAJOR, scope, &bytes, decoded);
        skn_view* w_ibm = NULL;
        if (fp.is_block_quantized)
            CHECK(skn_view_prepack(w_rm, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &w_ibm) == SKN_OK);
        for (int ni = 0; ni < 2; ++ni)
            for (int r = 0; r < N_ROUTINGS; ++r)
                for (int prec = 0; prec < 2; ++prec) {
                    /* Exact precision on the 5-block shape only: it is the slow reference path. */
                    if (prec == 1 && si == 0) continue;
                    static struct problem p;
                    memset(&p, 0, sizeof p);
                    p.format = format;
                    p.out = out;
                    p.in = in;
                    p.n = ns[ni];
                    p.route = (routing)r;
                    p.k = k_for(p.route);
                    p.precision = prec ? SKN_PRECISION_EXACT : SKN_PRECISION_FAST;
                    p.per_slot_x = r == K_IS_E || r == DUPLICATES;
                    p.with_gates = r == EVERY_ROW || r == DUPLICATES;
                    p.with_bias = r == UNUSED_UNSORTED || r == K_IS_E;
                    p.x = x;
                    p.x_row_stride = p.per_slot_x ? p.k * in + 3 : in + 5;
                    p.x_slot_stride = p.per_slot_x ? in : 0;
                    p.bias = bias;
                    make_routing(&p);
                    for (int c = 0; c < ncaps; ++c) {
                        CHECK(skn_context_set_isa(ctx, caps[c]) == SKN_OK);
                        snprintf(g_case, sizeof g_case, "%s %s out=%lld in=%lld n=%lld k=%lld %s cap=%s", fp.name,
                                 k_routing_names[r], (long long)out, (long long)in, (long long)p.n, (long long)p.k,
                                 prec ? "exact" : "fast", skn_isa_name(caps[c]));
                        g_case_failures = 0;
                        CHECK(skn_context_set_threads(ctx, 1) == SKN_OK);
                        CHECK(run_id(ctx, &p, w_rm, y_rm));
                        *tiers_seen |= 1u << (unsigned)tr->isa;
                        check_against_matmul_wt(ctx, tr, &p, w_rm, y_rm);
                        if (prec == 1) check_against_f64(&p, decoded, y_rm);
                        /* Two threads, and the other block order: the same bits. */
                        CHECK(skn_context_set_threads(ctx, 2) == SKN_OK);
                        CHECK(run_id(ctx, &p, w_ibm ? w_ibm : w_rm, y_other));
                        for (int64_t i = 0; i < p.n; ++i)
                            for (int64_t s = 0; s < p.k; ++s)
                                if (memcmp(y_at(&p, y_rm, i, s), y_at(&p, y_other, i, s),
                                           (size_t)out * sizeof(float)) != 0)
                                    mismatch("other order, 2 threads", i, s, -1, 0, 0);
                        if (w_ibm != NULL) check_against_matmul_wt(ctx, tr, &p, w_ibm, y_other);
                        ++g_checks;
                        if (g_case_failures) {
                            ++g_failures;
                            fprintf(stderr, "FAILED: %s (%d mismatches)\n", g_case, g_case_failures);
                        }
                    }
                }
        skn_view_release(w_rm);
        skn_view_release(w_ibm);
        free(bytes);
        free(decoded);
        free(bias);
        free(x);
        free(y_rm);
        free(y_other);
    }
    skn_scope_destroy(scope);
}

static void misuse(skn_context* ctx) {
    enum { OUT = 4, IN = 64, N = 2, K = 2 };
    float wf[E * OUT * IN], x[N * IN], y[N * K * OUT], gates[N * K];
    for (int i = 0; i < E * OUT * IN; ++i) wf[i] = (float)(i % 9) - 4.0f;
    for (int i = 0; i < N * IN; ++i) x[i] = 0.5f;
    for (int i = 0; i < N * K; ++i) gates[i] = 1.0f;
    unsigned char q[E * OUT * 2 * 34];
    CHECK(skn_quantize(SKN_FORMAT_Q8_0, wf, E * OUT, IN, q, sizeof q) == SKN_OK);
    const int64_t shape3[3] = {E, OUT, IN}, shape2[2] = {E * OUT, IN};
    skn_view* w = NULL;
    skn_view* w2 = NULL;
    CHECK(skn_view_from_bytes(q, sizeof q, SKN_FORMAT_Q8_0, shape3, 3, SKN_ORDER_ROW_MAJOR, &w) == SKN_OK);
    CHECK(skn_view_from_bytes(q, sizeof q, SKN_FORMAT_Q8_0, shape2, 2, SKN_ORDER_ROW_MAJOR, &w2) == SKN_OK);
    int32_t ids[N * K] = {0, 5, 3, 3};
    CHECK(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL) == SKN_OK);

    CHECK_ERROR(skn_matmul_wt_id(NULL, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_matmul_wt_id(ctx, NULL, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "x must not be NULL");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, NULL, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "ids");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, NULL, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "w");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, NULL, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "y must not be NULL");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w2, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "skn_matmul_wt");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, 0, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "k is 0");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, -1, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "k is -1");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 0, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "x_rows");
    /* Ids out of range: the message names row, slot, the id and E; y is untouched. */
    for (int i = 0; i < N * K * OUT; ++i) y[i] = 42.0f;
    ids[3] = E;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "row 1, slot 1: expert id 6 is outside the 6 experts");
    ids[3] = 3;
    ids[0] = -1;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "row 0, slot 0: expert id -1");
    CHECK(message_contains("valid ids: 0..5"));
    ids[0] = 0;
    int untouched = 1;
    for (int i = 0; i < N * K * OUT; ++i) untouched &= y[i] == 42.0f;
    CHECK(untouched);
    /* Strides. */
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN - 1, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "x_row_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 5, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "x_slot_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K - 1, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "ids_row_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, gates, 1, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "gates_row_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT - 1, NULL),
                SKN_E_INVALID_ARGUMENT, "y_slot_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "overlap");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, -1, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "negative");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, INT64_MAX, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "x_row_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, INT64_MAX, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "ids_row_stride");
    /* Slot-major outputs are fine: [K, N, OUT]. */
    CHECK(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, OUT, N * OUT, NULL) == SKN_OK);
    /* y over x, gates or bias. */
    static float xy[N * K * OUT + N * IN];
    CHECK_ERROR(skn_matmul_wt_id(ctx, xy, N, IN, 0, ids, K, K, NULL, 0, w, NULL, xy + IN, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "y overlaps x");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, y + 1, K, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "y overlaps gates");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, y + 2, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "y overlaps bias");
    /* Fast precision refuses a non-finite activation by position. */
    x[IN + 3] = INFINITY;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, NULL),
                SKN_E_INVALID_ARGUMENT, "activation [1, 3]");
    x[IN + 3] = 0.5f;
    skn_matmul_options o = options(SKN_PRECISION_FAST);
    o.struct_size = 3;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, N, IN, 0, ids, K, K, NULL, 0, w, NULL, y, K * OUT, OUT, &o),
                SKN_E_INVALID_ARGUMENT, "struct_size");
    skn_view_release(w);
    skn_view_release(w2);
}

int main(void) {
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    struct trace_state tr;
    memset(&tr, 0, sizeof tr);
    CHECK(skn_context_set_trace(ctx, on_trace, &tr) == SKN_OK);
    skn_isa caps[32];
    const int ncaps = caps_of_this_machine(caps);
    const skn_format formats[] = {SKN_FORMAT_Q4_0, SKN_FORMAT_Q8_0, SKN_FORMAT_Q4_K, SKN_FORMAT_Q6_K,
                                  SKN_FORMAT_IQ4_NL, SKN_FORMAT_F32, SKN_FORMAT_F16};
    unsigned tiers_seen = 0;
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; ++f)
        run_format(ctx, &tr, formats[f], caps, ncaps, &tiers_seen);
    printf("ISA caps run:");
    for (int c = 0; c < ncaps; ++c) printf(" %s", skn_isa_name(caps[c]));
    printf("; kernel tiers seen:");
    for (unsigned t = 0; t < 32; ++t)
        if (tiers_seen & (1u << t)) printf(" %s", skn_isa_name((skn_isa)t));
    printf("\n");
    CHECK(skn_context_set_isa(ctx, skn_cpu_isa()) == SKN_OK);
    misuse(ctx);
    skn_context_destroy(ctx);
    return check_summary();
}
