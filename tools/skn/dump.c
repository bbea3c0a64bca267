/* SPDX-License-Identifier: MIT */
/* skn dump FILE TENSOR: a tensor's decoded values (a slice, or statistics)
 * as text, CSV or raw float32. On the public C API only. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "skn/skn.h"
#include "tensor_util.h"

enum { kChunkElements = 1 << 22, kMaxBins = 1000 };

typedef enum { OUT_TEXT, OUT_CSV, OUT_RAW } output_kind;

static int usage_error(const char* fmt, const char* arg) {
    char message[512];
    snprintf(message, sizeof message, fmt, arg);
    return skn_cli_usage_error("dump", skn_help_skn_dump, "%s", message);
}

/* "A:B" (B exclusive), "A:" (to the end), ":B", "A" (one index). Negative
 * bounds count from the end, as in Python. */
typedef struct {
    int given;
    int64_t start, stop;
    int has_start, has_stop;
} range;

static int parse_int(const char* s, const char* end, int64_t* out) {
    if (s == end) return 0;
    char* stop = NULL;
    errno = 0;
    const long long v = strtoll(s, &stop, 10);
    if (errno != 0 || stop != end) return 0;
    *out = (int64_t)v;
    return 1;
}

static int parse_range(const char* text, range* r) {
    const char* colon = strchr(text, ':');
    const char* end = text + strlen(text);
    r->given = 1;
    if (colon == NULL) {
        if (!parse_int(text, end, &r->start)) return 0;
        r->has_start = r->has_stop = 1;
        r->stop = r->start == -1 ? INT64_MAX : r->start + 1;
        if (r->start == -1) r->has_stop = 0;
        return 1;
    }
    r->has_start = colon != text;
    r->has_stop = colon + 1 != end;
    if (r->has_start && !parse_int(text, colon, &r->start)) return 0;
    if (r->has_stop && !parse_int(colon + 1, end, &r->stop)) return 0;
    return 1;
}

/* Resolve against an extent n: [*a, *b) inside [0, n], non-empty. */
static int resolve(const range* r, int64_t n, int64_t* a, int64_t* b, const char* what, const char* text) {
    int64_t s = r->has_start ? r->start : 0, e = r->has_stop ? r->stop : n;
    if (s < 0) s += n;
    if (e < 0) e += n;
    if (!r->given) {
        s = 0;
        e = n;
    }
    if (s < 0 || s >= n || e <= s || e > n) {
        fprintf(stderr,
                "skn dump: %s %s selects nothing inside 0:%" PRId64 " (the tensor has %" PRId64 " %s): give START:STOP "
                "with 0 <= START < STOP <= %" PRId64 "\n",
                what, text, n, n, what[2] == 'r' ? "rows" : "columns", n);
        return 0;
    }
    *a = s;
    *b = e;
    return 1;
}

static void print_shape(const skn_gguf_tensor_props* t) {
    printf("[");
    for (int d = 0; d < t->rank; ++d) printf("%s%" PRId64, d ? ", " : "", t->shape[d]);
    printf("]");
}

/* How many of `rows` rows to decode at a time: about kChunkElements floats,
 * at least one row (one group of a row-interleaved format's rows, which
 * decode together); all of them for a format with a per-tensor trailer
 * (I2_S), which skn_tensor_decode_rows decodes whole anyway. */
static int64_t rows_per_step(const skn_gguf_tensor_props* t, int64_t rows) {
    int64_t step = skn_chunk_rows(t->ne[0], rows, kChunkElements, skn_format_rows_per_block(t->format));
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(t->format, &fp) == SKN_OK && fp.tensor_trailer_bytes > 0) step = rows;
    return step;
}

