/* SPDX-License-Identifier: MIT */
/* skn split [options] IN.gguf OUT_PREFIX: split a GGUF file into files
 * llama.cpp loads as one model, as llama-gguf-split --split does
 * (tools/gguf-split/gguf-split.cpp): OUT_PREFIX-00001-of-0000N.gguf ...,
 * the first holding every metadata pair, each holding split.no, split.count
 * and split.tensors.count, the tensors in IN's order. Each file goes
 * through the tools' safe output; on failure the files written so far are
 * removed. On the public C API only. */
#include <errno.h>
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

typedef struct {
    const char* in_path;
    const char* prefix;
    int64_t max_tensors; /* 0: split by size */
    uint64_t max_bytes;
    int no_tensor_first_split, dry_run, force_overwrite;
} split_options;

/* A usage error: the message, the usage lines, "see --help"; exit status 2. */
#define USAGE_ERROR(...) skn_cli_usage_error("split", skn_help_skn_split, __VA_ARGS__)

/* "N" followed by M (10^6 bytes) or G (10^9 bytes), as llama-gguf-split. */
static int parse_size(const char* s, uint64_t* out) {
    char* end = NULL;
    errno = 0;
    const unsigned long long n = strtoull(s, &end, 10);
    if (s[0] < '1' || s[0] > '9' || errno != 0 || end == s || end[1] != 0 || (end[0] != 'M' && end[0] != 'G'))
        return -1;
    const uint64_t unit = end[0] == 'M' ? 1000000ULL : 1000000000ULL;
    if (n > UINT64_MAX / unit) return -1;
    *out = (uint64_t)n * unit;
    return 0;
}

static int parse_args(int argc, char** argv, split_options* o) {
    const char* pos[2] = {NULL, NULL};
    int npos = 0, by_tensors = 0, by_size = 0;
    o->max_tensors = 128;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (skn_cli_is_help(a)) {
            skn_cli_help(skn_help_skn_split);
            return -1;
        } else if (strcmp(a, "--no-tensor-first-split") == 0) {
            o->no_tensor_first_split = 1;
        } else if (strcmp(a, "--dry-run") == 0) {
            o->dry_run = 1;
        } else if (strcmp(a, "--force-overwrite") == 0) {
            o->force_overwrite = 1;
        } else if (strcmp(a, "--split-max-tensors") == 0 || strcmp(a, "--split-max-size") == 0) {
            if (i + 1 >= argc) return USAGE_ERROR("%s needs a value", a);
            const char* v = argv[++i];
            if (a[12] == 't') {
                char* end = NULL;
                errno = 0;
                const long long n = strtoll(v, &end, 10);
                if (v[0] == 0 || *end != 0 || errno != 0 || n < 1 || n > INT32_MAX)
                    return USAGE_ERROR("--split-max-tensors needs a count of at least 1, not \"%s\"", v);
                o->max_tensors = n;
                by_tensors = 1;
            } else {
                if (parse_size(v, &o->max_bytes) != 0)
                    return USAGE_ERROR("--split-max-size needs N followed by M (10^6 bytes) or G (10^9 bytes), e.g. "
                                       "2G, not \"%s\"", v);
                by_size = 1;
            }
        } else if (a[0] == '-' && a[1] != 0) {
            return USAGE_ERROR("unknown option \"%s\"", a);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            return USAGE_ERROR("unexpected argument \"%s\": give IN.gguf OUT_PREFIX", a);
        }
    }
    if (by_tensors && by_size) return USAGE_ERROR("give --split-max-tensors or --split-max-size, not both");
    if (by_size) o->max_tensors = 0;
    if (npos != 2) return USAGE_ERROR("give IN.gguf and OUT_PREFIX (the files are OUT_PREFIX-00001-of-0000N.gguf, ...)");
    o->in_path = pos[0];
    o->prefix = pos[1];
    return 0;
}

static uint64_t padded(uint64_t n) { return n + (32 - n % 32) % 32; } /* llama-gguf-split pads to 32 */

/* first[k] = the first tensor of file k, for k in [0, n]; returns the file
 * count, or -1 after printing why. As llama-gguf-split: a new file at every
 * max_tensors-th tensor, or when the padded tensor bytes would pass
 * max_bytes; the first file holds only metadata with no_tensor_first_split. */
static int plan_files(const split_options* o, const skn_gguf* g, int64_t** first_out) {
    const int64_t nt = skn_gguf_tensor_count(g);
    int64_t* first = malloc((size_t)(nt + 3) * sizeof *first);
    if (first == NULL) return -1;
    int n = 0;
    first[n++] = 0;
    if (o->no_tensor_first_split) first[n++] = 0;
    uint64_t current = 0;
    for (int64_t i = 0; i < nt; ++i) {
        skn_gguf_tensor_props t;
        memset(&t, 0, sizeof t);
        t.struct_size = sizeof t;
        if (skn_gguf_tensor_info(g, i, &t) != SKN_OK) {
            free(first);
            return -1;
        }
        const uint64_t bytes = padded(t.size);
        const int cut = o->max_tensors > 0 ? (i > 0 && i % o->max_tensors == 0) : current + bytes > o->max_bytes;
        if (cut) {
            if (first[n - 1] == i) {
                fprintf(stderr,
                        "skn split: tensor \"%s\" (%" PRIu64 " bytes) alone passes --split-max-size (%" PRIu64
                        " bytes): a file would hold no tensor; give a larger size\n",
                        t.name, bytes, o->max_bytes);
                free(first);
                return -1;
            }
            first[n++] = i;
            current = bytes;
        } else {
            current += bytes;
        }
    }
    if (n > 65535) {
        fprintf(stderr, "skn split: %d files: split.count is a u16, at most 65535; give a larger limit\n", n);
        free(first);
        return -1;
    }
    first[n] = nt;
    *first_out = first;
    return n;
}

