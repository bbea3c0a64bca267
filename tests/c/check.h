/* SPDX-License-Identifier: MIT */
/* Minimal assertion helpers shared by the C tests. */
#ifndef SKN_TEST_CHECK_H
#define SKN_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "../support/rows_for.h"
#include "skn/skn.h"

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        ++g_checks;                                                                   \
        if (!(cond)) {                                                                \
            ++g_failures;                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
                    skn_last_error());                                                \
        }                                                                             \
    } while (0)

static int message_contains(const char* needle) {
    const char* msg = skn_last_error();
    if (msg[0] == 0) return 0;
    return needle == NULL || strstr(msg, needle) != NULL;
}

/* A failing call must return `expected` and leave a non-empty message that
 * contains `needle` (when given). */
#define CHECK_ERROR(call, expected, needle)                                                                 \
    do {                                                                                                    \
        skn_status s_ = (call);                                                                             \
        ++g_checks;                                                                                         \
        if (s_ != (expected)) {                                                                             \
            ++g_failures;                                                                                   \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", __FILE__, __LINE__, #call,         \
                    skn_status_name(s_), skn_status_name(expected), skn_last_error());                      \
        } else if (!message_contains(needle)) {                                                             \
            ++g_failures;                                                                                   \
            fprintf(stderr, "%s:%d: %s: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, #call,          \
                    skn_last_error(), (needle) ? (needle) : "");                                            \
        }                                                                                                   \
    } while (0)

/* The block_rows (R) of `f`, 1 for a canonical format or an unknown id. */
static inline int32_t block_rows_of(skn_format f) {
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    return skn_format_info(f, &p) == SKN_OK && p.block_rows > 1 ? p.block_rows : 1;
}

/* The rows a test uses for `f` where it would use `rows` for a canonical
 * format: R times as many for a row-interleaved one (support/rows_for.h). */
static inline int64_t rows_for(skn_format f, int64_t rows) { return skn_test_rows_for(block_rows_of(f), rows); }

static int check_summary(void) {
    printf("%d passed, %d failed\n", g_checks - g_failures, g_failures);
    return g_failures == 0 ? 0 : 1;
}

#endif
