/* SPDX-License-Identifier: MIT */
/* The views, prepack, relayout, orientation and fixture C API, from C:
 * every function and its error paths. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"

struct trace_log {
    int adapters;
    uint64_t bytes;
    skn_block_order from, to;
};

static void on_trace(const skn_trace_event* e, void* user) {
    struct trace_log* t = (struct trace_log*)user;
    if (e->kind == SKN_TRACE_ADAPTER) {
        t->adapters++;
        t->bytes += e->bytes;
        t->from = e->from_order;
        t->to = e->to_order;
        CHECK(e->struct_size == sizeof(skn_trace_event));
        CHECK(strstr(e->detail, "prepack") != NULL);
    }
}

enum { ROWS = 5, COLS = 3 * 256 };

static void test_views_and_prepack(void) {
    static float w[ROWS * COLS], a[ROWS * COLS], b[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; ++i) w[i] = cosf((float)i * 0.11f) * (float)(1 + i % 3);
    size_t n = 0;
    CHECK(skn_quantized_size(SKN_FORMAT_Q4_K, ROWS, COLS, &n) == SKN_OK);
    unsigned char* q = malloc(n);
    CHECK(q != NULL);
    if (!q) return;
    CHECK(skn_quantize(SKN_FORMAT_Q4_K, w, ROWS, COLS, q, n) == SKN_OK);

    const int64_t shape[2] = {ROWS, COLS};
    skn_view* v = NULL;
    CHECK(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_K, shape, 2, SKN_ORDER_ROW_MAJOR, &v) == SKN_OK);
    CHECK(skn_view_order(v) == SKN_ORDER_ROW_MAJOR);
    CHECK(skn_view_layout_class(v) == SKN_LAYOUT_BLOCKED_ROW_MAJOR);
    CHECK(skn_view_format(v) == SKN_FORMAT_Q4_K);
    CHECK(skn_view_rank(v) == 2);
    CHECK(strstr(skn_view_describe(v), "order=ROW_MAJOR") != NULL);
    CHECK(strstr(skn_view_describe(v), "(borrowed)") != NULL);
    int64_t sh[4];
    CHECK(skn_view_shape(v, sh) == SKN_OK && sh[0] == ROWS && sh[1] == COLS && sh[2] == 0);
    CHECK(skn_view_to_float(v, a, ROWS * COLS) == SKN_OK);

    skn_scope* scope = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    struct trace_log t = {0, 0, SKN_ORDER_ROW_MAJOR, SKN_ORDER_ROW_MAJOR};
    skn_view* same = NULL;
    CHECK(skn_view_prepack(v, SKN_ORDER_ROW_MAJOR, scope, on_trace, &t, &same) == SKN_OK);
    CHECK(same == v);
    CHECK(t.adapters == 0);
    uint64_t allocated = 1;
    CHECK(skn_scope_allocated(scope, &allocated) == SKN_OK && allocated == 0);
    skn_view_release(same);

    skn_view* ibm = NULL;
    CHECK(skn_view_prepack(v, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, on_trace, &t, &ibm) == SKN_OK);
    CHECK(ibm != v);
    CHECK(t.adapters == 1 && t.bytes == n && t.from == SKN_ORDER_ROW_MAJOR && t.to == SKN_ORDER_INPUT_BLOCK_MAJOR);
    CHECK(skn_scope_allocated(scope, &allocated) == SKN_OK && allocated == n);
    CHECK(skn_view_order(ibm) == SKN_ORDER_INPUT_BLOCK_MAJOR);
    CHECK(skn_view_layout_class(ibm) == SKN_LAYOUT_BLOCKED_INPUT_MAJOR);
    CHECK(strstr(skn_view_describe(ibm), "strides=[1, 5]") != NULL);
    CHECK(skn_view_to_float(ibm, b, ROWS * COLS) == SKN_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    const int64_t idx[2] = {3, 300};
    float x1 = 0, x2 = 1;
    CHECK(skn_view_get(v, idx, 2, &x1) == SKN_OK && skn_view_get(ibm, idx, 2, &x2) == SKN_OK && x1 == x2);
    CHECK(x1 == a[3 * COLS + 300]);

    /* The scope may go first: the view keeps its bytes alive. */
    skn_scope_destroy(scope);
    CHECK(skn_view_to_float(ibm, b, ROWS * COLS) == SKN_OK && memcmp(a, b, sizeof a) == 0);

    skn_view* nv = NULL;
    CHECK(skn_view_narrow(ibm, 1, 256, 512, &nv) == SKN_OK);
    CHECK(skn_view_order(nv) == SKN_ORDER_INPUT_BLOCK_MAJOR);
    const int64_t nidx[2] = {4, 10};
    CHECK(skn_view_get(nv, nidx, 2, &x1) == SKN_OK && x1 == a[4 * COLS + 256 + 10]);
    CHECK_ERROR(skn_view_narrow(ibm, 1, 100, 256, &nv), SKN_E_INVALID_ARGUMENT, "block-aligned");
    CHECK_ERROR(skn_view_narrow(ibm, 2, 0, 1, &nv), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_view_narrow(ibm, 0, 3, 5, &nv), SKN_E_INVALID_ARGUMENT, "outside");
    skn_view* uv = NULL;
    CHECK(skn_view_unsqueeze(nv, 0, &uv) == SKN_OK && skn_view_rank(uv) == 3);
    CHECK(skn_view_order(uv) == SKN_ORDER_INPUT_BLOCK_MAJOR);
    CHECK_ERROR(skn_view_unsqueeze(nv, 2, &uv), SKN_E_INVALID_ARGUMENT, "block axis");
    skn_view* tv = NULL;
    CHECK_ERROR(skn_view_transpose(ibm, 0, 1, &tv), SKN_E_UNSUPPORTED, "skn_matmul_wt");
    CHECK(tv == NULL);

    CHECK_ERROR(skn_view_get(v, idx, 1, &x1), SKN_E_INVALID_ARGUMENT, "rank");
    const int64_t bad_idx[2] = {5, 0};
    CHECK_ERROR(skn_view_get(v, bad_idx, 2, &x1), SKN_E_INVALID_ARGUMENT, "outside");
    CHECK_ERROR(skn_view_get(NULL, idx, 2, &x1), SKN_E_INVALID_ARGUMENT, "view");
    CHECK_ERROR(skn_view_to_float(v, b, ROWS * COLS - 1), SKN_E_BUFFER_TOO_SMALL, "3840");
    CHECK_ERROR(skn_view_shape(NULL, sh), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_prepack(v, SKN_ORDER_INPUT_BLOCK_MAJOR, NULL, NULL, NULL, &tv), SKN_E_INVALID_ARGUMENT, "scope");
    CHECK_ERROR(skn_view_prepack(v, (skn_block_order)7, NULL, NULL, NULL, &tv), SKN_E_INVALID_ARGUMENT, "order");
    CHECK(strcmp(skn_view_describe(NULL), "(null)") == 0);
    CHECK(skn_view_rank(NULL) == 0);

    /* View construction errors. */
    skn_view* e = NULL;
    const int64_t odd[2] = {ROWS, 100};
    CHECK_ERROR(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_K, odd, 2, SKN_ORDER_ROW_MAJOR, &e), SKN_E_INVALID_ARGUMENT, "256");
    CHECK_ERROR(skn_view_from_bytes(q, n - 1, SKN_FORMAT_Q4_K, shape, 2, SKN_ORDER_ROW_MAJOR, &e), SKN_E_INVALID_ARGUMENT, "2160");
    CHECK_ERROR(skn_view_from_bytes(NULL, n, SKN_FORMAT_Q4_K, shape, 2, SKN_ORDER_ROW_MAJOR, &e), SKN_E_INVALID_ARGUMENT, "data");
    CHECK_ERROR(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_K, NULL, 2, SKN_ORDER_ROW_MAJOR, &e), SKN_E_INVALID_ARGUMENT, "shape");
    CHECK_ERROR(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_K, shape, 0, SKN_ORDER_ROW_MAJOR, &e), SKN_E_INVALID_ARGUMENT, "rank");
    CHECK_ERROR(skn_view_from_bytes(q, n, (skn_format)26, shape, 2, SKN_ORDER_ROW_MAJOR, &e), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_K, shape, 2, (skn_block_order)2, &e), SKN_E_INVALID_ARGUMENT, "order");
    CHECK_ERROR(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_K, shape, 2, SKN_ORDER_ROW_MAJOR, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(e == NULL);

    /* Dense views: transpose is metadata, prepack is refused. */
    const int64_t dshape[2] = {2, 3};
    float dense[6] = {1, 2, 3, 4, 5, 6}, dt[6];
    skn_view* d = NULL;
    CHECK(skn_view_from_bytes(dense, sizeof dense, SKN_FORMAT_F32, dshape, 2, SKN_ORDER_ROW_MAJOR, &d) == SKN_OK);
    CHECK(skn_view_layout_class(d) == SKN_LAYOUT_CONTIGUOUS);
    CHECK(skn_view_transpose(d, 0, 1, &tv) == SKN_OK && skn_view_layout_class(tv) == SKN_LAYOUT_STRIDED);
    CHECK(skn_view_to_float(tv, dt, 6) == SKN_OK && dt[1] == 4.0f && dt[5] == 6.0f);
    CHECK_ERROR(skn_view_transpose(d, 0, 2, &e), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_prepack(d, SKN_ORDER_INPUT_BLOCK_MAJOR, NULL, NULL, NULL, &e), SKN_E_UNSUPPORTED, "dense");
    CHECK_ERROR(skn_view_from_bytes(dense, sizeof dense, SKN_FORMAT_F32, dshape, 2, SKN_ORDER_INPUT_BLOCK_MAJOR, &e),
                SKN_E_INVALID_ARGUMENT, "dense");
    CHECK(skn_view_retain(d) == d);
    skn_view_release(d);
    skn_view_release(d);
    skn_view_release(tv);
    skn_view_release(NULL);
    skn_view_release(uv);
    skn_view_release(nv);
    skn_view_release(ibm);
    skn_view_release(v);
    CHECK_ERROR(skn_scope_create(NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_scope_allocated(NULL, &allocated), SKN_E_INVALID_ARGUMENT, "scope");
    skn_scope_destroy(NULL);
    free(q);
}

static void test_relayout_and_orientation(void) {
    size_t n = 0;
    CHECK(skn_fixture_bytes(SKN_FORMAT_Q8_0, 0, 4, 3, NULL, 0, &n) == SKN_OK && n == 12 * 34);
    unsigned char rm[12 * 34], ibm[12 * 34], back[12 * 34];
    CHECK(skn_fixture_bytes(SKN_FORMAT_Q8_0, 0, 4, 3, rm, sizeof rm, &n) == SKN_OK);
    CHECK(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, rm, sizeof rm, ibm, sizeof ibm, 4, 3) == SKN_OK);
    CHECK(skn_fixture_disagreement(ibm, sizeof ibm, SKN_FORMAT_Q8_0, 1, 4, 3) == NULL);
    CHECK(skn_packed_to_canonical_order(SKN_FORMAT_Q8_0, ibm, sizeof ibm, back, sizeof back, 4, 3) == SKN_OK);
    CHECK(memcmp(rm, back, sizeof rm) == 0);
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, rm, sizeof rm - 1, ibm, sizeof ibm, 4, 3),
                SKN_E_BUFFER_TOO_SMALL, "needs 408 bytes; src has 407");
    CHECK_ERROR(skn_packed_to_canonical_order(SKN_FORMAT_Q8_0, ibm, sizeof ibm, back, 100, 4, 3),
                SKN_E_BUFFER_TOO_SMALL, "dst has 100");
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, rm, sizeof rm, rm, sizeof rm, 4, 3), SKN_E_INVALID_ARGUMENT, "overlap");
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, NULL, sizeof rm, ibm, sizeof ibm, 4, 3), SKN_E_INVALID_ARGUMENT, "src");
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_F16, rm, sizeof rm, ibm, sizeof ibm, 4, 3), SKN_E_INVALID_ARGUMENT, "dense");
    CHECK_ERROR(skn_packed_to_kernel_order((skn_format)26, rm, sizeof rm, ibm, sizeof ibm, 4, 3), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_packed_to_canonical_order(SKN_FORMAT_Q8_0, ibm, sizeof ibm, back, sizeof back, 0, 3), SKN_E_INVALID_ARGUMENT, "rows");

    CHECK_ERROR(skn_require_out_in(128, 3, SKN_FORMAT_Q8_0), SKN_E_INVALID_ARGUMENT, "looks like [in, out]");
    CHECK(skn_require_out_in(3, 128, SKN_FORMAT_Q8_0) == SKN_OK);
    CHECK(skn_require_out_in(64, 128, SKN_FORMAT_Q8_0) == SKN_OK);
    CHECK(skn_require_out_in(128, 128, SKN_FORMAT_Q8_0) == SKN_OK);
    CHECK_ERROR(skn_require_out_in(5, 7, SKN_FORMAT_Q8_0), SKN_E_INVALID_ARGUMENT, "multiple of the block size");
    CHECK(skn_require_out_in(5, 7, SKN_FORMAT_F32) == SKN_OK);
    CHECK_ERROR(skn_require_out_in(5, 7, (skn_format)77), SKN_E_UNKNOWN_FORMAT, NULL);
}

