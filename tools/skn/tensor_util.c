/* SPDX-License-Identifier: MIT */
#include "tensor_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t skn_utf8_decode(const unsigned char* s, size_t n, uint32_t* code_point) {
    if (s[0] < 0x80) {
        *code_point = s[0];
        return 1;
    }
    size_t len;
    uint32_t cp;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) { len = 2; cp = s[0] & 0x1fu; }
    else if (s[0] >= 0xe0 && s[0] <= 0xef) { len = 3; cp = s[0] & 0x0fu; }
    else if (s[0] >= 0xf0 && s[0] <= 0xf4) { len = 4; cp = s[0] & 0x07u; }
    else return 0;
    if (len > n) return 0;
    for (size_t i = 1; i < len; ++i) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    *code_point = cp;
    return len;
}

void skn_json_string(FILE* out, const char* s, size_t len) {
    const unsigned char* u = (const unsigned char*)s;
    fputc('"', out);
    for (size_t i = 0; i < len;) {
        const unsigned char c = u[i];
        uint32_t cp;
        const size_t n = skn_utf8_decode(u + i, len - i, &cp);
        if (n == 0) {
            fputs("\\ufffd", out);
            i += 1;
        } else if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            i += 1;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
                case '\n': fputs("\\n", out); break;
                case '\r': fputs("\\r", out); break;
                case '\t': fputs("\\t", out); break;
                case '\b': fputs("\\b", out); break;
                case '\f': fputs("\\f", out); break;
                default: fprintf(out, "\\u%04x", c); break;
            }
            i += 1;
        } else {
            fwrite(u + i, 1, n, out);
            i += n;
        }
    }
    fputc('"', out);
}

void skn_json_float(FILE* out, double v, int digits) {
    if (isfinite(v))
        fprintf(out, "%.*g", digits, v);
    else
        fputs("null", out);
}

int64_t skn_tensor_rows(const skn_gguf_tensor_props* t) {
    int64_t rows = 1;
    for (int d = 1; d < t->rank; ++d) rows *= t->ne[d];
    return rows;
}

const char* skn_tool_format_name(skn_format format) {
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    return skn_format_info(format, &fp) == SKN_OK ? fp.name : "?";
}

int64_t skn_format_rows_per_block(skn_format format) {
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    return skn_format_info(format, &fp) == SKN_OK && fp.block_rows > 1 ? fp.block_rows : 1;
}

skn_format skn_format_canonical(skn_format format) {
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    return skn_format_info(format, &fp) == SKN_OK ? fp.interleaves : format;
}

skn_format skn_format_interleaved_twin(skn_format format) {
    for (int32_t i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        if (f != format && skn_format_canonical(f) == format) return f;
    }
    return SKN_FORMAT_INVALID;
}

int skn_formats_are_twins(skn_format a, skn_format b) {
    return a != b && (skn_format_canonical(a) == b || skn_format_canonical(b) == a);
}

int64_t skn_chunk_rows(int64_t cols, int64_t rows, int64_t max_elements, int64_t unit) {
    int64_t step = cols >= max_elements ? 1 : max_elements / cols;
    if (unit > 1) step = step < unit ? unit : step / unit * unit;
    return step > rows ? rows : step;
}

/* Rows [row0, row0 + nrows) of a tensor without a trailer, nrows and row0
 * whole groups of its block rows: one contiguous byte range. */
static skn_status decode_range(skn_format format, const unsigned char* data, size_t row_bytes, int64_t cols,
                               int64_t row0, int64_t nrows, float* dst) {
    return skn_dequantize(format, data + (size_t)row0 * row_bytes, (size_t)nrows * row_bytes, nrows, cols, dst,
                          (size_t)(nrows * cols));
}

