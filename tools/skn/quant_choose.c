/* SPDX-License-Identifier: MIT */
/* skn quantize's per-tensor decision, as llama.cpp's llama_tensor_get_type
 * makes it (src/llama-quant.cpp): which tensors are converted, the forced
 * types (--token-embedding-type, --output-tensor-type), the --tensor-type
 * patterns, the preset's rules, the row-length fallback; and
 * general.file_type. On the public C API only. */
#include "quant_choose.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_util.h"

/* general.file_type as llama.cpp's llama-quantize writes it for a plain
 * format name (llama_ftype; for Q3_K, Q4_K and Q5_K the _M mixture's number,
 * as llama-quantize reads those names). Formats without a llama_ftype get no
 * general.file_type. Presets carry their own number (quant_rules.c). */
static const struct {
    skn_format format;
    uint32_t file_type;
} k_file_types[] = {
    {SKN_FORMAT_F32, 0},     {SKN_FORMAT_F16, 1},    {SKN_FORMAT_Q4_0, 2},   {SKN_FORMAT_Q4_1, 3},
    {SKN_FORMAT_Q8_0, 7},    {SKN_FORMAT_Q5_0, 8},   {SKN_FORMAT_Q5_1, 9},   {SKN_FORMAT_Q2_K, 10},
    {SKN_FORMAT_Q3_K, 12},   {SKN_FORMAT_Q4_K, 15},  {SKN_FORMAT_Q5_K, 17},  {SKN_FORMAT_Q6_K, 18},
    {SKN_FORMAT_IQ4_NL, 25}, {SKN_FORMAT_IQ4_XS, 30}, {SKN_FORMAT_BF16, 32}, {SKN_FORMAT_TQ1_0, 36},
    {SKN_FORMAT_TQ2_0, 37},  {SKN_FORMAT_MXFP4, 38}, {SKN_FORMAT_NVFP4, 39},
    {SKN_FORMAT_IQ3_XXS, 23}, {SKN_FORMAT_IQ3_S, 26}, {SKN_FORMAT_Q1_0, 40}, {SKN_FORMAT_Q2_0, 41},
    /* The grid formats llama-quantize names only as presets: the preset that
     * is all of them (IQ2_S: IQ2_M's number, the IQ2_S preset being IQ2_XS).
     * Read when --canonical undoes a repack. */
    {SKN_FORMAT_IQ2_XXS, 19}, {SKN_FORMAT_IQ2_XS, 20}, {SKN_FORMAT_IQ2_S, 29},
    /* The row-interleaved formats: ik_llama.cpp's llama_ftype numbers
     * (include/llama.h at 8337e4cd; only ik_llama.cpp loads such files). */
    {SKN_FORMAT_Q4_0_R8, 202}, {SKN_FORMAT_Q8_0_R8, 207}, {SKN_FORMAT_Q5_0_R4, 208}, {SKN_FORMAT_Q2_K_R4, 210},
    {SKN_FORMAT_Q3_K_R4, 211}, {SKN_FORMAT_Q4_K_R4, 214}, {SKN_FORMAT_Q5_K_R4, 216}, {SKN_FORMAT_Q6_K_R4, 218},
    {SKN_FORMAT_IQ4_NL_R4, 225}, {SKN_FORMAT_IQ4_XS_R8, 230}, {SKN_FORMAT_BF16_R16, 232}, {SKN_FORMAT_MXFP4_R8, 351},
    {SKN_FORMAT_IQ2_XXS_R4, 219}, {SKN_FORMAT_IQ2_XS_R4, 220}, {SKN_FORMAT_IQ3_XXS_R4, 223}, {SKN_FORMAT_IQ3_S_R4, 226},
    /* ik_llama.cpp has no file type of IQ2_S_R4's own: its loader names an
     * IQ2_S_R4 file IQ2_M_R4, the mixture built on it (as Q4_K is Q4_K_M). */
    {SKN_FORMAT_IQ2_S_R4, 229},
};

