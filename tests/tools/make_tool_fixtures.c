/* SPDX-License-Identifier: MIT */
/* Writes the GGUF files tests/tools/tool_commands.py runs the skn program on,
 * with libskn's streaming writer (the public C API only):
 *   good.gguf        metadata of several kinds (UTF-8, escapes, nested arrays)
 *                    and tensors F32 values.f32 [3 rows x 8] = (8 r + c) / 4,
 *                    Q8_0 q8.weight [4 x 96], Q4_K q4k.weight [2 x 256],
 *                    I2_S ternary.weight [2 x 128], F32 odd.f32 [1 x 15] (60
 *                    bytes: SHA-256's padding then spills into a second block)
 *   bad.gguf         the same tensors, but values.f32 element 13 is NaN and
 *                    a Q8_0 tensor bad.q8 whose block (row 0, block 1) has a
 *                    NaN scale (first non-finite element: 32)
 *   q8.expected.f32  q8.weight decoded with skn_dequantize (raw float32)
 *   float.gguf       what skn quantize converts: F32 blk.0.attn_q.weight [8 x 256],
 *                    F16 blk.0.ffn_up.weight [4 x 512], F32 blk.0.attn_norm.weight
 *                    [256] (1-D: kept), F32 token_embd.weight [16 x 256]
 *   float.q4_k       the bytes skn quantize must write for its three weights
 *                    in Q4_K, one after the other (skn_quantize of the values
 *                    the file holds)
 *   layers.gguf      a small llama-shaped model for the presets: 8 layers
 *                    (llama.block_count 8, head_count = head_count_kv = 8),
 *                    F16 token_embd [256 x 16], output [256 x 16], per layer
 *                    attn_q/k/v/output [256 x 4], ffn_gate/up [256 x 4],
 *                    ffn_down [512 x 4] (blk.7's [288 x 4]: a row of 288 is
 *                    no whole number of 256-blocks), F32 norms [256]
 *   layers.attn_v0.q6_k, layers.ffn_down7.q8_0
 *                    what Q4_K_M must write for blk.0.attn_v.weight (Q6_K) and
 *                    blk.7.ffn_down.weight (Q6_K's fallback, Q8_0)
 *   moe.gguf         a small MoE model with tied embeddings and GQA: 4 layers,
 *                    llama.expert_count 8, head_count 32, head_count_kv 8,
 *                    no output.weight; layers stored last to first; per
 *                    layer F16 attn_q/k/v/output [256 x 4], F32
 *                    ffn_gate_inp [256 x 8], F16 expert stacks
 *                    ffn_gate_exps/ffn_up_exps [256 x 4 x 8] and
 *                    ffn_down_exps [512 x 4 x 8], F32 norms
 *   usage: make_tool_fixtures DIR */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skn/skn.h"

static int fail(const char* what) {
    fprintf(stderr, "make_tool_fixtures: %s: %s\n", what, skn_last_error());
    exit(1);
}

typedef struct {
    const char* name;
    skn_format format;
    int64_t rows, cols;
    unsigned char* bytes;
    size_t size;
    int rank; /* 0 means 2 */
} tensor;

static void make(tensor* t, const float* src) {
    if (skn_quantized_size(t->format, t->rows, t->cols, &t->size) != SKN_OK) fail(t->name);
    t->bytes = malloc(t->size);
    if (t->bytes == NULL || skn_quantize(t->format, src, t->rows, t->cols, t->bytes, t->size) != SKN_OK) fail(t->name);
}