static void test_fixtures(void) {
    for (int32_t i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        skn_format_props p;
        memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        CHECK(skn_format_info(f, &p) == SKN_OK);
        size_t n = 0;
        if (!p.is_block_quantized) {
            CHECK_ERROR(skn_fixture_bytes(f, 0, 4, 3, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, "dense");
            continue;
        }
        /* 4 rows of blocks: 4 rows, or 4 groups of a row-interleaved format's R. */
        const int64_t rows = rows_for(f, 4), R = p.block_rows;
        CHECK(skn_fixture_bytes(f, 1, rows, 3, NULL, 0, &n) == SKN_OK);
        unsigned char* k = malloc(n);
        unsigned char* c = malloc(n);
        if (!k || !c) return;
        CHECK(skn_fixture_bytes(f, 1, rows, 3, k, n, &n) == SKN_OK);
        CHECK(skn_fixture_bytes(f, 0, rows, 3, c, n, &n) == SKN_OK);
        CHECK(skn_fixture_disagreement(k, n, f, 1, rows, 3) == NULL);
        CHECK(skn_fixture_disagreement(c, n, f, 0, rows, 3) == NULL);
        const char* m = skn_fixture_disagreement(k, n, f, 0, rows, 3);
        char want[96];
        if (R > 1)  /* an interleaved block names the rows it holds */
            snprintf(want, sizeof want, "block (block row 1 = rows %d..%d, block 0)", (int)R, (int)(2 * R - 1));
        else
            snprintf(want, sizeof want, "block (row 1, block 0)");
        CHECK(m != NULL && strstr(m, want) != NULL);
        CHECK_ERROR(skn_fixture_bytes(f, 1, rows, 3, k, n - 1, &n), SKN_E_BUFFER_TOO_SMALL, NULL);
        if (R > 1) CHECK_ERROR(skn_fixture_bytes(f, 1, rows + 1, 3, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, "multiple of");

        /* The golden weight: 5 rows, or two groups of R rows. */
        skn_golden_info gi;
        memset(&gi, 0, sizeof gi);
        gi.struct_size = sizeof gi;
        CHECK(skn_fixture_golden_info(f, &gi) == SKN_OK && gi.rows == (R > 1 ? 2 * R : 5) &&
              gi.cols % p.block_elems == 0 && gi.cols / p.block_elems >= 3);
        size_t need = 0;
        CHECK(skn_fixture_golden(f, SKN_GOLDEN_Y, NULL, 0, &need) == SKN_OK && need == (size_t)(gi.x_rows * gi.rows) * 4);
        CHECK(skn_fixture_golden(f, SKN_GOLDEN_PACKED, NULL, 0, &need) == SKN_OK);
        unsigned char* packed = malloc(need);
        float* dec = malloc((size_t)(gi.rows * gi.cols) * 4);
        float* mine = malloc((size_t)(gi.rows * gi.cols) * 4);
        if (!packed || !dec || !mine) return;
        CHECK(skn_fixture_golden(f, SKN_GOLDEN_PACKED, packed, need, &need) == SKN_OK);
        size_t dn = 0;
        CHECK(skn_fixture_golden(f, SKN_GOLDEN_DECODED, dec, (size_t)(gi.rows * gi.cols) * 4, &dn) == SKN_OK);
        CHECK(skn_dequantize(f, packed, need, gi.rows, gi.cols, mine, (size_t)(gi.rows * gi.cols)) == SKN_OK);
        CHECK(memcmp(dec, mine, dn) == 0);
        CHECK_ERROR(skn_fixture_golden(f, SKN_GOLDEN_X, dec, 4, &dn), SKN_E_BUFFER_TOO_SMALL, NULL);
        CHECK_ERROR(skn_fixture_golden(f, (skn_golden_part)9, NULL, 0, &dn), SKN_E_INVALID_ARGUMENT, "part");
        free(packed);
        free(dec);
        free(mine);
        free(k);
        free(c);
    }
    size_t n = 0;
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 2, 4, 3, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, "kernel_order");
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 0, 3, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, "65535");
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 4, 65536, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, "65535");
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 4, 3, NULL, 0, NULL), SKN_E_INVALID_ARGUMENT, "needed");
    CHECK(skn_fixture_disagreement(NULL, 10, SKN_FORMAT_Q4_0, 0, 4, 3) != NULL);
    CHECK(strstr(skn_fixture_disagreement("abc", 3, (skn_format)4, 0, 4, 3), "cannot check") != NULL);
    skn_golden_info gi;
    gi.struct_size = 4;
    CHECK_ERROR(skn_fixture_golden_info(SKN_FORMAT_Q4_0, &gi), SKN_E_INVALID_ARGUMENT, "struct_size");
    gi.struct_size = sizeof gi;
    CHECK_ERROR(skn_fixture_golden_info(SKN_FORMAT_BF16, &gi), SKN_E_INVALID_ARGUMENT, "dense");
    CHECK_ERROR(skn_fixture_golden_info(SKN_FORMAT_Q4_0, NULL), SKN_E_INVALID_ARGUMENT, "info");
    CHECK_ERROR(skn_fixture_golden(SKN_FORMAT_Q4_0, SKN_GOLDEN_Y, NULL, 0, NULL), SKN_E_INVALID_ARGUMENT, "needed");
}

int main(void) {
    test_views_and_prepack();
    test_relayout_and_orientation();
    test_fixtures();
    return check_summary();
}
