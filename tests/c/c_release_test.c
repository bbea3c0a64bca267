/* SPDX-License-Identifier: MIT */
/* Issue 12's C API points, driven from C: the orientation guard speaks for
 * views and quantize, fixture grids that cannot tell the orders apart are
 * refused, disagreements are counted and recognised, a narrowed view's
 * fallback names the kernel that rejected it, prepack without a sink reaches
 * the log with the tensor's name and the scope, format-name errors explain
 * themselves, and skn_prepack_for_matmul follows the measured order table. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_orientation_guard_speaks_first(void) {
    unsigned char bytes[4 * 34 * 4];
    memset(bytes, 0, sizeof bytes);
    const int64_t in_out[2] = {128, 3};
    skn_view* v = NULL;
    /* [128, 3] Q8_0: the first dimension is block-aligned, the last is not. */
    CHECK_ERROR(skn_view_from_bytes(bytes, sizeof bytes, SKN_FORMAT_Q8_0, in_out, 2, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, "looks like [in, out]");
    CHECK(strstr(skn_last_error(), "[3, 128]") != NULL && strstr(skn_last_error(), "SKN_GGUF_OUT_IN") != NULL);
    CHECK_ERROR(skn_view_from_bytes(bytes, sizeof bytes, SKN_FORMAT_Q8_0, in_out, 2, SKN_ORDER_INPUT_BLOCK_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, "looks like [in, out]");
    size_t n = 0;
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q8_0, 128, 3, &n), SKN_E_INVALID_ARGUMENT, "looks like [in, out]");
    /* Neither orientation aligned: the plain alignment message. */
    const int64_t odd[2] = {5, 7};
    CHECK_ERROR(skn_view_from_bytes(bytes, sizeof bytes, SKN_FORMAT_Q8_0, odd, 2, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, "multiple of");
    CHECK(strstr(skn_last_error(), "looks like") == NULL);
}

static unsigned char* fixture(skn_format f, int kernel_order, int64_t rows, int64_t bpr, size_t* n) {
    if (skn_fixture_bytes(f, kernel_order, rows, bpr, NULL, 0, n) != SKN_OK) return NULL;
    unsigned char* b = malloc(*n);
    if (b != NULL && skn_fixture_bytes(f, kernel_order, rows, bpr, b, *n, n) != SKN_OK) {
        free(b);
        return NULL;
    }
    return b;
}

static void test_fixture_grids_and_counts(void) {
    size_t n = 0;
    /* Grids on which both orders coincide (one block wide, one row) or nearly. */
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 4, 1, NULL, 0, &n), SKN_E_INVALID_ARGUMENT,
                "cannot tell the block orders apart");
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 1, 1, 3, NULL, 0, &n), SKN_E_INVALID_ARGUMENT,
                "cannot tell the block orders apart");
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 1, 4, 2, NULL, 0, &n), SKN_E_INVALID_ARGUMENT, "at least");
    unsigned char one[4 * 18];
    memset(one, 0, sizeof one);
    const char* m = skn_fixture_disagreement(one, sizeof one, SKN_FORMAT_Q4_0, 1, 4, 1);
    CHECK(m != NULL && strstr(m, "cannot tell the block orders apart") != NULL);

    /* The default grid: non-square, at least 4 x 3. */
    CHECK(SKN_FIXTURE_DEFAULT_ROWS >= 4 && SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW >= 3 &&
          SKN_FIXTURE_DEFAULT_ROWS != SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW);
    const int64_t R = SKN_FIXTURE_DEFAULT_ROWS, B = SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW;
    unsigned char* canonical = fixture(SKN_FORMAT_Q4_K, 0, R, B, &n);
    unsigned char* kernel = fixture(SKN_FORMAT_Q4_K, 1, R, B, &n);
    CHECK(canonical != NULL && kernel != NULL);
    if (canonical == NULL || kernel == NULL) return;
    /* Canonical bytes checked as kernel order: all but the two corner blocks
     * move in a 4 x 3 grid, and the pattern is exactly the other order. */
    m = skn_fixture_disagreement(canonical, n, SKN_FORMAT_Q4_K, 1, R, B);
    CHECK(m != NULL && strstr(m, "10 of 12 blocks are out of place") != NULL);
    CHECK(m != NULL && strstr(m, "exactly the ROW_MAJOR order fixture") != NULL);
    CHECK(m != NULL && strstr(m, "skn_packed_to_kernel_order") != NULL);
    /* Two blocks swapped: counted, and not mistaken for the other order. */
    const size_t bpb = n / (size_t)(R * B);
    unsigned char tmp[256];
    memcpy(tmp, kernel + 1 * bpb, bpb);
    memcpy(kernel + 1 * bpb, kernel + 5 * bpb, bpb);
    memcpy(kernel + 5 * bpb, tmp, bpb);
    m = skn_fixture_disagreement(kernel, n, SKN_FORMAT_Q4_K, 1, R, B);
    CHECK(m != NULL && strstr(m, "2 of 12 blocks are out of place") != NULL);
    CHECK(m != NULL && strstr(m, "not a plain ROW_MAJOR order grid") != NULL);
    free(canonical);
    free(kernel);
}