/* The metadata of file k of n: IN's pairs in the first file only, then
 * split.no, split.tensors.count and split.count (set as ggml's gguf_set_val
 * sets them, in llama-gguf-split's order). */
static int file_metadata(skn_meta_list* l, const skn_gguf* g, int k, int n, int64_t tensors) {
    if (skn_meta_list_init(l, k == 0 ? g : NULL) != 0) return -1;
    skn_meta_value v;
    memset(&v, 0, sizeof v);
    v.type = SKN_GGUF_TYPE_U16;
    v.u = (uint64_t)k;
    if (skn_meta_list_append(l, SKN_SPLIT_NO, &v) != 0) return -1;
    v.type = SKN_GGUF_TYPE_I32;
    v.i = tensors;
    if (skn_meta_list_append(l, SKN_SPLIT_TENSORS_COUNT, &v) != 0) return -1;
    v.type = SKN_GGUF_TYPE_U16;
    v.u = (uint64_t)n;
    return skn_meta_list_append(l, SKN_SPLIT_COUNT, &v);
}

/* Write file k. Returns 0 or 1 (message printed). */
static int write_file(const split_options* o, const skn_gguf* g, const char* path, int k, int n, int64_t from,
                      int64_t to) {
    skn_meta_list meta;
    memset(&meta, 0, sizeof meta);
    skn_gguf_writer* w = NULL;
    int rc = 1;
    const char* inputs[1] = {o->in_path};
    if (file_metadata(&meta, g, k, n, skn_gguf_tensor_count(g)) != 0) {
        fprintf(stderr, "skn split: out of memory\n");
        goto done;
    }
    if (skn_copy_range_records_i2s(g, from, to - from)) skn_meta_list_remove(&meta, "skn.i2_s_layout");
    if (skn_gguf_writer_create(&w) != SKN_OK || skn_meta_list_write(&meta, g, w, "split") != SKN_OK ||
        skn_copy_declare_range("split", w, g, from, to - from) != 0)
        goto done;
    skn_output* out = skn_output_open("split", path, inputs, 1, o->force_overwrite);
    const skn_copy_range range = {g, from, to - from};
    if (out != NULL) rc = skn_copy_into("split", w, out, &range, 1);
done:
    skn_gguf_writer_destroy(w);
    skn_meta_list_free(&meta);
    return rc;
}

int skn_cmd_split(int argc, char** argv) {
    split_options o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;
    skn_gguf* g = NULL;
    const skn_status st = skn_tool_open(o.in_path, &g);
    if (st != SKN_OK) {
        fprintf(stderr, "skn split: %s: %s\n", skn_status_name(st), skn_last_error());
        return 1;
    }
    int64_t* first = NULL;
    const int n = plan_files(&o, g, &first);
    char** paths = n > 0 ? calloc((size_t)n, sizeof *paths) : NULL;
    rc = 1;
    if (n < 0 || paths == NULL) goto done;
    /* Every output checked before any is written. */
    const char* inputs[1] = {o.in_path};
    for (int k = 0; k < n; ++k) {
        char path[PATH_MAX];
        if (skn_split_path(path, sizeof path, o.prefix, k, n) != 0 || (paths[k] = strdup(path)) == NULL) {
            fprintf(stderr, "skn split: the output names are too long for prefix %s\n", o.prefix);
            goto done;
        }
        if (!o.dry_run && skn_output_check("split", paths[k], inputs, 1, o.force_overwrite) != 0) goto done;
    }
    printf("n_split: %d\n", n);
    int written = 0;
    for (int k = 0; k < n; ++k) {
        uint64_t bytes = 0;
        for (int64_t i = first[k]; i < first[k + 1]; ++i) {
            skn_gguf_tensor_props t;
            memset(&t, 0, sizeof t);
            t.struct_size = sizeof t;
            if (skn_gguf_tensor_info(g, i, &t) == SKN_OK) bytes += padded(t.size);
        }
        printf("split %05d: n_tensors = %" PRId64 ", tensor bytes = %" PRIu64 "%s%s\n", k + 1, first[k + 1] - first[k],
               bytes, o.dry_run ? "" : ", ", o.dry_run ? "" : paths[k]);
        if (o.dry_run) continue;
        if (write_file(&o, g, paths[k], k, n, first[k], first[k + 1]) != 0) {
            for (int j = 0; j < written; ++j) (void)unlink(paths[j]); /* a partial set is of no use */
            if (written > 0) fprintf(stderr, "skn split: removed the %d file(s) already written\n", written);
            goto done;
        }
        ++written;
    }
    rc = 0;
done:
    for (int k = 0; k < n && paths != NULL; ++k) free(paths[k]);
    free(paths);
    free(first);
    skn_gguf_close(g);
    return rc;
}
