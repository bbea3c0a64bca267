/* SPDX-License-Identifier: MIT */
/* skn quantize IN.gguf OUT.gguf TYPE: convert a GGUF file's weights to a
 * llama.cpp file-type preset (Q4_K_M, ...) or to one format, streaming
 * through libskn's GGUF writer: memory holds the metadata and a few million
 * values of one tensor, never the model. On the public C API only. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "quant_meta.h"
#include "quant_model.h"
#include "quant_overrides.h"
#include "quant_plan.h"
#include "quant_progress.h"
#include "quant_rules.h"
#include "quant_stream.h"
#include "skn/skn.h"
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
    {SKN_FORMAT_IQ3_XXS, 23}, {SKN_FORMAT_IQ3_S, 26},
};

static int file_type_of(skn_format f, uint32_t* out) {
    for (size_t i = 0; i < sizeof k_file_types / sizeof k_file_types[0]; ++i)
        if (k_file_types[i].format == f) {
            *out = k_file_types[i].file_type;
            return 1;
        }
    return 0;
}

/* Keys llama.cpp sets itself (appended after the copied ones) or drops. */
static int is_replaced_key(const char* key) {
    return strcmp(key, "general.quantization_version") == 0 || strcmp(key, "general.file_type") == 0 ||
           strcmp(key, "split.no") == 0 || strcmp(key, "split.count") == 0 || strcmp(key, "split.tensors.count") == 0;
}



static int64_t block_elems(skn_format f) {
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    return skn_format_info(f, &p) == SKN_OK ? p.block_elems : 1;
}

/* ---- the plan: every tensor's type and the rule that chose it */

/* llama.cpp walks tensors sorted by layer, then name; its counters (the
 * n-th attn_v, the n-th ffn_down) count in that order, and it writes them
 * in that order. */
