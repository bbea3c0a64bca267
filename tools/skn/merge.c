/* SPDX-License-Identifier: MIT */
/* skn merge [options] FIRST.gguf OUT.gguf: join the files of a split model
 * (FIRST is PREFIX-00001-of-0000N.gguf) into one, as llama-gguf-split
 * --merge does: the first file's metadata with split.count set to 0 (so
 * the result is not taken for a split again), then every file's tensors in
 * order. The split files are checked as llama.cpp's loader checks them
 * (names, split.no, split.count, the total tensor count). OUT goes through
 * the tools' safe output; tensor data is streamed. On the public C API only. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "meta_list.h"
#include "safe_output.h"
#include "skn/skn.h"
#include "split_names.h"
#include "tensor_copy.h"
#include "tensor_util.h"

/* A usage error: the message, the usage lines, "see --help"; exit status 2. */
#define USAGE_ERROR(...) skn_cli_usage_error("merge", skn_help_skn_merge, __VA_ARGS__)

/* A u16 key of file `g`, or -1 when it is missing or of another type. */
static int64_t read_u16(const skn_gguf* g, const char* key) {
    int64_t k = -1;
    uint16_t v = 0;
    if (skn_gguf_find_key(g, key, &k) != SKN_OK || k < 0 || skn_gguf_get_u16(g, k, &v) != SKN_OK) return -1;
    return v;
}

/* Open every split. Returns their count, or -1 after printing why. */
static int open_splits(const char* first_path, skn_gguf*** out, char*** paths_out) {
    skn_gguf* first = NULL;
    skn_status st = skn_tool_open(first_path, &first);
    if (st != SKN_OK) {
        fprintf(stderr, "skn merge: %s: %s\n", skn_status_name(st), skn_last_error());
        return -1;
    }
    const int64_t n = read_u16(first, SKN_SPLIT_COUNT);
    if (n < 1) {
        fprintf(stderr, "skn merge: %s has no u16 %s (or it is 0): not the first file of a split model\n",
                first_path, SKN_SPLIT_COUNT);
        skn_gguf_close(first);
        return -1;
    }
    char prefix[PATH_MAX];
    if (skn_split_prefix(prefix, sizeof prefix, first_path, 0, (int)n) != 0 || read_u16(first, SKN_SPLIT_NO) != 0) {
        fprintf(stderr, "skn merge: %s says it is file 1 of %" PRId64 " (split.no %" PRId64 "), so its name must end in "
                        "\"-00001-of-%05" PRId64 ".gguf\": give the first file of the split\n",
                first_path, n, read_u16(first, SKN_SPLIT_NO), n);
        skn_gguf_close(first);
        return -1;
    }
    skn_gguf** gs = calloc((size_t)n, sizeof *gs);
    char** paths = calloc((size_t)n, sizeof *paths);
    if (gs == NULL || paths == NULL) {
        free(gs);
        free(paths);
        skn_gguf_close(first);
        return -1;
    }
    gs[0] = first;
    for (int k = 0; k < n; ++k) {
        char path[PATH_MAX];
        if (skn_split_path(path, sizeof path, prefix, k, (int)n) != 0 || (paths[k] = strdup(path)) == NULL) goto fail;
        if (k > 0 && (st = skn_tool_open(paths[k], &gs[k])) != SKN_OK) {
            fprintf(stderr, "skn merge: split %d of %" PRId64 ": %s: %s\n", k + 1, n, skn_status_name(st), skn_last_error());
            goto fail;
        }
        if (read_u16(gs[k], SKN_SPLIT_NO) != k || read_u16(gs[k], SKN_SPLIT_COUNT) != n) {
            fprintf(stderr, "skn merge: %s has split.no %" PRId64 " and split.count %" PRId64 "; file %d of %" PRId64
                            " must have %d and %" PRId64 "\n",
                    paths[k], read_u16(gs[k], SKN_SPLIT_NO), read_u16(gs[k], SKN_SPLIT_COUNT), k + 1, n, k, n);
            goto fail;
        }
    }
    *out = gs;
    *paths_out = paths;
    return (int)n;
fail:
    for (int k = 0; k < n; ++k) {
        skn_gguf_close(gs[k]);
        free(paths[k]);
    }
    free(gs);
    free(paths);
    return -1;
}

