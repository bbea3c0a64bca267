/* SPDX-License-Identifier: MIT */
/* skn_matmul_wt_id_ex from C: the routed call described as ggml describes
 * mul_mat_id, byte strides and x_slots.
 *
 * Every output must be bit-identical to skn_matmul_wt_id's on the same
 * problem: with x_slots 1 (its x_slot_stride 0), x_slots = k (its per-slot
 * rows), and x_slots a divisor between (ggml's partial broadcast: slot s
 * reads activation slot s % x_slots), which the old call cannot express and
 * gets here as x copied out to one row per slot. Q4_0, Q4_K and F32 (exact),
 * both block orders, n = 1 and 5, k = 4 of E = 5 experts, with and without
 * gates and bias, y in ggml's [n, k, out] and padded, one and two threads.
 * Then the fields filled from ggml-style ne/nb arrays, and the refusals
 * that are this call's own (byte strides that split a float, x_slots that
 * do not divide k, struct_size). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"
#include "routed_helpers.h"

enum { E = 5, K = 4, MAX_N = 5, OUT = 7 };

static int64_t g_in;

/* One problem: x [n, x_slots, in] padded (row stride x_slots * in + 3 floats),
 * ids [n, k] padded to k + 1, gates [n, k], bias [E, OUT]. */
struct problem {
    int64_t n, x_slots;
    float x[MAX_N * (K * 512 + 3)];
    int32_t ids[MAX_N * (K + 1)];
    float gates[MAX_N * K], bias[E * OUT];
    int with_gates, with_bias;
};

static void make_problem(struct problem* p, int64_t n, int64_t x_slots, int with_gates, int with_bias) {
    p->n = n;
    p->x_slots = x_slots;
    p->with_gates = with_gates;
    p->with_bias = with_bias;
    for (size_t i = 0; i < sizeof p->x / sizeof p->x[0]; ++i) p->x[i] = cosf((float)i * 0.0173f) * (float)(1 + i % 5);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t s = 0; s < K; ++s) {
            p->ids[i * (K + 1) + s] = (int32_t)((3 * i + 2 * s + s / 2) % E); /* repeats within a row for some i */
            p->gates[i * K + s] = 0.5f + 0.25f * (float)((i + s) % 5);
        }
    for (int64_t j = 0; j < E * OUT; ++j) p->bias[j] = 0.125f * (float)(j % 9) - 0.5f;
}

static int64_t x_row_floats(const struct problem* p) { return p->x_slots * g_in + 3; }

/* y through skn_matmul_wt_id_ex, y [n, k, out] with slot stride ys and row stride yr (floats). */
static skn_status run_ex(skn_context* ctx, const struct problem* p, const skn_view* w, float* y, int64_t ys,
                         int64_t yr, const skn_matmul_options* o) {
    skn_routed_matmul a;
    memset(&a, 0, sizeof a);
    a.struct_size = sizeof a;
    a.w = w;
    a.x = p->x;
    a.x_rows = p->n;
    a.x_slots = p->x_slots;
    a.x_row_stride = x_row_floats(p) * 4;
    a.x_slot_stride = g_in * 4;
    a.ids = p->ids;
    a.k = K;
    a.ids_row_stride = (K + 1) * 4;
    a.gates = p->with_gates ? p->gates : NULL;
    a.gates_row_stride = K * 4;
    a.bias = p->with_bias ? p->bias : NULL;
    a.y = y;
    a.y_row_stride = yr * 4;
    a.y_slot_stride = ys * 4;
    return skn_matmul_wt_id_ex(ctx, &a, o);
}

/* The same through skn_matmul_wt_id. x_slots 1 and K it takes as they are;
 * a divisor between, as x copied out to one row per slot. */
static skn_status run_old(skn_context* ctx, const struct problem* p, const skn_view* w, float* y, int64_t ys,
                          int64_t yr, const skn_matmul_options* o) {
    static float per_slot[MAX_N * K * 512];
    const float* x = p->x;
    int64_t row_stride = x_row_floats(p), slot_stride = p->x_slots == 1 ? 0 : g_in;
    if (p->x_slots != 1 && p->x_slots != K) {
        for (int64_t i = 0; i < p->n; ++i)
            for (int64_t s = 0; s < K; ++s)
                memcpy(per_slot + (i * K + s) * g_in, p->x + i * row_stride + (s % p->x_slots) * g_in,
                       (size_t)g_in * sizeof(float));
        x = per_slot;
        row_stride = K * g_in;
        slot_stride = g_in;
    }
    return skn_matmul_wt_id(ctx, x, p->n, row_stride, slot_stride, p->ids, K, K + 1, p->with_gates ? p->gates : NULL,
                            K, w, p->with_bias ? p->bias : NULL, y, yr, ys, o);
}