static int file_type_of(skn_format f, uint32_t* out) {
    for (size_t i = 0; i < sizeof k_file_types / sizeof k_file_types[0]; ++i)
        if (k_file_types[i].format == f) {
            *out = k_file_types[i].file_type;
            return 1;
        }
    return 0;
}

/* The GGUF type id row r is written with. */
static int32_t written_type_id(const skn_quant_row* r) {
    if (r->kept != NULL) return r->in.type_id;
    return r->out_format == SKN_FORMAT_I2_S_G64 ? SKN_FORMAT_I2_S : (int32_t)r->out_format;
}

/* The llama_ftype llama.cpp's model loader guesses from the most common
 * tensor type of the file written (llama_model_loader: the first type, in
 * its tensor order, to reach the highest count), marked LLAMA_FTYPE_GUESSED
 * (1024); a type it has no file type for counts as ALL_F32 (0). */
static uint32_t guessed_file_type(const skn_quant_row* plan, const int64_t* order, int64_t nt) {
    static const struct {
        int32_t type_id;
        uint32_t ftype;
    } guess[] = {{0, 0},   {1, 1},   {30, 32}, {2, 2},   {3, 3},   {6, 8},   {7, 9},   {8, 7},
                 {10, 10}, {11, 12}, {12, 15}, {13, 17}, {14, 18}, {34, 36}, {35, 37}, {16, 19},
                 {17, 20}, {22, 28}, {18, 23}, {19, 24}, {29, 31}, {20, 25}, {23, 30}, {21, 26},
                 {40, 39}, {41, 40}, {42, 41},
                 /* ik_llama.cpp's loader, for its interleaved types */
                 {202, 202}, {206, 208}, {208, 207}, {211, 211}, {212, 214}, {213, 216}, {214, 218}, {216, 219},
                 {217, 220}, {218, 223}, {220, 225}, {221, 226}, {222, 229}, {223, 230}, {230, 232}};
    enum { kMaxTypes = 128 };
    int32_t types[kMaxTypes];
    int64_t counts[kMaxTypes], best = 0;
    int ntypes = 0;
    int32_t best_type = -1;
    for (int64_t k = 0; k < nt; ++k) {
        const int32_t t = written_type_id(&plan[order[k]]);
        int i = 0;
        while (i < ntypes && types[i] != t) ++i;
        if (i == ntypes) {
            if (ntypes == kMaxTypes) continue;
            types[ntypes] = t;
            counts[ntypes++] = 0;
        }
        if (++counts[i] > best) {
            best = counts[i];
            best_type = t;
        }
    }
    for (size_t i = 0; i < sizeof guess / sizeof guess[0]; ++i)
        if (guess[i].type_id == best_type) return guess[i].ftype | 1024u;
    return 1024u;
}

/* The format whose tensors make most of a file of type `file_type`: a plain
 * format's number, or a preset's base format. SKN_FORMAT_INVALID if none. */
static skn_format file_type_base(uint32_t file_type) {
    for (size_t i = 0; i < sizeof k_file_types / sizeof k_file_types[0]; ++i)
        if (k_file_types[i].file_type == file_type) return k_file_types[i].format;
    for (int i = 0; skn_preset_at(i) != NULL; ++i) {
        skn_format f;
        if (skn_preset_at(i)->file_type == file_type && skn_format_from_name(skn_preset_at(i)->base, &f) == SKN_OK)
            return f;
    }
    return SKN_FORMAT_INVALID;
}

/* --repack or --canonical of a file of type `file_type` that it changed
 * (--repack: a tensor is written interleaved; --canonical: one was
 * converted): the file type of the base format's twin, as ik_llama.cpp's
 * --repack renames it (Q4_K_M, 15, becomes Q4_K_R4, 214); unchanged when
 * the base format has no twin with a file type. */
