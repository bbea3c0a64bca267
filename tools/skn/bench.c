/* SPDX-License-Identifier: MIT */
/* skn bench: matmul_wt throughput per format x order x ISA x shape x n x
 * threads, next to the machine's own roofline measured in the same run;
 * with --moe E,k, skn_matmul_wt_id over E stacked experts of each shape. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "roofline.h"
#include "skn/skn.h"

#define MAX_ITEMS 32
/* Room for every format libskn has (--formats all): 40 in 1.0. */
#define MAX_FORMATS 128
/* Weight copies an n = 1 run rotates through (16x the last-level cache in all). */
#define MAX_COPIES 512

struct shape {
    int64_t out, in;
};

struct config {
    skn_format formats[MAX_FORMATS];
    int nformats;
    struct shape shapes[MAX_ITEMS];
    int nshapes;
    int64_t ns[MAX_ITEMS];
    int nn;
    int threads[MAX_ITEMS];
    int nthreads;
    skn_block_order orders[2];
    int norders;
    skn_isa isas[MAX_ITEMS];
    int nisas;
    int reps;
    int include_reference;
    skn_precision precision;
    const char* json_path;
    const char* order_table_path;
    int64_t moe_experts, moe_k; /* --moe E,k; 0: plain matmul_wt */
};

struct result {
    const char* format;
    const char* order;
    char kernel[128];
    int64_t out, in, n;
    int threads;
    skn_isa cap;
    double ms, gbps, gflops, roof;
    const char* roof_kind;
    int skipped;
    int64_t experts; /* --moe E: the stacked experts of the weight; 0 otherwise */
};

struct last_kernel {
    char name[128];
    skn_isa isa;
};

static void on_trace(const skn_trace_event* e, void* user) {
    struct last_kernel* k = (struct last_kernel*)user;
    if (e->kind == SKN_TRACE_KERNEL) {
        snprintf(k->name, sizeof k->name, "%s", e->name);
        k->isa = e->isa;
    }
}

static int parse_list(const char* s, char items[][32], int max) {
    int n = 0;
    while (*s && n < max) {
        const char* comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (len >= 32) len = 31;
        memcpy(items[n], s, len);
        items[n][len] = 0;
        ++n;
        if (!comma) break;
        s = comma + 1;
    }
    return n;
}

static int cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static int defaults(struct config* c) {
    static const char* fmts[] = {"q4_0", "q8_0", "q4_k", "q6_k", "iq4_nl", "mxfp4", "tq2_0", "bf16"};
    c->nformats = 0;
    for (size_t i = 0; i < sizeof fmts / sizeof *fmts; ++i)
        if (skn_format_from_name(fmts[i], &c->formats[c->nformats]) == SKN_OK) c->nformats++;
    c->shapes[0].out = 14336;
    c->shapes[0].in = 4096;
    c->nshapes = 1;
    c->ns[0] = 1;
    c->ns[1] = 256;
    c->nn = 2;
    c->threads[0] = 1;
    c->threads[1] = 2;
    c->nthreads = 2;
    c->orders[0] = SKN_ORDER_ROW_MAJOR;
    c->orders[1] = SKN_ORDER_INPUT_BLOCK_MAJOR;
    c->norders = 2;
    c->isas[0] = skn_cpu_isa();
    c->nisas = 1;
    c->reps = 5;
    return 0;
}

/* Every tier this CPU runs, scalar first (the library's ISA table, listed
 * by skn_isa_at). */
static void all_isas(struct config* c) {
    c->nisas = 0;
    for (int32_t i = 0; i < skn_isa_count() && c->nisas < (int)(sizeof c->isas / sizeof *c->isas); ++i)
        if (skn_cpu_runs_isa((skn_isa)skn_isa_at(i))) c->isas[c->nisas++] = (skn_isa)skn_isa_at(i);
}

/* The tier named `name` (any architecture's), or -1. */
static int32_t isa_from_name(const char* name) {
    for (int32_t i = 0; i < skn_isa_count(); ++i)
        if (strcmp(name, skn_isa_name((skn_isa)skn_isa_at(i))) == 0) return skn_isa_at(i);
    return -1;
}

