/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "quant_plan.h"
#include "tensor_util.h"

const char* skn_quant_format_name(skn_format f) { return skn_tool_format_name(f); }

void skn_quant_print_plan(const skn_quant_options* o, const skn_model_facts* m, const skn_quant_row* plan, const int64_t* order,
                       int64_t nt, int has_file_type, uint32_t file_type, uint64_t in_total, uint64_t out_total,
                       uint64_t out_size) {
    printf("%s -> %s as %s", o->in_path, o->out_path ? o->out_path : "(dry run)", o->type_arg);
    if (o->copy_only) printf(" (every tensor as stored");
    else if (o->preset != NULL) printf(" (preset%s, base type %s", o->pure ? " with --pure" : "", o->base_name);
    else printf(" (one format, %s", o->base_name);
    if (o->repack || o->canonical) printf(", %s", o->repack ? "--repack" : "--canonical");
    if (has_file_type)
        printf(", general.file_type %u)\n", file_type);
    else
        printf(", general.file_type not set: %s has no llama.cpp file type)\n", o->base_name);
    if (o->preset != NULL && !o->pure)
        printf("model: arch %s, %" PRId64 " layers (%s), %" PRId64 " experts, n_head %" PRId64 ", n_head_kv %" PRId64
               ", n_gqa %" PRId64 "\n",
               m->arch[0] ? m->arch : "(none)", m->n_layer, m->n_layer_guessed ? "no block_count: from blk.N" : "block_count",
               m->n_expert, m->n_head, m->n_head_kv, skn_model_gqa(m));
    printf("  %-32s %-8s %-8s %12s %12s  %s\n", "tensor", "from", "to", "bytes in", "bytes out", "rule");
    int need = 0;
    for (int64_t k = 0; k < nt; ++k) {
        const skn_quant_row* r = &plan[order[k]];
        char note[400];
        if (r->kept != NULL && strcmp(r->rule, "-") != 0)
            snprintf(note, sizeof note, "%s [%s]", r->kept, r->rule);
        else if (r->kept != NULL)
            snprintf(note, sizeof note, "%s", r->kept);
        else
            snprintf(note, sizeof note, "%s%s", r->rule,
                     r->importance ? " [imatrix]" : r->needs_imatrix ? " [needs imatrix]" : "");
        printf("  %-32s %-8s %-8s %12" PRIu64 " %12" PRIu64 "  %s\n", r->in.name, r->in.type_name,
               r->kept ? r->in.type_name : skn_quant_format_name(r->out_format), r->in.size, r->out_bytes, note);
        need |= r->needs_imatrix && r->kept == NULL && r->importance == NULL;
    }
    printf("  %-32s %-8s %-8s %12" PRIu64 " %12" PRIu64 "\n", "total tensor bytes", "", "", in_total, out_total);
    printf("  output file: %" PRIu64 " bytes\n", out_size);
    if (need)
        printf("  note: tensors marked [needs imatrix] need an importance matrix; without one the conversion is "
               "refused\n");
}

static void json_str(const char* s) { skn_json_string(stdout, s, strlen(s)); }

void skn_quant_print_json(const skn_quant_options* o, const skn_model_facts* m, const skn_quant_row* plan, const int64_t* order,
                       int64_t nt, int has_file_type, uint32_t file_type, uint64_t in_total, uint64_t out_total,
                       uint64_t out_size, double elapsed) {
    printf("{\"input\": ");
    json_str(o->in_path);
    printf(", \"output\": ");
    if (o->out_path) json_str(o->out_path); else printf("null");
    printf(", \"type\": ");
    json_str(o->type_arg);
    printf(", \"preset\": %s, \"pure\": %s, \"repack\": %s, \"canonical\": %s, \"base_type\": ", o->preset ? "true" : "false",
           o->pure ? "true" : "false", o->repack ? "true" : "false", o->canonical ? "true" : "false");
    json_str(o->base_name);
    printf(", \"file_type\": ");
    if (has_file_type) printf("%u", file_type); else printf("null");
    printf(", \"imatrix\": ");
    if (o->imatrix_path) json_str(o->imatrix_path); else printf("null");
    printf(", \"quantization_version\": %d, \"dry_run\": %s, \"threads\": %d,\n \"overrides\": [", kQuantizationVersion,
           o->dry_run ? "true" : "false", o->threads);
    for (int i = 0; i < o->n_overrides; ++i) {
        printf("%s{\"pattern\": ", i ? ", " : "");
        json_str(o->overrides[i].pattern);
        printf(", \"type\": ");
        json_str(o->overrides[i].format_name);
        printf("}");
    }
    printf("],\n \"model\": {\"arch\": ");
    if (m->arch[0]) json_str(m->arch); else printf("null");
    printf(", \"n_layer\": %" PRId64 ", \"n_layer_from_key\": %s, \"n_expert\": %" PRId64 ", \"n_head\": %" PRId64
           ", \"n_head_kv\": %" PRId64 ", \"n_gqa\": %" PRId64 "},\n \"tensors\": [\n",
           m->n_layer, m->n_layer_guessed ? "false" : "true", m->n_expert, m->n_head, m->n_head_kv, skn_model_gqa(m));
    int64_t quantized = 0, repacked = 0;
    for (int64_t k = 0; k < nt; ++k) {
        const skn_quant_row* r = &plan[order[k]];
        quantized += r->kept == NULL && !r->repack;
        repacked += r->repack;
        printf("  {\"name\": ");
        json_str(r->in.name);
        printf(", \"shape\": [");
        for (int d = 0; d < r->in.rank; ++d) printf("%s%" PRId64, d ? ", " : "", r->in.ne[d]);
        printf("], \"from\": ");
        json_str(r->in.type_name);
        printf(", \"to\": ");
        json_str(r->kept ? r->in.type_name : skn_quant_format_name(r->out_format));
        printf(", \"action\": \"%s\", \"rule\": ", r->kept ? "copy" : r->repack ? "repack" : "quantize");
        json_str(r->rule);
        printf(", \"note\": ");
        if (r->kept) json_str(r->kept); else printf("null");
        printf(", \"needs_imatrix\": %s, \"importance\": %s, \"bytes_in\": %" PRIu64 ", \"bytes_out\": %" PRIu64
               ", \"seconds\": ",
               r->needs_imatrix && !r->kept ? "true" : "false", r->importance ? "true" : "false", r->in.size,
               r->out_bytes);
        if (o->dry_run) printf("null"); else skn_json_float(stdout, r->seconds, 6);
        printf("}%s\n", k + 1 < nt ? "," : "");
    }
    printf(" ],\n \"totals\": {\"tensors\": %" PRId64 ", \"quantized\": %" PRId64 ", \"repacked\": %" PRId64
           ", \"copied\": %" PRId64 ", \"bytes_in\": %" PRIu64 ", \"bytes_out\": %" PRIu64 ", \"file_bytes\": %" PRIu64
           "},\n \"elapsed_seconds\": ",
           nt, quantized, repacked, nt - quantized - repacked, in_total, out_total, out_size);
    skn_json_float(stdout, elapsed, 6);
    printf("}\n");
}

