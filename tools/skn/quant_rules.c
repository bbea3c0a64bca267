/* SPDX-License-Identifier: MIT */
/* The preset table and the per-tensor rule table. The rules restate, as
 * data, the decisions of llama.cpp's src/llama-quant.cpp
 * (llama_tensor_get_type_impl, tensor_allows_quantization,
 * tensor_type_fallback, tensor_requires_imatrix); docs/tools.md lists them
 * per preset. The tables are this project's own wording of that behaviour. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include "quant_rules.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    PQ4_0, PQ4_1, PQ5_0, PQ5_1, PQ8_0, PQ2_K, PQ2_K_S, PQ3_K_S, PQ3_K_M, PQ3_K_L, PQ4_K_S, PQ4_K_M, PQ5_K_S,
    PQ5_K_M, PQ6_K, PIQ4_NL, PIQ4_XS, PIQ2_XXS, PIQ2_XS, PIQ2_S, PIQ2_M, PIQ3_XXS, PIQ3_XS, PIQ3_S, PIQ3_M,
    PIQ1_S, PIQ1_M, PTQ1_0, PTQ2_0, PMXFP4_MOE, PQ1_0, PQ2_0, kPresets
};

/* llama-quantize's names, llama_ftype values and default tensor types. */
static const skn_preset k_presets[kPresets] = {
    {"Q4_0", 2, "Q4_0", PQ4_0},          {"Q4_1", 3, "Q4_1", PQ4_1},
    {"Q5_0", 8, "Q5_0", PQ5_0},          {"Q5_1", 9, "Q5_1", PQ5_1},
    {"Q8_0", 7, "Q8_0", PQ8_0},          {"Q2_K", 10, "Q2_K", PQ2_K},
    {"Q2_K_S", 21, "Q2_K", PQ2_K_S},     {"Q3_K_S", 11, "Q3_K", PQ3_K_S},
    {"Q3_K_M", 12, "Q3_K", PQ3_K_M},     {"Q3_K_L", 13, "Q3_K", PQ3_K_L},
    {"Q4_K_S", 14, "Q4_K", PQ4_K_S},     {"Q4_K_M", 15, "Q4_K", PQ4_K_M},
    {"Q5_K_S", 16, "Q5_K", PQ5_K_S},     {"Q5_K_M", 17, "Q5_K", PQ5_K_M},
    {"Q6_K", 18, "Q6_K", PQ6_K},         {"IQ4_NL", 25, "IQ4_NL", PIQ4_NL},
    {"IQ4_XS", 30, "IQ4_XS", PIQ4_XS},   {"IQ2_XXS", 19, "IQ2_XXS", PIQ2_XXS},
    {"IQ2_XS", 20, "IQ2_XS", PIQ2_XS},   {"IQ2_S", 28, "IQ2_XS", PIQ2_S},
    {"IQ2_M", 29, "IQ2_S", PIQ2_M},      {"IQ3_XXS", 23, "IQ3_XXS", PIQ3_XXS},
    {"IQ3_XS", 22, "IQ3_S", PIQ3_XS},    {"IQ3_S", 26, "IQ3_S", PIQ3_S},
    {"IQ3_M", 27, "IQ3_S", PIQ3_M},      {"IQ1_S", 24, "IQ1_S", PIQ1_S},
    {"IQ1_M", 31, "IQ1_M", PIQ1_M},      {"TQ1_0", 36, "TQ1_0", PTQ1_0},
    {"TQ2_0", 37, "TQ2_0", PTQ2_0},      {"MXFP4_MOE", 38, "MXFP4", PMXFP4_MOE},
    {"Q1_0", 40, "Q1_0", PQ1_0},         {"Q2_0", 41, "Q2_0", PQ2_0},
};

/* llama-quantize's TYPE names in its own order (tools/quantize/quantize.cpp,
 * QUANT_OPTIONS) with their llama_ftype numbers: a number names the first
 * entry with it, a name matches case-insensitively. Q3_K, Q4_K and Q5_K are
 * its aliases of the _M presets; F16, BF16 and F32 convert every weight to
 * that dense type; COPY copies every tensor (no number of its own). */
