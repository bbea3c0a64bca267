// SPDX-License-Identifier: MIT
// Repack speed of two libskn builds side by side (docs/formats/interleaved.md,
// "Conversion speed"):
//   skn_bench_repack_ab LIB_A LIB_B ROUNDS TWIN...     e.g. ... 7 Q3_K_R4 Q6_K_R4
// dlopens both builds (LIB_A = LIB_B measures the harness's own spread) and,
// per twin, converts a pseudo-random [14336, 4096] canonical tensor to the
// twin and back with skn_packed_convert on one thread. Each conversion is
// timed as the thread's CPU time (the machine is shared: wall time would
// count other processes); the builds alternate within every round, in
// alternating order, and write the same buffers (so buffer placement favours
// neither). It prints a Markdown row per twin: the median GB/s (tensor bytes
// over time) of each build and direction. Before timing, both builds'
// twins are compared byte for byte and both round trips with the source;
// any difference fails.
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skn/skn.h"

typedef skn_status (*convert_fn)(skn_format, skn_format, const void*, size_t, void*, size_t, int64_t, int64_t);
typedef skn_status (*from_name_fn)(const char*, skn_format*);
typedef skn_status (*size_fn)(skn_format, int64_t, int64_t, size_t*);
typedef const char* (*last_error_fn)(void);

enum { kMaxRounds = 64 };
static const int64_t kRows = 14336, kCols = 4096;

static double thread_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// dlsym's object pointer to a function pointer without a cast ISO C forbids.
static void symbol(void* lib, const char* name, void* fn, size_t size) {
    void* p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "skn_bench_repack_ab: %s: %s\n", name, dlerror());
        exit(1);
    }
    memcpy(fn, &p, size);
}

int main(int argc, char** argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: skn_bench_repack_ab LIB_A LIB_B ROUNDS TWIN...\n");
        return 2;
    }
    void* lib[2];
    convert_fn convert[2];
    for (int l = 0; l < 2; ++l) {
        lib[l] = dlopen(argv[1 + l], RTLD_NOW | RTLD_LOCAL);
        if (!lib[l]) {
            fprintf(stderr, "skn_bench_repack_ab: %s\n", dlerror());
            return 1;
        }
        symbol(lib[l], "skn_packed_convert", &convert[l], sizeof convert[l]);
    }
    from_name_fn from_name;
    size_fn quantized_size;
    last_error_fn last_error;
    symbol(lib[0], "skn_format_from_name", &from_name, sizeof from_name);
    symbol(lib[0], "skn_quantized_size", &quantized_size, sizeof quantized_size);
    symbol(lib[0], "skn_last_error", &last_error, sizeof last_error);
    const int rounds = atoi(argv[3]);
    if (rounds < 1 || rounds > kMaxRounds) {
        fprintf(stderr, "skn_bench_repack_ab: ROUNDS must be 1..%d\n", kMaxRounds);
        return 2;
    }
    printf("| conversion | A → twin | B → twin | A → canonical | B → canonical |\n|---|---:|---:|---:|---:|\n");
    for (int f = 4; f < argc; ++f) {
        // The canonical format is the twin's name without its _R<n> suffix.
        char canonical_name[64];
        snprintf(canonical_name, sizeof canonical_name, "%s", argv[f]);
        char* suffix = strrchr(canonical_name, '_');
        if (suffix) *suffix = 0;
        skn_format twin, canonical;
        size_t bytes;
        if (!suffix || from_name(argv[f], &twin) != SKN_OK || from_name(canonical_name, &canonical) != SKN_OK ||
            quantized_size(canonical, kRows, kCols, &bytes) != SKN_OK) {
            fprintf(stderr, "skn_bench_repack_ab: %s is not a row-interleaved format name (Q3_K_R4, ...)\n", argv[f]);
            return 1;
        }
        uint8_t* src = malloc(bytes);
        uint8_t* out[2][2] = {{malloc(bytes), malloc(bytes)}, {malloc(bytes), malloc(bytes)}};  // [build][twin, back]
        if (!src || !out[0][0] || !out[0][1] || !out[1][0] || !out[1][1]) {
            fprintf(stderr, "skn_bench_repack_ab: out of memory\n");
            return 1;
        }
        uint32_t state = 12345u + (uint32_t)f;
        for (size_t i = 0; i < bytes; ++i) {
            state = state * 1103515245u + 12345u;
            src[i] = (uint8_t)(state >> 16);
        }
        for (int l = 0; l < 2; ++l)  // also the warm-up: the buffers' pages are touched here
            if (convert[l](canonical, twin, src, bytes, out[l][0], bytes, kRows, kCols) != SKN_OK ||
                convert[l](twin, canonical, out[l][0], bytes, out[l][1], bytes, kRows, kCols) != SKN_OK) {
                fprintf(stderr, "skn_bench_repack_ab: %s: %s\n", argv[f], last_error());
                return 1;
            }
        if (memcmp(out[0][0], out[1][0], bytes) != 0 || memcmp(out[0][1], src, bytes) != 0 ||
            memcmp(out[1][1], src, bytes) != 0) {
            fprintf(stderr, "skn_bench_repack_ab: %s: the builds' twins differ or a round trip changed bytes\n", argv[f]);
            return 1;
        }
        double gbs[2][2][kMaxRounds];  // [build][direction][round]
        for (int r = 0; r < rounds; ++r)
            for (int j = 0; j < 2; ++j) {
                const int l = (r + j) % 2;
                const double t0 = thread_seconds();
                convert[l](canonical, twin, src, bytes, out[0][0], bytes, kRows, kCols);
                const double t1 = thread_seconds();
                convert[l](twin, canonical, out[0][0], bytes, out[0][1], bytes, kRows, kCols);
                const double t2 = thread_seconds();
                gbs[l][0][r] = (double)bytes / (t1 - t0) / 1e9;
                gbs[l][1][r] = (double)bytes / (t2 - t1) / 1e9;
            }
        double median[2][2];
        for (int l = 0; l < 2; ++l)
            for (int d = 0; d < 2; ++d) {
                qsort(gbs[l][d], (size_t)rounds, sizeof(double), by_value);
                median[l][d] = gbs[l][d][rounds / 2];
            }
        printf("| %s → %s | %.2f | %.2f | %.2f | %.2f |\n", canonical_name, argv[f], median[0][0], median[1][0], median[0][1],
               median[1][1]);
        fflush(stdout);
        free(src);
        for (int l = 0; l < 2; ++l) {
            free(out[l][0]);
            free(out[l][1]);
        }
    }
    return 0;
}
