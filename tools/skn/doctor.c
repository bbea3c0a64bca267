/* SPDX-License-Identifier: MIT */
/* skn doctor: what libskn sees on this machine and what it would run.
 * On the public C API only: the kernel chosen for a format and order is
 * learnt by running a one-row skn_matmul_wt on a small weight with a trace
 * sink, so it is the dispatcher's own answer, not a re-derivation. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "quantize_any.h"
#include "skn/skn.h"
#include "tensor_util.h"

extern char** environ;

/* The environment variables libskn reads (skn.h), and what for. */
/* Who reads each variable. SKN_LIBRARY is the Python binding's, not
 * libskn's: saying only "not read by libskn" made it look unused. */
static const char* const k_known_env[][2] = {
    {"SKN_ISA", "read by libskn: caps the ISA tier of new contexts"},
    {"SKN_LOG", "read by libskn: level of the default log on stderr"},
    {"SKN_STREAM", "read by libskn: near|far|auto, how few-row kernels prefetch"},
    {"SKN_TUNING_FILE", "read by libskn: the tuning file to read (skn tune writes one)"},
    {"SKN_LIBRARY", "read by the Python binding (import skn): the libskn.so.1 file it loads; not by libskn"},
};

typedef struct {
    char kernel[128];
    char detail[512];
    int fallback;
    int seen;
} traced;

static void on_trace(const skn_trace_event* e, void* user) {
    traced* t = user;
    if (e->kind != SKN_TRACE_KERNEL && e->kind != SKN_TRACE_FALLBACK) return;
    if (e->kind == SKN_TRACE_FALLBACK || !t->seen) {
        snprintf(t->kernel, sizeof t->kernel, "%s", e->name ? e->name : "?");
        snprintf(t->detail, sizeof t->detail, "%s", e->detail ? e->detail : "");
    }
    t->fallback |= e->kind == SKN_TRACE_FALLBACK;
    t->seen = 1;
}

/* "model name" (x86) or "Hardware" (Arm) from /proc/cpuinfo. The features
 * come from skn_cpu_features: what libskn itself detected, not what the
 * kernel lists. */
static void cpu_model(char* model, size_t model_cap) {
    snprintf(model, model_cap, "unknown");
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return;
    char line[8192];
    while (fgets(line, sizeof line, f) != NULL) {
        char* colon = strchr(line, ':');
        if (colon == NULL) continue;
        char* value = colon + 1;
        while (*value == ' ' || *value == '\t') ++value;
        value[strcspn(value, "\n")] = 0;
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0) {
            snprintf(model, model_cap, "%s", value);
            break;
        }
    }
    fclose(f);
}

/* The kernel skn_matmul_wt runs for `format` in `order` at `precision` on
 * `ctx`: a [4, 3 blocks] weight (a row-interleaved format: 4 groups of its
 * block_rows rows), one activation row. */
static int probe(skn_context* ctx, skn_scope* scope, skn_format format, skn_block_order order, skn_precision precision,
                 traced* out) {
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(format, &fp) != SKN_OK) return -1;
    const int64_t rows = 4 * (int64_t)(fp.block_rows > 1 ? fp.block_rows : 1);
    const int64_t cols = 3 * (int64_t)(fp.block_elems > 1 ? fp.block_elems : 32);
    size_t bytes = 0;
    if (skn_quantized_size(format, rows, cols, &bytes) != SKN_OK) return -1;
    float* w = malloc((size_t)(rows * cols) * sizeof(float));
    float* x = malloc((size_t)cols * sizeof(float));
    void* packed = malloc(bytes);
    float* y = malloc((size_t)rows * sizeof(float));
    skn_view* v = NULL;
    skn_view* use = NULL;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (w == NULL || x == NULL || packed == NULL || y == NULL) goto done;
    for (int64_t i = 0; i < rows * cols; ++i) w[i] = (float)((i * 7) % 5 - 2) * 0.25f;
    for (int64_t i = 0; i < cols; ++i) x[i] = (float)(i % 3) * 0.5f;
    const int64_t shape[2] = {rows, cols};
    if (quantize_any(format, w, rows, cols, packed, bytes) != SKN_OK ||
        skn_view_from_bytes(packed, bytes, format, shape, 2, SKN_ORDER_ROW_MAJOR, &v) != SKN_OK)
        goto done;
    if (order == SKN_ORDER_ROW_MAJOR) {
        use = skn_view_retain(v);
    } else if (skn_view_prepack(v, order, scope, NULL, NULL, &use) != SKN_OK) {
        goto done;
    }
    skn_matmul_options mo;
    memset(&mo, 0, sizeof mo);
    mo.struct_size = sizeof mo;
    mo.precision = precision;
    if (skn_context_set_trace(ctx, on_trace, out) != SKN_OK) goto done;
    if (skn_matmul_wt(ctx, x, 1, cols, use, NULL, y, rows, &mo) == SKN_OK && out->seen) rc = 0;
    skn_context_set_trace(ctx, NULL, NULL);
