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

static skn_status open_layout(const void* file, size_t size, int32_t layout, skn_gguf** g) {
    skn_gguf_options opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.i2_s_layout = layout;
    *g = NULL;
    return skn_gguf_open_memory(file, size, &opts, g);
}

/* Type 36 (I2_S): the layout comes from the file's key, or from the option;
 * neither: listed, but its bytes and view are refused. */
static void test_i2_s_layouts(void) {
    enum { kOut = 2, kIn = 128, kBytes = kOut * kIn / 4 + 32 };
    float w[kOut * kIn];
    for (int i = 0; i < kOut * kIn; ++i) w[i] = (float)(i % 3 - 1);
    unsigned char g64[kBytes];
    CHECK(skn_quantize(SKN_FORMAT_I2_S_G64, w, kOut, kIn, g64, sizeof g64) == SKN_OK);
    skn_gguf_writer* wr = NULL;
    CHECK(skn_gguf_writer_create(&wr) == SKN_OK);
    const int64_t ne[2] = {kIn, kOut};
    CHECK(skn_gguf_writer_add_tensor(wr, "w", SKN_FORMAT_I2_S_G64, 2, ne, g64, sizeof g64) == SKN_OK);
    uint64_t size = 0;
    CHECK(skn_gguf_writer_size(wr, &size) == SKN_OK);
    unsigned char* file = malloc(size);
    CHECK(file != NULL && skn_gguf_writer_write_memory(wr, file, size) == SKN_OK);
    skn_gguf_writer_destroy(wr);
    skn_gguf* g = NULL;
    CHECK(open_layout(file, size, SKN_I2_S_LAYOUT_FROM_FILE, &g) == SKN_OK);
    skn_gguf_tensor_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    CHECK(skn_gguf_tensor_info(g, 0, &p) == SKN_OK);
    CHECK(p.type_id == 36 && p.format == SKN_FORMAT_I2_S_G64 && p.supported == 1);
    skn_view* v = NULL;
    CHECK(skn_gguf_tensor_view(g, 0, &v) == SKN_OK);
    CHECK(skn_view_format(v) == SKN_FORMAT_I2_S_G64);
    float back[kOut * kIn];
    CHECK(skn_view_to_float(v, back, kOut * kIn) == SKN_OK);
    CHECK(back[0] == -1.0f && back[1] == 0.0f && back[2] == 1.0f && back[kOut * kIn - 1] == w[kOut * kIn - 1]);
    skn_view_release(v);
    skn_gguf_close(g);
    CHECK_ERROR(open_layout(file, size, SKN_I2_S_LAYOUT_X86, &g), SKN_E_INVALID_ARGUMENT, "arm64");
    free(file);

    /* A file as bitnet.cpp writes it: type 36, no key. */
    unsigned char raw[96 + kBytes];
    memset(raw, 0, sizeof raw);
    unsigned char* at = raw;
    const uint32_t magic = 0x46554747u, version = 3, rank = 2, type = 36;
    const uint64_t tensors = 1, kvs = 0, name_len = 1, offset = 0, dims[2] = {kIn, kOut};
    memcpy(at, &magic, 4), at += 4;
    memcpy(at, &version, 4), at += 4;
    memcpy(at, &tensors, 8), at += 8;
    memcpy(at, &kvs, 8), at += 8;
    memcpy(at, &name_len, 8), at += 8;
    *at++ = 'w';
    memcpy(at, &rank, 4), at += 4;
    memcpy(at, dims, 16), at += 16;
    memcpy(at, &type, 4), at += 4;
    memcpy(at, &offset, 8), at += 8; /* 65 bytes of header: data at 96 */
    CHECK(at - raw == 65);
    memcpy(raw + 96, g64, sizeof g64);
    CHECK(open_layout(raw, sizeof raw, SKN_I2_S_LAYOUT_FROM_FILE, &g) == SKN_OK);
    CHECK(skn_gguf_unsupported_count(g) == 0);
    CHECK(skn_gguf_tensor_info(g, 0, &p) == SKN_OK);
    CHECK(p.type_id == 36 && p.supported == 0 && p.size == kBytes);
    const void* data = NULL;
    size_t n = 0;
    CHECK_ERROR(skn_gguf_tensor_data(g, 0, &data, &n), SKN_E_FORMAT, "SKN_I2_S_LAYOUT_ARM64");
    CHECK_ERROR(skn_gguf_tensor_view(g, 0, &v), SKN_E_FORMAT, "SKN_FORMAT_I2_S_G64");
    skn_gguf_close(g);
    CHECK(open_layout(raw, sizeof raw, SKN_I2_S_LAYOUT_ARM64, &g) == SKN_OK);
    CHECK(skn_gguf_tensor_data(g, 0, &data, &n) == SKN_OK && n == kBytes && memcmp(data, g64, n) == 0);
    CHECK(skn_gguf_tensor_info(g, 0, &p) == SKN_OK && p.format == SKN_FORMAT_I2_S_G64 && p.supported == 1);
    skn_gguf_close(g);
    CHECK(open_layout(raw, sizeof raw, SKN_I2_S_LAYOUT_X86, &g) == SKN_OK);
    CHECK(skn_gguf_tensor_info(g, 0, &p) == SKN_OK && p.format == SKN_FORMAT_I2_S);
    skn_gguf_close(g);
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
    test_i2_s_layouts();
    return check_summary();
}
