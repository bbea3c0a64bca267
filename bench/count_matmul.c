// SPDX-License-Identifier: MIT
// A deterministic matmul_wt workload for counting instructions, not time:
//   skn_count_matmul FORMAT ORDER OUT BLOCKS N REPS [exact]
// quantizes a fixed pseudo-random [OUT, BLOCKS * block size] weight (importance weights of 1
// for the formats that need them), puts it in ORDER (rm or ibm), and calls
// skn_matmul_wt REPS times on one thread with x [N, IN]. It prints the
// kernel that ran ("kernel NAME") and fails on a FALLBACK or ADAPTER event,
// so a count is never silently the reference kernel's. scripts/count-arm64
// runs it under qemu-user with an instruction-counting plugin at two REPS
// and four shapes and takes differences, which cancel start-up, set-up,
// activation quantization and per-row work and leave instructions per
// weight block (docs/kernels/neon.md).
#include "skn/skn.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t noise_state = 12345u;

// Values in [-1, 1): a fixed LCG so every run quantizes the same weight.
static float noise(void) {
    noise_state = noise_state * 1664525u + 1013904223u;
    return (float)(noise_state >> 8) / (float)(1u << 23) - 1.0f;
}

static int fail(const char* what, skn_status s) {
    fprintf(stderr, "skn_count_matmul: %s: %s (%s)\n", what, skn_status_name(s), skn_last_error());
    return 1;
}

struct seen {
    char kernel[160];
    int refused;  // a FALLBACK or ADAPTER event
};

static void on_trace(const skn_trace_event* e, void* user) {
    struct seen* s = user;
    if (e->kind == SKN_TRACE_KERNEL) {
        snprintf(s->kernel, sizeof s->kernel, "%s", e->name);
    } else {
        s->refused = 1;
        fprintf(stderr, "skn_count_matmul: unexpected %s event: %s (%s)\n",
                e->kind == SKN_TRACE_FALLBACK ? "FALLBACK" : "ADAPTER", e->name, e->detail ? e->detail : "");
    }
}

int main(int argc, char** argv) {
    if (argc < 7 || argc > 8 || (strcmp(argv[2], "rm") != 0 && strcmp(argv[2], "ibm") != 0) ||
        (argc == 8 && strcmp(argv[7], "exact") != 0)) {
        fprintf(stderr, "usage: skn_count_matmul FORMAT rm|ibm OUT BLOCKS N REPS [exact]\n");
        return 2;
    }
    skn_format format;
    skn_status s = skn_format_from_name(argv[1], &format);
    if (s != SKN_OK) return fail("format", s);
    const int ibm = strcmp(argv[2], "ibm") == 0;
    const int64_t out = atoll(argv[3]), blocks = atoll(argv[4]), n = atoll(argv[5]);
    const long reps = atol(argv[6]);
    if (out < 1 || blocks < 1 || blocks > (1 << 20) || n < 1 || reps < 0) {
        fprintf(stderr, "skn_count_matmul: OUT, BLOCKS (at most 2^20) and N must be positive, REPS not negative\n");
        return 2;
    }
    skn_format_props props;
    memset(&props, 0, sizeof props);
    props.struct_size = sizeof props;
    if ((s = skn_format_info(format, &props)) != SKN_OK) return fail("format info", s);
    const int64_t in = blocks * props.block_elems;

    float* w = malloc(sizeof(float) * (size_t)(out * in));
    float* importance = malloc(sizeof(float) * (size_t)in);
    float* x = malloc(sizeof(float) * (size_t)(n * in));
    float* y = malloc(sizeof(float) * (size_t)(n * out));
    if (!w || !importance || !x || !y) return fail("allocation", SKN_E_OUT_OF_MEMORY);
    for (int64_t i = 0; i < out * in; ++i) w[i] = noise();
    for (int64_t i = 0; i < in; ++i) importance[i] = 1.0f;
    for (int64_t i = 0; i < n * in; ++i) x[i] = noise();

    size_t bytes = 0;
    if ((s = skn_quantized_size(format, out, in, &bytes)) != SKN_OK) return fail("size", s);
    void* packed = malloc(bytes);
    if (!packed) return fail("allocation", SKN_E_OUT_OF_MEMORY);
    skn_quantize_options qo;
    memset(&qo, 0, sizeof qo);
    qo.struct_size = sizeof qo;
    qo.importance = importance;
    qo.importance_count = in;
    if ((s = skn_quantize_with_options(format, w, out, in, packed, bytes, &qo)) != SKN_OK) return fail("quantize", s);

    skn_view* view = NULL;
    const int64_t shape[2] = {out, in};
    if ((s = skn_view_from_bytes(packed, bytes, format, shape, 2, SKN_ORDER_ROW_MAJOR, &view)) != SKN_OK)
        return fail("view", s);
    skn_scope* scope = NULL;
    if ((s = skn_scope_create(&scope)) != SKN_OK) return fail("scope", s);
    skn_view* weight = view;
    if (ibm && (s = skn_view_prepack(view, SKN_ORDER_INPUT_BLOCK_MAJOR, scope, NULL, NULL, &weight)) != SKN_OK)
        return fail("prepack", s);

    skn_context* ctx = NULL;
    if ((s = skn_context_create(&ctx)) != SKN_OK) return fail("context", s);
    skn_matmul_options mo;
    memset(&mo, 0, sizeof mo);
    mo.struct_size = sizeof mo;
    mo.precision = argc == 8 ? SKN_PRECISION_EXACT : SKN_PRECISION_FAST;
    // The first call names the kernel; the counted ones run without a trace
    // sink, as an engine's calls do.
    struct seen seen = {{0}, 0};
    if ((s = skn_context_set_trace(ctx, on_trace, &seen)) != SKN_OK) return fail("trace", s);
    if ((s = skn_matmul_wt(ctx, x, n, in, weight, NULL, y, out, &mo)) != SKN_OK) return fail("matmul_wt", s);
    if (seen.refused || seen.kernel[0] == 0) return 1;
    if ((s = skn_context_set_trace(ctx, NULL, NULL)) != SKN_OK) return fail("trace", s);
    for (long r = 0; r < reps; ++r)
        if ((s = skn_matmul_wt(ctx, x, n, in, weight, NULL, y, out, &mo)) != SKN_OK) return fail("matmul_wt", s);
    printf("kernel %s\n", seen.kernel);

    skn_context_destroy(ctx);
    if (weight != view) skn_view_release(weight);
    skn_view_release(view);
    skn_scope_destroy(scope);
    free(packed);
    free(y);
    free(x);
    free(importance);
    free(w);
    return 0;
}