static char g_fallback[1024];
static char g_adapter[1024];
static void on_trace(const skn_trace_event* e, void* user) {
    (void)user;
    if (e->kind == SKN_TRACE_FALLBACK) snprintf(g_fallback, sizeof g_fallback, "%s", e->detail);
    if (e->kind == SKN_TRACE_ADAPTER) snprintf(g_adapter, sizeof g_adapter, "%s", e->detail);
}

static float* ramp(int64_t n) {
    float* w = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; w != NULL && i < n; ++i) w[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    return w;
}

static skn_view* quantized_view(skn_format f, int64_t out, int64_t in, unsigned char** keep) {
    size_t bytes = 0;
    float* w = ramp(out * in);
    skn_view* v = NULL;
    *keep = NULL;
    if (w == NULL || skn_quantized_size(f, out, in, &bytes) != SKN_OK) goto done;
    *keep = malloc(bytes);
    if (*keep == NULL || skn_quantize(f, w, out, in, *keep, bytes) != SKN_OK) goto done;
    const int64_t shape[2] = {out, in};
    if (skn_view_from_bytes(*keep, bytes, f, shape, 2, SKN_ORDER_ROW_MAJOR, &v) != SKN_OK) v = NULL;
done:
    free(w);
    return v;
}

/* Whether this build registers a kernel whose name starts with `prefix` and
 * is not the reference (a portable build on an x86 CPU has none). */
static int has_simd_kernel(const char* prefix) {
    for (int32_t i = 0; i < skn_kernel_count(); ++i) {
        const char* name = skn_kernel_name(i);
        const size_t n = strlen(name);
        if (strncmp(name, prefix, strlen(prefix)) == 0 && (n < 7 || strcmp(name + n - 7, "_scalar") != 0)) return 1;
    }
    return 0;
}

static void test_fallback_names_the_rejecting_kernel(void) {
    if (skn_cpu_isa() < SKN_ISA_AVX2 || skn_cpu_isa() >= SKN_ISA_NEON || !has_simd_kernel("matmul_wt_q4_k_ibm_q8_k_")) {
        printf("skip: the narrowed-view fallback needs an x86 SIMD tier and its Q4_K kernels\n");
        return;
    }
    unsigned char* keep = NULL;
    skn_view* rm = quantized_view(SKN_FORMAT_Q4_K, 512, 512, &keep);
    CHECK(rm != NULL);
    if (rm == NULL) return;
    skn_scope* scope = NULL;
    skn_view *ibm = NULL, *narrowed = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    CHECK(skn_view_prepack(rm, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &ibm) == SKN_OK);
    /* The first 256 output rows of the kernel-order weight: strides of the
     * 512-row parent, which the SIMD kernels do not walk. */
    CHECK(skn_view_narrow(ibm, 0, 0, 256, &narrowed) == SKN_OK);
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    CHECK(skn_context_set_trace(ctx, on_trace, NULL) == SKN_OK);
    float* x = ramp(512);
    float y[256];
    skn_matmul_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    g_fallback[0] = 0;
    CHECK(skn_matmul_wt(ctx, x, 1, 512, narrowed, NULL, y, 256, &o) == SKN_OK);
    CHECK(strstr(g_fallback, "rejected this view") != NULL);
    CHECK(strstr(g_fallback, "matmul_wt_q4_k_ibm_q8_k_") != NULL);
    CHECK(strstr(g_fallback, "no SIMD kernel reads") == NULL);
    if (strstr(g_fallback, "rejected this view") == NULL) fprintf(stderr, "fallback: %s\n", g_fallback);
    free(x);
    skn_context_destroy(ctx);
    skn_view_release(narrowed);
    skn_view_release(ibm);
    skn_view_release(rm);
    skn_scope_destroy(scope);
    free(keep);
}