static const struct {
    const char* name;
    int ftype;
    const char* means; /* the preset or format it selects */
} k_llama_types[] = {
    {"Q1_0", 40, "Q1_0"},       {"Q2_0", 41, "Q2_0"},       {"Q4_0", 2, "Q4_0"},      {"Q4_1", 3, "Q4_1"},
    {"MXFP4_MOE", 38, "MXFP4_MOE"}, {"Q5_0", 8, "Q5_0"},    {"Q5_1", 9, "Q5_1"},      {"IQ2_XXS", 19, "IQ2_XXS"},
    {"IQ2_XS", 20, "IQ2_XS"},   {"IQ2_S", 28, "IQ2_S"},     {"IQ2_M", 29, "IQ2_M"},   {"IQ1_S", 24, "IQ1_S"},
    {"IQ1_M", 31, "IQ1_M"},     {"TQ1_0", 36, "TQ1_0"},     {"TQ2_0", 37, "TQ2_0"},   {"Q2_K", 10, "Q2_K"},
    {"Q2_K_S", 21, "Q2_K_S"},   {"IQ3_XXS", 23, "IQ3_XXS"}, {"IQ3_S", 26, "IQ3_S"},   {"IQ3_M", 27, "IQ3_M"},
    {"Q3_K", 12, "Q3_K_M"},     {"IQ3_XS", 22, "IQ3_XS"},   {"Q3_K_S", 11, "Q3_K_S"}, {"Q3_K_M", 12, "Q3_K_M"},
    {"Q3_K_L", 13, "Q3_K_L"},   {"IQ4_NL", 25, "IQ4_NL"},   {"IQ4_XS", 30, "IQ4_XS"}, {"Q4_K", 15, "Q4_K_M"},
    {"Q4_K_S", 14, "Q4_K_S"},   {"Q4_K_M", 15, "Q4_K_M"},   {"Q5_K", 17, "Q5_K_M"},   {"Q5_K_S", 16, "Q5_K_S"},
    {"Q5_K_M", 17, "Q5_K_M"},   {"Q6_K", 18, "Q6_K"},       {"Q8_0", 7, "Q8_0"},      {"F16", 1, "F16"},
    {"BF16", 32, "BF16"},       {"F32", 0, "F32"},          {"COPY", -1, "COPY"},
};

const char* skn_llama_type_resolve(const char* arg, const char** canonical) {
    for (size_t i = 0; i < sizeof k_llama_types / sizeof k_llama_types[0]; ++i)
        if (strcasecmp(k_llama_types[i].name, arg) == 0) {
            *canonical = k_llama_types[i].name;
            return k_llama_types[i].means;
        }
    /* A whole decimal number: the first entry with that llama_ftype. */
    char* end = NULL;
    const long n = arg[0] >= '0' && arg[0] <= '9' ? strtol(arg, &end, 10) : -1;
    if (end != NULL && *end == 0)
        for (size_t i = 0; i < sizeof k_llama_types / sizeof k_llama_types[0]; ++i)
            if (k_llama_types[i].ftype == n) {
                *canonical = k_llama_types[i].name;
                return k_llama_types[i].means;
            }
    *canonical = NULL;
    return NULL;
}

void skn_llama_type_list(char* out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof k_llama_types / sizeof k_llama_types[0] && at < cap; ++i) {
        const int n = k_llama_types[i].ftype >= 0
                          ? snprintf(out + at, cap - at, "%s%s (%d)", i ? ", " : "", k_llama_types[i].name,
                                     k_llama_types[i].ftype)
                          : snprintf(out + at, cap - at, "%s%s", i ? ", " : "", k_llama_types[i].name);
        if (n < 0) break;
        at += (size_t)n;
    }
}

#define B(p) (UINT64_C(1) << P##p)
#define ALL (~UINT64_C(0))
/* The presets llama.cpp handles in one branch of its own (very low bit). */
#define LOWBIT (B(IQ2_XXS) | B(IQ2_XS) | B(IQ1_S) | B(IQ2_S) | B(IQ2_M) | B(IQ1_M))

const skn_preset* skn_preset_find(const char* name) {
    for (int i = 0; i < kPresets; ++i)
        if (strcasecmp(k_presets[i].name, name) == 0) return &k_presets[i];
    return NULL;
}

const skn_preset* skn_preset_at(int i) { return i >= 0 && i < kPresets ? &k_presets[i] : NULL; }

/* ---- tensor roles (tensor_get_category: substring tests, in this order) */

typedef enum { C_OTHER, C_TOKEN, C_OUTPUT, C_Q, C_K, C_V, C_ATTN_OUT, C_UP, C_GATE, C_DOWN } category;

