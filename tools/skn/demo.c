/* SPDX-License-Identifier: MIT */
/* skn demo: quantize an embedded sample weight to every format skn knows,
 * decode it back and print what each format costs and how much it loses;
 * with --write-model, write a small llama-style model file instead, so that a
 * newcomer has something to inspect, quantize and verify. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "skn/skn.h"

enum { kRows = 16, kCols = 1024 };

/* A weight shaped like a transformer projection: per-row scale, a smooth
 * component, deterministic noise (from `seed`) and a few outliers. */
static void make_weight(float* w, int rows, int cols, uint64_t seed) {
    uint64_t s = seed;
    for (int r = 0; r < rows; ++r) {
        const float row_scale = 0.02f * (float)(1 + r % 5);
        for (int c = 0; c < cols; ++c) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            const float u = (float)(s >> 40) / 16777216.0f - 0.5f;
            float v = row_scale * (2.0f * u + 0.3f * sinf(0.05f * (float)c + (float)r));
            if ((c * 31 + r * 7) % 509 == 0) v *= 12.0f;
            w[(size_t)r * (size_t)cols + (size_t)c] = v;
        }
    }
}

/* The embedded sample the error table is computed on. */
static void make_sample(float* w) { make_weight(w, kRows, kCols, 0x5eed5eedULL); }

/* The ternary formats store weights that already take three values {-s, 0, +s}
 * (BitNet-style training); their error on ordinary weights says nothing about
 * them. They are shown on the sample made ternary instead (s = the sample's
 * mean |w|, w -> s * sign(w) where |w| > s / 2, else 0), marked (t). */
static int is_ternary(const char* name) {
    return strcmp(name, "TQ1_0") == 0 || strcmp(name, "TQ2_0") == 0 || strcmp(name, "I2_S") == 0 ||
           strcmp(name, "I2_S_G64") == 0;
}

static void make_ternary(const float* w, float* t) {
    /* One s for the whole tensor: I2_S has a single per-tensor scale. */
    double mean_abs = 0.0;
    for (int i = 0; i < kRows * kCols; ++i) mean_abs += fabs((double)w[i]);
    const float s = (float)(mean_abs / (kRows * kCols));
    for (int i = 0; i < kRows * kCols; ++i) t[i] = fabsf(w[i]) > 0.5f * s ? (w[i] > 0 ? s : -s) : 0.0f;
}

static double rms_of(const float* w) {
    double sumsq = 0.0;
    for (int i = 0; i < kRows * kCols; ++i) sumsq += (double)w[i] * w[i];
    return sqrt(sumsq / (kRows * kCols));
}

/* ---- skn demo --write-model: the sample as a model file */

/* A two-layer llama: small (2.4 MB), but every 2-D weight's rows are whole
 * 256-element super-blocks, so every preset (Q4_K_M, ...) applies as it would
 * to a real model, and the metadata is the set skn quantize's rules read. */
enum { kLayers = 2, kEmbd = 256, kFF = 512, kHeads = 4, kHeadsKV = 2, kVocab = 64 };
enum { kHeadDim = kEmbd / kHeads, kKV = kHeadsKV * kHeadDim };

/* Add a [out, in] weight (ne = {in, out}, as GGUF stores it) as F16, the type
 * llama.cpp's converter writes by default; `in == 0` adds an F32 norm vector
 * of `out` values near 1. */
static int add_model_tensor(skn_gguf_writer* w, const char* name, int out, int in, uint64_t seed) {
    const int vector = in == 0;
    const int cols = vector ? out : in, rows = vector ? 1 : out;
    const skn_format format = vector ? SKN_FORMAT_F32 : SKN_FORMAT_F16;
    size_t bytes = 0;
    if (skn_quantized_size(format, rows, cols, &bytes) != SKN_OK) return -1;
    float* values = malloc((size_t)rows * (size_t)cols * sizeof(float));
    void* packed = malloc(bytes);
    int rc = -1;
    if (values != NULL && packed != NULL) {
        make_weight(values, rows, cols, seed);
        if (vector)
            for (int c = 0; c < cols; ++c) values[c] = 1.0f + values[c];
        const int64_t ne[2] = {cols, rows};
        if (skn_quantize(format, values, rows, cols, packed, bytes) == SKN_OK &&
            skn_gguf_writer_add_tensor(w, name, format, vector ? 1 : 2, ne, packed, bytes) == SKN_OK)
            rc = 0;
    } else {
        fprintf(stderr, "skn demo: out of memory\n");
    }
    free(packed);
    free(values);
    return rc;
}

/* A sentencepiece-like vocabulary: three control tokens, then letters with
 * and without the word-start mark, then digits. */
