/* SPDX-License-Identifier: MIT */
/* skn tune: measure, on this machine and in bounded time, the per-core
 * choices of libskn's tuning table (which variant of a kernel runs, which
 * encoding skn_prepack_for_matmul prefers for one-token products) and write
 * a tuning file for this CPU with the choices that beat the built-in ones.
 * Public C API only: candidates are set with skn_context_set_tuning, the
 * kernel that ran is read from the trace, the built-in choice from a
 * context of a process that reads no tuning file. */
#define _GNU_SOURCE /* setenv, mkstemp */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "roofline.h"
#include "safe_output.h"
#include "skn/skn.h"
#include "tune_measure.h"

#define MAX_ITEMS 64
#define MAX_FILTER 64
/* A memory-bound shape: the weight streams from DRAM at n = 1. */
#define TUNE_ROWS 4096
#define TUNE_COLS 4096
/* Fewer rounds than this decide nothing. */
#define MIN_ROUNDS 3
/* A choice is written only when it beats the built-in one by this much and
 * its rounds' interquartile range lies below the built-in's. */
#define MIN_GAIN 0.03

enum item_kind { ITEM_VARIANT, ITEM_PREFER };

typedef struct item {
    enum item_kind kind;
    char subject[128];   /* the tuning line's subject: a kernel name, or "Q4_0:gemv" */
    char short_name[64]; /* for the progress line: "q4_0 ibm", "Q4_0:gemv" */
    skn_format format;   /* the canonical format weighed */
    skn_block_order order;
    char tier[32];
    tune_candidate cands[TUNE_MAX_CANDIDATES];
    int ncands;
    char builtin[48]; /* the value the library picks without a file */
    int builtin_known;
    int rounds;
    int winner;       /* index into cands, or -1 */
    int written;
    char note[320];   /* why nothing was measured or decided */
} item;

typedef struct options {
    double seconds;
    skn_format filter[MAX_FILTER];
    int nfilter;
    const char* output;
    int dry_run;
    int threads;
} options;

static int parse_args(int argc, char** argv, options* o) {
    o->seconds = 60;
    o->threads = 1;
    for (int a = 1; a < argc; ++a) {
        const char* opt = argv[a];
        if (skn_cli_is_help(opt)) return -1;
        if (strcmp(opt, "--dry-run") == 0) {
            o->dry_run = 1;
            continue;
        }
        const int takes_value = strcmp(opt, "--seconds") == 0 || strcmp(opt, "--formats") == 0 ||
                                strcmp(opt, "--output") == 0 || strcmp(opt, "--threads") == 0;
        if (!takes_value) return skn_cli_usage_error("tune", skn_help_skn_tune, "unknown option \"%s\"", opt);
        if (a + 1 >= argc) return skn_cli_usage_error("tune", skn_help_skn_tune, "%s needs a value", opt);
        const char* val = argv[++a];
        char* end = NULL;
        if (strcmp(opt, "--seconds") == 0) {
            errno = 0;
            o->seconds = strtod(val, &end);
            if (end == val || *end != 0 || errno != 0 || !(o->seconds > 0) || o->seconds > 86400)
                return skn_cli_usage_error("tune", skn_help_skn_tune,
                                           "--seconds \"%s\" is not a time: give seconds above 0 (e.g. --seconds 30)",
                                           val);
        } else if (strcmp(opt, "--threads") == 0) {
            errno = 0;
            const long t = strtol(val, &end, 10);
            if (end == val || *end != 0 || errno != 0 || t < 1 || t > 1024)
                return skn_cli_usage_error("tune", skn_help_skn_tune,
                                           "--threads \"%s\" is not a thread count: give 1 to 1024", val);
            o->threads = (int)t;
        } else if (strcmp(opt, "--output") == 0) {
            if (val[0] == 0)
                return skn_cli_usage_error("tune", skn_help_skn_tune, "--output is empty: give a file path");
            o->output = val;
        } else {
            const char* s = val;
            o->nfilter = 0;
            while (1) {
                const char* comma = strchr(s, ',');
                const size_t len = comma ? (size_t)(comma - s) : strlen(s);
                char name[32];
                if (len == 0 || len >= sizeof name)
                    return skn_cli_usage_error("tune", skn_help_skn_tune,
                                               "--formats \"%s\": give format names separated by commas (q4_0,q8_0)",
                                               val);
                memcpy(name, s, len);
                name[len] = 0;
                if (o->nfilter == MAX_FILTER)
                    return skn_cli_usage_error("tune", skn_help_skn_tune, "--formats: more than %d names", MAX_FILTER);
                if (skn_format_from_name(name, &o->filter[o->nfilter]) != SKN_OK)
                    return skn_cli_usage_error("tune", skn_help_skn_tune,
                                               "--formats: unknown format \"%s\" (names as skn doctor lists them: "
                                               "q4_0, q8_0, iq4_nl ...)",
                                               name);
                o->nfilter++;
                if (!comma) break;
                s = comma + 1;
            }
        }
    }
    return 0;
}

