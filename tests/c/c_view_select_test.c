/* SPDX-License-Identifier: MIT */
/* skn_view_select from C: a stacked expert weight [E, out, in] in either
 * block order gives each expert's [out, in] weight without a copy, reading
 * the same matrix as a fresh view of that expert's bytes and running the
 * same kernel in skn_matmul_wt; other dimensions of packed and dense views;
 * and the refusals (the block axis, ranges, rank 1, NULLs). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"

enum { E = 3, OUT = 5, IN = 96 }; /* Q4_0: 3 blocks per row */

struct events {
    int kernel, fallback;
    char name[128];
};

static void on_trace(const skn_trace_event* e, void* user) {
    struct events* ev = (struct events*)user;
    if (e->kind == SKN_TRACE_KERNEL) {
        ev->kernel++;
        snprintf(ev->name, sizeof ev->name, "%s", e->name);
    }
    if (e->kind == SKN_TRACE_FALLBACK) ev->fallback++;
}

/* Every element of `v` (rank 2 or 3) equals `parent` at the same indices
 * with `index` inserted at `dim`. */
static int same_as_parent(const skn_view* v, const skn_view* parent, int dim, int64_t index) {
    int64_t s[4], idx[4], pidx[4];
    const int rank = skn_view_rank(v);
    if (skn_view_shape(v, s) != SKN_OK) return 0;
    for (int d = rank; d < 4; ++d) s[d] = 1;
    for (idx[0] = 0; idx[0] < s[0]; ++idx[0])
        for (idx[1] = 0; idx[1] < s[1]; ++idx[1])
            for (idx[2] = 0; idx[2] < s[2]; ++idx[2]) {
                for (int d = 0, p = 0; p < rank + 1; ++p) pidx[p] = p == dim ? index : idx[d++];
                float a = 0, b = 1;
                if (skn_view_get(v, idx, rank, &a) != SKN_OK) return 0;
                if (skn_view_get(parent, pidx, rank + 1, &b) != SKN_OK) return 0;
                if (memcmp(&a, &b, sizeof a) != 0) return 0;
            }
    return 1;
}