int skn_cmd_merge(int argc, char** argv) {
    const char* pos[2] = {NULL, NULL};
    int npos = 0, dry_run = 0, force = 0;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (skn_cli_is_help(a)) return skn_cli_help(skn_help_skn_merge);
        if (strcmp(a, "--dry-run") == 0) {
            dry_run = 1;
        } else if (strcmp(a, "--force-overwrite") == 0) {
            force = 1;
        } else if (a[0] == '-' && a[1] != 0) {
            return USAGE_ERROR("unknown option \"%s\"", a);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            return USAGE_ERROR("unexpected argument \"%s\": give FIRST.gguf OUT.gguf", a);
        }
    }
    if (npos != 2) return USAGE_ERROR("give the first split file (PREFIX-00001-of-0000N.gguf) and OUT.gguf");
    const char* first_path = pos[0];
    const char* out_path = pos[1];
    skn_gguf** gs = NULL;
    char** paths = NULL;
    const int n = open_splits(first_path, &gs, &paths);
    if (n < 0) return 1;
    /* OUT checked before any work: not one of the splits, nor an existing
     * file (llama-gguf-split refuses that too) unless --force-overwrite. */
    int rc = 1;
    skn_meta_list meta;
    memset(&meta, 0, sizeof meta);
    skn_gguf_writer* w = NULL;
    skn_copy_range* ranges = NULL;
    if (!force && access(out_path, F_OK) == 0) {
        fprintf(stderr, "skn merge: %s exists: give another name, or --force-overwrite to replace it\n", out_path);
        goto done;
    }
    if (skn_output_check("merge", out_path, (const char* const*)paths, n, 0) != 0) goto done;
    int64_t total = 0;
    for (int k = 0; k < n; ++k) total += skn_gguf_tensor_count(gs[k]);
    int64_t k_count = -1;
    int32_t declared = -1;
    if (skn_gguf_find_key(gs[0], SKN_SPLIT_TENSORS_COUNT, &k_count) == SKN_OK && k_count >= 0 &&
        skn_gguf_get_i32(gs[0], k_count, &declared) == SKN_OK && declared != total) {
        fprintf(stderr, "skn merge: %s says the model has %d tensors (split.tensors.count) but the %d files hold %" PRId64
                        ": a file is missing or foreign\n", first_path, declared, n, total);
        goto done;
    }
    /* The first file's pairs, split.count set to 0 (removed, appended). */
    skn_meta_value zero;
    memset(&zero, 0, sizeof zero);
    zero.type = SKN_GGUF_TYPE_U16;
    int records_i2s = 0;
    for (int k = 0; k < n; ++k) records_i2s |= skn_copy_range_records_i2s(gs[k], 0, skn_gguf_tensor_count(gs[k]));
    if (skn_meta_list_init(&meta, gs[0]) != 0 || skn_meta_list_append(&meta, SKN_SPLIT_COUNT, &zero) != 0) goto done;
    if (records_i2s) skn_meta_list_remove(&meta, "skn.i2_s_layout");
    if (skn_gguf_writer_create(&w) != SKN_OK || skn_meta_list_write(&meta, gs[0], w, "merge") != SKN_OK) goto done;
    for (int k = 0; k < n; ++k)
        if (skn_copy_declare_range("merge", w, gs[k], 0, skn_gguf_tensor_count(gs[k])) != 0) goto done;
    uint64_t size = 0;
    if (skn_gguf_writer_size(w, &size) != SKN_OK) goto done;
    printf("%s: %d files, %" PRId64 " tensors, %" PRIu64 " bytes%s\n", out_path, n, total, size,
           dry_run ? " (dry run: nothing written)" : "");
    if (dry_run) {
        rc = 0;
        goto done;
    }
    if ((ranges = calloc((size_t)n, sizeof *ranges)) == NULL) goto done;
    for (int k = 0; k < n; ++k) ranges[k] = (skn_copy_range){gs[k], 0, skn_gguf_tensor_count(gs[k])};
    skn_output* out = skn_output_open("merge", out_path, (const char* const*)paths, n, 0);
    if (out != NULL) rc = skn_copy_into("merge", w, out, ranges, n);
done:
    free(ranges);
    skn_gguf_writer_destroy(w);
    skn_meta_list_free(&meta);
    for (int k = 0; k < n; ++k) {
        skn_gguf_close(gs[k]);
        free(paths[k]);
    }
    free(gs);
    free(paths);
    return rc;
}
