/* SPDX-License-Identifier: MIT */
/* What the expert-routed C tests share: a stacked weight and options. */
#ifndef SKN_TEST_ROUTED_HELPERS_H
#define SKN_TEST_ROUTED_HELPERS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"

/* A stacked weight [experts, out, in] of `format` in `order`, quantized from
 * a fixed pattern into *bytes (malloc'd: free it after releasing the view;
 * another order's copy lives in `scope`). Its decoded floats go to `decoded`
 * ([experts * out * in]) unless that is NULL. */
static skn_view* make_stacked_weight(skn_format format, int64_t experts, int64_t out, int64_t in,
                                     skn_block_order order, skn_scope* scope, unsigned char** bytes, float* decoded) {
    const int64_t rows = experts * out;
    float* w = malloc((size_t)(rows * in) * sizeof(float));
    size_t nb = 0;
    CHECK(skn_quantized_size(format, rows, in, &nb) == SKN_OK);
    *bytes = malloc(nb);
    if (w == NULL || *bytes == NULL) exit(1);
    for (int64_t i = 0; i < rows * in; ++i) w[i] = sinf((float)i * 0.0137f + (float)(i / in) * 0.31f) * (float)(1 + i % 3);
    CHECK(skn_quantize(format, w, rows, in, *bytes, nb) == SKN_OK);
    if (decoded != NULL)
        CHECK(skn_dequantize(format, *bytes, nb, rows, in, decoded, (size_t)(rows * in)) == SKN_OK);
    free(w);
    const int64_t shape[3] = {experts, out, in};
    skn_view* v = NULL;
    CHECK(skn_view_from_bytes(*bytes, nb, format, shape, 3, SKN_ORDER_ROW_MAJOR, &v) == SKN_OK);
    if (order == SKN_ORDER_ROW_MAJOR) return v;
    skn_view* packed = NULL;
    CHECK(skn_view_prepack(v, order, scope, NULL, NULL, &packed) == SKN_OK);
    skn_view_release(v);
    return packed;
}

/* Default options at `precision`. */
static skn_matmul_options options(skn_precision precision) {
    skn_matmul_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.precision = precision;
    return o;
}

#endif