static uint32_t re_encoded_file_type(const skn_quant_options* o, const skn_quant_row* plan, const int64_t* order,
                                     int64_t nt, uint32_t file_type) {
    int moved = 0;
    for (int64_t k = 0; k < nt; ++k) {
        const skn_quant_row* r = &plan[order[k]];
        moved |= o->repack ? r->kept == NULL && skn_format_rows_per_block(r->out_format) > 1 : r->repack;
    }
    const skn_format base = file_type_base(file_type);
    if (!moved || base == SKN_FORMAT_INVALID) return file_type;
    const skn_format to = o->repack ? skn_format_interleaved_twin(base) : skn_format_canonical(base);
    uint32_t out = file_type;
    return to != SKN_FORMAT_INVALID && to != base && file_type_of(to, &out) ? out : file_type;
}

int skn_quant_file_type(const skn_quant_options* o, const skn_gguf* g, const skn_quant_row* plan,
                        const int64_t* order, int64_t nt, uint32_t* file_type) {
    if (o->copy_only) {
        /* llama-quantize's COPY keeps the input's general.file_type, or the
         * model loader's guess. */
        int64_t k = -1;
        uint32_t v = 0;
        if (skn_gguf_find_key(g, "general.file_type", &k) == SKN_OK && k >= 0 && skn_gguf_get_u32(g, k, &v) == SKN_OK)
            *file_type = re_encoded_file_type(o, plan, order, nt, v);
        else
            *file_type = guessed_file_type(plan, order, nt);
        return 1;
    }
    if (o->preset != NULL) {
        *file_type = o->preset->file_type;
    } else if (!file_type_of(o->base, file_type)) {
        return 0;
    }
    if (o->repack || o->canonical) *file_type = re_encoded_file_type(o, plan, order, nt, *file_type);
    return 1;
}

static int64_t block_elems(skn_format f) {
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    return skn_format_info(f, &p) == SKN_OK ? p.block_elems : 1;
}

static int is_block_quantized(skn_format f) {
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    return skn_format_info(f, &p) == SKN_OK && p.is_block_quantized;
}

int64_t* skn_quant_llama_order(const skn_quant_row* plan, int64_t nt) {
    int64_t* order = malloc((size_t)(nt > 0 ? nt : 1) * sizeof *order);
    if (order == NULL) return NULL;
    for (int64_t i = 0; i < nt; ++i) { /* insertion sort: stable, and models have a few thousand tensors */
        int64_t j = i;
        while (j > 0 && skn_rules_order_less(plan[i].in.name, plan[order[j - 1]].in.name)) {
            order[j] = order[j - 1];
            --j;
        }
        order[j] = i;
    }
    return order;
}

/* The --tensor-type option that matches `name` first, or -1. */
static int matching_override(const skn_quant_options* o, const char* name) {
    for (int i = 0; i < o->n_overrides; ++i)
        if (skn_override_matches(&o->overrides[i], name)) return i;
    return -1;
}

/* llama.cpp's fallback when a row is not a whole number of blocks
 * (tensor_type_fallback): the next type; a 32-element type with none, or a
 * fallback that does not fit either, gives F16. Returns 0, or 1 when
 * llama.cpp defines no fallback (message printed). */
static int fall_back(skn_quant_row* r, skn_format* f) {
    const int64_t ne0 = r->in.ne[0];
    if (ne0 % block_elems(*f) == 0) return 0;
    /* A row-interleaved format falls back as its canonical format does. */
    const char* next = skn_rules_fallback(skn_quant_format_name(skn_format_canonical(*f)));
    size_t at = strlen(r->rule);
    skn_format g = *f;
    if (next == NULL && block_elems(*f) > 32) {
        fprintf(stderr,
                "skn quantize: tensor \"%s\": ne0 %" PRId64 " is not a multiple of %s's %" PRId64
                " and llama.cpp defines no fallback for %s: choose another type for it (--tensor-type)\n",
                r->in.name, ne0, skn_quant_format_name(*f), block_elems(*f), skn_quant_format_name(*f));
        return 1;
    }
    if (next != NULL && skn_format_from_name(next, &g) != SKN_OK) return 1;
    if (ne0 % block_elems(g) != 0) g = SKN_FORMAT_F16;
    snprintf(r->rule + at, sizeof r->rule - at, "; fallback: ne0 %" PRId64 " not a multiple of %s's %" PRId64 " -> %s",
             ne0, skn_quant_format_name(*f), block_elems(*f), skn_quant_format_name(g));
    *f = g;
    return 0;
}