static category category_of(const char* name) {
    if (strcmp(name, "output.weight") == 0) return C_OUTPUT;
    if (strcmp(name, "token_embd.weight") == 0 || strcmp(name, "per_layer_token_embd.weight") == 0) return C_TOKEN;
    /* attn_qkv and attn_kv_b share attn_v's rules (llama.cpp's separate
     * attn_qkv branch comes after the attn_v one and is never reached). */
    if (strstr(name, "attn_qkv.weight") || strstr(name, "attn_kv_b.weight") || strstr(name, "attn_v.weight"))
        return C_V;
    if (strstr(name, "attn_k.weight")) return C_K;
    if (strstr(name, "attn_q.weight")) return C_Q;
    if (strstr(name, "attn_output.weight")) return C_ATTN_OUT;
    if (strstr(name, "ffn_up")) return C_UP;
    if (strstr(name, "ffn_gate")) return C_GATE;
    if (strstr(name, "ffn_down")) return C_DOWN;
    return C_OTHER;
}

int skn_rules_is_token_embd(const char* name) { return category_of(name) == C_TOKEN; }

int skn_rules_is_output(const char* name) { return category_of(name) == C_OUTPUT; }

/* ---- which tensors are quantized at all */

static int ends_with(const char* s, const char* suffix) {
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Name fragments llama.cpp never quantizes: small or index-like tensors. */
static const char* const k_kept_fragments[] = {
    "_norm.weight", "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel", "per_layer_model_proj",
    "ssm_conv1d", "shortconv.conv.weight", "indexer.k_proj.weight", "indexer.q_proj.weight",
    "time_mix_first.weight", "time_mix_w0.weight", "time_mix_w1.weight", "time_mix_w2.weight",
    "time_mix_v0.weight", "time_mix_v1.weight", "time_mix_v2.weight", "time_mix_a0.weight", "time_mix_a1.weight",
    "time_mix_a2.weight", "time_mix_g1.weight", "time_mix_g2.weight", "time_mix_decay_w1.weight",
    "time_mix_decay_w2.weight", "time_mix_lerp_fused.weight", "attn_rel_b.weight", ".position_embd",
    "sam.pos_embd", "sam.neck.", "sam.net_", ".rel_pos", ".patch_embd", ".patch_merger", "a.rvq.codebook",
    "mm.a.code_embd",
};

int skn_rules_quantizable(const char* name, int rank, const char** why) {
    if (rank < 2) {
        *why = "1-D: kept";
        return 0;
    }
    if (!ends_with(name, "weight")) {
        *why = "not a weight: kept";
        return 0;
    }
    /* LLM_TN's names for BERT's position embeddings and token types. */
    if (strcmp(name, "position_embd.weight") == 0 || strcmp(name, "token_types.weight") == 0) {
        *why = "kept as llama.cpp keeps it";
        return 0;
    }
    for (size_t i = 0; i < sizeof k_kept_fragments / sizeof k_kept_fragments[0]; ++i)
        if (strstr(name, k_kept_fragments[i]) != NULL) {
            *why = strcmp(k_kept_fragments[i], "_norm.weight") == 0 ? "a norm: kept" : "kept as llama.cpp keeps it";
            return 0;
        }
    return 1;
}

/* ---- the rules */

/* Which branch of llama.cpp's decision a tensor takes, in its order. */
typedef enum { S_OUTPUT, S_MXFP4, S_TOKEN, S_LOWBIT, S_ATTN_V, S_ATTN_K, S_ATTN_Q, S_FFN_DOWN, S_ATTN_OUT, S_FFN_GATE, S_FFN_UP, S_NONE } section;

/* Conditions; a rule's `when` is a conjunction of them. */
enum {
    W_GQA4 = 1 << 0,          /* n_head / n_head_kv >= 4 */
    W_GQA4_OR_EXP4 = 1 << 1,  /* that, or n_expert >= 4 */
    W_EXP8 = 1 << 2,          /* n_expert == 8 */
    W_FALCON = 1 << 3,        /* general.architecture "falcon" */
    W_NOT_FALCON = 1 << 4,
    W_70B = 1 << 5,           /* llama, 80 layers, n_head != n_head_kv (LLM_TYPE_70B) */
    W_IMATRIX = 1 << 6,
    W_NO_IMATRIX = 1 << 7,
    W_V_LT2 = 1 << 8,         /* attn_v counter < 2 */
    W_V_LT4 = 1 << 9,
    W_V_MORE = 1 << 10,       /* use_more_bits(attn_v counter, attn_v count) */
    W_DCTR_LT8 = 1 << 11,     /* ffn_down counter < n_layer / 8 */
    W_L_LT8 = 1 << 12,        /* layer < n_layer / 8 */
    W_L_LT16 = 1 << 13,       /* layer < n_layer / 16 */
    W_L_MORE = 1 << 14,       /* use_more_bits(layer, n_layer) */
    W_L_MID = 1 << 15,        /* n_layer / 8 <= layer < 7 n_layer / 8 */
    W_NX_PARTIAL = 1 << 16,   /* ne0 not a multiple of the base type's block */
    W_NOT_Q8_0 = 1 << 17,     /* the type so far is not Q8_0 */
    W_Q3K_OR_Q4K = 1 << 18,   /* the type so far is Q3_K or Q4_K */
    W_NE2_GT1 = 1 << 19,      /* a stack of experts (ne[2] > 1) */
};

typedef struct {
    unsigned char section;
    unsigned char cat;  /* in S_LOWBIT: the role; elsewhere C_OTHER (any) */
    unsigned char adjust; /* 0: the first match of the section decides; 1: applied after it */
    uint64_t presets;
    uint32_t when;
    const char* type;   /* NULL: keep the type so far (and stop looking) */
    const char* why;
} rule;

static const rule k_rules[] = {
    /* output.weight, and token_embd when there is no output.weight (tied) */
    {S_OUTPUT, C_OTHER, 0, B(MXFP4_MOE), 0, "Q8_0", "output: Q8_0 under MXFP4_MOE"},
    {S_OUTPUT, C_OTHER, 0, ALL, W_FALCON, "Q8_0", "output: Q8_0 for falcon"},
    {S_OUTPUT, C_OTHER, 0, ALL, W_NX_PARTIAL, "Q8_0", "output: Q8_0, rows not whole base-type blocks"},
    {S_OUTPUT, C_OTHER, 0, LOWBIT | B(IQ3_XXS), 0, "Q5_K", "output: Q5_K in low-bit presets"},
    {S_OUTPUT, C_OTHER, 0, ALL, W_NOT_Q8_0, "Q6_K", "output: Q6_K"},
    /* MXFP4_MOE: expert stacks MXFP4, everything else Q8_0 */
    {S_MXFP4, C_OTHER, 0, ALL, W_NE2_GT1, "MXFP4", "MXFP4_MOE: expert stack"},
    {S_MXFP4, C_OTHER, 0, ALL, 0, "Q8_0", "MXFP4_MOE: not an expert stack"},
    /* token_embd (untied) */
    {S_TOKEN, C_OTHER, 0, B(IQ2_XXS) | B(IQ2_XS) | B(IQ1_S) | B(IQ1_M), 0, "Q2_K", "token_embd: Q2_K"},
    {S_TOKEN, C_OTHER, 0, B(IQ2_S) | B(IQ2_M) | B(IQ3_XXS), 0, "IQ3_S", "token_embd: IQ3_S"},
    {S_TOKEN, C_OTHER, 0, B(TQ1_0) | B(TQ2_0) | B(Q2_0), 0, "Q4_K", "token_embd: Q4_K in ternary and Q2_0 presets"},
    /* the very low bit presets */
    {S_LOWBIT, C_V, 0, LOWBIT, W_GQA4_OR_EXP4, "Q4_K", "attn_v: Q4_K, n_gqa >= 4 or n_expert >= 4"},
    {S_LOWBIT, C_V, 0, B(IQ2_S) | B(IQ2_M), 0, "IQ3_S", "attn_v: IQ3_S"},
    {S_LOWBIT, C_V, 0, LOWBIT, 0, "Q2_K", "attn_v: Q2_K"},
    {S_LOWBIT, C_K, 0, LOWBIT, W_EXP8, "Q4_K", "attn_k: Q4_K, 8 experts"},
    {S_LOWBIT, C_DOWN, 0, B(IQ2_S) | B(IQ2_M), W_DCTR_LT8, "IQ3_S", "ffn_down: IQ3_S in the first eighth"},
    {S_LOWBIT, C_DOWN, 0, LOWBIT, W_DCTR_LT8, "Q2_K", "ffn_down: Q2_K in the first eighth"},
    {S_LOWBIT, C_ATTN_OUT, 0, LOWBIT, W_EXP8, "Q5_K", "attn_output: Q5_K, 8 experts"},
    {S_LOWBIT, C_ATTN_OUT, 0, B(IQ1_S) | B(IQ1_M), 0, "IQ2_XXS", "attn_output: IQ2_XXS"},
    {S_LOWBIT, C_ATTN_OUT, 0, B(IQ2_S) | B(IQ2_M), 0, "IQ3_S", "attn_output: IQ3_S"},
    /* attn_v, attn_qkv, attn_kv_b */
    {S_ATTN_V, C_OTHER, 0, B(Q2_K), W_GQA4, "Q4_K", "attn_v: Q4_K, n_gqa >= 4"},
    {S_ATTN_V, C_OTHER, 0, B(Q2_K), 0, "Q3_K", "attn_v: Q3_K"},
    {S_ATTN_V, C_OTHER, 0, B(Q2_K_S), W_GQA4, "Q4_K", "attn_v: Q4_K, n_gqa >= 4"},
    {S_ATTN_V, C_OTHER, 0, B(IQ3_XXS), W_GQA4, "Q4_K", "attn_v: Q4_K, n_gqa >= 4"},
    {S_ATTN_V, C_OTHER, 0, B(IQ3_XXS), W_NO_IMATRIX, "IQ3_S", "attn_v: IQ3_S without importance data"},
    {S_ATTN_V, C_OTHER, 0, B(IQ3_XXS), 0, "IQ3_XXS", "attn_v: IQ3_XXS with importance data"},
    {S_ATTN_V, C_OTHER, 0, B(IQ3_XS) | B(IQ3_S), W_GQA4, "Q4_K", "attn_v: Q4_K, n_gqa >= 4"},
    {S_ATTN_V, C_OTHER, 0, B(IQ3_M), 0, "Q4_K", "attn_v: Q4_K"},
    {S_ATTN_V, C_OTHER, 0, B(Q3_K_M), W_V_LT2, "Q5_K", "attn_v: Q5_K, first two"},
    {S_ATTN_V, C_OTHER, 0, B(Q3_K_M), 0, "Q4_K", "attn_v: Q4_K"},
    {S_ATTN_V, C_OTHER, 0, B(Q3_K_L), 0, "Q5_K", "attn_v: Q5_K"},
    {S_ATTN_V, C_OTHER, 0, B(IQ4_NL) | B(IQ4_XS), W_GQA4, "Q5_K", "attn_v: Q5_K, n_gqa >= 4"},
    {S_ATTN_V, C_OTHER, 0, B(Q4_K_M) | B(Q5_K_M), W_V_MORE, "Q6_K", "attn_v: Q6_K, use_more_bits"},
    {S_ATTN_V, C_OTHER, 0, B(Q4_K_S), W_V_LT4, "Q5_K", "attn_v: Q5_K, first four"},
    {S_ATTN_V, C_OTHER, 1, ALL, W_70B | W_Q3K_OR_Q4K, "Q5_K", "attn_v: Q5_K, 70B llama"},
    {S_ATTN_V, C_OTHER, 1, ALL, W_EXP8, "Q8_0", "attn_v: Q8_0, 8 experts"},
    /* attn_k, attn_q */
    {S_ATTN_K, C_OTHER, 0, ALL, W_EXP8, "Q8_0", "attn_k: Q8_0, 8 experts"},
    {S_ATTN_K, C_OTHER, 0, B(IQ3_XS), 0, "IQ3_XXS", "attn_k: IQ3_XXS"},
    {S_ATTN_K, C_OTHER, 0, B(IQ3_XXS), 0, "IQ2_S", "attn_k: IQ2_S"},
    {S_ATTN_Q, C_OTHER, 0, B(IQ3_XS), 0, "IQ3_XXS", "attn_q: IQ3_XXS"},
    {S_ATTN_Q, C_OTHER, 0, B(IQ3_XXS), 0, "IQ2_S", "attn_q: IQ2_S"},
    /* ffn_down, by layer */
    {S_FFN_DOWN, C_OTHER, 0, B(Q2_K), 0, "Q3_K", "ffn_down: Q3_K"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q2_K_S), W_L_LT8, "Q4_K", "ffn_down: Q4_K in the first eighth"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q2_K_S), 0, NULL, "ffn_down: base type after the first eighth"},
    {S_FFN_DOWN, C_OTHER, 0, B(IQ3_XXS), W_NO_IMATRIX | W_L_LT8, "Q4_K", "ffn_down: Q4_K in the first eighth, no importance data"},
    {S_FFN_DOWN, C_OTHER, 0, B(IQ3_XXS), W_NO_IMATRIX, "Q3_K", "ffn_down: Q3_K without importance data"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q3_K_M), W_L_LT16, "Q5_K", "ffn_down: Q5_K in the first sixteenth"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q3_K_M), W_NOT_FALCON, "Q4_K", "ffn_down: Q4_K"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q3_K_M), W_L_MORE, "Q4_K", "ffn_down: Q4_K, use_more_bits (falcon)"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q3_K_M), 0, "Q3_K", "ffn_down: Q3_K (falcon)"},
    {S_FFN_DOWN, C_OTHER, 0, B(IQ3_M), W_L_LT8, "Q4_K", "ffn_down: Q4_K in the first eighth"},
    {S_FFN_DOWN, C_OTHER, 0, B(IQ3_M), W_EXP8 | W_L_MORE, "Q4_K", "ffn_down: Q4_K, 8 experts and use_more_bits"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q3_K_L), W_FALCON, "Q4_K", "ffn_down: Q4_K (falcon)"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q3_K_L), 0, "Q5_K", "ffn_down: Q5_K"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q4_K_M), W_FALCON | W_L_LT16, "Q6_K", "ffn_down: Q6_K in the first sixteenth (falcon)"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q4_K_M), W_FALCON | W_L_MORE, "Q5_K", "ffn_down: Q5_K, use_more_bits (falcon)"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q4_K_M), W_NOT_FALCON | W_L_MORE, "Q6_K", "ffn_down: Q6_K, use_more_bits"},
    {S_FFN_DOWN, C_OTHER, 0, B(IQ4_NL) | B(IQ4_XS), W_L_LT8 | W_NO_IMATRIX, "Q5_K", "ffn_down: Q5_K in the first eighth, no importance data"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q5_K_M), W_L_MORE, "Q6_K", "ffn_down: Q6_K, use_more_bits"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q4_K_S), W_NOT_FALCON | W_L_LT8, "Q5_K", "ffn_down: Q5_K in the first eighth"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q4_0), W_IMATRIX | W_L_LT8, "Q4_1", "ffn_down: Q4_1 in the first eighth, with importance data"},
    {S_FFN_DOWN, C_OTHER, 0, B(Q5_0), W_IMATRIX | W_L_LT8, "Q5_1", "ffn_down: Q5_1 in the first eighth, with importance data"},
    /* attn_output */
    {S_ATTN_OUT, C_OTHER, 0,
     B(Q2_K) | B(IQ3_XS) | B(IQ3_XXS) | B(Q3_K_S) | B(Q3_K_M) | B(IQ4_NL) | B(Q4_K_S) | B(Q4_K_M) | B(IQ3_S) |
         B(IQ3_M) | B(IQ4_XS),
     W_NOT_FALCON | W_EXP8, "Q5_K", "attn_output: Q5_K, 8 experts"},
    {S_ATTN_OUT, C_OTHER, 0, ALL, W_NOT_FALCON | W_EXP8, NULL, "attn_output: base type, 8 experts"},
    {S_ATTN_OUT, C_OTHER, 0, B(Q2_K), W_NOT_FALCON, "Q3_K", "attn_output: Q3_K"},
    {S_ATTN_OUT, C_OTHER, 0, B(IQ3_XXS), W_NOT_FALCON, "IQ3_S", "attn_output: IQ3_S"},
    {S_ATTN_OUT, C_OTHER, 0, B(Q3_K_M) | B(IQ3_M), W_NOT_FALCON, "Q4_K", "attn_output: Q4_K"},
    {S_ATTN_OUT, C_OTHER, 0, B(Q3_K_L), W_NOT_FALCON, "Q5_K", "attn_output: Q5_K"},
    {S_ATTN_OUT, C_OTHER, 0, B(Q3_K_L), W_FALCON, "Q4_K", "attn_output: Q4_K (falcon)"},
    /* ffn_gate, ffn_up */
    {S_FFN_GATE, C_OTHER, 0, B(IQ3_XS), W_L_MID, "IQ3_XXS", "ffn_gate: IQ3_XXS in the middle layers"},
    {S_FFN_UP, C_OTHER, 0, B(IQ3_XS), W_L_MID, "IQ3_XXS", "ffn_up: IQ3_XXS in the middle layers"},
};