static const char* format_name(skn_format f) {
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    return skn_format_info(f, &fp) == SKN_OK ? fp.name : "?";
}

static int wanted(const options* o, skn_format a, skn_format b) {
    if (o->nfilter == 0) return 1;
    for (int i = 0; i < o->nfilter; ++i)
        if (o->filter[i] == a || o->filter[i] == b) return 1;
    return 0;
}

static int32_t isa_from_name(const char* name) {
    for (int32_t i = 0; i < skn_isa_count(); ++i)
        if (strcmp(name, skn_isa_name((skn_isa)skn_isa_at(i))) == 0) return skn_isa_at(i);
    return -1;
}

static void add_candidate(item* it, const char* label, const char* value, skn_format f, skn_block_order order) {
    if (it->ncands == TUNE_MAX_CANDIDATES) return;
    tune_candidate* c = &it->cands[it->ncands++];
    memset(c, 0, sizeof *c);
    snprintf(c->label, sizeof c->label, "%s", label);
    snprintf(c->value, sizeof c->value, "%s", value);
    c->format = f;
    c->order = order;
}

/* Every kernel with variants, grouped by its name without the variant
 * ("matmul_wt_q4_0_ibm_q8_0_avx512vnni" for "..._far"), of a tier this CPU
 * runs; candidates: the plain kernel and each variant. */
static void plan_variants(const options* o, item* items, int* nitems, char* skipped, size_t skipped_cap) {
    for (int32_t i = 0; i < skn_kernel_count(); ++i) {
        const char* name = skn_kernel_name(i);
        const char* v = skn_kernel_variant(i);
        if (name == NULL || v == NULL || v[0] == 0) continue;
        const size_t nl = strlen(name), vl = strlen(v);
        char base[128];
        if (nl <= vl + 1 || nl - vl - 1 >= sizeof base || strncmp(name, "matmul_wt_", 10) != 0) continue;
        memcpy(base, name, nl - vl - 1);
        base[nl - vl - 1] = 0;
        const char* rm = strstr(base, "_rm_");
        const char* ibm = strstr(base, "_ibm_");
        const char* cut = rm != NULL ? rm : ibm;
        const char* tier = strrchr(base, '_');
        if (cut == NULL || tier == NULL) continue;
        char fmt[32];
        const size_t fl = (size_t)(cut - (base + 10));
        if (fl == 0 || fl >= sizeof fmt) continue;
        memcpy(fmt, base + 10, fl);
        fmt[fl] = 0;
        skn_format f;
        const int32_t isa = isa_from_name(tier + 1);
        if (skn_format_from_name(fmt, &f) != SKN_OK || isa < 0 || !skn_cpu_runs_isa((skn_isa)isa) || !wanted(o, f, f))
            continue;
        /* Exact precision (f32 activations) is not what a one-token engine runs. */
        if (strstr(cut, "_f32_") != NULL) {
            snprintf(skipped + strlen(skipped), skipped_cap - strlen(skipped), "  %s: exact precision, not tuned\n",
                     name);
            continue;
        }
        item* it = NULL;
        for (int k = 0; k < *nitems; ++k)
            if (items[k].kind == ITEM_VARIANT && strcmp(items[k].subject, base) == 0) it = &items[k];
        if (it == NULL) {
            if (*nitems == MAX_ITEMS) return;
            it = &items[(*nitems)++];
            memset(it, 0, sizeof *it);
            it->kind = ITEM_VARIANT;
            snprintf(it->subject, sizeof it->subject, "%s", base);
            snprintf(it->short_name, sizeof it->short_name, "%s %s", fmt, rm != NULL ? "rm" : "ibm");
            snprintf(it->tier, sizeof it->tier, "%s", tier + 1);
            it->format = f;
            it->order = rm != NULL ? SKN_ORDER_ROW_MAJOR : SKN_ORDER_INPUT_BLOCK_MAJOR;
            it->winner = -1;
            add_candidate(it, "plain", "", f, it->order);
        }
        add_candidate(it, v, v, f, it->order);
    }
}