done:
    if (rc != 0) snprintf(out->detail, sizeof out->detail, "%s: %s", fp.name, skn_last_error());
    skn_view_release(use);
    skn_view_release(v);
    free(y);
    free(packed);
    free(x);
    free(w);
    return rc;
}

static void json_field(const char* key, const char* value, int first) {
    printf("%s\"%s\": ", first ? "" : ", ", key);
    skn_json_string(stdout, value, strlen(value));
}

/* The tuning file this process read (or why none), then the tuning rows in
 * force for a new context, in precedence order (skn_tuning_row_at). */
static void print_tuning(const skn_context* ctx, int json) {
    const char* why = "";
    const char* file = skn_tuning_file(&why);
    const int32_t n = skn_tuning_count(ctx);
    if (json) {
        printf("], \"tuning\": {");
        json_field("file", file, 1);
        json_field("why", why, 0);
        json_field("path", skn_tuning_file_path(), 0);
        printf(", \"rows\": [");
    } else {
        printf("\ntuning (per-core choices: built-in table, then the tuning file; skn tune measures them)\n");
        printf("  file             %s\n", file[0] ? file : "none read");
        if (why[0]) printf("                   %s\n", why);
        printf("  rows in force    %d (a later row beats an earlier one as specific)\n", (int)n);
    }
    for (int32_t i = 0; i < n; ++i) {
        skn_tuning_row r;
        memset(&r, 0, sizeof r);
        r.struct_size = sizeof r;
        if (skn_tuning_row_at(ctx, i, &r) != SKN_OK) continue;
        if (json) {
            printf("%s{", i ? ", " : "");
            json_field("choice", r.choice, 1);
            json_field("cores", r.cores, 0);
            json_field("tier", r.tier, 0);
            json_field("subject", r.subject, 0);
            json_field("value", r.value, 0);
            json_field("source", r.source, 0);
            json_field("evidence", r.evidence, 0);
            printf("}");
        } else {
            printf("  %-7s %s = %s\n", r.choice, r.subject,
                   r.value[0] ? r.value : strcmp(r.choice, "variant") == 0 ? "- (the plain kernel)" : "-");
            printf("          cores %s, tier %s; from %s\n", r.cores, r.tier, r.source);
            if (r.evidence[0]) printf("          evidence: %s\n", r.evidence);
        }
    }
    if (json) printf("]}");
}

