/* SPDX-License-Identifier: MIT */
/* skn quantize's plan (one row per tensor: its new type and the rule that
 * chose it) and its two reports: the --dry-run table and --json. */
#ifndef SKN_TOOL_QUANT_PLAN_H
#define SKN_TOOL_QUANT_PLAN_H

#include <stdint.h>

#include "meta_list.h"
#include "quant_overrides.h"
#include "quant_rules.h"
#include "skn/skn.h"

/* llama.cpp's general.quantization_version (GGML_QNT_VERSION); at most this
 * many --override-kv options (llama-quantize has no limit; 64 is plenty). */
enum { kQuantizationVersion = 2, kMaxKvOverrides = 64 };

/* --override-kv KEY=TYPE:VALUE. */
typedef struct {
    char key[128]; /* llama.cpp's limit: 127 bytes */
    skn_meta_value value;
} skn_kv_override;

typedef struct {
    skn_gguf_tensor_props in;
    int64_t index;
    skn_format out_format;
    uint64_t out_bytes;
    const char* kept;   /* why it is copied as stored, or NULL when converted */
    int repack;         /* converted without decoding: in and out are a canonical format and its interleaved twin */
    char rule[256];     /* what chose out_format */
    int needs_imatrix;
    const float* importance; /* --imatrix's values for this tensor (matrix after matrix), or NULL */
    double seconds;
} skn_quant_row;

typedef struct {
    const char* in_path;
    const char* out_path;     /* NULL in a dry run without OUT */
    const char* type_arg;
    const char* type_label;   /* llama-quantize's spelling of TYPE (the default OUT's name) */
    const skn_preset* preset; /* NULL: one format for every weight */
    skn_format base;          /* the preset's base format, or the one format */
    const char* base_name;
    int copy_only;            /* TYPE COPY: every tensor as stored */
    int pure, dry_run, allow_requantize, json, threads, force_overwrite, leave_output;
    int has_output_type, has_token_type; /* --output-tensor-type, --token-embedding-type */
    int repack;               /* --repack: each tensor in its format's row-interleaved twin where its rows allow */
    int canonical;            /* --canonical: each row-interleaved tensor in its canonical format */
    skn_format output_type, token_type;
    const char* imatrix_path; /* --imatrix FILE, or NULL */
    skn_override* overrides;  /* --tensor-type and --tensor-type-file, in order */
    int n_overrides, cap_overrides;
    char** owned_texts;       /* the --tensor-type-file items the overrides point into */
    int n_owned_texts;
    skn_kv_override kv[kMaxKvOverrides];
    int n_kv;
    char default_out[4096];   /* OUT when only IN and TYPE are given */
} skn_quant_options;

/* Release what parsing allocated. */
void skn_quant_options_free(skn_quant_options* o);

/* The name of a format ("?" for an unknown one). */
const char* skn_quant_format_name(skn_format f);

/* The --dry-run table, tensors in `order`. */
void skn_quant_print_plan(const skn_quant_options* o, const skn_model_facts* m, const skn_quant_row* plan, const int64_t* order,
                          int64_t nt, int has_file_type, uint32_t file_type, uint64_t in_total, uint64_t out_total,
                          uint64_t out_size);

/* The --json object (per-tensor seconds null in a dry run). */
void skn_quant_print_json(const skn_quant_options* o, const skn_model_facts* m, const skn_quant_row* plan, const int64_t* order,
                          int64_t nt, int has_file_type, uint32_t file_type, uint64_t in_total, uint64_t out_total,
                          uint64_t out_size, double elapsed);

#endif
