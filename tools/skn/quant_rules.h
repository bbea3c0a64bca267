/* SPDX-License-Identifier: MIT */
/* llama.cpp's file-type presets (Q4_K_M, Q3_K_S, IQ2_M, ...) and the
 * per-tensor rules each applies (src/llama-quant.cpp, llama_tensor_get_type):
 * which tensors are quantized at all, which get a higher type by role and
 * layer position, and the fallback when a row is not a whole number of
 * blocks. Formats are named by string so that a preset can name a format
 * this libskn does not have yet; the caller resolves names with
 * skn_format_from_name and refuses what it cannot resolve. */
#ifndef SKN_TOOL_QUANT_RULES_H
#define SKN_TOOL_QUANT_RULES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char* name;   /* llama-quantize's name: "Q4_K_M" */
    uint32_t file_type; /* llama_ftype, written as general.file_type */
    const char* base;   /* the type most tensors get (llama_ftype_get_default_type) */
    int id;             /* index in the preset table */
} skn_preset;

/* The preset called `name` (case-insensitive), or NULL. */
const skn_preset* skn_preset_find(const char* name);
/* Preset i (0-based), or NULL past the end. */
const skn_preset* skn_preset_at(int i);
/* Every format name the preset's rules can produce, fallbacks included
 * (NULL-terminated; at most 15 names). */
void skn_preset_formats(const skn_preset* p, const char* out[16]);

/* TYPE as llama-quantize reads it: one of its names (case-insensitive) or
 * llama_ftype numbers. Returns what it selects (a preset name of this
 * table, "F16", "BF16", "F32" or "COPY"; the aliases Q3_K, Q4_K, Q5_K give
 * their _M preset) and sets *canonical to llama-quantize's spelling of the
 * entry (for file names); NULL when it is neither. */
const char* skn_llama_type_resolve(const char* arg, const char** canonical);

/* "Q1_0 (40), Q2_0 (41), ..., COPY": every name with its number, for messages. */
void skn_llama_type_list(char* out, size_t cap);

/* llama.cpp's tensor categories TOKEN_EMBD (token_embd.weight,
 * per_layer_token_embd.weight) and OUTPUT (output.weight). */
int skn_rules_is_token_embd(const char* name);
int skn_rules_is_output(const char* name);

/* What llama.cpp reads from the model's hyper-parameters. */
typedef struct {
    char arch[64];       /* general.architecture, "" when missing */
    int64_t n_layer;     /* {arch}.block_count, or (when missing) 1 + the highest blk.N */
    int n_layer_guessed; /* 1 when n_layer was not read from the key */
    int64_t n_expert;    /* {arch}.expert_count, 0 when missing */
    int64_t n_head;      /* {arch}.attention.head_count (first layer's when an array), 0 when missing */
    int64_t n_head_kv;   /* {arch}.attention.head_count_kv, n_head when missing */
    int has_imatrix;     /* --imatrix was given */
} skn_model_facts;

/* n_head / n_head_kv (0 when n_head_kv is 0), as llama_hparams::n_gqa. */
int64_t skn_model_gqa(const skn_model_facts* m);

/* Counters llama.cpp keeps while it walks the tensors in its order. */
typedef struct {
    int tied;         /* no output.weight: token_embd takes the output's rules */
    int n_attn_v;     /* tensors in the attn_v role (attn_v, attn_qkv, attn_kv_b) */
    int i_attn_v, i_ffn_down, i_ffn_gate, i_ffn_up;
} skn_rule_state;

/* Prepare the state from every tensor name (in any order). */
void skn_rules_begin(skn_rule_state* s, const char* const* names, int64_t n);

/* Whether llama.cpp quantizes this tensor at all (tensor_allows_quantization:
 * two or more dimensions, a name ending in "weight", not a norm, not one of
 * the small tensors it keeps). When it does not, *why says which rule. */
int skn_rules_quantizable(const char* name, int rank, const char** why);

/* The type the preset chooses for a quantizable tensor, before the block-size
 * fallback. Call in llama.cpp's order (skn_rules_order_less): the counters
 * advance. `base_block` is the preset base format's block size. Returns the
 * format name; *why (static text) names the rule, and `detail` (at least 160
 * bytes) the layer figures it read, or "". Returns NULL with a message in
 * `detail` when the rule cannot be evaluated (a MoE tensor name without its
 * layer). */
const char* skn_rules_choose(const skn_preset* p, const skn_model_facts* m, skn_rule_state* s, const char* name,
                             int64_t ne0, int64_t ne2, int64_t base_block, const char** why, char* detail);

/* llama.cpp's fallback when ne0 is not a multiple of `type`'s block size
 * (tensor_type_fallback): the next type, or NULL when it defines none. */
const char* skn_rules_fallback(const char* type);

/* Whether a tensor of this type in this preset needs importance data
 * (tensor_requires_imatrix). `p` may be NULL (no preset). */
int skn_rules_requires_imatrix(const skn_preset* p, const char* name, const char* type);

/* llama.cpp's tensor order (llama_model_loader's weight_name_comparer):
 * by the N of "blk.N." (-1 without it), then by name bytes. */
int skn_rules_order_less(const char* a, const char* b);

#endif