int skn_cmd_doctor(int argc, char** argv) {
    int json = 0;
    for (int i = 1; i < argc; ++i) {
        if (skn_cli_is_help(argv[i])) return skn_cli_help(skn_help_skn_doctor);
        if (strcmp(argv[i], "--json") != 0)
            return skn_cli_usage_error("doctor", skn_help_skn_doctor, "unexpected argument \"%s\"", argv[i]);
        json = 1;
    }
    skn_context* ctx = NULL;
    skn_status st = skn_context_create(&ctx);
    if (st != SKN_OK) {
        /* The one way this fails in practice: SKN_ISA names no tier. */
        fprintf(stderr, "skn doctor: %s: %s\n", skn_status_name(st), skn_last_error());
        return 1;
    }
    skn_scope* scope = NULL;
    if (skn_scope_create(&scope) != SKN_OK) {
        fprintf(stderr, "skn doctor: %s\n", skn_last_error());
        skn_context_destroy(ctx);
        return 1;
    }
    char model[256];
    cpu_model(model, sizeof model);
    const char* flags = skn_cpu_features();
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char* isa_env = getenv("SKN_ISA");
    const skn_isa cpu = skn_cpu_isa();

    if (json) {
        printf("{\"version\": \"%s\", \"cpu\": {\"model\": ", skn_version_string());
        skn_json_string(stdout, model, strlen(model));
        printf(", \"online_cpus\": %ld, \"features\": ", cpus);
        skn_json_string(stdout, flags, strlen(flags));
        printf(", \"best_isa\": \"%s\", \"id\": ", skn_isa_name(cpu));
        skn_json_string(stdout, skn_cpu_id(), strlen(skn_cpu_id()));
        printf("}, \"isa_cap\": ");
        if (isa_env != NULL && isa_env[0] != 0)
            skn_json_string(stdout, isa_env, strlen(isa_env));
        else
            printf("null");
        printf(", \"default_threads\": 1, \"environment\": [");
    } else {
        printf("libskn %s\n\n", skn_version_string());
        printf("cpu\n  model            %s\n  online CPUs      %ld\n  features         %s\n", model, cpus, flags);
        printf("  best ISA tier    %s (what this CPU and OS run)\n", skn_isa_name(cpu));
        printf("  ISA cap          %s\n", isa_env != NULL && isa_env[0] ? isa_env : "none (SKN_ISA unset)");
        printf("  cpu id           %s (skn_cpu_id: what tuning rows and files are keyed by)\n", skn_cpu_id());
        printf("\nthreads\n  a new context uses 1 thread; skn_context_set_threads (skn bench --threads) sets more\n");
        printf("\nenvironment (SKN_*)\n");
    }
    int shown = 0;
    for (char** e = environ; e != NULL && *e != NULL; ++e) {
        if (strncmp(*e, "SKN_", 4) != 0) continue;
        const char* eq = strchr(*e, '=');
        const size_t name_len = eq ? (size_t)(eq - *e) : strlen(*e);
        const char* use = "not read by libskn or its bindings (build, test and packaging scripts read some SKN_* "
                          "variables)";
        for (size_t k = 0; k < sizeof k_known_env / sizeof k_known_env[0]; ++k)
            if (strlen(k_known_env[k][0]) == name_len && strncmp(*e, k_known_env[k][0], name_len) == 0)
                use = k_known_env[k][1];
        if (json) {
            printf("%s{\"name\": ", shown ? ", " : "");
            skn_json_string(stdout, *e, name_len);
            printf(", \"value\": ");
            skn_json_string(stdout, eq ? eq + 1 : "", eq ? strlen(eq + 1) : 0);
            printf(", \"use\": ");
            skn_json_string(stdout, use, strlen(use));
            printf("}");
        } else {
            printf("  %s  (%s)\n", *e, use);
        }
        ++shown;
    }
    if (!json && shown == 0)
        printf("  none set (libskn reads SKN_ISA, SKN_LOG, SKN_STREAM and SKN_TUNING_FILE; the Python binding "
               "SKN_LIBRARY)\n");
    print_tuning(ctx, json);
    if (json)
        printf(", \"kernels\": [");
    else
        printf("\nkernels skn_matmul_wt runs (%d registered; a one-row product per format and order)\n"
               "  %-10s %-17s %-42s %s\n",
               (int)skn_kernel_count(), "format", "order", "fast precision", "exact precision");
    int failures = 0, rows = 0;
    char first_failure[600] = "";
    for (int32_t i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        skn_format_props fp;
        memset(&fp, 0, sizeof fp);
        fp.struct_size = sizeof fp;
        if (skn_format_info(f, &fp) != SKN_OK) continue;
        for (int o = 0; o < (fp.is_block_quantized ? 2 : 1); ++o) {
            const skn_block_order order = (skn_block_order)o;
            traced fast, exact;
            const int ok_fast = probe(ctx, scope, f, order, SKN_PRECISION_FAST, &fast) == 0;
            const int ok_exact = probe(ctx, scope, f, order, SKN_PRECISION_EXACT, &exact) == 0;
            const char* order_name = !fp.is_block_quantized ? "dense" : o == 0 ? "ROW_MAJOR" : "INPUT_BLOCK_MAJOR";
            failures += !ok_fast + !ok_exact;
            if (first_failure[0] == 0 && (!ok_fast || !ok_exact))
                snprintf(first_failure, sizeof first_failure, "%s", ok_fast ? exact.detail : fast.detail);
            if (json) {
                printf("%s\n  {\"format\": \"%s\", \"order\": \"%s\", \"fast\": ", rows ? "," : "", fp.name, order_name);
                if (ok_fast) skn_json_string(stdout, fast.kernel, strlen(fast.kernel)); else printf("null");
                printf(", \"fast_fallback\": %s, \"exact\": ", ok_fast && fast.fallback ? "true" : "false");
                if (ok_exact) skn_json_string(stdout, exact.kernel, strlen(exact.kernel)); else printf("null");
                printf(", \"exact_fallback\": %s}", ok_exact && exact.fallback ? "true" : "false");
            } else {
                char a[160], b[160];
                snprintf(a, sizeof a, "%s%s", ok_fast ? fast.kernel : "(failed)", ok_fast && fast.fallback ? " *" : "");
                snprintf(b, sizeof b, "%s%s", ok_exact ? exact.kernel : "(failed)",
                         ok_exact && exact.fallback ? " *" : "");
                printf("  %-10s %-17s %-42s %s\n", fp.name, order_name, a, b);
            }
            ++rows;
        }
    }
    if (json)
        printf("\n]}\n");
    else
        printf("  (* the reference kernel, with a FALLBACK trace event: no SIMD kernel for this tier reads it)\n");
    if (failures > 0) fprintf(stderr, "skn doctor: %d probes failed; the first: %s\n", failures, first_failure);
    skn_scope_destroy(scope);
    skn_context_destroy(ctx);
    return failures == 0 ? 0 : 1;
}
