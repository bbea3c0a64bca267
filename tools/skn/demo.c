/* SPDX-License-Identifier: MIT */
/* skn demo: quantize an embedded sample weight to every format skn knows,
 * decode it back and print what each format costs and how much it loses. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
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

int skn_cmd_demo(int argc, char** argv) {
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: skn demo   (takes no arguments)\n");
        return 2;
    }
    static float weight[kRows * kCols];
    static float decoded[kRows * kCols];
    make_sample(weight);
    double sumsq = 0.0;
    for (int i = 0; i < kRows * kCols; ++i) sumsq += (double)weight[i] * weight[i];
    const double rms = sqrt(sumsq / (kRows * kCols));

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
        printf("%-8s %7.3f %9zu %12.4g %12.4g %8.2f%%\n", p.name, p.bits_per_weight, bytes, max_err, rmse,
               100.0 * rmse / rms);
        free(packed);
    }
    return failures == 0 ? 0 : 1;
}