static int add_vocab(skn_gguf_writer* w) {
    static char storage[kVocab][8];
    const char* tokens[kVocab];
    float scores[kVocab];
    int32_t types[kVocab];
    for (int i = 0; i < kVocab; ++i) {
        if (i < 3)
            snprintf(storage[i], sizeof storage[i], "%s", i == 0 ? "<unk>" : i == 1 ? "<s>" : "</s>");
        else if (i < 3 + 26)
            snprintf(storage[i], sizeof storage[i], "\xe2\x96\x81%c", 'a' + (i - 3));
        else if (i < 3 + 52)
            snprintf(storage[i], sizeof storage[i], "%c", 'a' + (i - 29));
        else
            snprintf(storage[i], sizeof storage[i], "%c", '0' + (i - 55));
        tokens[i] = storage[i];
        scores[i] = i < 3 ? 0.0f : -(float)(i - 2);
        types[i] = i == 0 ? 2 : i < 3 ? 3 : 1; /* llama.cpp: unknown, control, normal */
    }
    return skn_gguf_writer_add_string(w, "tokenizer.ggml.model", "llama", 5) == SKN_OK &&
                   skn_gguf_writer_add_string_array(w, "tokenizer.ggml.tokens", tokens, NULL, kVocab) == SKN_OK &&
                   skn_gguf_writer_add_array(w, "tokenizer.ggml.scores", SKN_GGUF_TYPE_F32, scores, kVocab) ==
                       SKN_OK &&
                   skn_gguf_writer_add_array(w, "tokenizer.ggml.token_type", SKN_GGUF_TYPE_I32, types, kVocab) ==
                       SKN_OK &&
                   skn_gguf_writer_add_u32(w, "tokenizer.ggml.bos_token_id", 1) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "tokenizer.ggml.eos_token_id", 2) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "tokenizer.ggml.unknown_token_id", 0) == SKN_OK
               ? 0
               : -1;
}

static int add_model_metadata(skn_gguf_writer* w) {
    static const char name[] = "skn sample model";
    return skn_gguf_writer_add_string(w, "general.architecture", "llama", 5) == SKN_OK &&
                   skn_gguf_writer_add_string(w, "general.name", name, sizeof name - 1) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "general.file_type", 1) == SKN_OK && /* llama_ftype MOSTLY_F16 */
                   skn_gguf_writer_add_u32(w, "llama.vocab_size", kVocab) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "llama.context_length", 512) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "llama.embedding_length", kEmbd) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "llama.block_count", kLayers) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "llama.feed_forward_length", kFF) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "llama.rope.dimension_count", kHeadDim) == SKN_OK &&
                   skn_gguf_writer_add_f32(w, "llama.rope.freq_base", 10000.0f) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "llama.attention.head_count", kHeads) == SKN_OK &&
                   skn_gguf_writer_add_u32(w, "llama.attention.head_count_kv", kHeadsKV) == SKN_OK &&
                   skn_gguf_writer_add_f32(w, "llama.attention.layer_norm_rms_epsilon", 1e-5f) == SKN_OK &&
                   add_vocab(w) == 0
               ? 0
               : -1;
}

/* The tensors in the order llama.cpp's converter writes them. */
static int add_model_tensors(skn_gguf_writer* w, int* count) {
    static const struct {
        const char* name;
        int out, in;
    } per_layer[] = {
        {"attn_norm", kEmbd, 0},  {"attn_q", kEmbd, kEmbd}, {"attn_k", kKV, kEmbd},  {"attn_v", kKV, kEmbd},
        {"attn_output", kEmbd, kEmbd}, {"ffn_norm", kEmbd, 0}, {"ffn_gate", kFF, kEmbd}, {"ffn_up", kFF, kEmbd},
        {"ffn_down", kEmbd, kFF},
    };
    uint64_t seed = 0x5eed0001ULL;
    *count = 0;
    if (add_model_tensor(w, "token_embd.weight", kVocab, kEmbd, seed++) != 0) return -1;
    ++*count;
    for (int l = 0; l < kLayers; ++l)
        for (size_t t = 0; t < sizeof per_layer / sizeof per_layer[0]; ++t, ++*count) {
            char name[64];
            snprintf(name, sizeof name, "blk.%d.%s.weight", l, per_layer[t].name);
            if (add_model_tensor(w, name, per_layer[t].out, per_layer[t].in, seed++) != 0) return -1;
        }
    if (add_model_tensor(w, "output_norm.weight", kEmbd, 0, seed++) != 0 ||
        add_model_tensor(w, "output.weight", kVocab, kEmbd, seed++) != 0)
        return -1;
    *count += 2;
    return 0;
}