static char g_log[4096];
static void on_log(skn_log_level level, const char* message, void* user) {
    (void)user;
    if (level == SKN_LOG_DEBUG && strstr(message, "adapter") != NULL)
        snprintf(g_log, sizeof g_log, "%s", message);
}

static void test_prepack_reaches_the_log(void) {
    /* A GGUF file with one named tensor, opened OUT_IN. */
    unsigned char* keep = NULL;
    size_t bytes = 0;
    float* w = ramp(8 * 96);
    CHECK(skn_quantized_size(SKN_FORMAT_Q4_0, 8, 96, &bytes) == SKN_OK);
    keep = malloc(bytes);
    CHECK(keep != NULL && skn_quantize(SKN_FORMAT_Q4_0, w, 8, 96, keep, bytes) == SKN_OK);
    skn_gguf_writer* wr = NULL;
    CHECK(skn_gguf_writer_create(&wr) == SKN_OK);
    const int64_t ne[2] = {96, 8};
    CHECK(skn_gguf_writer_add_tensor(wr, "blk.7.ffn_up.weight", SKN_FORMAT_Q4_0, 2, ne, keep, bytes) == SKN_OK);
    uint64_t size = 0;
    CHECK(skn_gguf_writer_size(wr, &size) == SKN_OK);
    unsigned char* file = malloc((size_t)size);
    CHECK(file != NULL && skn_gguf_writer_write_memory(wr, file, (size_t)size) == SKN_OK);
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open_memory(file, (size_t)size, NULL, &g) == SKN_OK);
    skn_view* v = NULL;
    if (g != NULL) CHECK(skn_gguf_tensor_view(g, 0, &v) == SKN_OK);
    skn_scope* scope = NULL;
    CHECK(skn_scope_create(&scope) == SKN_OK);
    CHECK(skn_set_log_callback(SKN_LOG_DEBUG, on_log, NULL) == SKN_OK);
    skn_view* packed = NULL;
    g_log[0] = 0;
    /* No trace sink: the conversion still reaches the log, at DEBUG. */
    if (v != NULL) CHECK(skn_view_prepack(v, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &packed) == SKN_OK);
    CHECK(strstr(g_log, "tensor \"blk.7.ffn_up.weight\"") != NULL);
    CHECK(strstr(g_log, "into scope 0x") != NULL);
    CHECK(strstr(g_log, "ROW_MAJOR -> INPUT_BLOCK_MAJOR") != NULL);
    if (strstr(g_log, "blk.7") == NULL) fprintf(stderr, "log: '%s'\n", g_log);
    /* With a sink, the event's detail carries the same identity. */
    skn_view* again = NULL;
    g_adapter[0] = 0;
    if (v != NULL) CHECK(skn_view_prepack(v, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, on_trace, NULL, &again) == SKN_OK);
    CHECK(strstr(g_adapter, "blk.7.ffn_up.weight") != NULL && strstr(g_adapter, "scope 0x") != NULL);
    CHECK(skn_set_log_callback(SKN_LOG_WARN, NULL, NULL) == SKN_OK);
    skn_view_release(again);
    skn_view_release(packed);
    skn_view_release(v);
    skn_scope_destroy(scope);
    skn_gguf_close(g);
    skn_gguf_writer_destroy(wr);
    free(file);
    free(keep);
    free(w);
}