static int64_t* llama_order(const skn_quant_row* plan, int64_t nt) {
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

/* Choose row r's type. Returns 0, 1 for a tensor refused (message printed),
 * -1 for an internal failure. */
static int choose(const skn_quant_options* o, const skn_model_facts* m, skn_rule_state* st, skn_quant_row* r) {
    const char* why = NULL;
    r->out_format = r->in.format;
    r->out_bytes = r->in.size;
    if (!skn_rules_quantizable(r->in.name, r->in.rank, &why)) {
        r->kept = why;
        snprintf(r->rule, sizeof r->rule, "-");
        return 0;
    }
    skn_format f = o->base;
    int overridden = 0;
    for (int i = 0; i < o->n_overrides && !overridden; ++i)
        if (skn_override_matches(&o->overrides[i], r->in.name)) {
            f = o->overrides[i].format;
            snprintf(r->rule, sizeof r->rule, "--tensor-type %s", o->overrides[i].text);
            overridden = 1;
        }
    /* As llama.cpp: an override replaces the preset's rules for the tensor,
     * whose counters then do not advance over it. */
    if (!overridden && o->preset != NULL && !o->pure) {
        char detail[160];
        const char* name = skn_rules_choose(o->preset, m, st, r->in.name, r->in.ne[0],
                                            r->in.rank > 2 ? r->in.ne[2] : 1, block_elems(o->base), &why, detail);
        if (name == NULL) {
            fprintf(stderr, "skn quantize: %s\n", detail);
            return 1;
        }
        if (skn_format_from_name(name, &f) != SKN_OK) { /* skn_preset_formats was checked: cannot happen */
            fprintf(stderr, "skn quantize: %s\n", skn_last_error());
            return -1;
        }
        snprintf(r->rule, sizeof r->rule, "%s %s%s%s%s", o->preset->name, why, detail[0] ? " (" : "", detail,
                 detail[0] ? ")" : "");
    } else if (!overridden) {
        snprintf(r->rule, sizeof r->rule, "%s%s", o->pure ? "--pure: " : "", o->base_name);
    }
    /* llama.cpp's fallback when a row is not a whole number of blocks. */
    const int64_t ne0 = r->in.ne[0];
    if (ne0 % block_elems(f) != 0) {
        const char* next = skn_rules_fallback(skn_quant_format_name(f));
        size_t at = strlen(r->rule);
        if (next == NULL) {
            snprintf(r->rule + at, sizeof r->rule - at, "; ne0 %" PRId64 " not a multiple of %s's %" PRId64, ne0,
                     skn_quant_format_name(f), block_elems(f));
            r->kept = "no fallback for the row length: kept";
            return 0;
        }
        skn_format g = f;
        if (skn_format_from_name(next, &g) != SKN_OK) return -1;
        if (ne0 % block_elems(g) != 0) g = SKN_FORMAT_F16;
        snprintf(r->rule + at, sizeof r->rule - at, "; fallback: ne0 %" PRId64 " not a multiple of %s's %" PRId64 " -> %s",
                 ne0, skn_quant_format_name(f), block_elems(f), skn_quant_format_name(g));
        f = g;
    }
    r->needs_imatrix = skn_rules_requires_imatrix(o->preset, r->in.name, skn_quant_format_name(f));
    skn_format_props ip;
    memset(&ip, 0, sizeof ip);
    ip.struct_size = sizeof ip;
    if (!r->in.supported) {
        r->kept = "a type skn does not decode: kept";
    } else if (r->in.format == f) {
        r->kept = "already in the type: copied";
    } else if (skn_format_info(r->in.format, &ip) == SKN_OK && ip.is_block_quantized && !o->allow_requantize) {
        fprintf(stderr,
                "skn quantize: tensor \"%s\" is already %s: quantizing it again compounds the error of both "
                "quantizations; pass --allow-requantize to do it anyway\n",
                r->in.name, r->in.type_name);
        r->kept = "refused: already quantized";
        return 1;
    } else {
        size_t bytes = 0;
        if (skn_quantized_size(f, skn_tensor_rows(&r->in), ne0, &bytes) != SKN_OK) return -1;
        r->out_format = f;
        r->out_bytes = bytes;
    }
    return 0;
}

/* Find tensor r's entry in the imatrix, as llama-quantize does: by name; a
 * tensor with no entry is quantized without importance weights; an entry
 * whose size is not ne[0] x ne[2] (row length x experts) is an error, except
 * for token_embd.weight, which llama-quantize quantizes without one. */
static int attach_importance(const skn_imatrix* im, const char* path, skn_quant_row* r) {
    if (r->kept != NULL) return 0;
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

/* ---- the command */

static int usage_error(const char* what, const char* arg) {
    char message[512];
    snprintf(message, sizeof message, what, arg);
    return skn_cli_usage_error("quantize", skn_help_skn_quantize, "%s", message);
}

/* TYPE: a preset first (llama-quantize's meaning of Q4_0 is the preset),
 * else a plain format name. Returns 0 or an exit status. */
static int resolve_type(skn_quant_options* o) {
    o->preset = skn_preset_find(o->type_arg);
    const char* base = o->preset ? o->preset->base : o->type_arg;
    if (o->preset != NULL) {
        const char* names[16];
        skn_preset_formats(o->preset, names);
        for (int i = 0; names[i] != NULL; ++i) {
            skn_format f;
            if (skn_format_from_name(names[i], &f) != SKN_OK) {
                fprintf(stderr,
                        "skn quantize: preset %s needs format %s, which this libskn (%s) does not implement yet; "
                        "the presets it can write are those whose formats skn demo lists\n",
                        o->preset->name, names[i], skn_version_string());
                return 2;
            }
        }
    }
    if (skn_format_from_name(base, &o->base) != SKN_OK) {
        fprintf(stderr, "skn quantize: %s\n  presets:", skn_last_error());
        for (int i = 0; skn_preset_at(i) != NULL; ++i) fprintf(stderr, " %s", skn_preset_at(i)->name);
        fputc('\n', stderr);
        return 2;
    }
    o->base_name = skn_quant_format_name(o->base);
    return 0;
}

static int parse_args(int argc, char** argv, skn_quant_options* o, int* exit_status) {
    const char* pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    char err[512];
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (skn_cli_is_help(a)) {
            fputs(skn_help_skn_quantize, stdout);
            *exit_status = 0;
            return -1;
        } else if (strcmp(a, "--i2s-layout") == 0) {
            if (i + 1 >= argc || !skn_tool_set_i2s_layout(argv[++i])) {
                *exit_status = usage_error("--i2s-layout needs x86 or arm64 (the bitnet.cpp build that wrote the file's I2_S tensors)%s", "");
                return -1;
            }
        } else if (strcmp(a, "--dry-run") == 0) {
            o->dry_run = 1;
        } else if (strcmp(a, "--allow-requantize") == 0) {
            o->allow_requantize = 1;
        } else if (strcmp(a, "--pure") == 0) {
            o->pure = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--threads") == 0) {
            char* end = NULL;
            errno = 0;
            const long t = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || errno != 0 || *end != 0 || t < 1 || t > kQuantMaxThreads) {
                *exit_status = usage_error("--threads needs a count from 1 to 256%s", "");
                return -1;
            }
            o->threads = (int)t;
            ++i;
        } else if (strcmp(a, "--tensor-type") == 0) {
            if (i + 1 >= argc) {
                *exit_status = usage_error("--tensor-type needs PATTERN=TYPE%s", "");
                return -1;
            }
            if (o->n_overrides == kMaxOverrides) {
                *exit_status = usage_error("more than 64 --tensor-type options%s", "");
                return -1;
            }
            if (skn_override_parse(argv[++i], &o->overrides[o->n_overrides], err, sizeof err) != 0) {
                fprintf(stderr, "skn quantize: %s\n", err);
                *exit_status = 2;
                return -1;
            }
            ++o->n_overrides;
        }
        else if (strcmp(a, "--imatrix") == 0) {
            if (i + 1 >= argc) {
                *exit_status = usage_error("--imatrix needs a file (llama-imatrix's output, GGUF or legacy .dat)%s", "");
                return -1;
            }
            o->imatrix_path = argv[++i];
        } else if (a[0] == '-' && a[1] != 0) {
            *exit_status = usage_error("unknown option \"%s\"", a);
            return -1;
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            *exit_status = usage_error("unexpected argument \"%s\": give IN.gguf OUT.gguf TYPE", a);
            return -1;
        }
    }
    if (o->dry_run && npos == 2) { /* OUT may be left out with --dry-run */
        pos[2] = pos[1];
        pos[1] = NULL;
        npos = 3;
    }
    if (npos != 3) {
        *exit_status = usage_error("give IN.gguf, OUT.gguf and TYPE%s", "");
        return -1;
    }
    o->in_path = pos[0];
    o->out_path = pos[1];
    o->type_arg = pos[2];
    return 0;
}