/* The rows one group of a row-interleaved format spans must divide the
 * tensor's rows (ne[1]; each expert's of a 3-D stack). A format whose
 * groups do not fit falls back to its canonical format, noted in the rule;
 * a forced type (--output-tensor-type, --token-embedding-type) is refused
 * instead, as a forced type whose block does not fit the row is. Returns 0,
 * or 1 for a refusal (message printed). */
static int fit_rows(skn_quant_row* r, skn_format* f, int forced) {
    const int64_t groups = skn_format_rows_per_block(*f), rows = r->in.rank >= 2 ? r->in.ne[1] : 1;
    if (rows % groups == 0) return 0;
    const skn_format canonical = skn_format_canonical(*f);
    if (forced) {
        fprintf(stderr,
                "skn quantize: %s: tensor \"%s\" has %" PRId64 " rows (ne[1]), not a multiple of the %" PRId64
                " rows %s interleaves per block: choose another type (%s takes any number of rows)\n",
                r->rule, r->in.name, rows, groups, skn_quant_format_name(*f), skn_quant_format_name(canonical));
        return 1;
    }
    const size_t at = strlen(r->rule);
    snprintf(r->rule + at, sizeof r->rule - at, "; %" PRId64 " rows not a multiple of %s's %" PRId64 " -> %s", rows,
             skn_quant_format_name(*f), groups, skn_quant_format_name(canonical));
    *f = canonical;
    return 0;
}

/* Row r's output in `f`, decided after the rules: copied when it is already
 * in `f`, converted without decoding when `f` is its stored format's twin,
 * else quantized (refused for an already quantized tensor unless
 * --allow-requantize). Returns 0, 1 for a refusal (message printed), -1 for
 * an internal failure. */
static int settle(const skn_quant_options* o, skn_quant_row* r, skn_format f) {
    skn_format_props ip;
    memset(&ip, 0, sizeof ip);
    ip.struct_size = sizeof ip;
    r->out_format = r->in.format;
    r->out_bytes = r->in.size;
    r->repack = 0;
    if (r->in.format == f) {
        r->kept = "already in the type: copied";
    } else if (skn_formats_are_twins(r->in.format, f)) {
        r->out_format = f; /* the same bytes, moved */
        r->repack = 1;
        r->needs_imatrix = 0;
    } else if (skn_format_info(r->in.format, &ip) == SKN_OK && ip.is_block_quantized && !o->allow_requantize) {
        fprintf(stderr,
                "skn quantize: tensor \"%s\" is already %s: quantizing it again compounds the error of both "
                "quantizations; pass --allow-requantize to do it anyway\n",
                r->in.name, r->in.type_name);
        r->kept = "refused: already quantized";
        return 1;
    } else {
        size_t bytes = 0;
        if (skn_quantized_size(f, skn_tensor_rows(&r->in), r->in.ne[0], &bytes) != SKN_OK) return -1;
        r->out_format = f;
        r->out_bytes = bytes;
    }
    return 0;
}

/* --repack and --canonical, after the rules chose row r's format (or kept
 * it): the row-interleaved twin of that format where the tensor's rows are
 * whole groups, or the canonical format of an interleaved one. Token
 * embeddings are not repacked: an engine reads them a row at a time, and
 * ik_llama.cpp's --repack leaves them too. Lossless either way, so a tensor
 * kept as stored is converted as well. Returns as settle(). */
