/* SPDX-License-Identifier: MIT */
/* skn quantize's command line, read as llama-quantize reads its own where
 * the two share an option (tools/quantize/quantize.cpp): TYPE by name or
 * llama_ftype number, COPY, IN TYPE [NTHREADS] with a default OUT,
 * --override-kv, --tensor-type-file, --output-tensor-type,
 * --token-embedding-type, --leave-output-tensor. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include "quant_args.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "help_text.h"
#include "quant_stream.h"
#include "tensor_util.h"

/* A usage error: the message, the usage lines, "see --help"; exit status 2. */
#define USAGE_ERROR(...) skn_cli_usage_error("quantize", skn_help_skn_quantize, __VA_ARGS__)

void skn_quant_options_free(skn_quant_options* o) {
    for (int i = 0; i < o->n_overrides; ++i) skn_override_free(&o->overrides[i]);
    free(o->overrides);
    o->overrides = NULL;
    o->n_overrides = 0;
    for (int i = 0; i < o->n_owned_texts; ++i) free(o->owned_texts[i]);
    free(o->owned_texts);
    o->owned_texts = NULL;
    o->n_owned_texts = 0;
    for (int i = 0; i < o->n_kv; ++i) skn_meta_value_free(&o->kv[i].value);
    o->n_kv = 0;
}

/* One PATTERN=TYPE. `text` must outlive the options. Returns 0 or an exit status. */
static int add_override(skn_quant_options* o, const char* text, const char* origin) {
    if (o->n_overrides == o->cap_overrides) {
        const int cap = o->cap_overrides ? 2 * o->cap_overrides : 16;
        skn_override* grown = realloc(o->overrides, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            fprintf(stderr, "skn quantize: out of memory\n");
            return 1;
        }
        o->overrides = grown;
        o->cap_overrides = cap;
    }
    char err[512];
    if (skn_override_parse(text, &o->overrides[o->n_overrides], err, sizeof err) != 0) {
        fprintf(stderr, "skn quantize: %s%s\n", origin, err);
        return 2;
    }
    ++o->n_overrides;
    return 0;
}

/* --tensor-type-file FILE: PATTERN=TYPE items separated by spaces or
 * newlines, as llama-quantize reads them. */
static int read_override_file(skn_quant_options* o, const char* path) {
    FILE* f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "skn quantize: --tensor-type-file %s: %s\n", path, strerror(errno));
        return 2;
    }
    char origin[600];
    snprintf(origin, sizeof origin, "--tensor-type-file %s: ", path);
    char item[4096];
    int rc = 0;
    while (rc == 0 && fscanf(f, "%4095s", item) == 1) {
        char** grown = realloc(o->owned_texts, (size_t)(o->n_owned_texts + 1) * sizeof *grown);
        char* copy = strdup(item);
        if (grown == NULL || copy == NULL) {
            free(copy);
            if (grown != NULL) o->owned_texts = grown;
            fprintf(stderr, "skn quantize: out of memory\n");
            rc = 1;
            break;
        }
        o->owned_texts = grown;
        o->owned_texts[o->n_owned_texts++] = copy;
        rc = add_override(o, copy, origin);
    }
    fclose(f);
    return rc;
}

/* --override-kv KEY=TYPE:VALUE, as llama.cpp's string_parse_kv_override. */
static int add_kv_override(skn_quant_options* o, const char* arg) {
    const char* eq = strchr(arg, '=');
    if (eq == NULL || eq == arg || eq - arg >= 128) {
        fprintf(stderr, "skn quantize: --override-kv \"%s\": give KEY=TYPE:VALUE with a KEY of 1 to 127 bytes, e.g. "
                        "general.name=str:my-model or llama.context_length=int:8192\n", arg);
        return 2;
    }
    if (o->n_kv == kMaxKvOverrides) return USAGE_ERROR("more than 64 --override-kv options");
    skn_kv_override* kv = &o->kv[o->n_kv];
    memcpy(kv->key, arg, (size_t)(eq - arg));
    kv->key[eq - arg] = 0;
    char err[512];
    if (skn_meta_parse_typed(eq + 1, 1, &kv->value, err, sizeof err) != 0) {
        fprintf(stderr, "skn quantize: --override-kv \"%s\": %s\n", arg, err);
        return 2;
    }
    ++o->n_kv;
    return 0;
}

