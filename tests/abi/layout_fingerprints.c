/* SPDX-License-Identifier: MIT */
/* Print the layout fingerprints of this libskn: for every format skn
 * implements and every block order it can hold, an FNV-1a 64-bit hash of the
 * bytes (and floats) the public C API gives. The committed copy is
 * tests/golden/layout-fingerprints.txt; tests/abi/check_layout.sh compares
 * the two (rule 5 of docs/packed-weight-layout.md: packed byte semantics are
 * public API). Uses the public C API only.
 *
 * Lines, after the comment header and "version MAJOR.MINOR.PATCH":
 *   <FORMAT> <ORDER> <item> fnv1a64:<16 hex digits>
 * items (block formats, both orders):
 *   tagged_4x3, tagged_7x5  skn_fixture_bytes for a 4x3 and a 7x5 block grid
 *                           (a row-interleaved format: 4R and 7R rows, whose
 *                           blocks of R rows make the same grids)
 *   golden_packed           the golden fixture's packed bytes in that order
 *   golden_decoded          skn_view_to_float of a view over those bytes in
 *                           that order (the same floats in both orders)
 *   golden_y                the golden fixture's y = x * decoded(W)^T
 *   quantized_ref           skn_quantize of the golden SOURCE weight, put in
 *                           that order with skn_packed_to_kernel_order; none
 *                           for formats skn_quantize refuses without
 *                           importance weights (needs_importance: their
 *                           quantizer shows in golden_packed)
 * dense formats (F32, F16, BF16; ROW_MAJOR only):
 *   quantized_ref           skn_quantize of the Q8_0 golden SOURCE weight */
#include <skn/skn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/rows_for.h"

static const char* order_name(int order) { return order ? "INPUT_BLOCK_MAJOR" : "ROW_MAJOR"; }

