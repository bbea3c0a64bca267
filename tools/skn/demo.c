/* SPDX-License-Identifier: MIT */
/* skn demo: quantize an embedded sample weight to every format skn knows,
 * decode it back and print what each format costs and how much it loses. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "skn/skn.h"

enum { kRows = 16, kCols = 1024 };

/* The embedded sample: per-row scale, a smooth component, deterministic noise
 * and a few outliers, roughly what a transformer projection looks like. */
static void make_sample(float* w) {
    uint64_t s = 0x5eed5eedULL;
    for (int r = 0; r < kRows; ++r) {
        const float row_scale = 0.02f * (float)(1 + r % 5);
        for (int c = 0; c < kCols; ++c) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            const float u = (float)(s >> 40) / 16777216.0f - 0.5f;
            float v = row_scale * (2.0f * u + 0.3f * sinf(0.05f * (float)c + (float)r));
            if ((c * 31 + r * 7) % 509 == 0) v *= 12.0f;
            w[r * kCols + c] = v;
        }
    }
}

/* The ternary formats store weights that already take three values {-s, 0, +s}
 * (BitNet-style training); their error on ordinary weights says nothing about
 * them. They are shown on the sample made ternary instead (s = the sample's
 * mean |w|, w -> s * sign(w) where |w| > s / 2, else 0), marked (t). */
static int is_ternary(const char* name) {
    return strcmp(name, "TQ1_0") == 0 || strcmp(name, "TQ2_0") == 0 || strcmp(name, "I2_S") == 0 ||
           strcmp(name, "I2_S_G64") == 0;
}

static void make_ternary(const float* w, float* t) {
    /* One s for the whole tensor: I2_S has a single per-tensor scale. */
    double mean_abs = 0.0;
    for (int i = 0; i < kRows * kCols; ++i) mean_abs += fabs((double)w[i]);
    const float s = (float)(mean_abs / (kRows * kCols));
    for (int i = 0; i < kRows * kCols; ++i) t[i] = fabsf(w[i]) > 0.5f * s ? (w[i] > 0 ? s : -s) : 0.0f;
}

static double rms_of(const float* w) {
    double sumsq = 0.0;
    for (int i = 0; i < kRows * kCols; ++i) sumsq += (double)w[i] * w[i];
    return sqrt(sumsq / (kRows * kCols));
}

int skn_cmd_demo(int argc, char** argv) {
    if (argc == 2 && skn_cli_is_help(argv[1])) return skn_cli_help(skn_help_skn_demo);
    if (argc > 1) return skn_cli_usage_error("demo", skn_help_skn_demo, "unexpected argument \"%s\"", argv[1]);
    static float sample[kRows * kCols];
    static float ternary[kRows * kCols];
    static float decoded[kRows * kCols];
    make_sample(sample);
    make_ternary(sample, ternary);
    const double rms = rms_of(sample), ternary_rms = rms_of(ternary);
    int shown_ternary = 0;

    printf("skn %s demo: a [%d, %d] sample weight (rms %.4g), cpu tier %s\n\n", skn_version_string(), kRows, kCols, rms,
           skn_isa_name(skn_cpu_isa()));
    printf("%-8s %7s %9s %12s %12s %9s\n", "format", "bits/w", "bytes", "max |err|", "RMSE", "RMSE/rms");
    printf("%-8s %7s %9s %12s %12s %9s\n", "------", "------", "-----", "---------", "----", "--------");
    int failures = 0;
    for (int i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        skn_format_props p;
        memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        size_t bytes = 0;
        if (skn_format_info(f, &p) != SKN_OK || skn_quantized_size(f, kRows, kCols, &bytes) != SKN_OK) {
            fprintf(stderr, "skn demo: format %d: %s\n", (int)f, skn_last_error());
            ++failures;
            continue;
        }
        if (p.needs_importance) {
            printf("%-8s %7.3f %9zu   (quantizes only with importance weights, an imatrix)\n", p.name,
                   p.bits_per_weight, bytes);
            continue;
        }
        const int ternary_format = is_ternary(p.name);
        const float* weight = ternary_format ? ternary : sample;
        const double weight_rms = ternary_format ? ternary_rms : rms;
        shown_ternary |= ternary_format;
        void* packed = malloc(bytes);
        if (packed == NULL) {
            fprintf(stderr, "skn demo: out of memory\n");
            return 1;
        }
        if (skn_quantize(f, weight, kRows, kCols, packed, bytes) != SKN_OK ||
            skn_dequantize(f, packed, bytes, kRows, kCols, decoded, kRows * kCols) != SKN_OK) {
            fprintf(stderr, "skn demo: %s: %s\n", p.name, skn_last_error());
            ++failures;
            free(packed);
            continue;
        }
        double max_err = 0.0, err2 = 0.0;
        for (int k = 0; k < kRows * kCols; ++k) {
            const double e = fabs((double)decoded[k] - weight[k]);
            if (e > max_err) max_err = e;
            err2 += e * e;
        }
        const double rmse = sqrt(err2 / (kRows * kCols));
        printf("%-8s %7.3f %9zu %12.4g %12.4g %8.2f%%%s\n", p.name, p.bits_per_weight, bytes, max_err, rmse,
               100.0 * rmse / weight_rms, ternary_format ? " (t)" : "");
        free(packed);
    }
    if (shown_ternary)
        printf("\n(t) a ternary format: it expects weights in {-s, 0, +s} (BitNet-style), so it is shown on the\n"
               "    sample made ternary (s = its mean |w|; rms %.4g), not on the sample itself.\n",
               ternary_rms);
    return failures == 0 ? 0 : 1;
}