static void check_same_as_old_call(skn_context* ctx) {
    static const skn_format formats[] = {SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_K, SKN_FORMAT_F32};
    skn_scope* scope = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    static struct problem p;
    static float y_ex[MAX_N * (K * (OUT + 1) + 2)], y_old[MAX_N * (K * (OUT + 1) + 2)];
    int cases = 0;
    for (size_t fi = 0; fi < sizeof formats / sizeof formats[0]; ++fi) {
        skn_format_props fp;
        memset(&fp, 0, sizeof fp);
        fp.struct_size = sizeof fp;
        CHECK(skn_format_info(formats[fi], &fp) == SKN_OK);
        g_in = fp.is_block_quantized ? 2 * fp.block_elems : 96; /* Q4_K: 512; Q4_0: 64 */
        const skn_matmul_options o =
            options(formats[fi] == SKN_FORMAT_F32 ? SKN_PRECISION_EXACT : SKN_PRECISION_FAST);
        for (int ibm = 0; ibm < (fp.is_block_quantized ? 2 : 1); ++ibm) {
            unsigned char* bytes = NULL;
            const skn_block_order order = ibm ? SKN_ORDER_INPUT_BLOCK_MAJOR : SKN_ORDER_ROW_MAJOR;
            skn_view* w = make_stacked_weight(formats[fi], E, OUT, g_in, order, scope, &bytes, NULL);
            for (int64_t n = 1; n <= MAX_N; n += 4)
                for (int64_t x_slots = 1; x_slots <= K; x_slots *= 2)
                    for (int extras = 0; extras < 2; ++extras)
                        for (int padded = 0; padded < 2; ++padded)
                            for (int threads = 1; threads <= 2; ++threads) {
                                make_problem(&p, n, x_slots, extras, !extras);
                                const int64_t ys = OUT + padded, yr = K * ys + 2 * padded;
                                memset(y_ex, 0xff, sizeof y_ex);
                                memset(y_old, 0xff, sizeof y_old);
                                CHECK(skn_context_set_threads(ctx, threads) == SKN_OK);
                                CHECK(run_ex(ctx, &p, w, y_ex, ys, yr, &o) == SKN_OK);
                                CHECK(run_old(ctx, &p, w, y_old, ys, yr, &o) == SKN_OK);
                                if (memcmp(y_ex, y_old, sizeof y_ex) != 0) {
                                    ++g_failures;
                                    fprintf(stderr, "%s %s n=%lld x_slots=%lld gates=%d padded=%d threads=%d: "
                                            "skn_matmul_wt_id_ex differs from skn_matmul_wt_id\n",
                                            fp.name, ibm ? "ibm" : "rm", (long long)n, (long long)x_slots, extras,
                                            padded, threads);
                                }
                                ++g_checks;
                                ++cases;
                            }
            skn_view_release(w);
            free(bytes);
        }
    }
    CHECK(cases == (2 + 2 + 1) * 2 * 3 * 2 * 2 * 2);
    skn_scope_destroy(scope);
}

/* Partial broadcast really reads slot s % x_slots: with x_slots 2 the outputs
 * of slots 0 and 2 (and 1 and 3) of a row match when they name one expert,
 * and differ from a slot reading the other activation slot. */
static void check_partial_broadcast_reads_s_mod_x_slots(skn_context* ctx) {
    unsigned char* bytes = NULL;
    g_in = 64;
    skn_view* w = make_stacked_weight(SKN_FORMAT_Q8_0, E, OUT, g_in, SKN_ORDER_ROW_MAJOR, NULL, &bytes, NULL);
    static struct problem p;
    make_problem(&p, 1, 2, 0, 0);
    for (int64_t s = 0; s < K; ++s) p.ids[s] = 3;
    float y[K * OUT];
    const skn_matmul_options o = options(SKN_PRECISION_FAST);
    CHECK(run_ex(ctx, &p, w, y, OUT, K * OUT, &o) == SKN_OK);
    CHECK(memcmp(y, y + 2 * OUT, OUT * sizeof(float)) == 0);
    CHECK(memcmp(y + OUT, y + 3 * OUT, OUT * sizeof(float)) == 0);
    CHECK(memcmp(y, y + OUT, OUT * sizeof(float)) != 0);
    skn_view_release(w);
    free(bytes);
}

