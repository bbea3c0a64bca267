/* SPDX-License-Identifier: MIT */
/* skn imatrix: list a llama.cpp importance-matrix file's entries (either
 * form), as skn_imatrix reads them. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "skn/skn.h"
#include "tensor_util.h"

static const char* form_name(skn_imatrix_form f) { return f == SKN_IMATRIX_GGUF ? "gguf" : "legacy"; }

/* The mean importance of an entry (every matrix), a one-number summary. */
static double mean_of(const skn_imatrix* m, int64_t i) {
    const float* v = NULL;
    size_t n = 0;
    if (skn_imatrix_values(m, i, SKN_IMATRIX_ALL_MATRICES, &v, &n) != SKN_OK || n == 0) return 0.0;
    double s = 0.0;
    for (size_t k = 0; k < n; ++k) s += v[k];
    return s / (double)n;
}

static int print_table(const skn_imatrix* m, const skn_imatrix_props* p, const char* file) {
    printf("%s: imatrix, %s form, %lld entries\n", file, form_name(p->form), (long long)p->entry_count);
    if (p->chunk_count >= 0) printf("chunks: %lld", (long long)p->chunk_count);
    if (p->chunk_size >= 0) printf(" of %lld tokens", (long long)p->chunk_size);
    if (p->chunk_count >= 0) printf("\n");
    for (int64_t d = 0; d < p->dataset_count; ++d) {
        const char* s = NULL;
        size_t len = 0;
        if (skn_imatrix_dataset(m, d, &s, &len) != SKN_OK) return 1;
        printf("dataset: %.*s\n", (int)len, s);
    }
    printf("\n  %-44s %8s %8s %12s %8s %12s\n", "name", "values", "matrices", "count", "unused", "mean");
    for (int64_t i = 0; i < p->entry_count; ++i) {
        skn_imatrix_entry_props e;
        memset(&e, 0, sizeof e);
        e.struct_size = sizeof e;
        if (skn_imatrix_entry_info(m, i, &e) != SKN_OK) return 1;
        printf("  %-44s %8lld %8lld %12lld %8lld %12.6g\n", e.name, (long long)e.values_per_row,
               (long long)e.matrices, (long long)e.count, (long long)e.unused_matrices, mean_of(m, i));
    }
    return 0;
}

static int print_json(const skn_imatrix* m, const skn_imatrix_props* p, const char* file) {
    printf("{\"file\": ");
    skn_json_string(stdout, file, strlen(file));
    printf(", \"form\": \"%s\", \"chunk_count\": ", form_name(p->form));
    if (p->chunk_count >= 0) printf("%lld", (long long)p->chunk_count); else printf("null");
    printf(", \"chunk_size\": ");
    if (p->chunk_size >= 0) printf("%lld", (long long)p->chunk_size); else printf("null");
    printf(", \"datasets\": [");
    for (int64_t d = 0; d < p->dataset_count; ++d) {
        const char* s = NULL;
        size_t len = 0;
        if (skn_imatrix_dataset(m, d, &s, &len) != SKN_OK) return 1;
        if (d) fputs(", ", stdout);
        skn_json_string(stdout, s, len);
    }
    printf("], \"entries\": [");
    for (int64_t i = 0; i < p->entry_count; ++i) {
        skn_imatrix_entry_props e;
        memset(&e, 0, sizeof e);
        e.struct_size = sizeof e;
        if (skn_imatrix_entry_info(m, i, &e) != SKN_OK) return 1;
        printf(i ? ",\n  {\"name\": " : "\n  {\"name\": ");
        skn_json_string(stdout, e.name, e.name_len);
        printf(", \"values\": %lld, \"matrices\": %lld, \"count\": %lld, \"unused_matrices\": %lld, "
               "\"mean\": %.9g}",
               (long long)e.values_per_row, (long long)e.matrices, (long long)e.count, (long long)e.unused_matrices,
               mean_of(m, i));
    }
    printf("]}\n");
    return 0;
}

int skn_cmd_imatrix(int argc, char** argv) {
    int json = 0;
    const char* file = NULL;
    for (int i = 1; i < argc; ++i) {
        if (skn_cli_is_help(argv[i])) {
            return skn_cli_help(skn_help_skn_imatrix);
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            return skn_cli_usage_error("imatrix", skn_help_skn_imatrix, "unknown option \"%s\"", argv[i]);
        } else if (file == NULL) {
            file = argv[i];
        } else {
            return skn_cli_usage_error("imatrix", skn_help_skn_imatrix, "give one FILE");
        }
    }
    if (file == NULL) return skn_cli_usage_error("imatrix", skn_help_skn_imatrix, "give an imatrix FILE");
    skn_imatrix* m = NULL;
    const skn_status st = skn_imatrix_open(file, &m);
    if (st != SKN_OK) {
        fprintf(stderr, "skn imatrix: %s: %s\n", skn_status_name(st), skn_last_error());
        return 1;
    }
    skn_imatrix_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    int rc = skn_imatrix_info(m, &p) != SKN_OK;
    if (rc == 0) rc = json ? print_json(m, &p, file) : print_table(m, &p, file);
    if (rc != 0) fprintf(stderr, "skn imatrix: %s\n", skn_last_error());
    skn_imatrix_close(m);
    return rc == 0 ? 0 : 1;
}
