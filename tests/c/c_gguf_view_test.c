/* SPDX-License-Identifier: MIT */
/* skn_gguf_tensor_view: a GGUF tensor as a view, under both orientations,
 * straight into matmul_wt, and alive after skn_gguf_close. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"

static skn_gguf* open_with(const void* file, size_t size, skn_gguf_orientation o) {
    skn_gguf_options opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.orientation = o;
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open_memory(file, size, &opts, &g) == SKN_OK);
    return g;
}

int main(void) {
    /* A Q8_0 weight the model calls [out=4, in=64] (the file's ne = [64, 4]),
     * and a dense F32 matrix with ne = [3, 2]. */
    float w[4 * 64], d[6] = {1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 4 * 64; ++i) w[i] = sinf((float)i * 0.3f);
    unsigned char q[4 * 2 * 34];
    CHECK(skn_quantize(SKN_FORMAT_Q8_0, w, 4, 64, q, sizeof q) == SKN_OK);
    skn_gguf_writer* wr = NULL;
    CHECK(skn_gguf_writer_create(&wr) == SKN_OK);
    const int64_t ne_q[2] = {64, 4}, ne_d[2] = {3, 2};
    CHECK(skn_gguf_writer_add_tensor(wr, "blk.0.w", SKN_FORMAT_Q8_0, 2, ne_q, q, sizeof q) == SKN_OK);
    CHECK(skn_gguf_writer_add_tensor(wr, "dense", SKN_FORMAT_F32, 2, ne_d, d, sizeof d) == SKN_OK);
    uint64_t size = 0;
    CHECK(skn_gguf_writer_size(wr, &size) == SKN_OK);
    void* file = malloc(size);
    if (file == NULL) return 1;
    CHECK(skn_gguf_writer_write_memory(wr, file, size) == SKN_OK);
    skn_gguf_writer_destroy(wr);

    /* OUT_IN: [out, in], ROW_MAJOR, decodes like skn_dequantize, feeds matmul. */
    skn_gguf* g = open_with(file, size, SKN_GGUF_OUT_IN);
    skn_view* v = NULL;
    CHECK(skn_gguf_tensor_view(g, 0, &v) == SKN_OK);
    int64_t shape[4];
    CHECK(skn_view_shape(v, shape) == SKN_OK && shape[0] == 4 && shape[1] == 64);
    CHECK(skn_view_order(v) == SKN_ORDER_ROW_MAJOR);
    float a[256], b[256];
    CHECK(skn_view_to_float(v, a, 256) == SKN_OK);
    CHECK(skn_dequantize(SKN_FORMAT_Q8_0, q, sizeof q, 4, 64, b, 256) == SKN_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    skn_view* dv = NULL;
    CHECK(skn_gguf_tensor_view(g, 1, &dv) == SKN_OK);
    CHECK(skn_view_shape(dv, shape) == SKN_OK && shape[0] == 2 && shape[1] == 3);
    CHECK(skn_view_layout_class(dv) == SKN_LAYOUT_CONTIGUOUS);
    CHECK_ERROR(skn_gguf_tensor_view(g, 2, &dv), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_view(NULL, 0, &dv), SKN_E_INVALID_ARGUMENT, "gguf");
    CHECK_ERROR(skn_gguf_tensor_view(g, 0, NULL), SKN_E_INVALID_ARGUMENT, "out");

    /* Still valid after the file is closed: the view holds the mapping. */
    skn_gguf_close(g);
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    float x[64], y[4];
    for (int k = 0; k < 64; ++k) x[k] = 1.0f / (float)(k + 1);
    CHECK(skn_matmul_wt(ctx, x, 1, 64, v, NULL, y, 4, NULL) == SKN_OK);
    for (int o = 0; o < 4; ++o) {
        double ref = 0;
        for (int k = 0; k < 64; ++k) ref += (double)a[o * 64 + k] * x[k];
        CHECK(fabs(y[o] - ref) < 0.05);
    }
    float dd[6];
    CHECK(skn_view_to_float(dv, dd, 6) == SKN_OK && dd[0] == 1 && dd[5] == 6);
    skn_view_release(v);
    skn_view_release(dv);

    /* AS_STORED: the packed weight is refused by name; dense is the transpose. */
    g = open_with(file, size, SKN_GGUF_AS_STORED);
    CHECK_ERROR(skn_gguf_tensor_view(g, 0, &v), SKN_E_INVALID_ARGUMENT, "looks like [in, out]");
    CHECK(strstr(skn_last_error(), "SKN_GGUF_OUT_IN") != NULL);
    CHECK(skn_gguf_tensor_view(g, 1, &dv) == SKN_OK);
    CHECK(skn_view_shape(dv, shape) == SKN_OK && shape[0] == 3 && shape[1] == 2);
    CHECK(skn_view_layout_class(dv) == SKN_LAYOUT_STRIDED);
    const int64_t at[2] = {2, 1};
    float e = 0;
    CHECK(skn_view_get(dv, at, 2, &e) == SKN_OK && e == 6.0f);
    CHECK(skn_view_to_float(dv, dd, 6) == SKN_OK && dd[0] == 1 && dd[1] == 4 && dd[2] == 2);
    skn_view_release(dv);
    skn_gguf_close(g);
    skn_context_destroy(ctx);
    free(file);
    return check_summary();
}