void skn_preset_formats(const skn_preset* p, const char* out[16]) {
    int n = 0;
    const char* cand[64];
    int nc = 0;
    cand[nc++] = p->base;
    for (size_t i = 0; i < sizeof k_rules / sizeof k_rules[0] && nc < 48; ++i)
        if ((k_rules[i].presets >> p->id & 1) && k_rules[i].type != NULL) cand[nc++] = k_rules[i].type;
    for (int i = 0, base_n = nc; i < base_n && nc < 63; ++i) /* and where their fallbacks lead */
        for (const char* f = skn_rules_fallback(cand[i]); f != NULL && nc < 63; f = skn_rules_fallback(f))
            cand[nc++] = f;
    for (int i = 0; i < nc && n < 15; ++i) {
        int seen = 0;
        for (int j = 0; j < n; ++j) seen |= strcasecmp(out[j], cand[i]) == 0;
        if (!seen) out[n++] = cand[i];
    }
    out[n] = NULL;
}

int64_t skn_model_gqa(const skn_model_facts* m) { return m->n_head_kv == 0 ? 0 : m->n_head / m->n_head_kv; }

static int use_more_bits(int64_t i, int64_t n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

/* "blk.N." as sscanf("blk.%d.") reads it: the number, or -1. */
static int64_t block_number(const char* name) {
    if (strncmp(name, "blk.", 4) != 0) return -1;
    char* end = NULL;
    const long v = strtol(name + 4, &end, 10);
    return end == name + 4 ? -1 : (int64_t)v;
}

int skn_rules_order_less(const char* a, const char* b) {
    const int64_t la = block_number(a), lb = block_number(b);
    if (la != lb) return la < lb;
    return strcmp(a, b) < 0;
}

void skn_rules_begin(skn_rule_state* s, const char* const* names, int64_t n) {
    memset(s, 0, sizeof *s);
    s->tied = 1;
    for (int64_t i = 0; i < n; ++i) {
        const category c = category_of(names[i]);
        if (c == C_V) ++s->n_attn_v;
        if (c == C_OUTPUT) s->tied = 0;
    }
}

static section section_of(const skn_preset* p, const skn_rule_state* s, category c) {
    if (c == C_OUTPUT || (s->tied && c == C_TOKEN)) return S_OUTPUT;
    if (p->id == PMXFP4_MOE) return S_MXFP4;
    if (c == C_TOKEN) return S_TOKEN;
    if (LOWBIT >> p->id & 1) return S_LOWBIT;
    switch (c) {
        case C_V: return S_ATTN_V;
        case C_K: return S_ATTN_K;
        case C_Q: return S_ATTN_Q;
        case C_DOWN: return S_FFN_DOWN;
        case C_ATTN_OUT: return S_ATTN_OUT;
        case C_GATE: return S_FFN_GATE;
        case C_UP: return S_FFN_UP;
        default: return S_NONE;
    }
}

typedef struct {
    int64_t layer, n_layer; /* layer position for ffn_* rules */
    int64_t ne0, ne2, base_block;
    const char* type;       /* the type so far */
} inputs;

static int holds(uint32_t when, const skn_model_facts* m, const skn_rule_state* s, const inputs* in) {
    const int64_t gqa = skn_model_gqa(m);
    const int falcon = strcmp(m->arch, "falcon") == 0;
    const int is70b = strcmp(m->arch, "llama") == 0 && m->n_layer == 80 && m->n_head != m->n_head_kv;
    const int64_t L = in->layer, N = in->n_layer;
    const struct {
        uint32_t bit;
        int value;
    } atoms[] = {
        {W_GQA4, gqa >= 4},
        {W_GQA4_OR_EXP4, gqa >= 4 || m->n_expert >= 4},
        {W_EXP8, m->n_expert == 8},
        {W_FALCON, falcon},
        {W_NOT_FALCON, !falcon},
        {W_70B, is70b},
        {W_IMATRIX, m->has_imatrix},
        {W_NO_IMATRIX, !m->has_imatrix},
        {W_V_LT2, s->i_attn_v < 2},
        {W_V_LT4, s->i_attn_v < 4},
        {W_V_MORE, use_more_bits(s->i_attn_v, s->n_attn_v)},
        {W_DCTR_LT8, s->i_ffn_down < m->n_layer / 8},
        {W_L_LT8, L < N / 8},
        {W_L_LT16, L < N / 16},
        {W_L_MORE, use_more_bits(L, N)},
        {W_L_MID, L >= N / 8 && L < 7 * N / 8},
        {W_NX_PARTIAL, in->base_block > 0 && in->ne0 % in->base_block != 0},
        {W_NOT_Q8_0, strcasecmp(in->type, "Q8_0") != 0},
        {W_Q3K_OR_Q4K, strcasecmp(in->type, "Q3_K") == 0 || strcasecmp(in->type, "Q4_K") == 0},
        {W_NE2_GT1, in->ne2 > 1},
    };
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; ++i)
        if ((when & atoms[i].bit) && !atoms[i].value) return 0;
    return 1;
}

