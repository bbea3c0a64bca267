/* SPDX-License-Identifier: MIT */
/* skn quantize's plan (one row per tensor: its new type and the rule that
 * chose it) and its two reports: the --dry-run table and --json. */
#ifndef SKN_TOOL_QUANT_PLAN_H
#define SKN_TOOL_QUANT_PLAN_H

#include <stdint.h>

#include "quant_overrides.h"
#include "quant_rules.h"
#include "skn/skn.h"

/* llama.cpp's general.quantization_version (GGML_QNT_VERSION). */
enum { kQuantizationVersion = 2, kMaxOverrides = 64 };

typedef struct {
    skn_gguf_tensor_props in;
    int64_t index;
    skn_format out_format;
    uint64_t out_bytes;
    const char* kept;   /* why it is copied as stored, or NULL when converted */
    char rule[256];     /* what chose out_format */
    int needs_imatrix;
    const float* importance; /* --imatrix's values for this tensor (matrix after matrix), or NULL */
    double seconds;
} skn_quant_row;

typedef struct {
    const char* in_path;
    const char* out_path;
    const char* type_arg;
    const skn_preset* preset; /* NULL: one format for every weight */
    skn_format base;          /* the preset's base format, or the one format */
    const char* base_name;
    int pure, dry_run, allow_requantize, json, threads;
    const char* imatrix_path; /* --imatrix FILE, or NULL */
    skn_override overrides[kMaxOverrides];
    int n_overrides;
} skn_quant_options;

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
