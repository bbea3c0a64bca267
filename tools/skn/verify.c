/* SPDX-License-Identifier: MIT */
/* skn verify FILE: is every tensor where it should be, and does it decode
 * to finite numbers? On the public C API only. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "model_hash.h"
#include "sha256.h"
#include "skn/skn.h"
#include "tensor_util.h"

/* Rows decoded at a time: bounds memory by about 16 MiB of floats, whatever
 * the tensor's size (a tensor with a trailer is decoded whole). */
enum { kChunkElements = 1 << 22 };

typedef struct {
    int ok;                 /* 1 when nothing is wrong with this tensor */
    int checked;            /* 0 when its values could not be decoded (a type skn does not implement) */
    char problem[512];      /* the first thing wrong, or why values were not checked */
    char sha256[65];
} tensor_report;

typedef struct {
    skn_gguf_tensor_props info;
    int64_t index;
} placed;

static int by_offset(const void* a, const void* b) {
    const placed* x = a;
    const placed* y = b;
    return x->info.offset < y->info.offset ? -1 : x->info.offset > y->info.offset ? 1 : (x->index < y->index ? -1 : 1);
}

/* Values: the first non-finite one by element index in file order (row i,
 * column j: element i * ne[0] + j). */
static void check_values(const skn_gguf* g, int64_t index, const skn_gguf_tensor_props* t, tensor_report* r) {
    const int64_t cols = t->ne[0], rows = skn_tensor_rows(t);
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(t->format, &fp) != SKN_OK) return;
    /* Whole groups of a row-interleaved format's rows at a time. */
    int64_t step = skn_chunk_rows(cols, rows, kChunkElements, skn_format_rows_per_block(t->format));
    if (fp.tensor_trailer_bytes > 0) step = rows;
    float* buf = malloc((size_t)(step * cols) * sizeof(float));
    if (buf == NULL) {
        r->ok = 0;
        snprintf(r->problem, sizeof r->problem, "cannot allocate %" PRId64 " floats to decode it", step * cols);
        return;
    }
    r->checked = 1;
    for (int64_t row0 = 0; row0 < rows && r->ok; row0 += step) {
        const int64_t n = rows - row0 < step ? rows - row0 : step;
        const skn_status st = skn_tensor_decode_rows(g, index, t, row0, n, buf);
        if (st != SKN_OK) {
            r->ok = 0;
            snprintf(r->problem, sizeof r->problem, "cannot decode rows %" PRId64 "..%" PRId64 ": %s: %s", row0,
                     row0 + n - 1, skn_status_name(st), skn_last_error());
            break;
        }
        for (int64_t i = 0; i < n * cols; ++i) {
            if (isfinite(buf[i])) continue;
            const int64_t e = row0 * cols + i;
            r->ok = 0;
            snprintf(r->problem, sizeof r->problem, "element %" PRId64 " (row %" PRId64 ", column %" PRId64 ") is %s",
                     e, e / cols, e % cols, isnan(buf[i]) ? "NaN" : buf[i] > 0 ? "+inf" : "-inf");
            break;
        }
    }
    free(buf);
}

static void hash_tensor(const skn_gguf* g, int64_t index, tensor_report* r) {
    const void* data = NULL;
    size_t size = 0;
    if (skn_gguf_tensor_data(g, index, &data, &size) != SKN_OK) {
        snprintf(r->sha256, sizeof r->sha256, "-");
        return;
    }
    skn_sha256 s;
    skn_sha256_init(&s);
    skn_sha256_update(&s, data, size);
    skn_sha256_final(&s, r->sha256);
}

static int usage_error(const char* what) { return skn_cli_usage_error("verify", skn_help_skn_verify, "%s", what); }