static void test_format_name_messages(void) {
    skn_format f;
    CHECK_ERROR(skn_format_from_name("Q4_K_M", &f), SKN_E_UNKNOWN_FORMAT, "file type");
    CHECK(strstr(skn_last_error(), "mostly to Q4_K") != NULL);
    CHECK(strstr(skn_last_error(), "Q4_0, ") != NULL); /* the valid names are listed */
    CHECK_ERROR(skn_format_from_name("i32", &f), SKN_E_UNKNOWN_FORMAT, "does not implement");
    CHECK(strstr(skn_last_error(), "GGUF tensor type 26") != NULL);
    CHECK(strstr(skn_last_error(), "file type") == NULL);
    CHECK_ERROR(skn_format_from_name("q4_0_4_4", &f), SKN_E_UNKNOWN_FORMAT, "removed from GGUF");
    CHECK_ERROR(skn_format_from_name("banana", &f), SKN_E_UNKNOWN_FORMAT, "Format names");
    CHECK(strstr(skn_last_error(), "TQ2_0") != NULL);
    CHECK(skn_format_from_name("q4_k", &f) == SKN_OK && f == SKN_FORMAT_Q4_K);
}

static skn_block_order prepacked_order(skn_format format, skn_block_order from, skn_isa cap) {
    unsigned char* keep = NULL;
    skn_view* rm = quantized_view(format, 64, 256, &keep);
    skn_block_order got = (skn_block_order)-1;
    skn_scope* scope = NULL;
    skn_context* ctx = NULL;
    skn_view *w = NULL, *out = NULL;
    if (rm == NULL || skn_scope_create(&scope) != SKN_OK || skn_context_create(&ctx) != SKN_OK) goto done;
    if (skn_view_prepack(rm, from, scope, NULL, NULL, &w) != SKN_OK) goto done;
    if (skn_context_set_isa(ctx, cap) != SKN_OK) goto done;
    if (skn_prepack_for_matmul(ctx, w, scope, &out) == SKN_OK) got = skn_view_order(out);
done:
    skn_view_release(out);
    skn_view_release(w);
    skn_view_release(rm);
    skn_context_destroy(ctx);
    skn_scope_destroy(scope);
    free(keep);
    return got;
}

/* The order a tuning row in force on this CPU prefers for FORMAT's
 * one-token weights at `tier` (the built-in table has rows for some cores,
 * docs/kernels.md "The tuning table"), or `fallback` when none does. */
static skn_block_order tuned_order_of(const char* format, const char* tier, skn_block_order fallback, int twin_too) {
    skn_context* ctx = NULL;
    skn_block_order order = fallback;
    char subject[64];
    snprintf(subject, sizeof subject, "%s:gemv", format);
    if (skn_context_create(&ctx) != SKN_OK) return fallback;
    for (int32_t i = 0; i < skn_tuning_count(ctx); ++i) {
        skn_tuning_row row;
        memset(&row, 0, sizeof row);
        row.struct_size = sizeof row;
        if (skn_tuning_row_at(ctx, i, &row) != SKN_OK) continue;
        if (strcmp(row.choice, "prefer") != 0 || strcmp(row.subject, subject) != 0) continue;
        if (strcmp(row.tier, "*") != 0 && strcmp(row.tier, tier) != 0) continue;
        const char* slash = strchr(row.value, '/');
        /* A row naming the format itself moves the order; one naming its
         * row-interleaved twin (FORMAT_R4 ...) converts to the twin in that
         * order, asked for with twin_too. */
        if (slash == NULL || strncmp(row.value, format, strlen(format)) != 0) continue;
        const size_t len = (size_t)(slash - row.value);
        if (len != strlen(format) && !(twin_too && len > strlen(format) + 1 && row.value[strlen(format)] == '_' &&
                                       row.value[strlen(format) + 1] == 'R'))
            continue;
        order = strcmp(slash + 1, "rm") == 0 ? SKN_ORDER_ROW_MAJOR : SKN_ORDER_INPUT_BLOCK_MAJOR; /* later rows win */
    }
    skn_context_destroy(ctx);
    return order;
}