static int stats(const skn_gguf* g, int64_t index, const skn_gguf_tensor_props* t, int64_t r0, int64_t r1, int64_t c0,
                 int64_t c1, int bins, int json) {
    const int64_t cols = t->ne[0];
    const int64_t step = rows_per_step(t, r1 - r0);
    float* buf = malloc((size_t)(step * cols) * sizeof(float));
    uint64_t* hist = calloc((size_t)bins, sizeof *hist);
    if (buf == NULL || hist == NULL) {
        fprintf(stderr, "skn dump: out of memory\n");
        free(buf);
        free(hist);
        return 1;
    }
    /* Two passes: min/max/sums, then the histogram over [min, max]. Sums in
     * double, in index order, so the numbers do not depend on chunking. */
    double lo = INFINITY, hi = -INFINITY, sum = 0, sumsq = 0;
    uint64_t finite = 0, nans = 0, infs = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (int64_t row = r0; row < r1; row += step) {
            const int64_t n = r1 - row < step ? r1 - row : step;
            if (skn_tensor_decode_rows(g, index, t, row, n, buf) != SKN_OK) {
                fprintf(stderr, "skn dump: cannot decode tensor \"%s\": %s\n", t->name, skn_last_error());
                free(buf);
                free(hist);
                return 1;
            }
            for (int64_t i = 0; i < n; ++i)
                for (int64_t c = c0; c < c1; ++c) {
                    const double v = buf[i * cols + c];
                    if (pass == 0) {
                        if (isnan(v)) {
                            ++nans;
                        } else if (isinf(v)) {
                            ++infs;
                        } else {
                            ++finite;
                            lo = v < lo ? v : lo;
                            hi = v > hi ? v : hi;
                            sum += v;
                            sumsq += v * v;
                        }
                    } else if (isfinite(v)) {
                        int64_t b = hi > lo ? (int64_t)((v - lo) / (hi - lo) * bins) : 0;
                        if (b >= bins) b = bins - 1;
                        ++hist[b];
                    }
                }
        }
        if (finite == 0) break;
    }
    const double mean = finite ? sum / (double)finite : NAN, rms = finite ? sqrt(sumsq / (double)finite) : NAN;
    const uint64_t count = (uint64_t)((r1 - r0) * (c1 - c0));
    if (json) {
        printf("{\"tensor\": ");
        skn_json_string(stdout, t->name, t->name_len);
        printf(", \"type\": \"%s\", \"rows\": [%" PRId64 ", %" PRId64 "], \"cols\": [%" PRId64 ", %" PRId64
               "], \"count\": %" PRIu64 ", \"finite\": %" PRIu64 ", \"nan\": %" PRIu64 ", \"inf\": %" PRIu64
               ", \"min\": ",
               t->type_name, r0, r1, c0, c1, count, finite, nans, infs);
        skn_json_float(stdout, finite ? lo : NAN, 9);
        printf(", \"max\": ");
        skn_json_float(stdout, finite ? hi : NAN, 9);
        printf(", \"mean\": ");
        skn_json_float(stdout, mean, 9);
        printf(", \"rms\": ");
        skn_json_float(stdout, rms, 9);
        printf(", \"histogram\": [");
        for (int b = 0; b < bins && finite; ++b) {
            printf("%s{\"from\": ", b ? ", " : "");
            skn_json_float(stdout, lo + (hi - lo) * b / bins, 9);
            printf(", \"to\": ");
            skn_json_float(stdout, lo + (hi - lo) * (b + 1) / bins, 9);
            printf(", \"count\": %" PRIu64 "}", hist[b]);
        }
        printf("]}\n");
    } else {
        printf("tensor %s %s ", t->name, t->type_name);
        print_shape(t);
        printf(", rows %" PRId64 ":%" PRId64 ", columns %" PRId64 ":%" PRId64 "\n", r0, r1, c0, c1);
        printf("count %" PRIu64 " (finite %" PRIu64 ", NaN %" PRIu64 ", inf %" PRIu64 ")\n", count, finite, nans, infs);
        if (finite) {
            printf("min   %.9g\nmax   %.9g\nmean  %.9g\nrms   %.9g\nhistogram (%d bins over [min, max]):\n", lo, hi,
                   mean, rms, bins);
            uint64_t peak = 1;
            for (int b = 0; b < bins; ++b) peak = hist[b] > peak ? hist[b] : peak;
            for (int b = 0; b < bins; ++b) {
                const int bar = (int)((hist[b] * 40 + peak - 1) / peak);
                printf("  [%13.6g, %13.6g%c %10" PRIu64 " ", lo + (hi - lo) * b / bins, lo + (hi - lo) * (b + 1) / bins,
                       b == bins - 1 ? ']' : ')', hist[b]);
                for (int k = 0; k < bar; ++k) putchar('#');
                putchar('\n');
            }
        }
    }
    free(buf);
    free(hist);
    return 0;
}