/* Every canonical format with a row-interleaved twin: the four encodings
 * skn_prepack_for_matmul may choose between for the one-token regime. */
static void plan_prefer(const options* o, item* items, int* nitems) {
    for (int32_t i = 0; i < skn_format_count() && *nitems < MAX_ITEMS; ++i) {
        const skn_format twin = (skn_format)skn_format_at(i);
        skn_format_props tp, cp;
        memset(&tp, 0, sizeof tp);
        tp.struct_size = sizeof tp;
        memset(&cp, 0, sizeof cp);
        cp.struct_size = sizeof cp;
        if (skn_format_info(twin, &tp) != SKN_OK || tp.block_rows <= 1 || tp.interleaves == twin ||
            skn_format_info(tp.interleaves, &cp) != SKN_OK || !wanted(o, tp.interleaves, twin))
            continue;
        if (TUNE_ROWS % tp.block_rows != 0) continue;
        item* it = &items[(*nitems)++];
        memset(it, 0, sizeof *it);
        it->kind = ITEM_PREFER;
        it->format = tp.interleaves;
        it->winner = -1;
        snprintf(it->subject, sizeof it->subject, "%s:gemv", cp.name);
        snprintf(it->short_name, sizeof it->short_name, "%s:gemv", cp.name);
        const skn_format fs[2] = {tp.interleaves, twin};
        const char* names[2] = {cp.name, tp.name};
        for (int k = 0; k < 4; ++k) {
            if (k == 1 && !cp.is_block_quantized) continue; /* a dense weight has one order */
            char label[48];
            snprintf(label, sizeof label, "%s/%s", names[k / 2], k % 2 ? "ibm" : "rm");
            add_candidate(it, label, label, fs[k / 2], k % 2 ? SKN_ORDER_INPUT_BLOCK_MAJOR : SKN_ORDER_ROW_MAJOR);
        }
    }
}

static int progress_on;

static void progress(int step, int steps, const char* what, const char* detail) {
    if (!progress_on) return;
    fprintf(stderr, "\r\033[Ktune: %d/%d %s %s", step, steps, what, detail);
    fflush(stderr);
}

static void progress_done(void) {
    if (progress_on) fprintf(stderr, "\r\033[K");
}

/* The variant of `base` that `ran` names: "" for base itself, NULL for
 * another kernel. */
static const char* variant_of(const char* ran, const char* base) {
    const size_t bl = strlen(base);
    if (strncmp(ran, base, bl) != 0) return NULL;
    if (ran[bl] == 0) return "";
    return ran[bl] == '_' ? ran + bl + 1 : NULL;
}

/* What the library picks for this item with no tuning file: the kernel a
 * plain context runs, or the encoding skn_prepack_for_matmul gives. */