static int apply_encoding(const skn_quant_options* o, skn_quant_row* r) {
    if (!(o->repack || o->canonical) || !r->in.supported || r->in.rank < 2) return 0;
    const skn_format current = r->kept != NULL ? r->in.format : r->out_format;
    skn_format target = o->canonical ? skn_format_canonical(current) : skn_format_interleaved_twin(current);
    if (target == current || target == SKN_FORMAT_INVALID) return 0;
    const int kept = r->kept != NULL;
    char note[160];
    if (o->repack && skn_rules_is_token_embd(r->in.name)) {
        snprintf(note, sizeof note, "--repack: token embeddings stay %s (read by row)", skn_quant_format_name(current));
        target = current;
    } else {
        const int64_t groups = skn_format_rows_per_block(target), rows = r->in.rank >= 2 ? r->in.ne[1] : 1;
        if (rows % groups != 0) {
            snprintf(note, sizeof note, "--repack: %" PRId64 " rows not a multiple of %s's %" PRId64 ", stays %s",
                     rows, skn_quant_format_name(target), groups, skn_quant_format_name(current));
            target = current;
        } else {
            snprintf(note, sizeof note, "%s: %s", o->repack ? "--repack" : "--canonical", skn_quant_format_name(target));
        }
    }
    const size_t at = strlen(r->rule);
    if (kept && strcmp(r->rule, "-") == 0) {
        if (target != current) snprintf(r->rule, sizeof r->rule, "%s; %s", r->kept, note);
        else snprintf(r->rule, sizeof r->rule, "%s", note);
    } else {
        snprintf(r->rule + at, sizeof r->rule - at, "; %s", note);
    }
    if (target == current) return 0;
    r->kept = NULL;
    const int rc = settle(o, r, target);
    if (rc == 0 && kept && !r->repack) return -1; /* a kept tensor only moves to its twin: cannot happen */
    return rc;
}