static int parse_args(int argc, char** argv, struct config* c) {
    char items[MAX_FORMATS][32];
    defaults(c);
    for (int a = 1; a < argc; ++a) {
        const char* opt = argv[a];
        const char* val = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(opt, "--include-reference") == 0) {
            c->include_reference = 1;
            continue;
        }
        if (strcmp(opt, "--full") == 0) {
            const int64_t shapes[3][2] = {{4096, 4096}, {14336, 4096}, {4096, 14336}};
            c->nshapes = 3;
            for (int i = 0; i < 3; ++i) {
                c->shapes[i].out = shapes[i][0];
                c->shapes[i].in = shapes[i][1];
            }
            const int64_t ns[4] = {1, 8, 32, 256};
            c->nn = 4;
            memcpy(c->ns, ns, sizeof ns);
            all_isas(c);
            continue;
        }
        if (skn_cli_is_help(opt)) {
            skn_cli_help(skn_help_skn_bench);
            exit(0);
        }
        if (val == NULL) return skn_cli_usage_error("bench", skn_help_skn_bench, "%s needs a value", opt);
        ++a;
        const int n = parse_list(val, items, strcmp(opt, "--formats") == 0 ? MAX_FORMATS : MAX_ITEMS);
        if (strcmp(opt, "--formats") == 0) {
            c->nformats = 0;
            if (n == 1 && strcmp(items[0], "all") == 0) {
                for (int32_t i = 0; i < skn_format_count() && c->nformats < MAX_FORMATS; ++i)
                    c->formats[c->nformats++] = (skn_format)skn_format_at(i);
                continue;
            }
            for (int i = 0; i < n; ++i)
                if (skn_format_from_name(items[i], &c->formats[c->nformats++]) != SKN_OK) {
                    fprintf(stderr, "skn bench: %s\n", skn_last_error());
                    return 2;
                }
        } else if (strcmp(opt, "--shapes") == 0) {
            c->nshapes = n;
            for (int i = 0; i < n; ++i)
                if (sscanf(items[i], "%ldx%ld", (long*)&c->shapes[i].out, (long*)&c->shapes[i].in) != 2) {
                    fprintf(stderr, "skn bench: shape \"%s\" is not OUTxIN\n", items[i]);
                    return 2;
                }
        } else if (strcmp(opt, "--n") == 0) {
            c->nn = n;
            for (int i = 0; i < n; ++i) c->ns[i] = atol(items[i]);
        } else if (strcmp(opt, "--threads") == 0) {
            c->nthreads = n;
            for (int i = 0; i < n; ++i) c->threads[i] = atoi(items[i]);
        } else if (strcmp(opt, "--orders") == 0) {
            c->norders = 0;
            for (int i = 0; i < n && i < 2; ++i)
                c->orders[c->norders++] = strcmp(items[i], "ibm") == 0 ? SKN_ORDER_INPUT_BLOCK_MAJOR : SKN_ORDER_ROW_MAJOR;
        } else if (strcmp(opt, "--isa") == 0) {
            if (n == 1 && strcmp(items[0], "all") == 0) {
                all_isas(c);
                continue;
            }
            c->nisas = 0;
            for (int i = 0; i < n; ++i) {
                if (strcmp(items[i], "best") == 0) {
                    c->isas[c->nisas++] = skn_cpu_isa();
                    continue;
                }
                const int32_t t = isa_from_name(items[i]);
                if (t < 0) {
                    fprintf(stderr, "skn bench: unknown ISA \"%s\" (one of:", items[i]);
                    for (int32_t k = 0; k < skn_isa_count(); ++k) fprintf(stderr, " %s", skn_isa_name((skn_isa)skn_isa_at(k)));
                    fprintf(stderr, ", best, all)\n");
                    return 2;
                }
                if (!skn_cpu_runs_isa((skn_isa)t)) {
                    fprintf(stderr, "skn bench: this CPU does not run %s kernels (best tier: %s; --isa all lists what it runs)\n",
                            items[i], skn_isa_name(skn_cpu_isa()));
                    return 2;
                }
                c->isas[c->nisas++] = (skn_isa)t;
            }
        } else if (strcmp(opt, "--reps") == 0) {
            c->reps = atoi(val);
            if (c->reps < 1) c->reps = 1;
            if (c->reps > 64) c->reps = 64;
        } else if (strcmp(opt, "--precision") == 0) {
            if (strcmp(val, "fast") == 0) {
                c->precision = SKN_PRECISION_FAST;
            } else if (strcmp(val, "exact") == 0) {
                c->precision = SKN_PRECISION_EXACT;
            } else {
                fprintf(stderr, "skn bench: --precision is fast or exact, not %s\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--moe") == 0) {
            if (n != 2 || (c->moe_experts = atol(items[0])) < 1 || (c->moe_k = atol(items[1])) < 1 ||
                c->moe_k > c->moe_experts) {
                fprintf(stderr, "skn bench: --moe is E,k with 1 <= k <= E (e.g. 64,8), not %s\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--json") == 0) {
            c->json_path = val;
        } else if (strcmp(opt, "--order-table") == 0) {
            c->order_table_path = val;
        } else {
            return skn_cli_usage_error("bench", skn_help_skn_bench, "unknown option \"%s\"", opt);
        }
    }
    if (c->moe_experts > 4096 || (c->moe_experts && c->order_table_path != NULL)) {
        fprintf(stderr, "skn bench: --moe takes at most 4096 experts, and does not write an order table\n");
        return 2;
    }
    for (int i = 0; i < c->nn; ++i)
        if (c->ns[i] < 1) {
            fprintf(stderr, "skn bench: n must be >= 1\n");
            return 2;
        }
    for (int i = 0; i < c->nthreads; ++i)
        if (c->threads[i] < 1) {
            fprintf(stderr, "skn bench: threads must be >= 1\n");
            return 2;
        }
    /* A shape a format cannot hold would be skipped and leave an empty table
     * that looks like success: refuse it up front, naming the block size. */
    for (int si = 0; si < c->nshapes; ++si) {
        if (c->shapes[si].out < 1 || c->shapes[si].in < 1) {
            fprintf(stderr, "skn bench: shape %ldx%ld: both OUT and IN must be >= 1\n", (long)c->shapes[si].out,
                    (long)c->shapes[si].in);
            return 2;
        }
        for (int fi = 0; fi < c->nformats; ++fi) {
            skn_format_props p;
            memset(&p, 0, sizeof p);
            p.struct_size = sizeof p;
            if (skn_format_info(c->formats[fi], &p) != SKN_OK) continue;
            if (c->shapes[si].in % p.block_elems != 0) {
                fprintf(stderr,
                        "skn bench: shape %ldx%ld cannot hold %s weights: IN (%ld) must be a multiple of %s's block "
                        "size %d (e.g. %ldx%ld)\n",
                        (long)c->shapes[si].out, (long)c->shapes[si].in, p.name, (long)c->shapes[si].in, p.name,
                        (int)p.block_elems, (long)c->shapes[si].out,
                        (long)((c->shapes[si].in + p.block_elems - 1) / p.block_elems * p.block_elems));
                return 2;
            }
            /* A row-interleaved format's block spans block_rows output rows. */
            if (p.block_rows > 1 && c->shapes[si].out % p.block_rows != 0) {
                fprintf(stderr,
                        "skn bench: shape %ldx%ld cannot hold %s weights: OUT (%ld) must be a multiple of the %d rows "
                        "one %s block spans (e.g. %ldx%ld)\n",
                        (long)c->shapes[si].out, (long)c->shapes[si].in, p.name, (long)c->shapes[si].out,
                        (int)p.block_rows, p.name,
                        (long)((c->shapes[si].out + p.block_rows - 1) / p.block_rows * p.block_rows),
                        (long)c->shapes[si].in);
                return 2;
            }
        }
    }
    return 0;
}

/* The rows of src/dispatch/order_table.inc: for every format x ISA cap with
 * both orders measured at 1 thread, the n = 1 (gemv, GB/s) and largest n >= 32
 * (gemm, GFLOP/s) medians of each order. */
static int write_order_table(const char* path, const struct result* results, int nres, int threads) {
    FILE* t = fopen(path, "w");
    if (t == NULL) {
        fprintf(stderr, "skn bench: cannot write %s\n", path);
        return 1;
    }
    fprintf(t, "// SPDX-License-Identifier: MIT\n"
               "// Which block order's kernel is faster, per format x ISA tier x batch regime.\n"
               "// Written by `skn bench --order-table FILE` (tools/skn/bench.c); do not edit\n"
               "// by hand: re-run the bench on the machine class you tune for and check the\n"
               "// file in (docs/performance.md, \"Which order is faster\").\n"
               "// Columns: format, ISA tier, regime (gemv: n = 1, weight GB/s; gemm: n >= 32,\n"
               "// GFLOP/s), ROW_MAJOR value, INPUT_BLOCK_MAJOR value.\n");
    int rows = 0;
    for (int i = 0; i < nres; ++i) {
        const struct result* a = &results[i];
        if (a->skipped || a->threads != threads || strcmp(a->order, "rm") != 0) continue;
        if (!(a->n == 1 || a->n >= 32)) continue;
        for (int j = 0; j < nres; ++j) {
            const struct result* b = &results[j];
            if (b->skipped || b->threads != threads || strcmp(b->order, "ibm") != 0 || b->n != a->n ||
                b->cap != a->cap || b->out != a->out || b->in != a->in || strcmp(b->format, a->format) != 0)
                continue;
            const int gemv = a->n == 1;
            fprintf(t, "{\"%s\", \"%s\", \"%s\", %.1f, %.1f},  // [%ld, %ld] n=%ld\n", a->format,
                    skn_isa_name(a->cap), gemv ? "gemv" : "gemm", gemv ? a->gbps : a->gflops,
                    gemv ? b->gbps : b->gflops, (long)a->out, (long)a->in, (long)a->n);
            ++rows;
        }
    }
    fclose(t);
    fprintf(stderr, "skn bench: wrote %d order-table row(s) to %s\n", rows, path);
    return 0;
}

/* Fill `n` bytes with the golden fixture's packed blocks, repeated: the
 * weight of a format skn_quantize writes only with importance weights. */
static int golden_blocks(skn_format f, unsigned char* dst, size_t n, size_t block_bytes) {
    size_t needed = 0;
    if (skn_fixture_golden(f, SKN_GOLDEN_PACKED, NULL, 0, &needed) != SKN_OK || needed < block_bytes) return 0;
    unsigned char* golden = malloc(needed);
    if (golden == NULL || skn_fixture_golden(f, SKN_GOLDEN_PACKED, golden, needed, &needed) != SKN_OK) {
        free(golden);
        return 0;
    }
    const size_t blocks = needed / block_bytes;
    for (size_t at = 0, b = 0; at + block_bytes <= n; at += block_bytes, b = (b + 1) % blocks)
        memcpy(dst + at, golden + b * block_bytes, block_bytes);
    free(golden);
    return 1;
}

/* A weight of `out` rows: a quantized 64-row tile of a smooth pattern plus
 * noise, repeated, so building a 100 MB weight takes milliseconds. */
static unsigned char* make_weight(skn_format f, int64_t out, int64_t in, size_t* bytes) {
    enum { kTile = 64 };
    size_t tile_bytes = 0, total = 0;
    if (skn_quantized_size(f, kTile, in, &tile_bytes) != SKN_OK || skn_quantized_size(f, out, in, &total) != SKN_OK) return NULL;
    float* w = malloc(sizeof(float) * (size_t)(kTile * in));
    unsigned char* tile = malloc(tile_bytes);
    unsigned char* all = aligned_alloc(64, (total + 63) / 64 * 64);
    if (!w || !tile || !all) {
        free(w);
        free(tile);
        free(all);
        return NULL;
    }
    uint64_t s = 12345;
    for (int64_t i = 0; i < kTile * in; ++i) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        w[i] = 0.02f * ((float)(s >> 40) / 16777216.0f - 0.5f) + 0.01f * sinf((float)i * 0.001f);
    }
    if (f == SKN_FORMAT_I2_S || f == SKN_FORMAT_I2_S_G64)
        for (int64_t i = 0; i < kTile * in; ++i) w[i] = w[i] > 0.004f ? 1.0f : (w[i] < -0.004f ? -1.0f : 0.0f);
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    skn_format_info(f, &p);
    if (!p.needs_importance) {
        skn_quantize(f, w, kTile, in, tile, tile_bytes);
    } else if (!golden_blocks(f, tile, tile_bytes, (size_t)p.block_bytes)) {
        free(w);
        free(tile);
        free(all);
        return NULL;
    }
    const size_t trailer = (size_t)p.tensor_trailer_bytes;
    const size_t row_bytes = (tile_bytes - trailer) / kTile;
    for (int64_t r = 0; r < out; ++r) memcpy(all + (size_t)r * row_bytes, tile + (size_t)(r % kTile) * row_bytes, row_bytes);
    memcpy(all + total - trailer, tile + tile_bytes - trailer, trailer);
    free(w);
    free(tile);
    *bytes = total;
    return all;
}

