/* SPDX-License-Identifier: MIT */
/* Writes a llama-shaped F16 GGUF model of about 1 GiB with libskn's
 * streaming GGUF writer, for scripts/bench-quantize-memory: token_embd and
 * output [2048 x 32000], 9 layers of attn_q/k/v/output (GQA: k and v
 * [2048 x 512]), ffn_gate/up [2048 x 5632], ffn_down [5632 x 2048], F32
 * norms. Values are cheap pseudo-random numbers (what matters here is
 * memory, not quality). Memory: one 1 MiB buffer of floats.
 *   usage: skn_bench_quantize_model OUT.gguf */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skn/skn.h"

enum { kEmbd = 2048, kKv = 512, kFf = 5632, kVocab = 32000, kLayers = 9, kChunk = 1 << 18 };

typedef struct {
    char name[64];
    skn_format format;
    int64_t ne[2];
    int rank;
} spec;

static int fail(const char* what) {
    fprintf(stderr, "skn_bench_quantize_model: %s: %s\n", what, skn_last_error());
    return 1;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: skn_bench_quantize_model OUT.gguf\n");
        return 2;
    }
    static spec ts[3 + kLayers * 9];
    int n = 0;
    ts[n++] = (spec){"token_embd.weight", SKN_FORMAT_F16, {kEmbd, kVocab}, 2};
    for (int l = 0; l < kLayers; ++l) {
        const struct { const char* role; int64_t in, out; } w[] = {
            {"attn_q", kEmbd, kEmbd}, {"attn_k", kEmbd, kKv}, {"attn_v", kEmbd, kKv}, {"attn_output", kEmbd, kEmbd},
            {"ffn_gate", kEmbd, kFf}, {"ffn_up", kEmbd, kFf}, {"ffn_down", kFf, kEmbd}};
        snprintf(ts[n].name, sizeof ts[n].name, "blk.%d.attn_norm.weight", l);
        ts[n].format = SKN_FORMAT_F32, ts[n].ne[0] = kEmbd, ts[n].ne[1] = 1, ts[n++].rank = 1;
        for (int k = 0; k < 7; ++k) {
            snprintf(ts[n].name, sizeof ts[n].name, "blk.%d.%s.weight", l, w[k].role);
            ts[n].format = SKN_FORMAT_F16, ts[n].ne[0] = w[k].in, ts[n].ne[1] = w[k].out, ts[n++].rank = 2;
        }
        snprintf(ts[n].name, sizeof ts[n].name, "blk.%d.ffn_norm.weight", l);
        ts[n].format = SKN_FORMAT_F32, ts[n].ne[0] = kEmbd, ts[n].ne[1] = 1, ts[n++].rank = 1;
    }
    ts[n++] = (spec){"output_norm.weight", SKN_FORMAT_F32, {kEmbd, 1}, 1};
    ts[n++] = (spec){"output.weight", SKN_FORMAT_F16, {kEmbd, kVocab}, 2};

    skn_gguf_writer* w = NULL;
    if (skn_gguf_writer_create(&w) != SKN_OK) return fail("writer");
    if (skn_gguf_writer_add_string(w, "general.architecture", "llama", 5) != SKN_OK ||
        skn_gguf_writer_add_string(w, "general.name", "quantize-memory-bench", 21) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "general.file_type", 1) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.block_count", kLayers) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.embedding_length", kEmbd) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.feed_forward_length", kFf) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.attention.head_count", 32) != SKN_OK ||
        skn_gguf_writer_add_u32(w, "llama.attention.head_count_kv", 8) != SKN_OK)
        return fail("metadata");
    for (int i = 0; i < n; ++i)
        if (skn_gguf_writer_declare_tensor(w, ts[i].name, ts[i].format, ts[i].rank, ts[i].ne) != SKN_OK)
            return fail(ts[i].name);
    skn_gguf_stream* s = NULL;
    if (skn_gguf_stream_begin(w, argv[1], &s) != SKN_OK) return fail(argv[1]);
    skn_gguf_writer_destroy(w);
    float* v = malloc(sizeof(float) * kChunk);
    unsigned char* bytes = malloc(sizeof(float) * kChunk);
    if (v == NULL || bytes == NULL) return fail("memory");
    uint32_t x = 12345;
    uint64_t total = 0;
    for (int i = 0; i < n; ++i) {
        const int64_t rows_per = kChunk / ts[i].ne[0];
        for (int64_t r = 0; r < ts[i].ne[1]; r += rows_per) {
            const int64_t rows = ts[i].ne[1] - r < rows_per ? ts[i].ne[1] - r : rows_per;
            const int64_t k = rows * ts[i].ne[0];
            for (int64_t j = 0; j < k; ++j) {
                x = x * 1664525u + 1013904223u; /* a linear congruential generator: fast, fixed */
                v[j] = ts[i].rank == 1 ? 1.0f : ((float)(x >> 8) / 16777216.0f - 0.5f) * 0.1f;
            }
            size_t size = 0;
            if (skn_quantized_size(ts[i].format, rows, ts[i].ne[0], &size) != SKN_OK ||
                skn_quantize(ts[i].format, v, rows, ts[i].ne[0], bytes, size) != SKN_OK ||
                skn_gguf_stream_write(s, ts[i].name, bytes, size) != SKN_OK)
                return fail(ts[i].name);
            total += size;
        }
    }
    if (skn_gguf_stream_finish(s) != SKN_OK) return fail("finish");
    skn_gguf_stream_destroy(s);
    free(v);
    free(bytes);
    printf("%s: %d tensors, %" PRIu64 " bytes of tensor data\n", argv[1], n, total);
    return 0;
}