int skn_cmd_quantize(int argc, char** argv) {
    skn_quant_options o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    int rc = 2;
    if (parse_args(argc, argv, &o, &rc) != 0 || (rc = resolve_type(&o)) != 0) {
        for (int i = 0; i < o.n_overrides; ++i) skn_override_free(&o.overrides[i]);
        return rc;
    }
    rc = 1;
    const double t0 = skn_now();
    skn_gguf* g = NULL;
    skn_status st = skn_tool_open(o.in_path, &g);
    if (st != SKN_OK) {
        fprintf(stderr, "skn quantize: %s: %s\n", skn_status_name(st), skn_last_error());
        for (int i = 0; i < o.n_overrides; ++i) skn_override_free(&o.overrides[i]);
        return 1;
    }
    const int64_t nt = skn_gguf_tensor_count(g);
    skn_quant_row* plan = calloc((size_t)(nt > 0 ? nt : 1), sizeof *plan);
    const char** names = calloc((size_t)(nt > 0 ? nt : 1), sizeof *names);
    int64_t* order = NULL;
    skn_gguf_writer* w = NULL;
    skn_gguf_stream* s = NULL;
    skn_imatrix* im = NULL;
    int reported = 0;
    if (plan == NULL || names == NULL || skn_gguf_writer_create(&w) != SKN_OK) goto done;

    for (int64_t i = 0; i < nt; ++i) {
        plan[i].index = i;
        plan[i].in.struct_size = sizeof plan[i].in;
        if (skn_gguf_tensor_info(g, i, &plan[i].in) != SKN_OK) goto done;
        names[i] = plan[i].in.name;
    }
    if ((order = llama_order(plan, nt)) == NULL) goto done;
    skn_model_facts model;
    skn_model_facts_read(g, names, nt, &model);
    if (o.imatrix_path != NULL) {
        if ((st = skn_imatrix_open(o.imatrix_path, &im)) != SKN_OK) {
            fprintf(stderr, "skn quantize: --imatrix %s: %s: %s\n", o.imatrix_path, skn_status_name(st), skn_last_error());
            reported = 1;
            goto done;
        }
        model.has_imatrix = 1;
    }
    skn_rule_state state;
    skn_rules_begin(&state, names, nt);

    int refused = 0;
    uint64_t in_total = 0, out_total = 0;
    for (int64_t k = 0; k < nt; ++k) {
        skn_quant_row* r = &plan[order[k]];
        const int c = choose(&o, &model, &state, r);
        if (c < 0) goto done;
        refused |= c;
        in_total += r->in.size;
        out_total += r->out_bytes;
    }
    if (refused) {
        reported = 1;
        goto done;
    }
    for (int64_t k = 0; k < nt && im != NULL; ++k)
        if (attach_importance(im, o.imatrix_path, &plan[order[k]]) != 0) {
            reported = 1;
            goto done;
        }
    if (!o.dry_run)
        for (int64_t k = 0; k < nt; ++k) {
            const skn_quant_row* r = &plan[order[k]];
            if (r->needs_imatrix && r->kept == NULL && r->importance == NULL) {
                if (im == NULL)
                    fprintf(stderr,
                            "skn quantize: %s puts tensor \"%s\" in %s, which needs an importance matrix: pass "
                            "--imatrix FILE (llama-imatrix's output; --dry-run shows the plan)\n",
                            o.type_arg, r->in.name, skn_quant_format_name(r->out_format));
                else
                    fprintf(stderr,
                            "skn quantize: %s puts tensor \"%s\" in %s, which needs an importance matrix, and %s "
                            "has no entry for it (skn imatrix %s lists the entries)\n",
                            o.type_arg, r->in.name, skn_quant_format_name(r->out_format), o.imatrix_path,
                            o.imatrix_path);
                reported = 1;
                goto done;
            }
        }

    /* The metadata, in order; then llama.cpp's two keys. */
    const int64_t nkv = skn_gguf_kv_count(g);
    for (int64_t k = 0; k < nkv; ++k) {
        const char* key = NULL;
        if (skn_gguf_kv_key(g, k, &key, NULL) != SKN_OK) goto done;
        if (is_replaced_key(key)) continue;
        if ((st = skn_quant_copy_pair(g, k, key, w)) != SKN_OK) {
            reported = 1;
            fprintf(stderr, "skn quantize: cannot copy key \"%s\": %s\n", key, skn_last_error());
            goto done;
        }
    }
    uint32_t file_type = 0;
    int has_file_type = 1;
    if (o.preset != NULL)
        file_type = o.preset->file_type;
    else
        has_file_type = file_type_of(o.base, &file_type);
    if (skn_gguf_writer_add_u32(w, "general.quantization_version", kQuantizationVersion) != SKN_OK ||
        (has_file_type && skn_gguf_writer_add_u32(w, "general.file_type", file_type) != SKN_OK))
        goto done;
    for (int64_t k = 0; k < nt; ++k) {
        const skn_quant_row* r = &plan[order[k]];
        if (skn_gguf_writer_declare_tensor(w, r->in.name, r->out_format, r->in.rank, r->in.ne) != SKN_OK) {
            reported = 1;
            fprintf(stderr, "skn quantize: tensor \"%s\": %s\n", r->in.name, skn_last_error());
            goto done;
        }
    }
    uint64_t out_size = 0;
    if (skn_gguf_writer_size(w, &out_size) != SKN_OK) goto done;

    if (o.dry_run) {
        if (o.json)
            skn_quant_print_json(&o, &model, plan, order, nt, has_file_type, file_type, in_total, out_total, out_size,
                       skn_now() - t0);
        else
            skn_quant_print_plan(&o, &model, plan, order, nt, has_file_type, file_type, in_total, out_total, out_size);
        rc = 0;
        goto done;
    }

    if ((st = skn_gguf_stream_begin(w, o.out_path, &s)) != SKN_OK) {
        reported = 1;
        fprintf(stderr, "skn quantize: %s: %s\n", skn_status_name(st), skn_last_error());
        goto done;
    }
    skn_gguf_writer_destroy(w); /* the stream holds what it needs */
    w = NULL;
    skn_progress progress;
    skn_progress_begin(&progress, nt, in_total);
    for (int64_t k = 0; k < nt; ++k) {
        skn_quant_row* r = &plan[order[k]];
        const skn_quant_job job = {g, r->index, &r->in, r->out_format, r->out_bytes, r->kept != NULL, r->importance};
        const double t = skn_now();
        if (skn_quant_stream_tensor(&job, s, o.threads, &progress, k) != 0) { /* destroying s removes the partial file */
            skn_progress_end(&progress);
            reported = 1;
            goto done;
        }
        r->seconds = skn_now() - t;
    }
    skn_progress_end(&progress);
    if ((st = skn_gguf_stream_finish(s)) != SKN_OK) {
        reported = 1;
        fprintf(stderr, "skn quantize: %s: %s\n", skn_status_name(st), skn_last_error());
        goto done;
    }
    if (o.json)
        skn_quant_print_json(&o, &model, plan, order, nt, has_file_type, file_type, in_total, out_total, out_size, skn_now() - t0);
    else
        printf("%s: %" PRId64 " tensors, %" PRIu64 " bytes (tensors %" PRIu64 " -> %" PRIu64 " bytes) in %.1f s\n",
               o.out_path, nt, out_size, in_total, out_total, skn_now() - t0);
    rc = 0;
done:
    if (rc != 0 && !reported)
        fprintf(stderr, "skn quantize: %s\n", skn_last_error()[0] ? skn_last_error() : "out of memory");
    skn_gguf_stream_destroy(s);
    skn_gguf_writer_destroy(w);
    free(order);
    free(names);
    free(plan);
    skn_gguf_close(g);
    skn_imatrix_close(im);
    for (int i = 0; i < o.n_overrides; ++i) skn_override_free(&o.overrides[i]);
    return rc;
}