const char* skn_rules_choose(const skn_preset* p, const skn_model_facts* m, skn_rule_state* s, const char* name,
                             int64_t ne0, int64_t ne2, int64_t base_block, const char** why, char* detail) {
    const category c = category_of(name);
    const section sec = section_of(p, s, c);
    inputs in = {-1, m->n_layer, ne0, ne2, base_block, p->base};
    *why = "preset base type";
    detail[0] = 0;
    /* ffn_* position: the tensor's own counter, except that in a MoE model
     * (experts are not stored layer by layer) the layer is read from the name. */
    const int positional = sec == S_FFN_DOWN || sec == S_FFN_GATE || sec == S_FFN_UP;
    if (positional) {
        in.layer = sec == S_FFN_DOWN ? s->i_ffn_down : sec == S_FFN_GATE ? s->i_ffn_gate : s->i_ffn_up;
        if (m->n_expert > 1) {
            in.layer = block_number(name);
            if (in.layer < 0 || in.layer >= m->n_layer) {
                snprintf(detail, 160, "tensor \"%.64s\": no blk.N with N in [0, %" PRId64 ") in its name (MoE ffn rules "
                         "read the layer from it)", name, m->n_layer);
                return NULL;
            }
        }
    }
    int decided = 0;
    for (size_t i = 0; i < sizeof k_rules / sizeof k_rules[0]; ++i) {
        const rule* r = &k_rules[i];
        if (r->section != sec || !(r->presets >> p->id & 1)) continue;
        if (sec == S_LOWBIT && r->cat != c) continue;
        if (r->adjust ? 0 : decided) continue;
        if (!holds(r->when, m, s, &in)) continue;
        if (!r->adjust) decided = 1;
        if (r->type != NULL) in.type = r->type;
        *why = r->why;
    }
    if (sec == S_OUTPUT && c == C_TOKEN)
        snprintf(detail, 160, "token_embd tied: no output.weight");
    else if (c == C_V && (sec == S_LOWBIT || sec == S_ATTN_V))
        snprintf(detail, 160, "attn_v #%d of %d", s->i_attn_v, s->n_attn_v);
    else if (positional || (sec == S_LOWBIT && c == C_DOWN))
        snprintf(detail, 160, "layer %" PRId64 " of %" PRId64, sec == S_LOWBIT ? (int64_t)s->i_ffn_down : in.layer,
                 m->n_layer);
    if (c == C_V && (sec == S_LOWBIT || sec == S_ATTN_V)) ++s->i_attn_v;
    if (c == C_DOWN && (sec == S_LOWBIT || sec == S_FFN_DOWN)) ++s->i_ffn_down;
    if (sec == S_FFN_GATE) ++s->i_ffn_gate;
    if (sec == S_FFN_UP) ++s->i_ffn_up;
    return in.type;
}