/* The fields as a ggml backend would fill them from its tensors' ne and nb:
 * as [in, OUT, E] (a view), b [in, ne11, n_tokens], ids [k, n_tokens], dst
 * [OUT, k, n_tokens], all contiguous. */
static void check_ggml_mapping(skn_context* ctx) {
    unsigned char* bytes = NULL;
    g_in = 64;
    skn_view* w = make_stacked_weight(SKN_FORMAT_Q8_0, E, OUT, g_in, SKN_ORDER_ROW_MAJOR, NULL, &bytes, NULL);
    enum { TOKENS = 3, NE11 = 2 };
    static float b[TOKENS * NE11 * 64], dst[TOKENS * K * OUT], want[TOKENS * K * OUT];
    int32_t ids[TOKENS * K];
    for (int i = 0; i < TOKENS * NE11 * 64; ++i) b[i] = sinf((float)i * 0.05f);
    for (int i = 0; i < TOKENS * K; ++i) ids[i] = (int32_t)((i * 7 + 1) % E);
    const size_t b_nb[3] = {4, 64 * 4, NE11 * 64 * 4}, ids_nb[2] = {4, K * 4}, dst_nb[3] = {4, OUT * 4, K * OUT * 4};
    skn_routed_matmul a;
    memset(&a, 0, sizeof a);
    a.struct_size = sizeof a;
    a.w = w;
    a.x = b;
    a.x_rows = TOKENS;               /* b->ne[2] */
    a.x_slots = NE11;                /* b->ne[1] */
    a.x_row_stride = (int64_t)b_nb[2];
    a.x_slot_stride = (int64_t)b_nb[1];
    a.ids = ids;
    a.k = K;                         /* ids->ne[0] */
    a.ids_row_stride = (int64_t)ids_nb[1];
    a.y = dst;
    a.y_row_stride = (int64_t)dst_nb[2];
    a.y_slot_stride = (int64_t)dst_nb[1];
    CHECK(skn_matmul_wt_id_ex(ctx, &a, NULL) == SKN_OK);
    /* Each (token, slot) against skn_matmul_wt on its expert's slice. */
    for (int64_t t = 0; t < TOKENS; ++t)
        for (int64_t s = 0; s < K; ++s) {
            skn_view* we = NULL;
            CHECK(skn_view_select(w, 0, ids[t * K + s], &we) == SKN_OK);
            CHECK(skn_matmul_wt(ctx, b + t * NE11 * 64 + (s % NE11) * 64, 1, 64, we, NULL, want + (t * K + s) * OUT,
                                OUT, NULL) == SKN_OK);
            skn_view_release(we);
        }
    CHECK(memcmp(dst, want, sizeof dst) == 0);
    /* This call's own refusals. */
    skn_routed_matmul bad = a;
    bad.x_slot_stride = 64 * 4 + 2;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &bad, NULL), SKN_E_INVALID_ARGUMENT,
                "x_slot_stride 258 bytes is not a multiple of 4");
    bad = a;
    bad.x_slots = 3;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &bad, NULL), SKN_E_INVALID_ARGUMENT, "x_slots 3 does not divide k = 4");
    bad = a;
    bad.y_slot_stride = 8; /* two floats: a count where bytes are asked */
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &bad, NULL), SKN_E_INVALID_ARGUMENT,
                "y_slot_stride 8 bytes is smaller than a slot's 7 outputs (28 bytes)");
    bad = a;
    bad.struct_size = sizeof bad - 8;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &bad, NULL), SKN_E_INVALID_ARGUMENT, "struct_size");
    skn_view_release(w);
    free(bytes);
}

int main(void) {
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    check_same_as_old_call(ctx);
    CHECK(skn_context_set_threads(ctx, 1) == SKN_OK);
    check_partial_broadcast_reads_s_mod_x_slots(ctx);
    check_ggml_mapping(ctx);
    skn_context_destroy(ctx);
    return check_summary();
}
