/* SPDX-License-Identifier: MIT */
/* A stacked expert tensor from a GGUF file, as a mixture-of-experts model
 * stores it (ggml's ne = [in, out, E]): opened SKN_GGUF_OUT_IN it reads
 * [E, out, in]; skn_view_select gives each expert's [out, in] weight, the
 * same matrix and the same matmul_wt bits as that expert's bytes wrapped on
 * their own; skn_matmul_wt_id over the mapped tensor, over its
 * INPUT_BLOCK_MAJOR copy and over skn_prepack_for_matmul's choice gives
 * those bits per (row, slot). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "skn/skn.h"

enum { E = 4, OUT = 7, N = 3, K = 2 };

static void run(skn_format format, int64_t in) {
    float* w = malloc((size_t)(E * OUT * in) * sizeof(float));
    float* x = malloc((size_t)(N * in) * sizeof(float));
    size_t nb = 0;
    CHECK(skn_quantized_size(format, E * OUT, in, &nb) == SKN_OK);
    unsigned char* q = malloc(nb);
    if (w == NULL || x == NULL || q == NULL) exit(1);
    for (int64_t i = 0; i < E * OUT * in; ++i) w[i] = sinf((float)i * 0.021f) * (float)(1 + (i / in) % 3);
    for (int64_t i = 0; i < N * in; ++i) x[i] = cosf((float)i * 0.017f);
    CHECK(skn_quantize(format, w, E * OUT, in, q, nb) == SKN_OK);

    skn_gguf_writer* wr = NULL;
    CHECK(skn_gguf_writer_create(&wr) == SKN_OK);
    const int64_t ne[3] = {in, OUT, E};
    CHECK(skn_gguf_writer_add_tensor(wr, "blk.0.ffn_up_exps.weight", format, 3, ne, q, nb) == SKN_OK);
    char path[64];
    snprintf(path, sizeof path, "/tmp/skn_c_gguf_experts_%d.gguf", (int)getpid());
    CHECK(skn_gguf_writer_write_file(wr, path) == SKN_OK);
    skn_gguf_writer_destroy(wr);
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(path, NULL, &g) == SKN_OK);
    remove(path); /* the mapping stays valid */
    int64_t index = -1;
    CHECK(skn_gguf_find_tensor(g, "blk.0.ffn_up_exps.weight", &index) == SKN_OK && index == 0);
    skn_view* stacked = NULL;
    CHECK(skn_gguf_tensor_view(g, index, &stacked) == SKN_OK);
    int64_t shape[4];
    CHECK(skn_view_rank(stacked) == 3 && skn_view_shape(stacked, shape) == SKN_OK && shape[0] == E &&
          shape[1] == OUT && shape[2] == in);
    CHECK(skn_view_order(stacked) == SKN_ORDER_ROW_MAJOR);
    skn_view* none = NULL;
    CHECK_ERROR(skn_view_select(stacked, 0, E, &none), SKN_E_INVALID_ARGUMENT, "outside dimension 0 of extent 4");

    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    const size_t expert_bytes = nb / E;
    const int64_t shape2[2] = {OUT, in};
    float ys[N * OUT], yf[N * OUT];
    float* a = malloc((size_t)(OUT * in) * sizeof(float));
    float* b = malloc((size_t)(OUT * in) * sizeof(float));
    if (a == NULL || b == NULL) exit(1);
    for (int64_t e = 0; e < E; ++e) {
        skn_view* s = NULL;
        CHECK(skn_view_select(stacked, 0, e, &s) == SKN_OK);
        skn_view* own = NULL;
        CHECK(skn_view_from_bytes(q + (size_t)e * expert_bytes, expert_bytes, format, shape2, 2, SKN_ORDER_ROW_MAJOR,
                                  &own) == SKN_OK);
        CHECK(skn_view_to_float(s, a, (size_t)(OUT * in)) == SKN_OK);
        CHECK(skn_view_to_float(own, b, (size_t)(OUT * in)) == SKN_OK);
        CHECK(memcmp(a, b, (size_t)(OUT * in) * sizeof(float)) == 0);
        CHECK(skn_matmul_wt(ctx, x, N, in, s, NULL, ys, OUT, NULL) == SKN_OK);
        CHECK(skn_matmul_wt(ctx, x, N, in, own, NULL, yf, OUT, NULL) == SKN_OK);
        CHECK(memcmp(ys, yf, sizeof ys) == 0);
        skn_view_release(own);
        skn_view_release(s);
    }

    /* Routed, ids unsorted within a row: rows 0..2 go to {3, 0}, {2, 1}, {1, 2}. */
    const int32_t ids[N * K] = {3, 0, 2, 1, 1, 2};
    float y[N * K * OUT], y_ibm[N * K * OUT];
    CHECK(skn_matmul_wt_id(ctx, x, N, in, 0, ids, K, K, NULL, 0, stacked, NULL, y, K * OUT, OUT, NULL) == SKN_OK);
    skn_scope* scope = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    skn_view* packed = NULL;
    CHECK(skn_view_prepack(stacked, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &packed) == SKN_OK);
    CHECK(skn_view_rank(packed) == 3 && skn_view_order(packed) == SKN_ORDER_INPUT_BLOCK_MAJOR);
    CHECK(skn_matmul_wt_id(ctx, x, N, in, 0, ids, K, K, NULL, 0, packed, NULL, y_ibm, K * OUT, OUT, NULL) == SKN_OK);
    CHECK(memcmp(y, y_ibm, sizeof y) == 0);
    /* skn_prepack_for_matmul gives the stack the order it gives one expert. */
    skn_view* ready = NULL;
    skn_view* one = NULL;
    skn_view* one_ready = NULL;
    CHECK(skn_prepack_for_matmul(ctx, stacked, scope, &ready) == SKN_OK);
    CHECK(skn_view_select(stacked, 0, 0, &one) == SKN_OK);
    CHECK(skn_prepack_for_matmul(ctx, one, scope, &one_ready) == SKN_OK);
    CHECK(skn_view_rank(ready) == 3 && skn_view_order(ready) == skn_view_order(one_ready));
    CHECK(skn_matmul_wt_id(ctx, x, N, in, 0, ids, K, K, NULL, 0, ready, NULL, y_ibm, K * OUT, OUT, NULL) == SKN_OK);
    CHECK(memcmp(y, y_ibm, sizeof y) == 0);
    skn_view_release(one_ready);
    skn_view_release(one);
    skn_view_release(ready);
    for (int64_t e = 0; e < E; ++e) {
        skn_view* s = NULL;
        CHECK(skn_view_select(stacked, 0, e, &s) == SKN_OK);
        /* Experts 1 and 2 serve two rows each, in row order; 0 and 3 one. */
        float xe[2 * 1024], ye[2 * OUT];
        int64_t rows[2], slots[2], ne_rows = 0;
        for (int64_t i = 0; i < N; ++i)
            for (int64_t sl = 0; sl < K; ++sl)
                if (ids[i * K + sl] == e) {
                    memcpy(xe + ne_rows * in, x + i * in, (size_t)in * sizeof(float));
                    rows[ne_rows] = i;
                    slots[ne_rows++] = sl;
                }
        CHECK(skn_matmul_wt(ctx, xe, ne_rows, in, s, NULL, ye, OUT, NULL) == SKN_OK);
        for (int64_t j = 0; j < ne_rows; ++j)
            CHECK(memcmp(y + rows[j] * K * OUT + slots[j] * OUT, ye + j * OUT, OUT * sizeof(float)) == 0);
        skn_view_release(s);
    }
    skn_view_release(packed);
    skn_scope_destroy(scope);
    skn_context_destroy(ctx);
    skn_view_release(stacked);
    skn_gguf_close(g);
    free(a);
    free(b);
    free(w);
    free(x);
    free(q);
}

int main(void) {
    run(SKN_FORMAT_Q4_K, 3 * 256);
    run(SKN_FORMAT_Q8_0, 5 * 32);
    return check_summary();
}