static void write_file(const char* path, tensor* ts, int n) {
    skn_gguf_writer* w = NULL;
    if (skn_gguf_writer_create(&w) != SKN_OK) fail("writer");
    static const char* const vocab[] = {"<unk>", "\xe2\x96\x81the", "quote\"back\\slash", "tab\there"};
    const int32_t ids[3] = {7, -1, 42};
    const char* const merges[2] = {"a b", "c d"};
    const char odd[] = "He said \"hi\"\n\tGr\xc3\xbc\xc3\x9f" "e \xe6\x97\xa5\xe6\x9c\xac bad:\xff!";
    skn_gguf_array_value nums = {sizeof nums, SKN_GGUF_TYPE_I32, 3, ids, NULL, NULL, NULL};
    skn_gguf_array_value strs = {sizeof strs, SKN_GGUF_TYPE_STRING, 2, NULL, merges, NULL, NULL};
    const skn_gguf_array_value* both[2] = {&nums, &strs};
    skn_gguf_array_value nested = {sizeof nested, SKN_GGUF_TYPE_ARRAY, 2, NULL, NULL, NULL, both};
    if (skn_gguf_writer_add_string(w, "general.architecture", "llama", 5) != SKN_OK ||
        skn_gguf_writer_add_string(w, "general.name", odd, sizeof odd - 1) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "general.file_type", 7) != SKN_OK ||
        skn_gguf_writer_add_f32(w, "test.f32", 0.5f) != SKN_OK ||
        skn_gguf_writer_add_f64(w, "test.nan", NAN) != SKN_OK ||
        skn_gguf_writer_add_u64(w, "test.u64", UINT64_C(18446744073709551615)) != SKN_OK ||
        skn_gguf_writer_add_bool(w, "test.bool", 1) != SKN_OK ||
        skn_gguf_writer_add_string_array(w, "tokenizer.ggml.tokens", vocab, NULL, 4) != SKN_OK ||
        skn_gguf_writer_add_array_value(w, "test.nested", &nested) != SKN_OK)
        fail("metadata");
    for (int i = 0; i < n; ++i) {
        const int64_t ne[2] = {ts[i].cols, ts[i].rows};
        if (skn_gguf_writer_declare_tensor(w, ts[i].name, ts[i].format, ts[i].rank ? ts[i].rank : 2, ne) != SKN_OK)
            fail(ts[i].name);
    }
    skn_gguf_stream* s = NULL;
    if (skn_gguf_stream_begin(w, path, &s) != SKN_OK) fail(path);
    skn_gguf_writer_destroy(w);
    for (int i = 0; i < n; ++i)
        for (size_t at = 0; at < ts[i].size; at += 100) {
            const size_t k = ts[i].size - at < 100 ? ts[i].size - at : 100;
            if (skn_gguf_stream_write(s, ts[i].name, ts[i].bytes + at, k) != SKN_OK) fail(ts[i].name);
        }
    if (skn_gguf_stream_finish(s) != SKN_OK) fail(path);
    skn_gguf_stream_destroy(s);
}