/* Row r's format by llama.cpp's rules and the options that force one. */
static int choose_format(const skn_quant_options* o, const skn_model_facts* m, skn_rule_state* st, skn_quant_row* r) {
    const char* why = NULL;
    r->out_format = r->in.format;
    r->out_bytes = r->in.size;
    const char* name = r->in.name;
    if (!r->in.supported && r->in.type_id == 36) {
        fprintf(stderr, "skn quantize: tensor \"%s\" is I2_S (type 36) and %s\n", name, skn_tool_i2s_layout_advice());
        return 1;
    }
    if (o->copy_only) {
        r->kept = "COPY: as stored";
        snprintf(r->rule, sizeof r->rule, "-");
        return 0;
    }
    if (!skn_rules_quantizable(name, r->in.rank, &why)) {
        r->kept = why;
        snprintf(r->rule, sizeof r->rule, "-");
        return 0;
    }
    if (o->leave_output && strcmp(name, "output.weight") == 0) {
        r->kept = "--leave-output-tensor: kept";
        snprintf(r->rule, sizeof r->rule, "-");
        return 0;
    }
    skn_format f = o->base;
    int forced = 0;
    /* Forced types come first and skip the fallback, as in llama.cpp; a
     * --tensor-type naming per_layer_token_embd.weight takes precedence over
     * --token-embedding-type for it. */
    if (o->has_token_type && skn_rules_is_token_embd(name) &&
        !(strcmp(name, "per_layer_token_embd.weight") == 0 && matching_override(o, name) >= 0)) {
        f = o->token_type;
        snprintf(r->rule, sizeof r->rule, "--token-embedding-type %s", skn_quant_format_name(f));
        forced = 1;
    } else if (o->has_output_type && skn_rules_is_output(name)) {
        f = o->output_type;
        snprintf(r->rule, sizeof r->rule, "--output-tensor-type %s", skn_quant_format_name(f));
        forced = 1;
    } else if (!is_block_quantized(o->base)) {
        /* A dense TYPE (F16, BF16, F32): no rules, no --tensor-type, as
         * llama.cpp applies those to block-quantized types only. */
        snprintf(r->rule, sizeof r->rule, "%s", o->base_name);
    } else {
        const int over = matching_override(o, name);
        if (over >= 0) {
            /* An override replaces the preset's rules for the tensor, whose
             * counters then do not advance over it (llama.cpp). */
            f = o->overrides[over].format;
            snprintf(r->rule, sizeof r->rule, "--tensor-type %s", o->overrides[over].text);
        } else if (o->preset != NULL && !o->pure) {
            char detail[160];
            const char* t = skn_rules_choose(o->preset, m, st, name, r->in.ne[0], r->in.rank > 2 ? r->in.ne[2] : 1,
                                             block_elems(o->base), &why, detail);
            if (t == NULL) {
                fprintf(stderr, "skn quantize: %s\n", detail);
                return 1;
            }
            if (skn_format_from_name(t, &f) != SKN_OK) { /* skn_preset_formats was checked: cannot happen */
                fprintf(stderr, "skn quantize: %s\n", skn_last_error());
                return -1;
            }
            /* A tied token_embd takes the output's rules, and so the output's
             * forced type. */
            if (o->has_output_type && st->tied && skn_rules_is_token_embd(name)) {
                f = o->output_type;
                why = "token_embd tied to the output: --output-tensor-type";
            }
            snprintf(r->rule, sizeof r->rule, "%s %s%s%s%s", o->preset->name, why, detail[0] ? " (" : "", detail,
                     detail[0] ? ")" : "");
        } else {
            snprintf(r->rule, sizeof r->rule, "%s%s", o->pure ? "--pure: " : "", o->base_name);
        }
        if (fall_back(r, &f) != 0) return 1;
    }
    const int64_t ne0 = r->in.ne[0];
    if (forced && ne0 % block_elems(f) != 0) {
        fprintf(stderr,
                "skn quantize: %s: tensor \"%s\" has rows of %" PRId64 " values, not a multiple of %s's block of %" PRId64
                ": choose another type\n",
                r->rule, name, ne0, skn_quant_format_name(f), block_elems(f));
        return 1;
    }
    if (fit_rows(r, &f, forced) != 0) return 1;
    /* The imatrix rules name canonical formats. */
    r->needs_imatrix = skn_rules_requires_imatrix(o->preset, name, skn_quant_format_name(skn_format_canonical(f)));
    if (!r->in.supported) {
        r->kept = "a type skn does not decode: kept";
        return 0;
    }
    return settle(o, r, f);
}

int skn_quant_choose(const skn_quant_options* o, const skn_model_facts* m, skn_rule_state* st, skn_quant_row* r) {
    const int rc = choose_format(o, m, st, r);
    return rc != 0 ? rc : apply_encoding(o, r);
}

int skn_quant_attach_importance(const skn_imatrix* im, const char* path, skn_quant_row* r) {
    if (r->kept != NULL || r->repack) return 0;
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(r->out_format, &fp) != SKN_OK || !fp.is_block_quantized) return 0;
    int64_t index = -1;
    if (skn_imatrix_find(im, r->in.name, &index) != SKN_OK || index < 0) return 0;
    const float* values = NULL;
    size_t count = 0;
    if (skn_imatrix_values(im, index, SKN_IMATRIX_ALL_MATRICES, &values, &count) != SKN_OK) return -1;
    const int64_t matrices = r->in.rank >= 3 ? r->in.ne[2] : 1;
    if ((uint64_t)count != (uint64_t)(r->in.ne[0] * matrices)) {
        if (strcmp(r->in.name, "token_embd.weight") == 0) return 0;
        fprintf(stderr,
                "skn quantize: %s has %zu importance values for tensor \"%s\", which needs %" PRId64 " (%" PRId64
                " per row x %" PRId64 " %s): the imatrix was made for another model\n",
                path, count, r->in.name, r->in.ne[0] * matrices, r->in.ne[0], matrices,
                matrices == 1 ? "matrix" : "matrices (experts)");
        return -1;
    }
    r->importance = values;
    return 0;
}