static int parse_format(const char* option, const char* name, skn_format* out, int* has) {
    if (skn_format_from_name(name, out) != SKN_OK) {
        fprintf(stderr, "skn quantize: %s %s: %s\n", option, name, skn_last_error());
        return 2;
    }
    *has = 1;
    return 0;
}

static int parse_threads(const char* text, int* out) {
    char* end = NULL;
    errno = 0;
    const long t = strtol(text, &end, 10);
    if (text[0] == 0 || errno != 0 || *end != 0 || t < 1 || t > kQuantMaxThreads) return -1;
    *out = (int)t;
    return 0;
}

/* TYPE: llama-quantize's name or number first (its meaning of Q4_0 is the
 * preset, of Q4_K the Q4_K_M preset), else a plain format name. Returns 0 or
 * an exit status. */
int skn_quant_resolve_type(skn_quant_options* o) {
    const char* canonical = NULL;
    const char* means = skn_llama_type_resolve(o->type_arg, &canonical);
    o->type_label = canonical;
    if (means != NULL && strcmp(means, "COPY") == 0) {
        o->copy_only = 1;
        o->base = SKN_FORMAT_INVALID;
        o->base_name = "COPY";
        return 0;
    }
    const char* name = means != NULL ? means : o->type_arg;
    o->preset = skn_preset_find(name);
    const char* base = o->preset ? o->preset->base : name;
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
        char list[2048];
        skn_llama_type_list(list, sizeof list);
        fprintf(stderr,
                "skn quantize: TYPE \"%s\" is neither one of llama-quantize's types (name or number: %s) nor a "
                "format name skn demo lists\n",
                o->type_arg, list);
        return 2;
    }
    o->base_name = skn_quant_format_name(o->base);
    return 0;
}

/* --canonical writes canonical formats only: with --repack, or naming a
 * row-interleaved format as a type, it contradicts itself. */
static int check_encoding_options(const skn_quant_options* o) {
    if (o->repack && o->canonical)
        return USAGE_ERROR("--repack writes row-interleaved formats and --canonical undoes them: give one");
    if (!o->canonical) return 0;
    const char* named = NULL;
    if (!o->copy_only && skn_format_rows_per_block(o->base) > 1) named = o->type_arg;
    if (o->has_output_type && skn_format_rows_per_block(o->output_type) > 1) named = "--output-tensor-type";
    if (o->has_token_type && skn_format_rows_per_block(o->token_type) > 1) named = "--token-embedding-type";
    for (int i = 0; i < o->n_overrides && named == NULL; ++i)
        if (skn_format_rows_per_block(o->overrides[i].format) > 1) named = o->overrides[i].text;
    if (named != NULL)
        return USAGE_ERROR("--canonical writes canonical formats only, and %s names a row-interleaved one: drop one "
                           "of the two", named);
    return 0;
}

/* Whether `arg` reads as a TYPE (for telling IN TYPE from IN OUT TYPE). */
static int is_type(const char* arg) {
    const char* canonical = NULL;
    skn_format f;
    return skn_llama_type_resolve(arg, &canonical) != NULL || skn_format_from_name(arg, &f) == SKN_OK;
}

/* llama-quantize's OUT for `IN TYPE`: IN's directory, "ggml-model-TYPE.gguf". */
static void default_out(skn_quant_options* o) {
    const char* slash = strrchr(o->in_path, '/');
    const int dir_len = slash != NULL ? (int)(slash - o->in_path) + 1 : 0;
    char label[64];
    snprintf(label, sizeof label, "%s", o->type_label != NULL ? o->type_label : o->type_arg);
    for (char* c = label; *c; ++c) *c = (char)toupper((unsigned char)*c);
    snprintf(o->default_out, sizeof o->default_out, "%.*sggml-model-%s.gguf", dir_len, o->in_path, label);
    o->out_path = o->default_out;
}