static int builtin_choice(item* it, tune_weight* w, char* err, size_t err_cap) {
    skn_context* ctx = NULL;
    if (skn_context_create(&ctx) != SKN_OK) {
        snprintf(err, err_cap, "%s", skn_last_error());
        return -1;
    }
    int rc = -1;
    if (it->kind == ITEM_VARIANT) {
        skn_view* v = NULL;
        char ran[128];
        skn_isa isa;
        int fallback;
        if (skn_view_convert(w->views[0], it->format, it->order, w->scope, NULL, NULL, &v) != SKN_OK) {
            snprintf(err, err_cap, "%s", skn_last_error());
        } else if (tune_trace_call(ctx, w, v, ran, sizeof ran, &isa, &fallback) != 0) {
            snprintf(err, err_cap, "%s", ran);
        } else if (variant_of(ran, it->subject) == NULL) {
            snprintf(err, err_cap, "skn_matmul_wt runs %s here, of another tier (an SKN_ISA cap selects this one)",
                     ran);
        } else {
            snprintf(it->builtin, sizeof it->builtin, "%s", variant_of(ran, it->subject));
            it->builtin_known = 1;
            rc = 0;
        }
        skn_view_release(v);
    } else {
        skn_view* v = NULL;
        if (skn_prepack_for_matmul(ctx, w->views[0], w->scope, &v) != SKN_OK) {
            snprintf(err, err_cap, "%s", skn_last_error());
        } else {
            snprintf(it->builtin, sizeof it->builtin, "%s/%s", format_name(skn_view_format(v)),
                     skn_view_order(v) == SKN_ORDER_ROW_MAJOR ? "rm" : "ibm");
            it->builtin_known = 1;
            rc = 0;
        }
        skn_view_release(v);
    }
    skn_context_destroy(ctx);
    return rc;
}

/* Set each candidate's choice on its context, run it once with a trace and
 * drop those that did not run the intended kernel (variants) or ran one of
 * a lower tier than the canonical ROW_MAJOR weight's (encodings: the
 * library takes a twin only at the same tier). */
static int check_candidates(item* it, tune_weight* w) {
    skn_isa best = SKN_ISA_SCALAR;
    int usable = 0;
    for (int j = 0; j < it->ncands; ++j) {
        tune_candidate* c = &it->cands[j];
        if (c->dropped) {
            if (it->kind == ITEM_PREFER && j == 0) return 0;
            continue;
        }
        if (it->kind == ITEM_VARIANT &&
            skn_context_set_tuning(c->ctx, "variant", it->subject, c->value) != SKN_OK) {
            snprintf(c->ran, sizeof c->ran, "%s", skn_last_error());
            c->dropped = 1;
            continue;
        }
        if (tune_trace_call(c->ctx, w, c->copies[0], c->ran, sizeof c->ran, &c->ran_isa, &c->fallback) != 0) {
            c->dropped = 1;
            if (it->kind == ITEM_PREFER && j == 0) return 0;
            continue;
        }
        if (it->kind == ITEM_VARIANT) {
            const char* v = variant_of(c->ran, it->subject);
            c->dropped = v == NULL || strcmp(v, c->value) != 0;
        } else if (j == 0) {
            best = c->ran_isa;
            snprintf(it->tier, sizeof it->tier, "%s", skn_isa_name(best));
        }
    }
    for (int j = 0; j < it->ncands; ++j) {
        tune_candidate* c = &it->cands[j];
        if (it->kind == ITEM_PREFER && !c->dropped && (c->fallback || c->ran_isa != best)) c->dropped = 1;
        usable += !c->dropped;
    }
    return usable;
}

static int find_value(const item* it, const char* value) {
    for (int j = 0; j < it->ncands; ++j)
        if (strcmp(it->cands[j].value, value) == 0) return j;
    return -1;
}

static void decide(item* it) {
    int best = -1;
    for (int j = 0; j < it->ncands; ++j) {
        const tune_candidate* c = &it->cands[j];
        if (!c->dropped && c->rounds >= MIN_ROUNDS && (best < 0 || c->median < it->cands[best].median)) best = j;
    }
    it->winner = best;
    const int b = it->builtin_known ? find_value(it, it->builtin) : -1;
    if (best < 0 || b < 0 || best == b) return;
    const tune_candidate* w = &it->cands[best];
    const tune_candidate* d = &it->cands[b];
    if (d->dropped || d->rounds < MIN_ROUNDS) return;
    it->written = w->median <= (1.0 - MIN_GAIN) * d->median && w->q3 < d->q1;
}

