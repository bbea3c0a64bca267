/* SPDX-License-Identifier: MIT */
#include "quantize_any.h"

#include <stdlib.h>
#include <string.h>

skn_status quantize_any(skn_format format, const float* src, int64_t rows, int64_t cols, void* dst, size_t dst_size) {
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    const skn_status info = skn_format_info(format, &p);
    if (info != SKN_OK) return info;
    if (!p.needs_importance) return skn_quantize(format, src, rows, cols, dst, dst_size);
    float* ones = malloc((size_t)cols * sizeof(float));
    if (ones == NULL) return SKN_E_OUT_OF_MEMORY;
    for (int64_t i = 0; i < cols; ++i) ones[i] = 1.0f;
    skn_quantize_options qo;
    memset(&qo, 0, sizeof qo);
    qo.struct_size = sizeof qo;
    qo.importance = ones;
    qo.importance_count = cols;
    const skn_status st = skn_quantize_with_options(format, src, rows, cols, dst, dst_size, &qo);
    free(ones);
    return st;
}