int skn_quant_parse_args(int argc, char** argv, skn_quant_options* o) {
    const char* pos[5] = {NULL, NULL, NULL, NULL, NULL};
    int npos = 0, threads_given = 0, rc = 0;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (skn_cli_is_help(a)) {
            skn_cli_help(skn_help_skn_quantize);
            return -1;
        } else if (strcmp(a, "--dry-run") == 0) {
            o->dry_run = 1;
        } else if (strcmp(a, "--allow-requantize") == 0) {
            o->allow_requantize = 1;
        } else if (strcmp(a, "--pure") == 0) {
            o->pure = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--force-overwrite") == 0) {
            o->force_overwrite = 1;
        } else if (strcmp(a, "--leave-output-tensor") == 0) {
            o->leave_output = 1;
        } else if (strcmp(a, "--repack") == 0) {
            o->repack = 1;
        } else if (strcmp(a, "--canonical") == 0) {
            o->canonical = 1;
        } else if (a[0] == '-' && a[1] != 0 && v == NULL &&
                   (strcmp(a, "--threads") == 0 || strcmp(a, "--tensor-type") == 0 ||
                    strcmp(a, "--tensor-type-file") == 0 || strcmp(a, "--imatrix") == 0 ||
                    strcmp(a, "--i2s-layout") == 0 || strcmp(a, "--override-kv") == 0 ||
                    strcmp(a, "--output-tensor-type") == 0 || strcmp(a, "--token-embedding-type") == 0)) {
            return USAGE_ERROR("%s needs a value", a);
        } else if (strcmp(a, "--threads") == 0) {
            if (parse_threads(argv[++i], &o->threads) != 0)
                return USAGE_ERROR("--threads needs a count from 1 to 256, not \"%s\"", argv[i]);
            threads_given = 1;
        } else if (strcmp(a, "--i2s-layout") == 0) {
            if (!skn_tool_set_i2s_layout(argv[++i]))
                return USAGE_ERROR("--i2s-layout needs x86 or arm64 (the bitnet.cpp build that wrote the file's I2_S "
                                   "tensors), not \"%s\"", argv[i]);
        } else if (strcmp(a, "--tensor-type") == 0) {
            if ((rc = add_override(o, argv[++i], "")) != 0) return rc;
        } else if (strcmp(a, "--tensor-type-file") == 0) {
            if ((rc = read_override_file(o, argv[++i])) != 0) return rc;
        } else if (strcmp(a, "--override-kv") == 0) {
            if ((rc = add_kv_override(o, argv[++i])) != 0) return rc;
        } else if (strcmp(a, "--output-tensor-type") == 0) {
            if ((rc = parse_format(a, argv[++i], &o->output_type, &o->has_output_type)) != 0) return rc;
        } else if (strcmp(a, "--token-embedding-type") == 0) {
            if ((rc = parse_format(a, argv[++i], &o->token_type, &o->has_token_type)) != 0) return rc;
        } else if (strcmp(a, "--imatrix") == 0) {
            o->imatrix_path = argv[++i];
        } else if (a[0] == '-' && a[1] != 0) {
            return USAGE_ERROR("unknown option \"%s\"", a);
        } else if (npos < 4) {
            pos[npos++] = a;
        } else {
            return USAGE_ERROR("unexpected argument \"%s\": give IN.gguf [OUT.gguf] TYPE [NTHREADS]", a);
        }
    }
    if (npos < 2) return USAGE_ERROR("give IN.gguf, OUT.gguf and TYPE (or IN.gguf and TYPE)");
    o->in_path = pos[0];
    const char* threads_arg = NULL;
    if (is_type(pos[1])) { /* IN TYPE [NTHREADS], as llama-quantize tries first */
        if (npos > 3) return USAGE_ERROR("unexpected argument \"%s\" after IN TYPE NTHREADS", pos[3]);
        o->type_arg = pos[1];
        threads_arg = pos[2];
    } else {
        if (npos < 3) return USAGE_ERROR("give TYPE after %s", pos[1]);
        o->out_path = pos[1];
        o->type_arg = pos[2];
        threads_arg = pos[3];
    }
    if (threads_arg != NULL) {
        if (threads_given) return USAGE_ERROR("give the thread count once (--threads or NTHREADS), not \"%s\" too",
                                              threads_arg);
        if (parse_threads(threads_arg, &o->threads) != 0)
            return USAGE_ERROR("NTHREADS needs a count from 1 to 256, not \"%s\"", threads_arg);
    }
    if ((rc = skn_quant_resolve_type(o)) != 0) return rc;
    if ((rc = check_encoding_options(o)) != 0) return rc;
    if (o->out_path == NULL && !o->dry_run) default_out(o);
    return 0;
}