/* `done`: the items measured before this one. A prefer item's candidates
 * run with the variants those chose, as a process reading the file would. */
static void measure_item(item* it, const item* done, int ndone, const options* o, double item_end, double all_end,
                         int* step, int steps) {
    char err[512] = "";
    tune_weight w;
    /* 8x the LLC per encoding: at 2x and 4x the Zen 5 guest still served
     * 5-7% of a weight's reads from its L3 (a candidate sharing its copies
     * with the one before it then gained); from 8x the time stops moving.
     * At most 1 GiB (four encodings live at once), at least 64 MiB. */
    size_t min_total = roofline_llc_bytes() * 8;
    if (min_total > ((size_t)1 << 30)) min_total = (size_t)1 << 30;
    if (min_total < ((size_t)64 << 20)) min_total = (size_t)64 << 20;
    progress(*step, steps, it->short_name, "preparing");
    if (tune_weight_make(&w, it->format, TUNE_ROWS, TUNE_COLS, min_total, err, sizeof err) != 0 ||
        builtin_choice(it, &w, err, sizeof err) != 0) {
        snprintf(it->note, sizeof it->note, "not measured: %s", err);
        tune_weight_free(&w);
        *step += it->ncands;
        return;
    }
    for (int j = 0; j < it->ncands; ++j) {
        progress(++*step, steps, it->short_name, it->cands[j].label);
        tune_candidate* c = &it->cands[j];
        if (tune_candidate_prepare(c, &w, o->threads, err, sizeof err) != 0) {
            snprintf(c->ran, sizeof c->ran, "%s", err);
            c->dropped = 1;
            continue;
        }
        for (int k = 0; it->kind == ITEM_PREFER && k < ndone; ++k)
            if (done[k].kind == ITEM_VARIANT && done[k].written)
                skn_context_set_tuning(c->ctx, "variant", done[k].subject, done[k].cands[done[k].winner].value);
    }
    if (check_candidates(it, &w) < 2) {
        snprintf(it->note, sizeof it->note, "not measured: fewer than two candidates run as intended (each one's kernel below)");
    } else {
        char detail[64];
        snprintf(detail, sizeof detail, "timing %d candidates", it->ncands);
        progress(*step, steps, it->short_name, detail);
        /* A few rounds even past this item's share, while the whole budget lasts. */
        it->rounds = tune_time_rounds(it->cands, it->ncands, &w, MIN_ROUNDS, all_end);
        if (it->rounds == MIN_ROUNDS)
            it->rounds += tune_time_rounds(it->cands, it->ncands, &w, TUNE_MAX_ROUNDS - MIN_ROUNDS, item_end);
        if (it->rounds < MIN_ROUNDS)
            snprintf(it->note, sizeof it->note, "undecided: the time budget ran out after %d rounds", it->rounds);
        decide(it);
    }
    for (int j = 0; j < it->ncands; ++j) tune_candidate_free(&it->cands[j], &w);
    tune_weight_free(&w);
}

/* "AuthenticAMD 0x19 0x11 avx512vnni, 2026-12-05, 1 thread, n = 1 4096x4096
 * x8 copies, 21 rounds; median us: plain 812.3, far 640.1" */
static void evidence(const item* it, const options* o, const char* date, char* out, size_t cap) {
    int n = snprintf(out, cap, "%s %s, %s, skn tune: %d thread%s, n = 1, %dx%d, %d rounds; median us:", skn_cpu_id(),
                     skn_isa_name(skn_cpu_isa()), date, o->threads, o->threads == 1 ? "" : "s", TUNE_ROWS, TUNE_COLS,
                     it->rounds);
    for (int j = 0; j < it->ncands && n > 0 && (size_t)n < cap; ++j)
        if (!it->cands[j].dropped && it->cands[j].rounds > 0)
            n += snprintf(out + n, cap - (size_t)n, " %s %.1f", it->cands[j].label, it->cands[j].median);
}