/* --moe: for each timed sample, each of `n` rows routed to k distinct experts
 * of E (a fixed pseudo-random draw per sample, so a decode step reads other
 * experts than the one before it, as a model's does). Returns how many
 * distinct experts the sample's rows use. */
static int64_t draw_routing(int32_t* ids, int64_t n, int64_t k, int64_t experts, int sample) {
    uint64_t s = 0x9E3779B97F4A7C15ULL * (uint64_t)(sample + 1);
    unsigned char used[4096];
    memset(used, 0, sizeof used);
    int64_t distinct = 0;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j) {
            int32_t e;
            int again;
            do {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                e = (int32_t)((s >> 33) % (uint64_t)experts);
                again = 0;
                for (int64_t q = 0; q < j; ++q) again |= ids[i * k + q] == e;
            } while (again);
            ids[i * k + j] = e;
            if (e < 4096 && !used[e]) {
                used[e] = 1;
                ++distinct;
            }
        }
    return distinct;
}

static skn_status run_matmul(skn_context* ctx, const struct config* c, const float* x, int64_t n, int64_t in,
                             int64_t out, const skn_view* w, float* y, const skn_matmul_options* mo, const int32_t* ids) {
    if (c->moe_experts == 0) return skn_matmul_wt(ctx, x, n, in, w, NULL, y, out, mo);
    return skn_matmul_wt_id(ctx, x, n, in, 0, ids, c->moe_k, c->moe_k, NULL, 0, w, NULL, y, c->moe_k * out, out, mo);
}