static int slice(const skn_gguf* g, int64_t index, const skn_gguf_tensor_props* t, int64_t r0, int64_t r1, int64_t c0,
                 int64_t c1, output_kind kind) {
    const int64_t cols = t->ne[0];
    const int64_t step = rows_per_step(t, r1 - r0);
    float* buf = malloc((size_t)(step * cols) * sizeof(float));
    if (buf == NULL) {
        fprintf(stderr, "skn dump: out of memory\n");
        return 1;
    }
    if (kind == OUT_TEXT) {
        printf("tensor %s %s ", t->name, t->type_name);
        print_shape(t);
        printf(", rows %" PRId64 ":%" PRId64 ", columns %" PRId64 ":%" PRId64 "\n", r0, r1, c0, c1);
    } else if (kind == OUT_CSV) {
        printf("row");
        for (int64_t c = c0; c < c1; ++c) printf(",%" PRId64, c);
        putchar('\n');
    }
    for (int64_t row = r0; row < r1; row += step) {
        const int64_t n = r1 - row < step ? r1 - row : step;
        if (skn_tensor_decode_rows(g, index, t, row, n, buf) != SKN_OK) {
            fprintf(stderr, "skn dump: cannot decode tensor \"%s\": %s\n", t->name, skn_last_error());
            free(buf);
            return 1;
        }
        for (int64_t i = 0; i < n; ++i) {
            const float* v = buf + i * cols;
            if (kind == OUT_RAW) {
                if (fwrite(v + c0, sizeof(float), (size_t)(c1 - c0), stdout) != (size_t)(c1 - c0)) {
                    fprintf(stderr, "skn dump: cannot write to stdout: %s\n", strerror(errno));
                    free(buf);
                    return 1;
                }
                continue;
            }
            printf(kind == OUT_CSV ? "%" PRId64 : "%6" PRId64 ":", row + i);
            for (int64_t c = c0; c < c1; ++c) printf(kind == OUT_CSV ? ",%.9g" : " %.6g", (double)v[c]);
            putchar('\n');
        }
    }
    free(buf);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "skn dump: cannot write to stdout: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int skn_cmd_dump(int argc, char** argv) {
    const char* path = NULL;
    const char* name = NULL;
    const char* rows_text = "all";
    const char* cols_text = "all";
    range rows = {0}, cols = {0};
    int want_stats = 0, json = 0, bins = 10;
    output_kind kind = OUT_TEXT;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (skn_cli_is_help(a)) {
            fputs(skn_help_skn_dump, stdout);
            return 0;
        } else if (strcmp(a, "--rows") == 0 || strcmp(a, "--cols") == 0) {
            if (i + 1 >= argc) return usage_error("%s needs a range START:STOP", a);
            range* r = a[2] == 'r' ? &rows : &cols;
            if (a[2] == 'r')
                rows_text = argv[i + 1];
            else
                cols_text = argv[i + 1];
            if (!parse_range(argv[++i], r)) return usage_error("cannot read the range \"%s\": write START:STOP (e.g. 0:4), START:, :STOP or INDEX", argv[i]);
        } else if (strcmp(a, "--stats") == 0) {
            want_stats = 1;
        } else if (strcmp(a, "--bins") == 0) {
            int64_t b = 0;
            if (i + 1 >= argc || !parse_int(argv[i + 1], argv[i + 1] + strlen(argv[i + 1]), &b) || b < 1 || b > kMaxBins)
                return usage_error("--bins needs a count from 1 to 1000%s", "");
            bins = (int)b;
            ++i;
        } else if (strcmp(a, "--i2s-layout") == 0) {
            if (i + 1 >= argc || !skn_tool_set_i2s_layout(argv[++i]))
                return usage_error("--i2s-layout needs x86 or arm64 (the bitnet.cpp build that wrote the file's I2_S tensors)%s", "");
        } else if (strcmp(a, "--csv") == 0) {
            kind = OUT_CSV;
        } else if (strcmp(a, "--raw") == 0) {
            kind = OUT_RAW;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] == '-' && a[1] != 0) {
            return usage_error("unknown option \"%s\"", a);
        } else if (path == NULL) {
            path = a;
        } else if (name == NULL) {
            name = a;
        } else {
            return usage_error("unexpected argument \"%s\": give FILE and TENSOR", a);
        }
    }
    if (path == NULL || name == NULL) return usage_error("give the GGUF FILE and the TENSOR name%s", "");
    if (want_stats && kind != OUT_TEXT) return usage_error("--stats prints text or --json, not --csv or --raw%s", "");
    if (json && !want_stats) return usage_error("--json goes with --stats (a slice is text, --csv or --raw)%s", "");
    if (kind == OUT_RAW && isatty(STDOUT_FILENO))
        return usage_error("--raw writes binary float32: redirect stdout to a file or a pipe%s", "");

    skn_gguf* g = NULL;
    skn_status st = skn_tool_open(path, &g);
    if (st != SKN_OK) {
        fprintf(stderr, "skn dump: %s: %s\n", skn_status_name(st), skn_last_error());
        return 1;
    }
    int rc = 1;
    int64_t index = -1;
    skn_gguf_tensor_props t;
    memset(&t, 0, sizeof t);
    t.struct_size = sizeof t;
    if (skn_gguf_find_tensor(g, name, &index) != SKN_OK || index < 0) {
        fprintf(stderr, "skn dump: %s has no tensor \"%s\"; its tensors are:", path, name);
        for (int64_t i = 0; i < skn_gguf_tensor_count(g) && i < 20; ++i)
            if (skn_gguf_tensor_info(g, i, &t) == SKN_OK) fprintf(stderr, "%s %s", i ? "," : "", t.name);
        fprintf(stderr, "%s\n(skn inspect %s lists them all)\n", skn_gguf_tensor_count(g) > 20 ? ", ..." : "", path);
        goto done;
    }
    if (skn_gguf_tensor_info(g, index, &t) != SKN_OK) {
        fprintf(stderr, "skn dump: %s\n", skn_last_error());
        goto done;
    }
    if (!t.supported) {
        fprintf(stderr, "skn dump: tensor \"%s\" is %s (type %d), %s\n", name, t.type_name, (int)t.type_id,
                skn_tool_unsupported_reason(&t));
        goto done;
    }
    int64_t r0, r1, c0, c1;
    const int64_t nrows = skn_tensor_rows(&t);
    if (!resolve(&rows, nrows, &r0, &r1, "--rows", rows_text) || !resolve(&cols, t.ne[0], &c0, &c1, "--cols", cols_text)) {
        rc = 2;
        goto done;
    }
    rc = want_stats ? stats(g, index, &t, r0, r1, c0, c1, bins, json) : slice(g, index, &t, r0, r1, c0, c1, kind);
done:
    skn_gguf_close(g);
    return rc;
}