static void write_text(FILE* f, const item* items, int nitems, const options* o, const char* date) {
    fprintf(f, "cpu %s\n", skn_cpu_id());
    fprintf(f, "# written by skn tune (libskn %s) on %s; a line only where a choice beat the built-in one by %.0f%% "
               "or more\n",
            skn_version_string(), date, MIN_GAIN * 100);
    int variants = 0, prefers = 0;
    for (int i = 0; i < nitems; ++i) {
        variants += items[i].written && items[i].kind == ITEM_VARIANT;
        prefers += items[i].written && items[i].kind == ITEM_PREFER;
    }
    if (variants && prefers) fprintf(f, "# the prefer lines were measured with the variant lines in force\n");
    for (int i = 0; i < nitems; ++i) {
        const item* it = &items[i];
        if (!it->written) continue;
        char ev[1024];
        evidence(it, o, date, ev, sizeof ev);
        const char* value = it->cands[it->winner].value;
        fprintf(f, "%s %s %s %s  # %s\n", it->kind == ITEM_VARIANT ? "variant" : "prefer", it->tier, it->subject,
                it->kind == ITEM_VARIANT && value[0] == 0 ? "-" : value, ev);
    }
}

static void summary(FILE* f, const item* items, int nitems, const options* o) {
    fprintf(f, "skn tune on %s (%s), %d thread%s, n = 1 on [%d, %d] weights\n", skn_cpu_id(),
            skn_isa_name(skn_cpu_isa()), o->threads, o->threads == 1 ? "" : "s", TUNE_ROWS, TUNE_COLS);
    for (int i = 0; i < nitems; ++i) {
        const item* it = &items[i];
        fprintf(f, "\n%s %s (%s%s%d rounds)\n", it->kind == ITEM_VARIANT ? "variant" : "prefer", it->subject,
                it->tier, it->tier[0] ? ", " : "", it->rounds);
        if (it->note[0]) fprintf(f, "  %s\n", it->note);
        for (int j = 0; j < it->ncands; ++j) {
            const tune_candidate* c = &it->cands[j];
            const int is_builtin = it->builtin_known && strcmp(c->value, it->builtin) == 0;
            char tag[96] = "";
            if (j == it->winner && is_builtin)
                snprintf(tag, sizeof tag, "fastest, built-in");
            else if (j == it->winner)
                snprintf(tag, sizeof tag, "fastest%s", it->written ? ", written" : ", within noise of the built-in");
            else if (is_builtin)
                snprintf(tag, sizeof tag, "built-in");
            if (c->dropped)
                fprintf(f, "  %-16s not timed: ran %s%s\n", c->label, c->ran[0] ? c->ran : "nothing",
                        c->fallback ? " (a fallback)" : "");
            else if (c->rounds == 0)
                fprintf(f, "  %-16s not timed%s%s\n", c->label, tag[0] ? "  " : "", tag);
            else
                fprintf(f, "  %-16s %9.1f us  [%.1f .. %.1f]%s%s\n", c->label, c->median, c->q1, c->q3,
                        tag[0] ? "  " : "", tag);
        }
    }
}

/* mkdir -p for the directory part of `path` (the default path's
 * ~/.config/skn may not exist yet). */
static void make_parent_dirs(const char* path) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char* slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir) return;
    *slash = 0;
    for (char* p = dir + 1; *p; ++p)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    mkdir(dir, 0755);
}

/* Make this process's library read no tuning file, so that "built-in" is
 * the table's choice even when a file from an earlier run exists: point
 * SKN_TUNING_FILE at a file with only this CPU's line, read it, remove it.
 * Must run before anything loads the tuning (a context, the kernel list). */
static void read_no_tuning_file(void) {
    const char* dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/skn-tune-XXXXXX", dir != NULL && dir[0] ? dir : "/tmp");
    const int fd = mkstemp(tmp);
    if (fd < 0) return;
    char line[160];
    const int n = snprintf(line, sizeof line, "cpu %s\n", skn_cpu_id());
    if (n > 0 && write(fd, line, (size_t)n) == n) {
        setenv("SKN_TUNING_FILE", tmp, 1);
        unsetenv("SKN_STREAM");
        (void)skn_tuning_file(NULL);
    }
    close(fd);
    unlink(tmp);
}