/* The median of `n` samples (sorted in place). */
static double median_seconds(double* samples, int n) {
    qsort(samples, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

/* The roof a result is compared with: read bandwidth below n = 32, else the
 * compute peak of the instructions its kernel runs. */
static void set_roof(struct result* r, int block_quantized, int bf16, skn_precision precision, double read_bw,
                     double int8_peak, double bf16_peak, double f32_peak) {
    if (r->n < 32) {
        r->roof = r->gbps / read_bw;
        r->roof_kind = "read bandwidth";
    } else if (block_quantized && !bf16 && precision == SKN_PRECISION_FAST) {
        r->roof = r->gflops / int8_peak;
        r->roof_kind = "int8 peak";
    } else if (bf16 && bf16_peak > 0.0) {
        /* Fast BF16 runs vdpbf16ps: two products per lane per instruction. */
        r->roof = r->gflops / bf16_peak;
        r->roof_kind = "bf16 peak";
    } else {
        r->roof = r->gflops / f32_peak;
        r->roof_kind = "f32 peak";
    }
}

static void print_result(const struct result* r) {
    char shp[32];
    if (r->experts)
        snprintf(shp, sizeof shp, "%ldx%ldx%ld", (long)r->experts, (long)r->out, (long)r->in);
    else
        snprintf(shp, sizeof shp, "%ldx%ld", (long)r->out, (long)r->in);
    printf("%-9s %-4s %-11s %-12s %4ld %3d %-40s %9.3f %8.1f %9.1f %6.0f%%\n", r->format, r->order,
           skn_isa_name(r->cap), shp, (long)r->n, r->threads, r->kernel, r->ms, r->gbps, r->gflops, 100.0 * r->roof);
    fflush(stdout);
}

int skn_cmd_bench(int argc, char** argv) {
    struct config c;
    memset(&c, 0, sizeof c);
    const int rc = parse_args(argc, argv, &c);
    if (rc != 0) return rc;
    const int tty = isatty(2);
    const size_t llc = roofline_llc_bytes();

    /* The roofline at every thread count used. */
    double read_bw[MAX_ITEMS], int8_peak[MAX_ITEMS], f32_peak[MAX_ITEMS], bf16_peak[MAX_ITEMS];
    const char *int8_how = "", *f32_how = "", *bf16_how = "";
    fprintf(stderr, "skn bench: measuring the roofline (read bandwidth over %zu MiB, int8, bf16 and f32 peaks)...\n",
            (4 * llc) >> 20);
    for (int t = 0; t < c.nthreads; ++t) {
        read_bw[t] = roofline_read_gbps(4 * llc, c.threads[t], c.reps);
        int8_peak[t] = roofline_int8_gops(c.threads[t], 3, &int8_how);
        f32_peak[t] = roofline_f32_gflops(c.threads[t], 3, &f32_how);
        bf16_peak[t] = roofline_bf16_gflops(c.threads[t], 3, &bf16_how);
        printf("roofline, %d thread%s: read %.1f GB/s, int8 %.0f GOP/s (%s), f32 %.0f GFLOP/s (%s), bf16 %.0f GFLOP/s (%s)\n",
               c.threads[t], c.threads[t] > 1 ? "s" : "", read_bw[t], int8_peak[t], int8_how, f32_peak[t], f32_how,
               bf16_peak[t], bf16_how);
    }
    if (c.moe_experts)
        printf("\n--moe %ld,%ld: skn_matmul_wt_id over %ld stacked experts of each shape, every row routed to %ld "
               "of them;\nGB/s counts the bytes of the experts a call uses, GFLOP/s its n * k rows\n",
               (long)c.moe_experts, (long)c.moe_k, (long)c.moe_experts, (long)c.moe_k);
    printf("\n%-9s %-4s %-11s %-12s %4s %3s %-40s %9s %8s %9s %7s\n", "format", "ord", "isa cap", "shape", "n", "thr",
           "kernel", "ms", "GB/s", "GFLOP/s", "roof%");

    const int total = c.nformats * c.norders * c.nisas * c.nshapes * c.nn * c.nthreads;
    struct result* results = calloc((size_t)total, sizeof *results);
    int done = 0, nres = 0;
    skn_context* ctx = NULL;
    if (skn_context_create(&ctx) != SKN_OK) {
        fprintf(stderr, "skn bench: %s\n", skn_last_error());
        return 1;
    }
    struct last_kernel lk;
    skn_context_set_trace(ctx, on_trace, &lk);
    skn_matmul_options mo;
    memset(&mo, 0, sizeof mo);
    mo.struct_size = sizeof mo;
    mo.precision = c.precision;

    for (int fi = 0; fi < c.nformats; ++fi) {
        const skn_format f = c.formats[fi];
        skn_format_props p;
        memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        skn_format_info(f, &p);
        for (int si = 0; si < c.nshapes; ++si) {
            const int64_t out = c.shapes[si].out, in = c.shapes[si].in;
            if (in % p.block_elems != 0) continue;
            const int64_t experts = c.moe_experts ? c.moe_experts : 1;
            size_t wbytes = 0;
            unsigned char* base = make_weight(f, experts * out, in, &wbytes);
            if (base == NULL) {
                fprintf(stderr, "skn bench: cannot build a %s [%ld, %ld] weight: %s\n", p.name, (long)out, (long)in, skn_last_error());
                continue;
            }
            /* Enough copies that n = 1 streams from memory, not the cache:
             * together at least 16x the last-level cache, for small shapes
             * too (16 copies of a 4-bit [2048, 4096] weight were 2.3x a
             * 32 MiB L3, and its one-token rate came out 25% above what it
             * streams from memory; at 4x a Zen 5 guest's L3 it was still
             * 5-7% above, from 8x it no longer moved). --moe's stacked
             * experts are one big weight drawn at random, cold every call,
             * so only this keeps its dense comparison fair. */
            int copies = (int)((16 * llc + wbytes - 1) / wbytes);
            if (copies < 1) copies = 1;
            if (copies > MAX_COPIES) copies = MAX_COPIES;
            unsigned char* bufs[MAX_COPIES];
            bufs[0] = base;
            for (int k = 1; k < copies; ++k) {
                bufs[k] = aligned_alloc(64, (wbytes + 63) / 64 * 64);
                if (bufs[k] == NULL) { /* fewer copies, as many as memory holds */
                    copies = k;
                    break;
                }
                memcpy(bufs[k], base, wbytes);
            }
            const int64_t shape[3] = {experts, out, in};
            const int rank = c.moe_experts ? 3 : 2;
            /* Every order's views exist at once, so the orders' repetitions
             * can alternate: a shared machine's load then falls on both. */
            skn_block_order orders[2];
            int norders = 0;
            skn_scope* scopes[2] = {NULL, NULL};
            skn_view* views[2][MAX_COPIES];
            for (int oi = 0; oi < c.norders; ++oi) {
                const skn_block_order order = c.orders[oi];
                if (!p.is_block_quantized && order != SKN_ORDER_ROW_MAJOR) continue;
                skn_scope_create(&scopes[norders]);
                for (int k = 0; k < copies; ++k) {
                    skn_view* v = NULL;
                    skn_view_from_bytes(bufs[k], wbytes, f, shape + 3 - rank, rank, SKN_ORDER_ROW_MAJOR, &v);
                    if (order == SKN_ORDER_INPUT_BLOCK_MAJOR) {
                        skn_view_prepack(v, order, scopes[norders], NULL, NULL, &views[norders][k]);
                        skn_view_release(v);
                    } else {
                        views[norders][k] = v;
                    }
                }
                orders[norders++] = order;
            }
            int64_t max_n = 1;
            for (int i = 0; i < c.nn; ++i) max_n = c.ns[i] > max_n ? c.ns[i] : max_n;
            const int64_t k_slots = c.moe_experts ? c.moe_k : 1;
            float* x = malloc(sizeof(float) * (size_t)(max_n * in));
            float* y = malloc(sizeof(float) * (size_t)(max_n * k_slots * out));
            int32_t* ids = malloc(sizeof(int32_t) * (size_t)(max_n * k_slots * 64));
            int64_t used_experts[64];
            for (int64_t i = 0; i < max_n * in; ++i) x[i] = sinf((float)i * 0.37f);
            for (int ii = 0; ii < c.nisas; ++ii)
                for (int ni = 0; ni < c.nn; ++ni)
                    for (int ti = 0; ti < c.nthreads; ++ti) {
                        const int64_t n = c.ns[ni];
                        struct result* rs[2] = {NULL, NULL};
                        skn_context_set_isa(ctx, c.isas[ii]);
                        skn_context_set_threads(ctx, c.threads[ti]);
                        /* One routing per sample, the same for both orders. */
                        if (c.moe_experts)
                            for (int rep = 0; rep < c.reps; ++rep)
                                used_experts[rep] = draw_routing(ids + (size_t)rep * (size_t)(max_n * k_slots), n,
                                                                 c.moe_k, c.moe_experts, rep);
                        for (int oi = 0; oi < norders; ++oi) {
                            struct result* r = &results[nres++];
                            r->format = p.name;
                            r->order = p.is_block_quantized ? (orders[oi] == SKN_ORDER_ROW_MAJOR ? "rm" : "ibm") : "dense";
                            r->out = out;
                            r->in = in;
                            r->n = n;
                            r->threads = c.threads[ti];
                            r->cap = c.isas[ii];
                            r->experts = c.moe_experts;
                            ++done;
                            if (tty)
                                fprintf(stderr, "\r[%d/%d] %s %s %s n=%ld t=%d          ", done, total, p.name, r->order,
                                        skn_isa_name(r->cap), (long)n, r->threads);
                            /* Warm up, and learn which kernel runs. */
                            if (run_matmul(ctx, &c, x, n, in, out, views[oi][0], y, &mo, ids) != SKN_OK) {
                                fprintf(stderr, "\nskn bench: %s\n", skn_last_error());
                                r->skipped = 1;
                                continue;
                            }
                            snprintf(r->kernel, sizeof r->kernel, "%s", lk.name);
                            if (lk.isa == SKN_ISA_SCALAR && r->cap != SKN_ISA_SCALAR && n > 1 && !c.include_reference) {
                                r->skipped = 1; /* the reference kernel at n > 1 takes minutes: opt in */
                                continue;
                            }
                            rs[oi] = r;
                        }
                        double samples[2][64], rates[2][64];
                        for (int rep = 0; rep < c.reps; ++rep)
                            for (int oi = 0; oi < norders; ++oi) {
                                if (rs[oi] == NULL) continue;
                                const int calls = n == 1 ? copies : 1;
                                const int32_t* rep_ids = ids + (size_t)rep * (size_t)(max_n * k_slots);
                                const double t0 = roofline_now();
                                for (int k = 0; k < calls; ++k)
                                    run_matmul(ctx, &c, x, n, in, out, views[oi][(rep + k) % copies], y, &mo, rep_ids);
                                samples[oi][rep] = (roofline_now() - t0) / calls;
                                /* Bytes read: the whole weight, or the experts this sample's rows use. */
                                const double used = c.moe_experts ? (double)wbytes * (double)used_experts[rep] /
                                                                        (double)c.moe_experts
                                                                  : (double)wbytes;
                                rates[oi][rep] = used / samples[oi][rep];
                            }
                        for (int oi = 0; oi < norders; ++oi) {
                            struct result* r = rs[oi];
                            if (r == NULL) continue;
                            const double t = median_seconds(samples[oi], c.reps);
                            r->ms = t * 1e3;
                            r->gbps = median_seconds(rates[oi], c.reps) / 1e9;
                            r->gflops = 2.0 * (double)out * (double)in * (double)(n * k_slots) / t / 1e9;
                            set_roof(r, p.is_block_quantized, p.interleaves == SKN_FORMAT_BF16 || f == SKN_FORMAT_BF16,
                                     c.precision, read_bw[ti], int8_peak[ti], bf16_peak[ti], f32_peak[ti]);
                            if (tty) fprintf(stderr, "\r%70s\r", "");
                            print_result(r);
                        }
                    }
            free(x);
            free(y);
            free(ids);
            for (int oi = 0; oi < norders; ++oi) {
                for (int k = 0; k < copies; ++k) skn_view_release(views[oi][k]);
                skn_scope_destroy(scopes[oi]);
            }
            for (int k = 0; k < copies; ++k) free(bufs[k]);
        }
    }
    if (tty) fprintf(stderr, "\r%70s\r", "");
    int skipped = 0;
    for (int i = 0; i < nres; ++i) skipped += results[i].skipped;
    if (skipped) printf("\n%d case(s) skipped: the reference kernel ran (no SIMD kernel); --include-reference times them\n", skipped);

    if (c.json_path != NULL) {
        FILE* j = fopen(c.json_path, "w");
        if (j == NULL) {
            fprintf(stderr, "skn bench: cannot write %s\n", c.json_path);
        } else {
            fprintf(j, "{\n  \"roofline\": [");
            for (int t = 0; t < c.nthreads; ++t)
                fprintf(j, "%s\n    {\"threads\": %d, \"read_gbps\": %.3f, \"int8_gops\": %.1f, \"f32_gflops\": %.1f, \"bf16_gflops\": %.1f}",
                        t ? "," : "", c.threads[t], read_bw[t], int8_peak[t], f32_peak[t], bf16_peak[t]);
            fprintf(j, "\n  ],\n  \"results\": [");
            int first = 1;
            for (int i = 0; i < nres; ++i) {
                const struct result* r = &results[i];
                fprintf(j, "%s\n    {\"format\": \"%s\", \"order\": \"%s\", \"isa_cap\": \"%s\", \"out\": %ld, \"in\": %ld, \"n\": %ld, "
                        "\"threads\": %d, \"kernel\": \"%s\", \"skipped\": %s",
                        first ? "" : ",", r->format, r->order, skn_isa_name(r->cap), (long)r->out, (long)r->in, (long)r->n,
                        r->threads, r->kernel, r->skipped ? "true" : "false");
                if (c.moe_experts) fprintf(j, ", \"moe_experts\": %ld, \"moe_k\": %ld", (long)c.moe_experts, (long)c.moe_k);
                if (!r->skipped)
                    fprintf(j, ", \"median_ms\": %.4f, \"weight_gbps\": %.3f, \"gflops\": %.2f, \"roofline_ratio\": %.4f, \"roofline\": \"%s\"",
                            r->ms, r->gbps, r->gflops, r->roof, r->roof_kind);
                fprintf(j, "}");
                first = 0;
            }
            fprintf(j, "\n  ]\n}\n");
            fclose(j);
        }
    }
    int status = 0;
    if (c.order_table_path != NULL) status = write_order_table(c.order_table_path, results, nres, c.threads[0]);
    free(results);
    skn_context_destroy(ctx);
    return status;
}