static uint64_t fnv1a64(const void* data, size_t n) {
    const unsigned char* p = (const unsigned char*)data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void fail(const char* what, const char* format) {
    fprintf(stderr, "layout_fingerprints: %s (%s): %s\n", what, format, skn_last_error());
    exit(1);
}

static void emit(const char* format, int order, const char* item, const void* data, size_t n) {
    printf("%s %s %s fnv1a64:%016llx\n", format, order_name(order), item, (unsigned long long)fnv1a64(data, n));
}

static void* golden(skn_format f, skn_golden_part part, size_t* n, const char* name) {
    if (skn_fixture_golden(f, part, NULL, 0, n) != SKN_OK) fail("golden size", name);
    void* buf = malloc(*n ? *n : 1);
    if (!buf || skn_fixture_golden(f, part, buf, *n, n) != SKN_OK) fail("golden", name);
    return buf;
}

/* `rows` rows of blocks: output rows for a canonical format, groups of R
 * output rows for a row-interleaved one. */
static void tagged(skn_format f, int order, int64_t rows, int64_t blocks, const char* item, const char* name) {
    skn_format_props props;
    memset(&props, 0, sizeof props);
    props.struct_size = sizeof props;
    if (skn_format_info(f, &props) != SKN_OK) fail("format_info", name);
    rows = skn_test_rows_for(props.block_rows, rows);
    size_t n = 0;
    if (skn_fixture_bytes(f, order, rows, blocks, NULL, 0, &n) != SKN_OK) fail("fixture size", name);
    void* buf = malloc(n);
    if (!buf || skn_fixture_bytes(f, order, rows, blocks, buf, n, &n) != SKN_OK) fail("fixture", name);
    emit(name, order, item, buf, n);
    free(buf);
}

static void block_format(skn_format f, const char* name, int32_t block_elems, int needs_importance) {
    skn_golden_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (skn_fixture_golden_info(f, &info) != SKN_OK) fail("golden info", name);
    const int64_t blocks_per_row = info.cols / block_elems;

    size_t packed_n[2], y_n = 0, src_n = 0;
    void* packed[2];
    packed[0] = golden(f, SKN_GOLDEN_PACKED, &packed_n[0], name);
    packed[1] = golden(f, SKN_GOLDEN_PACKED_KERNEL_ORDER, &packed_n[1], name);
    float* y = golden(f, SKN_GOLDEN_Y, &y_n, name);
    float* source = golden(f, SKN_GOLDEN_SOURCE, &src_n, name);

    size_t q_n = 0;
    if (skn_quantized_size(f, info.rows, info.cols, &q_n) != SKN_OK) fail("quantized size", name);
    unsigned char* quantized[2];
    quantized[0] = malloc(q_n);
    quantized[1] = malloc(q_n);
    if (!quantized[0] || !quantized[1]) fail("out of memory", name);
    if (!needs_importance) {
        if (skn_quantize(f, source, info.rows, info.cols, quantized[0], q_n) != SKN_OK) fail("quantize", name);
        if (skn_packed_to_kernel_order(f, quantized[0], q_n, quantized[1], q_n, info.rows, blocks_per_row) != SKN_OK)
            fail("packed_to_kernel_order", name);
    }

    const size_t count = (size_t)(info.rows * info.cols);
    float* decoded = malloc(count * sizeof(float));
    if (!decoded) fail("out of memory", name);
    for (int order = 0; order < 2; ++order) {
        tagged(f, order, 4, 3, "tagged_4x3", name);
        tagged(f, order, 7, 5, "tagged_7x5", name);
        emit(name, order, "golden_packed", packed[order], packed_n[order]);
        const int64_t shape[2] = {info.rows, info.cols};
        skn_view* view = NULL;
        if (skn_view_from_bytes(packed[order], packed_n[order], f, shape, 2, (skn_block_order)order, &view) != SKN_OK)
            fail("view_from_bytes", name);
        if (skn_view_to_float(view, decoded, count) != SKN_OK) fail("view_to_float", name);
        skn_view_release(view);
        emit(name, order, "golden_decoded", decoded, count * sizeof(float));
        emit(name, order, "golden_y", y, y_n);
        if (!needs_importance) emit(name, order, "quantized_ref", quantized[order], q_n);
    }
    free(decoded);
    free(quantized[0]);
    free(quantized[1]);
    free(packed[0]);
    free(packed[1]);
    free(y);
    free(source);
}

static void dense_format(skn_format f, const char* name) {
    skn_golden_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (skn_fixture_golden_info(SKN_FORMAT_Q8_0, &info) != SKN_OK) fail("golden info", "Q8_0");
    size_t src_n = 0, q_n = 0;
    float* source = golden(SKN_FORMAT_Q8_0, SKN_GOLDEN_SOURCE, &src_n, "Q8_0");
    if (skn_quantized_size(f, info.rows, info.cols, &q_n) != SKN_OK) fail("quantized size", name);
    unsigned char* q = malloc(q_n);
    if (!q || skn_quantize(f, source, info.rows, info.cols, q, q_n) != SKN_OK) fail("quantize", name);
    emit(name, 0, "quantized_ref", q, q_n);
    free(q);
    free(source);
}

int main(void) {
    printf("# Layout fingerprints of libskn (rule 5 of docs/packed-weight-layout.md).\n");
    printf("# Generated by scripts/update-layout-fingerprints; checked by tests/abi/check_layout.sh.\n");
    printf("# A changed line means the bytes a format and order hold changed: that needs a\n");
    printf("# minor or major version and a CHANGELOG entry naming the format and order.\n");
    printf("version %s\n", skn_version_string());
    const int32_t n = skn_format_count();
    for (int32_t i = 0; i < n; ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        skn_format_props props;
        memset(&props, 0, sizeof props);
        props.struct_size = sizeof props;
        if (skn_format_info(f, &props) != SKN_OK) fail("format_info", "?");
        if (props.is_block_quantized)
            block_format(f, props.name, props.block_elems, props.needs_importance);
        else
            dense_format(f, props.name);
    }
    return 0;
}