int main(void) {
    static float w[E * OUT * IN], x[2 * IN];
    for (int i = 0; i < E * OUT * IN; ++i) w[i] = sinf((float)i * 0.071f) * (float)(1 + i % 5);
    for (int i = 0; i < 2 * IN; ++i) x[i] = cosf((float)i * 0.043f);
    /* [E, out, in] ROW_MAJOR is the [E * out, in] matrix quantized row by row. */
    size_t n = 0;
    CHECK(skn_quantized_size(SKN_FORMAT_Q4_0, E * OUT, IN, &n) == SKN_OK);
    unsigned char* q = malloc(n);
    if (q == NULL) return 1;
    CHECK(skn_quantize(SKN_FORMAT_Q4_0, w, E * OUT, IN, q, n) == SKN_OK);
    const size_t expert_bytes = n / E;

    const int64_t shape3[3] = {E, OUT, IN}, shape2[2] = {OUT, IN};
    skn_view* rm = NULL;
    CHECK(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_0, shape3, 3, SKN_ORDER_ROW_MAJOR, &rm) == SKN_OK);
    skn_scope* scope = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    skn_view* ibm = NULL;
    CHECK(skn_view_prepack(rm, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &ibm) == SKN_OK);

    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    struct events ev;
    memset(&ev, 0, sizeof ev);
    CHECK(skn_context_set_trace(ctx, on_trace, &ev) == SKN_OK);

    for (int64_t e = 0; e < E; ++e) {
        /* The expert's own bytes as a fresh [out, in] weight, in both orders. */
        skn_view* fresh_rm = NULL;
        skn_view* fresh_ibm = NULL;
        CHECK(skn_view_from_bytes(q + (size_t)e * expert_bytes, expert_bytes, SKN_FORMAT_Q4_0, shape2, 2,
                                  SKN_ORDER_ROW_MAJOR, &fresh_rm) == SKN_OK);
        CHECK(skn_view_prepack(fresh_rm, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &fresh_ibm) == SKN_OK);
        float want[OUT * IN], got[OUT * IN];
        CHECK(skn_dequantize(SKN_FORMAT_Q4_0, q + (size_t)e * expert_bytes, expert_bytes, OUT, IN, want,
                             OUT * IN) == SKN_OK);
        skn_view* const stacked[2] = {rm, ibm};
        skn_view* const fresh[2] = {fresh_rm, fresh_ibm};
        for (int o = 0; o < 2; ++o) {
            skn_view* s = NULL;
            CHECK(skn_view_select(stacked[o], 0, e, &s) == SKN_OK);
            if (s == NULL) continue;
            int64_t sh[4];
            CHECK(skn_view_rank(s) == 2 && skn_view_shape(s, sh) == SKN_OK && sh[0] == OUT && sh[1] == IN);
            CHECK(skn_view_order(s) == skn_view_order(stacked[o]));
            CHECK(skn_view_layout_class(s) == skn_view_layout_class(fresh[o]));
            CHECK(skn_view_to_float(s, got, OUT * IN) == SKN_OK);
            CHECK(memcmp(got, want, sizeof got) == 0);
            CHECK(same_as_parent(s, stacked[o], 0, e));
            /* Same bits and the same kernel as the fresh weight: the slice
             * has a fresh weight's strides, so no SIMD kernel refuses it. */
            float ys[2 * OUT], yf[2 * OUT];
            ev.fallback = 0;
            CHECK(skn_matmul_wt(ctx, x, 2, IN, s, NULL, ys, OUT, NULL) == SKN_OK);
            char slice_kernel[128];
            memcpy(slice_kernel, ev.name, sizeof slice_kernel);
            const int slice_fallbacks = ev.fallback;
            ev.fallback = 0; /* the count is per call: a reference-only provider reports one each */
            CHECK(skn_matmul_wt(ctx, x, 2, IN, fresh[o], NULL, yf, OUT, NULL) == SKN_OK);
            CHECK(memcmp(ys, yf, sizeof ys) == 0);
            CHECK(strcmp(slice_kernel, ev.name) == 0);
            CHECK(slice_fallbacks == ev.fallback);
            skn_view_release(s);
        }
        skn_view_release(fresh_rm);
        skn_view_release(fresh_ibm);
    }

    /* Other leading dimensions: the out axis of [E, out, in] gives [E, in],
     * read through the parent's strides in either order. */
    for (int o = 0; o < 2; ++o) {
        skn_view* const v = o ? ibm : rm;
        skn_view* s = NULL;
        CHECK(skn_view_select(v, 1, 4, &s) == SKN_OK);
        int64_t sh[4];
        CHECK(skn_view_shape(s, sh) == SKN_OK && sh[0] == E && sh[1] == IN);
        CHECK(same_as_parent(s, v, 1, 4));
        skn_view_release(s);
        /* A narrowed stack keeps its strides through select. */
        skn_view* nv = NULL;
        CHECK(skn_view_narrow(v, 1, 1, 3, &nv) == SKN_OK);
        CHECK(skn_view_select(nv, 0, 2, &s) == SKN_OK);
        CHECK(skn_view_shape(s, sh) == SKN_OK && sh[0] == 3 && sh[1] == IN);
        CHECK(same_as_parent(s, nv, 0, 2));
        skn_view_release(s);
        skn_view_release(nv);
        /* unsqueeze then select 0 is the view itself. */
        skn_view* e1 = NULL;
        skn_view* u = NULL;
        CHECK(skn_view_select(v, 0, 1, &e1) == SKN_OK);
        CHECK(skn_view_unsqueeze(e1, 0, &u) == SKN_OK);
        CHECK(skn_view_select(u, 0, 0, &s) == SKN_OK);
        float a[OUT * IN], b[OUT * IN];
        CHECK(skn_view_to_float(s, a, OUT * IN) == SKN_OK && skn_view_to_float(e1, b, OUT * IN) == SKN_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        skn_view_release(s);
        skn_view_release(u);
        skn_view_release(e1);
    }

    /* Rank 4, packed: [2, E, out, in] over two copies of the stack. */
    {
        unsigned char* q2 = malloc(2 * n);
        if (q2 == NULL) return 1;
        memcpy(q2, q, n);
        memcpy(q2 + n, q, n);
        const int64_t shape4[4] = {2, E, OUT, IN};
        skn_view* v4 = NULL;
        CHECK(skn_view_from_bytes(q2, 2 * n, SKN_FORMAT_Q4_0, shape4, 4, SKN_ORDER_INPUT_BLOCK_MAJOR, &v4) == SKN_OK);
        skn_view* s = NULL;
        CHECK(skn_view_select(v4, 1, 2, &s) == SKN_OK);
        CHECK(skn_view_rank(s) == 3 && same_as_parent(s, v4, 1, 2));
        skn_view_release(s);
        CHECK_ERROR(skn_view_select(v4, 3, 0, &s), SKN_E_INVALID_ARGUMENT, "block axis");
        skn_view_release(v4);
        free(q2);
    }

    /* Dense: any dimension, the last included. */
    {
        float d[3 * 4 * 6];
        for (int i = 0; i < 3 * 4 * 6; ++i) d[i] = (float)i;
        const int64_t ds[3] = {3, 4, 6};
        skn_view* dv = NULL;
        CHECK(skn_view_from_bytes(d, sizeof d, SKN_FORMAT_F32, ds, 3, SKN_ORDER_ROW_MAJOR, &dv) == SKN_OK);
        for (int dim = 0; dim < 3; ++dim) {
            skn_view* s = NULL;
            CHECK(skn_view_select(dv, dim, 2, &s) == SKN_OK);
            CHECK(skn_view_rank(s) == 2 && same_as_parent(s, dv, dim, 2));
            CHECK(skn_view_layout_class(s) == (dim == 0 ? SKN_LAYOUT_CONTIGUOUS : SKN_LAYOUT_STRIDED));
            skn_view_release(s);
        }
        skn_view* s = NULL;
        CHECK(skn_view_select(dv, 0, 1, &s) == SKN_OK);
        skn_view* r1 = NULL;
        CHECK(skn_view_select(s, 0, 3, &r1) == SKN_OK);
        CHECK(skn_view_rank(r1) == 1);
        float got = 0;
        const int64_t at = 5;
        CHECK(skn_view_get(r1, &at, 1, &got) == SKN_OK && got == d[1 * 24 + 3 * 6 + 5]);
        skn_view* r0 = NULL;
        CHECK_ERROR(skn_view_select(r1, 0, 0, &r0), SKN_E_INVALID_ARGUMENT, "skn_view_get");
        CHECK(r0 == NULL);
        skn_view_release(r1);
        skn_view_release(s);
        skn_view_release(dv);
    }

    /* Refusals, each saying what was wrong. */
    skn_view* s = NULL;
    CHECK_ERROR(skn_view_select(rm, 2, 0, &s), SKN_E_INVALID_ARGUMENT, "block axis");
    CHECK_ERROR(skn_view_select(ibm, 2, 32, &s), SKN_E_INVALID_ARGUMENT, "select a leading dimension");
    CHECK_ERROR(skn_view_select(rm, 3, 0, &s), SKN_E_INVALID_ARGUMENT, "dimension 3 is out of range");
    CHECK_ERROR(skn_view_select(rm, -1, 0, &s), SKN_E_INVALID_ARGUMENT, "valid: 0..2");
    CHECK_ERROR(skn_view_select(rm, 0, E, &s), SKN_E_INVALID_ARGUMENT, "index 3 is outside dimension 0 of extent 3");
    CHECK_ERROR(skn_view_select(ibm, 0, -1, &s), SKN_E_INVALID_ARGUMENT, "valid: 0..2");
    CHECK_ERROR(skn_view_select(rm, 1, INT64_MAX, &s), SKN_E_INVALID_ARGUMENT, "extent 5");
    CHECK_ERROR(skn_view_select(NULL, 0, 0, &s), SKN_E_INVALID_ARGUMENT, "view");
    CHECK_ERROR(skn_view_select(rm, 0, 0, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(s == NULL);
    /* A stacked weight is not a matmul_wt weight: select an expert first. */
    float y[2 * OUT];
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, IN, rm, NULL, y, OUT, NULL), SKN_E_INVALID_ARGUMENT, "rank-2");

    skn_context_destroy(ctx);
    skn_view_release(ibm);
    skn_view_release(rm);
    skn_scope_destroy(scope);
    free(q);
    return check_summary();
}