skn_status skn_tensor_decode_rows(const skn_gguf* g, int64_t index, const skn_gguf_tensor_props* t, int64_t row0,
                                  int64_t nrows, float* dst) {
    const void* data = NULL;
    size_t size = 0;
    skn_status st = skn_gguf_tensor_data(g, index, &data, &size);
    if (st != SKN_OK) return st;
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if ((st = skn_format_info(t->format, &fp)) != SKN_OK) return st;
    const int64_t cols = t->ne[0], rows = skn_tensor_rows(t);
    if (fp.tensor_trailer_bytes == 0) {
        const size_t row_bytes = (size_t)(cols / fp.block_elems) * (size_t)fp.block_bytes;
        const int64_t unit = fp.block_rows > 1 ? fp.block_rows : 1;
        if (unit == 1) return decode_range(t->format, data, row_bytes, cols, row0, nrows, dst);
        /* A row-interleaved tensor: whole groups straight into dst, a group
         * cut by the range's start or end through one group of scratch. */
        float* group = NULL;
        for (int64_t at = row0, end = row0 + nrows; at < end && st == SKN_OK;) {
            const int64_t first = at / unit * unit;
            if (at == first && end - at >= unit) {
                const int64_t n = (end - at) / unit * unit;
                st = decode_range(t->format, data, row_bytes, cols, at, n, dst + (at - row0) * cols);
                at += n;
                continue;
            }
            if (group == NULL && (group = malloc((size_t)(unit * cols) * sizeof(float))) == NULL) {
                st = SKN_E_OUT_OF_MEMORY;
                break;
            }
            const int64_t stop = first + unit < end ? first + unit : end;
            st = decode_range(t->format, data, row_bytes, cols, first, unit, group);
            if (st == SKN_OK)
                memcpy(dst + (at - row0) * cols, group + (at - first) * cols, (size_t)((stop - at) * cols) * sizeof(float));
            at = stop;
        }
        free(group);
        return st;
    }
    /* The trailer (one scale for the whole tensor) sits after every row. */
    float* all = malloc((size_t)(rows * cols) * sizeof(float));
    if (all == NULL) return SKN_E_OUT_OF_MEMORY;
    st = skn_dequantize(t->format, data, size, rows, cols, all, (size_t)(rows * cols));
    if (st == SKN_OK) memcpy(dst, all + row0 * cols, (size_t)(nrows * cols) * sizeof(float));
    free(all);
    return st;
}

static int32_t g_i2s_layout = SKN_I2_S_LAYOUT_FROM_FILE;

int skn_tool_set_i2s_layout(const char* value) {
    if (strcmp(value, "x86") == 0) g_i2s_layout = SKN_I2_S_LAYOUT_X86;
    else if (strcmp(value, "arm64") == 0) g_i2s_layout = SKN_I2_S_LAYOUT_ARM64;
    else return 0;
    return 1;
}

void skn_tool_gguf_options(skn_gguf_options* opts) {
    memset(opts, 0, sizeof *opts);
    opts->struct_size = sizeof *opts;
    opts->orientation = SKN_GGUF_OUT_IN;
    opts->allow_unsupported = 1;
    opts->i2_s_layout = g_i2s_layout;
}

skn_status skn_tool_open(const char* path, skn_gguf** out) {
    skn_gguf_options opts;
    skn_tool_gguf_options(&opts);
    return skn_gguf_open(path, &opts, out);
}

/* GGUF type 36 is I2_S in two byte layouts (bitnet.cpp's x86 and arm64
 * builds); the reader lists it unsupported only when neither the file nor
 * --i2s-layout says which. */
#define I2S_LAYOUT_ADVICE                                                                                    \
    "the file does not say its layout (no \"skn.i2_s_layout\" key): pass --i2s-layout x86 if an x86 build of " \
    "bitnet.cpp wrote it, --i2s-layout arm64 if an arm64 build did"

const char* skn_tool_i2s_layout_advice(void) { return I2S_LAYOUT_ADVICE; }

const char* skn_tool_unsupported_reason(const skn_gguf_tensor_props* t) {
    return t->type_id == 36 ? "an I2_S tensor, and " I2S_LAYOUT_ADVICE : "a type skn does not decode";
}