int skn_cmd_verify(int argc, char** argv) {
    int json = 0, hash = 0, model_hash = 0;
    const char* path = NULL;
    for (int i = 1; i < argc; ++i) {
        if (skn_cli_is_help(argv[i])) {
            return skn_cli_help(skn_help_skn_verify);
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--hash") == 0) {
            hash = 1;
        } else if (strcmp(argv[i], "--model-hash") == 0) {
            model_hash = 1;
        } else if (strcmp(argv[i], "--i2s-layout") == 0) {
            if (i + 1 >= argc || !skn_tool_set_i2s_layout(argv[++i]))
                return usage_error("--i2s-layout needs x86 or arm64 (the bitnet.cpp build that wrote the file's I2_S tensors)");
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option \"%s\"", argv[i]);
            return usage_error(msg);
        } else if (path == NULL) {
            path = argv[i];
        } else {
            return usage_error("give one FILE");
        }
    }
    if (path == NULL) return usage_error("give the GGUF FILE to verify");

    skn_gguf* g = NULL;
    const skn_status st = skn_tool_open(path, &g);
    if (st != SKN_OK) {
        /* The reader checks every offset and size at open: a truncated file,
         * a tensor out of range or misaligned is refused here, naming it. */
        if (json) {
            printf("{\"file\": ");
            skn_json_string(stdout, path, strlen(path));
            printf(", \"ok\": false, \"error\": {\"status\": \"%s\", \"message\": ", skn_status_name(st));
            const char* m = skn_last_error();
            skn_json_string(stdout, m, strlen(m));
            printf("}, \"tensors\": []}\n");
        } else {
            printf("%s: BAD: %s: %s\n", path, skn_status_name(st), skn_last_error());
        }
        return 1;
    }
    const int64_t nt = skn_gguf_tensor_count(g);
    const uint64_t data_offset = skn_gguf_data_offset(g), file_size = skn_gguf_file_size(g);
    const uint32_t alignment = skn_gguf_alignment(g);
    placed* ts = calloc((size_t)(nt > 0 ? nt : 1), sizeof *ts);
    tensor_report* rs = calloc((size_t)(nt > 0 ? nt : 1), sizeof *rs);
    if (ts == NULL || rs == NULL) {
        fprintf(stderr, "skn verify: out of memory for %" PRId64 " tensors\n", nt);
        free(ts);
        free(rs);
        skn_gguf_close(g);
        return 1;
    }
    for (int64_t i = 0; i < nt; ++i) {
        ts[i].index = i;
        ts[i].info.struct_size = sizeof ts[i].info;
        rs[i].ok = 1;
        if (skn_gguf_tensor_info(g, i, &ts[i].info) != SKN_OK) {
            rs[i].ok = 0;
            snprintf(rs[i].problem, sizeof rs[i].problem, "cannot read its info: %s", skn_last_error());
        }
    }
    /* Placement, checked here again (the reader checks it at open) so that
     * verify's verdict does not rest on one implementation alone. */
    for (int64_t i = 0; i < nt; ++i) {
        const skn_gguf_tensor_props* t = &ts[i].info;
        tensor_report* r = &rs[i];
        if (!r->ok) continue;
        if (t->offset < data_offset || t->offset > file_size || t->size > file_size - t->offset) {
            r->ok = 0;
            snprintf(r->problem, sizeof r->problem,
                     "bytes %" PRIu64 "..%" PRIu64 " are outside the data section (bytes %" PRIu64 "..%" PRIu64 ")",
                     t->offset, t->offset + t->size, data_offset, file_size);
        } else if ((t->offset - data_offset) % alignment != 0) {
            r->ok = 0;
            snprintf(r->problem, sizeof r->problem, "offset %" PRIu64 " in the data section is not a multiple of the alignment %u",
                     t->offset - data_offset, alignment);
        }
    }
    placed* sorted = malloc((size_t)(nt > 0 ? nt : 1) * sizeof *sorted);
    if (sorted != NULL) {
        memcpy(sorted, ts, (size_t)nt * sizeof *sorted);
        qsort(sorted, (size_t)nt, sizeof *sorted, by_offset);
        for (int64_t k = 1; k < nt; ++k) {
            const skn_gguf_tensor_props* a = &sorted[k - 1].info;
            const skn_gguf_tensor_props* b = &sorted[k].info;
            tensor_report* r = &rs[sorted[k].index];
            if (a->offset + a->size > b->offset && r->ok) {
                r->ok = 0;
                snprintf(r->problem, sizeof r->problem, "its bytes %" PRIu64 "..%" PRIu64 " overlap tensor \"%s\" (bytes %" PRIu64 "..%" PRIu64 ")",
                         b->offset, b->offset + b->size, a->name, a->offset, a->offset + a->size);
            }
        }
        free(sorted);
    }
    int64_t bad = 0, unchecked = 0;
    for (int64_t i = 0; i < nt; ++i) {
        const skn_gguf_tensor_props* t = &ts[i].info;
        tensor_report* r = &rs[i];
        if (r->ok && t->supported) check_values(g, i, t, r);
        if (r->ok && !t->supported) {
            snprintf(r->problem, sizeof r->problem, "values not checked: %s (type %d) is %s", t->type_name,
                     (int)t->type_id, skn_tool_unsupported_reason(t));
            ++unchecked;
        }
        if (hash) hash_tensor(g, i, r);
        if (!r->ok) ++bad;
    }
    skn_model_hash mh;
    skn_status mh_status = SKN_OK;
    if (model_hash) mh_status = skn_model_hash_compute(g, &mh);
    char mh_error[512] = "";
    if (mh_status != SKN_OK) snprintf(mh_error, sizeof mh_error, "%s: %s", skn_status_name(mh_status), skn_last_error());

    if (json) {
        printf("{\"file\": ");
        skn_json_string(stdout, path, strlen(path));
        printf(", \"ok\": %s, \"version\": %u, \"alignment\": %u, \"file_size\": %" PRIu64 ", \"tensor_count\": %" PRId64
               ", \"bad\": %" PRId64 ", \"unchecked\": %" PRId64 ",%s\n  \"tensors\": [",
               bad == 0 ? "true" : "false", skn_gguf_version(g), alignment, file_size, nt, bad, unchecked,
               hash ? " \"hash\": \"sha256\"," : "");
        for (int64_t i = 0; i < nt; ++i) {
            const skn_gguf_tensor_props* t = &ts[i].info;
            printf("%s\n    {\"name\": ", i ? "," : "");
            skn_json_string(stdout, t->name, t->name_len);
            printf(", \"type\": \"%s\", \"offset\": %" PRIu64 ", \"size\": %" PRIu64 ", \"ok\": %s, \"checked\": %s",
                   t->type_name, t->offset, t->size, rs[i].ok ? "true" : "false", rs[i].checked ? "true" : "false");
            if (rs[i].problem[0]) {
                printf(", \"problem\": ");
                skn_json_string(stdout, rs[i].problem, strlen(rs[i].problem));
            }
            if (hash) printf(", \"sha256\": \"%s\"", rs[i].sha256);
            printf("}");
        }
        printf("%s]", nt ? "\n  " : "");
        if (model_hash && mh_status == SKN_OK)
            printf(",\n  \"model_hash\": {\"sha1\": \"%s\", \"sha256\": \"%s\", \"uuid\": \"%s\", \"tensors\": %" PRId64
                   ", \"bytes\": %" PRIu64 "}", mh.sha1, mh.sha256, mh.uuid, mh.tensors, mh.bytes);
        else if (model_hash) {
            printf(",\n  \"model_hash\": {\"error\": ");
            skn_json_string(stdout, mh_error, strlen(mh_error));
            printf("}");
        }
        printf("}\n");
    } else {
        printf("%s: GGUF v%u, %" PRId64 " tensors, %" PRIu64 " bytes, alignment %u\n", path, skn_gguf_version(g), nt,
               file_size, alignment);
        for (int64_t i = 0; i < nt; ++i) {
            const skn_gguf_tensor_props* t = &ts[i].info;
            const char* verdict = !rs[i].ok ? "BAD " : rs[i].checked ? "ok  " : "skip";
            char line[1024];
            int at = snprintf(line, sizeof line, "  %s %-32s %-8s", verdict, t->name, t->type_name);
            if (hash && at < (int)sizeof line) at += snprintf(line + at, sizeof line - (size_t)at, " sha256:%s", rs[i].sha256);
            if (rs[i].problem[0] && at < (int)sizeof line)
                at += snprintf(line + at, sizeof line - (size_t)at, " %s", rs[i].problem);
            size_t end = strlen(line);
            while (end > 0 && line[end - 1] == ' ') --end; /* no trailing blanks after the type */
            printf("%.*s\n", (int)end, line);
        }
        if (bad == 0)
            printf("%s: OK: %" PRId64 " tensors in range, aligned, not overlapping%s", path, nt,
                   nt - unchecked > 0 ? ", finite" : "");
        else
            printf("%s: BAD: %" PRId64 " of %" PRId64 " tensors", path, bad, nt);
        if (unchecked > 0) printf(" (%" PRId64 " of a type skn does not decode: values not checked)", unchecked);
        putchar('\n');
        /* gguf_hash.py --no-layer's lines, so the two can be compared with diff. */
        if (model_hash && mh_status == SKN_OK)
            printf("sha1      %s  %s\nsha256    %s  %s\nuuid      %s  %s\n", mh.sha1, path, mh.sha256, path, mh.uuid,
                   path);
        else if (model_hash)
            printf("%s: no model hash: %s\n", path, mh_error);
    }
    free(ts);
    free(rs);
    skn_gguf_close(g);
    return bad == 0 && mh_status == SKN_OK ? 0 : 1;
}