int skn_cmd_tune(int argc, char** argv) {
    options o;
    memset(&o, 0, sizeof o);
    const int parsed = parse_args(argc, argv, &o);
    if (parsed < 0) return skn_cli_help(skn_help_skn_tune);
    if (parsed > 0) return parsed;
    /* The default path is the one this library reads: take it before
     * read_no_tuning_file changes SKN_TUNING_FILE. */
    const char* read_path = skn_tuning_file_path();
    const char* path = o.output != NULL ? o.output : read_path;
    if (!o.dry_run) {
        if (path[0] == 0)
            return skn_cli_usage_error("tune", skn_help_skn_tune,
                                       "no tuning file path: neither SKN_TUNING_FILE, XDG_CONFIG_HOME nor HOME is "
                                       "set; give --output PATH or --dry-run");
        if (o.output == NULL) make_parent_dirs(path);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            fprintf(stderr, "skn tune: %s is a directory: give the tuning file's path (e.g. %s/tuning)\n", path,
                    path);
            return 2;
        }
        if (skn_output_check("tune", path, NULL, 0, 0) != 0) return 2;
    }
    read_no_tuning_file();

    static item items[MAX_ITEMS];
    int nitems = 0;
    char skipped[4096] = "";
    plan_variants(&o, items, &nitems, skipped, sizeof skipped);
    plan_prefer(&o, items, &nitems);
    int steps = 0;
    for (int i = 0; i < nitems; ++i) steps += items[i].ncands;

    progress_on = isatty(STDERR_FILENO);
    const double start = roofline_now(), end = start + o.seconds;
    int step = 0;
    for (int i = 0; i < nitems; ++i) {
        if (roofline_now() >= end) {
            snprintf(items[i].note, sizeof items[i].note, "skipped: the time budget (--seconds %g) was spent",
                     o.seconds);
            continue;
        }
        measure_item(&items[i], items, i, &o, start + o.seconds * (i + 1) / nitems, end, &step, steps);
    }
    progress_done();

    char date[32];
    const time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%d", gmtime_r(&now, &tm));
    FILE* table = o.dry_run ? stderr : stdout;
    summary(table, items, nitems, &o);
    if (skipped[0]) fprintf(table, "\nnot tuned:\n%s", skipped);
    if (nitems == 0) fprintf(table, "\nnothing to tune: no kernel with variants and no format with a twin matches\n");
    int lines = 0;
    for (int i = 0; i < nitems; ++i) lines += items[i].written;
    fprintf(table, "\nelapsed %.1f s; %d choice%s beat the built-in one\n", roofline_now() - start, lines,
            lines == 1 ? "" : "s");
    if (o.dry_run) {
        write_text(stdout, items, nitems, &o, date);
        return 0;
    }
    skn_output* out = skn_output_open("tune", path, NULL, 0, 0);
    if (out == NULL) return 1;
    FILE* f = fdopen(dup(skn_output_fd(out)), "w");
    if (f == NULL) {
        skn_output_abort(out);
        fprintf(stderr, "skn tune: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    write_text(f, items, nitems, &o, date);
    const int bad = fflush(f) != 0 || fsync(fileno(f)) != 0;
    fclose(f);
    if (bad) {
        fprintf(stderr, "skn tune: cannot write %s: %s\n", path, strerror(errno));
        skn_output_abort(out);
        return 1;
    }
    if (skn_output_commit(out) != 0) return 1;
    if (strcmp(path, read_path) == 0)
        fprintf(table, "wrote %s: libskn reads it in processes started from now on\n", path);
    else
        fprintf(table, "wrote %s; libskn reads %s: set SKN_TUNING_FILE=%s to use this one\n", path,
                read_path[0] ? read_path : "no file", path);
    return 0;
}