const char* skn_rules_fallback(const char* type) {
    static const char* const to_iq4_nl[] = {"IQ1_S", "IQ1_M", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ3_XXS", "IQ3_S", "IQ4_XS"};
    static const char* const to_q4_0[] = {"Q2_0", "Q2_K", "Q3_K", "TQ1_0", "TQ2_0"};
    for (size_t i = 0; i < sizeof to_iq4_nl / sizeof to_iq4_nl[0]; ++i)
        if (strcasecmp(type, to_iq4_nl[i]) == 0) return "IQ4_NL";
    for (size_t i = 0; i < sizeof to_q4_0 / sizeof to_q4_0[0]; ++i)
        if (strcasecmp(type, to_q4_0[i]) == 0) return "Q4_0";
    if (strcasecmp(type, "Q4_K") == 0) return "Q5_0";
    if (strcasecmp(type, "Q5_K") == 0) return "Q5_1";
    if (strcasecmp(type, "Q6_K") == 0) return "Q8_0";
    return NULL;
}

int skn_rules_requires_imatrix(const skn_preset* p, const char* name, const char* type) {
    if (category_of(name) == C_TOKEN || category_of(name) == C_OUTPUT) return 0;
    static const char* const need[] = {"IQ3_XXS", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ1_M", "IQ1_S"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; ++i)
        if (strcasecmp(type, need[i]) == 0) return 1;
    /* k-quants need none, except Q2_K inside a Q2_K_S file */
    return p != NULL && p->id == PQ2_K_S && strcasecmp(type, "Q2_K") == 0;
}