static int write_model(const char* path) {
    skn_gguf_writer* w = NULL;
    int tensors = 0;
    uint64_t bytes = 0;
    int ok = skn_gguf_writer_create(&w) == SKN_OK && add_model_metadata(w) == 0 && add_model_tensors(w, &tensors) == 0 &&
             skn_gguf_writer_size(w, &bytes) == SKN_OK;
    if (!ok) {
        fprintf(stderr, "skn demo: building the sample model failed: %s\n", skn_last_error());
    } else if (skn_gguf_writer_write_file(w, path) != SKN_OK) {
        fprintf(stderr, "skn demo: cannot write %s: %s\n", path, skn_last_error());
        ok = 0;
    }
    skn_gguf_writer_destroy(w);
    if (!ok) return 1;
    printf("wrote %s: a llama-style sample model, %.1f MB\n", path, (double)bytes / 1e6);
    printf("  %d layers, embedding %d, feed-forward %d, %d heads (%d for K/V), vocabulary %d\n", kLayers, kEmbd, kFF,
           kHeads, kHeadsKV, kVocab);
    printf("  %d tensors: F16 matrices, F32 norms; random weights shaped like a transformer's\n", tensors);
    return 0;
}

int skn_cmd_demo(int argc, char** argv) {
    if (argc == 2 && skn_cli_is_help(argv[1])) return skn_cli_help(skn_help_skn_demo);
    if (argc >= 2 && strcmp(argv[1], "--write-model") == 0) {
        if (argc == 3 && argv[2][0] != 0) return write_model(argv[2]);
        return skn_cli_usage_error("demo", skn_help_skn_demo, "%s",
                                   argc > 3 ? "--write-model takes one PATH and nothing else"
                                            : "--write-model needs a PATH (e.g. skn demo --write-model sample.gguf)");
    }
    if (argc > 1)
        return skn_cli_usage_error("demo", skn_help_skn_demo, "%s \"%s\"",
                                   argv[1][0] == '-' ? "unknown option" : "unexpected argument", argv[1]);
    static float sample[kRows * kCols];
    static float ternary[kRows * kCols];
    static float decoded[kRows * kCols];
    make_sample(sample);
    make_ternary(sample, ternary);
    const double rms = rms_of(sample), ternary_rms = rms_of(ternary);
    int shown_ternary = 0;

    printf("skn %s demo: a [%d, %d] sample weight (rms %.4g), cpu tier %s\n\n", skn_version_string(), kRows, kCols, rms,
           skn_isa_name(skn_cpu_isa()));
    printf("%-9s %7s %9s %12s %12s %9s\n", "format", "bits/w", "bytes", "max |err|", "RMSE", "RMSE/rms");
    printf("%-9s %7s %9s %12s %12s %9s\n", "------", "------", "-----", "---------", "----", "--------");
    int failures = 0;
    for (int i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        skn_format_props p;
        memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        size_t bytes = 0;
        if (skn_format_info(f, &p) != SKN_OK || skn_quantized_size(f, kRows, kCols, &bytes) != SKN_OK) {
            fprintf(stderr, "skn demo: format %d: %s\n", (int)f, skn_last_error());
            ++failures;
            continue;
        }
        if (p.needs_importance) {
            printf("%-9s %7.3f %9zu   (quantizes only with importance weights, an imatrix)\n", p.name,
                   p.bits_per_weight, bytes);
            continue;
        }
        const int ternary_format = is_ternary(p.name);
        const float* weight = ternary_format ? ternary : sample;
        const double weight_rms = ternary_format ? ternary_rms : rms;
        shown_ternary |= ternary_format;
        void* packed = malloc(bytes);
        if (packed == NULL) {
            fprintf(stderr, "skn demo: out of memory\n");
            return 1;
        }
        if (skn_quantize(f, weight, kRows, kCols, packed, bytes) != SKN_OK ||
            skn_dequantize(f, packed, bytes, kRows, kCols, decoded, kRows * kCols) != SKN_OK) {
            fprintf(stderr, "skn demo: %s: %s\n", p.name, skn_last_error());
            ++failures;
            free(packed);
            continue;
        }
        double max_err = 0.0, err2 = 0.0;
        for (int k = 0; k < kRows * kCols; ++k) {
            const double e = fabs((double)decoded[k] - weight[k]);
            if (e > max_err) max_err = e;
            err2 += e * e;
        }
        const double rmse = sqrt(err2 / (kRows * kCols));
        printf("%-9s %7.3f %9zu %12.4g %12.4g %8.2f%%%s\n", p.name, p.bits_per_weight, bytes, max_err, rmse,
               100.0 * rmse / weight_rms, ternary_format ? " (t)" : "");
        free(packed);
    }
    if (shown_ternary)
        printf("\n(t) a ternary format: it expects weights in {-s, 0, +s} (BitNet-style), so it is shown on the\n"
               "    sample made ternary (s = its mean |w|; rms %.4g), not on the sample itself.\n",
               ternary_rms);
    return failures == 0 ? 0 : 1;
}