static void write_bytes(const char* dir, const char* name, const unsigned char* bytes, size_t n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (f == NULL || fwrite(bytes, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* A weight's values: deterministic, different per tensor, not all alike. */
static void fill(float* v, int64_t n, int seed) {
    for (int64_t i = 0; i < n; ++i) v[i] = sinf((float)(i * (seed + 3)) * 0.0137f + (float)seed) * (0.5f + (float)(i % 13) / 16.0f);
}

static void make_layers(const char* dir) {
    enum { kLayers = 8, kEmbd = 256, kFf = 512, kRows = 4, kMax = 36 + kLayers * 11 };
    static const char* const roles[] = {"attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"};
    static char names[kMax][64];
    tensor ts[kMax];
    int n = 0;
    float* v = malloc(sizeof(float) * kFf * 16);
    if (v == NULL) fail("memory");
    const struct { const char* name; int rows, cols, rank; } top[] = {
        {"token_embd.weight", 16, kEmbd, 2}, {"output_norm.weight", 1, kEmbd, 1}, {"output.weight", 16, kEmbd, 2}};
    for (int i = 0; i < 3; ++i) {
        snprintf(names[n], sizeof names[n], "%s", top[i].name);
        ts[n] = (tensor){names[n], top[i].rank == 1 ? SKN_FORMAT_F32 : SKN_FORMAT_F16, top[i].rows, top[i].cols, NULL, 0,
                         top[i].rank};
        fill(v, (int64_t)top[i].rows * top[i].cols, n);
        make(&ts[n], v);
        ++n;
    }
    for (int l = 0; l < kLayers; ++l) {
        for (int k = 0; k < 2; ++k) {
            snprintf(names[n], sizeof names[n], "blk.%d.%s_norm.weight", l, k ? "ffn" : "attn");
            ts[n] = (tensor){names[n], SKN_FORMAT_F32, 1, kEmbd, NULL, 0, 1};
            fill(v, kEmbd, n);
            make(&ts[n], v);
            ++n;
        }
        for (int k = 0; k < 7; ++k) {
            snprintf(names[n], sizeof names[n], "blk.%d.%s.weight", l, roles[k]);
            const int cols = k < 6 ? kEmbd : l == 7 ? 288 : kFf;
            ts[n] = (tensor){names[n], SKN_FORMAT_F16, kRows, cols, NULL, 0, 2};
            fill(v, (int64_t)kRows * cols, n);
            make(&ts[n], v);
            /* The values the file holds are what its F16 bytes decode to. */
            if (skn_dequantize(SKN_FORMAT_F16, ts[n].bytes, ts[n].size, kRows, cols, v, kRows * cols) != SKN_OK)
                fail("decode f16");
            const int want = (l == 0 && k == 2) || (l == 7 && k == 6);
            if (want) {
                tensor e = {"expected", l == 0 ? SKN_FORMAT_Q6_K : SKN_FORMAT_Q8_0, kRows, cols, NULL, 0, 0};
                make(&e, v);
                write_bytes(dir, l == 0 ? "layers.attn_v0.q6_k" : "layers.ffn_down7.q8_0", e.bytes, e.size);
                free(e.bytes);
            }
            ++n;
        }
    }
    free(v);

    skn_gguf_writer* w = NULL;
    static const char* const vocab[] = {"<s>", "</s>", "a", "b"};
    if (skn_gguf_writer_create(&w) != SKN_OK || skn_gguf_writer_add_string(w, "general.architecture", "llama", 5) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "general.file_type", 1) != SKN_OK ||
        skn_gguf_writer_add_string(w, "general.name", "layers", 6) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.block_count", kLayers) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.attention.head_count", 8) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "general.quantization_version", 1) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.attention.head_count_kv", 8) != SKN_OK ||
        skn_gguf_writer_add_string_array(w, "tokenizer.ggml.tokens", vocab, NULL, 4) != SKN_OK ||
        skn_gguf_writer_add_f32(w, "llama.rope.freq_base", 10000.0f) != SKN_OK)
        fail("layers metadata");
    for (int i = 0; i < n; ++i) {
        const int64_t ne[2] = {ts[i].cols, ts[i].rows};
        if (skn_gguf_writer_declare_tensor(w, ts[i].name, ts[i].format, ts[i].rank, ne) != SKN_OK) fail(ts[i].name);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/layers.gguf", dir);
    skn_gguf_stream* s = NULL;
    if (skn_gguf_stream_begin(w, path, &s) != SKN_OK) fail(path);
    skn_gguf_writer_destroy(w);
    for (int i = 0; i < n; ++i)
        if (skn_gguf_stream_write(s, ts[i].name, ts[i].bytes, ts[i].size) != SKN_OK) fail(ts[i].name);
    if (skn_gguf_stream_finish(s) != SKN_OK) fail(path);
    skn_gguf_stream_destroy(s);
    for (int i = 0; i < n; ++i) free(ts[i].bytes);
}

static void make_moe(const char* dir) {
    enum { kLayers = 4, kMax = 2 + kLayers * 10 };
    static char names[kMax][64];
    struct {
        const char* name;
        skn_format format;
        int rank;
        int64_t ne[3];
        unsigned char* bytes;
        size_t size;
    } ts[kMax];
    int n = 0;
    float* v = malloc(sizeof(float) * 512 * 4 * 8);
    if (v == NULL) fail("memory");
#define ADD(fmt, r, a, b, c)                                                                                  \
    do {                                                                                                      \
        ts[n].name = names[n], ts[n].format = (fmt), ts[n].rank = (r);                                        \
        ts[n].ne[0] = (a), ts[n].ne[1] = (b), ts[n].ne[2] = (c);                                              \
        fill(v, (int64_t)(a) * (b) * (c), n);                                                                 \
        if (skn_quantized_size(fmt, (int64_t)(b) * (c), a, &ts[n].size) != SKN_OK) fail(names[n]);            \
        ts[n].bytes = malloc(ts[n].size);                                                                     \
        if (ts[n].bytes == NULL || skn_quantize(fmt, v, (int64_t)(b) * (c), a, ts[n].bytes, ts[n].size) != SKN_OK) \
            fail(names[n]);                                                                                   \
        ++n;                                                                                                  \
    } while (0)
    snprintf(names[n], sizeof names[n], "token_embd.weight");
    ADD(SKN_FORMAT_F16, 2, 256, 16, 1);
    snprintf(names[n], sizeof names[n], "output_norm.weight");
    ADD(SKN_FORMAT_F32, 1, 256, 1, 1);
    static const char* const attn[] = {"attn_q", "attn_k", "attn_v", "attn_output"};
    for (int l = kLayers - 1; l >= 0; --l) { /* last layer first: the rules must not depend on file order */
        for (int k = 0; k < 4; ++k) {
            snprintf(names[n], sizeof names[n], "blk.%d.%s.weight", l, attn[k]);
            ADD(SKN_FORMAT_F16, 2, 256, 4, 1);
        }
        snprintf(names[n], sizeof names[n], "blk.%d.attn_norm.weight", l);
        ADD(SKN_FORMAT_F32, 1, 256, 1, 1);
        snprintf(names[n], sizeof names[n], "blk.%d.ffn_norm.weight", l);
        ADD(SKN_FORMAT_F32, 1, 256, 1, 1);
        snprintf(names[n], sizeof names[n], "blk.%d.ffn_gate_inp.weight", l);
        ADD(SKN_FORMAT_F32, 2, 256, 8, 1);
        snprintf(names[n], sizeof names[n], "blk.%d.ffn_gate_exps.weight", l);
        ADD(SKN_FORMAT_F16, 3, 256, 4, 8);
        snprintf(names[n], sizeof names[n], "blk.%d.ffn_up_exps.weight", l);
        ADD(SKN_FORMAT_F16, 3, 256, 4, 8);
        snprintf(names[n], sizeof names[n], "blk.%d.ffn_down_exps.weight", l);
        ADD(SKN_FORMAT_F16, 3, 512, 4, 8);
    }
#undef ADD
    free(v);
    skn_gguf_writer* w = NULL;
    if (skn_gguf_writer_create(&w) != SKN_OK || skn_gguf_writer_add_string(w, "general.architecture", "llama", 5) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.block_count", kLayers) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.expert_count", 8) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.attention.head_count", 32) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.attention.head_count_kv", 8) != SKN_OK)
        fail("moe metadata");
    for (int i = 0; i < n; ++i)
        if (skn_gguf_writer_declare_tensor(w, ts[i].name, ts[i].format, ts[i].rank, ts[i].ne) != SKN_OK) fail(ts[i].name);
    char path[4096];
    snprintf(path, sizeof path, "%s/moe.gguf", dir);
    skn_gguf_stream* s = NULL;
    if (skn_gguf_stream_begin(w, path, &s) != SKN_OK) fail(path);
    skn_gguf_writer_destroy(w);
    for (int i = 0; i < n; ++i)
        if (skn_gguf_stream_write(s, ts[i].name, ts[i].bytes, ts[i].size) != SKN_OK) fail(ts[i].name);
    if (skn_gguf_stream_finish(s) != SKN_OK) fail(path);
    skn_gguf_stream_destroy(s);
    for (int i = 0; i < n; ++i) free(ts[i].bytes);
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_tool_fixtures DIR\n");
        return 2;
    }
    char path[4096];
    float values[24], q8src[4 * 96], q4src[2 * 256], tern[2 * 128], odd[15];
    for (int i = 0; i < 24; ++i) values[i] = (float)i / 4.0f;
    for (int i = 0; i < 4 * 96; ++i) q8src[i] = sinf((float)i * 0.37f) * (1.0f + (float)(i / 96));
    for (int i = 0; i < 2 * 256; ++i) q4src[i] = cosf((float)i * 0.11f) * 0.1f;
    for (int i = 0; i < 2 * 128; ++i) tern[i] = (float)((i * 5) % 3 - 1) * 0.75f;
    for (int i = 0; i < 15; ++i) odd[i] = (float)i - 7.0f;
    tensor good[5] = {{"values.f32", SKN_FORMAT_F32, 3, 8, NULL, 0, 0},
                      {"q8.weight", SKN_FORMAT_Q8_0, 4, 96, NULL, 0, 0},
                      {"q4k.weight", SKN_FORMAT_Q4_K, 2, 256, NULL, 0, 0},
                      {"ternary.weight", SKN_FORMAT_I2_S, 2, 128, NULL, 0, 0},
                      {"odd.f32", SKN_FORMAT_F32, 1, 15, NULL, 0, 0}};
    make(&good[0], values);
    make(&good[1], q8src);
    make(&good[2], q4src);
    make(&good[3], tern);
    make(&good[4], odd);
    snprintf(path, sizeof path, "%s/good.gguf", argv[1]);
    write_file(path, good, 5);

    float decoded[4 * 96];
    if (skn_dequantize(SKN_FORMAT_Q8_0, good[1].bytes, good[1].size, 4, 96, decoded, 4 * 96) != SKN_OK) fail("decode");
    snprintf(path, sizeof path, "%s/q8.expected.f32", argv[1]);
    FILE* f = fopen(path, "wb");
    if (f == NULL || fwrite(decoded, sizeof decoded, 1, f) != 1 || fclose(f) != 0) {
        perror(path);
        return 1;
    }

    /* bad.gguf: a NaN in values.f32, and a Q8_0 block with a NaN scale. */
    tensor bad[5] = {good[0], good[1], good[2], good[3], {"bad.q8", SKN_FORMAT_Q8_0, 4, 96, NULL, 0, 0}};
    values[13] = NAN;
    bad[0].bytes = NULL;
    make(&bad[0], values);
    make(&bad[4], q8src);
    bad[4].bytes[34] = 0x00; /* block 1 of row 0: its f16 scale 0x7e00 is NaN */
    bad[4].bytes[35] = 0x7e;
    snprintf(path, sizeof path, "%s/bad.gguf", argv[1]);
    write_file(path, bad, 5);
    for (int i = 0; i < 5; ++i) free(good[i].bytes);

    /* float.gguf and the Q4_K bytes skn quantize must produce from it. */
    static float q[8 * 256], up[4 * 512], norm[256], embd[16 * 256];
    for (int i = 0; i < 8 * 256; ++i) q[i] = sinf((float)i * 0.013f) * 0.5f;
    for (int i = 0; i < 4 * 512; ++i) up[i] = cosf((float)i * 0.029f) * ((i % 7) - 3.0f) * 0.1f;
    for (int i = 0; i < 256; ++i) norm[i] = 1.0f + (float)i / 256.0f;
    for (int i = 0; i < 16 * 256; ++i) embd[i] = (float)((i * 37) % 101 - 50) / 64.0f;
    tensor fl[4] = {{"blk.0.attn_q.weight", SKN_FORMAT_F32, 8, 256, NULL, 0, 0},
                    {"blk.0.ffn_up.weight", SKN_FORMAT_F16, 4, 512, NULL, 0, 0},
                    {"blk.0.attn_norm.weight", SKN_FORMAT_F32, 1, 256, NULL, 0, 1},
                    {"token_embd.weight", SKN_FORMAT_F32, 16, 256, NULL, 0, 0}};
    make(&fl[0], q);
    make(&fl[1], up);
    make(&fl[2], norm);
    make(&fl[3], embd);
    snprintf(path, sizeof path, "%s/float.gguf", argv[1]);
    write_file(path, fl, 4);
    /* The F16 tensor's values are what its bytes decode to. */
    if (skn_dequantize(SKN_FORMAT_F16, fl[1].bytes, fl[1].size, 4, 512, up, 4 * 512) != SKN_OK) fail("decode f16");
    snprintf(path, sizeof path, "%s/float.q4_k", argv[1]);
    f = fopen(path, "wb");
    const float* srcs[3] = {q, up, embd};
    const int rows[3] = {8, 4, 16}, cols[3] = {256, 512, 256};
    for (int i = 0; i < 3 && f != NULL; ++i) {
        tensor t = {"expected", SKN_FORMAT_Q4_K, rows[i], cols[i], NULL, 0, 0};
        make(&t, srcs[i]);
        if (fwrite(t.bytes, 1, t.size, f) != t.size) fail("write float.q4_k");
        free(t.bytes);
    }
    if (f == NULL || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    for (int i = 0; i < 4; ++i) free(fl[i].bytes);
    free(bad[0].bytes);
    free(bad[4].bytes);
    make_layers(argv[1]);
    make_moe(argv[1]);
    return 0;
}