static skn_block_order tuned_order(const char* format, const char* tier, skn_block_order fallback) {
    return tuned_order_of(format, tier, fallback, 0);
}

static void test_prepack_follows_measured_order(void) {
    const skn_isa cpu = skn_cpu_isa();
    const int x86_avx2 = cpu == SKN_ISA_AVX2 || cpu == SKN_ISA_AVX_VNNI || cpu == SKN_ISA_AVX512 ||
                         cpu == SKN_ISA_AVX512_VNNI;
    if (!x86_avx2 || !has_simd_kernel("matmul_wt_q4_0_ibm_q8_0_avx2")) {
        printf("skip: the order table holds x86 tiers with SIMD kernels; this CPU is %s\n", skn_isa_name(cpu));
        return;
    }
    /* src/dispatch/order_table.inc, avx2 rows. Q4_0: n = 1 ibm 1.59x faster. */
    CHECK(prepacked_order(SKN_FORMAT_Q4_0, SKN_ORDER_ROW_MAJOR, SKN_ISA_AVX2) == SKN_ORDER_INPUT_BLOCK_MAJOR);
    /* Q6_K: n = 1 rm 1.17x faster. */
    CHECK(prepacked_order(SKN_FORMAT_Q6_K, SKN_ORDER_INPUT_BLOCK_MAJOR, SKN_ISA_AVX2) == SKN_ORDER_ROW_MAJOR);
    /* Q3_K: within 5% at n = 1 and n = 256, so the weight keeps its order. */
    CHECK(prepacked_order(SKN_FORMAT_Q3_K, SKN_ORDER_ROW_MAJOR, SKN_ISA_AVX2) == SKN_ORDER_ROW_MAJOR);
    CHECK(prepacked_order(SKN_FORMAT_Q3_K, SKN_ORDER_INPUT_BLOCK_MAJOR, SKN_ISA_AVX2) == SKN_ORDER_INPUT_BLOCK_MAJOR);
    if (cpu != SKN_ISA_AVX512_VNNI) return;
    /* avx512vnni rows. Q4_0: ibm 1.12x at n = 1 on the Intel guest, whichever
     * order it comes in; a tuning row for this core may say otherwise (Zen 5:
     * its twin Q4_0_R8 in rm; the 64 rows are whole groups of 8), and then it
     * decides, whichever order it comes in too. */
    const skn_block_order q4_0 = tuned_order_of("Q4_0", "avx512vnni", SKN_ORDER_INPUT_BLOCK_MAJOR, 1);
    CHECK(prepacked_order(SKN_FORMAT_Q4_0, SKN_ORDER_ROW_MAJOR, SKN_ISA_AVX512_VNNI) == q4_0);
    CHECK(prepacked_order(SKN_FORMAT_Q4_0, SKN_ORDER_INPUT_BLOCK_MAJOR, SKN_ISA_AVX512_VNNI) == q4_0);
    /* Q4_K: rm 1.09x at n = 1. */
    CHECK(prepacked_order(SKN_FORMAT_Q4_K, SKN_ORDER_INPUT_BLOCK_MAJOR, SKN_ISA_AVX512_VNNI) ==
          tuned_order("Q4_K", "avx512vnni", SKN_ORDER_ROW_MAJOR));
    /* Q3_K: a tie in both regimes keeps the order, unless this core's
     * tuning rows prefer its twin (Zen 5: Q3_K_R4 in ROW_MAJOR; the 64 rows
     * are whole groups of 4). */
    CHECK(prepacked_order(SKN_FORMAT_Q3_K, SKN_ORDER_INPUT_BLOCK_MAJOR, SKN_ISA_AVX512_VNNI) ==
          tuned_order_of("Q3_K", "avx512vnni", SKN_ORDER_INPUT_BLOCK_MAJOR, 1));
}

int main(void) {
    test_orientation_guard_speaks_first();
    test_fixture_grids_and_counts();
    test_fallback_names_the_rejecting_kernel();
    test_prepack_reaches_the_log();
    test_format_name_messages();
    test_prepack_follows_measured_order();
    return check_summary();
}
