/* SPDX-License-Identifier: MIT */
/* A downstream C program built against the INSTALLED libskn with nothing but
 *     cc -std=c11 consumer.c $(pkg-config --cflags --libs skn)
 * (linked by the C driver, so no C++ runtime is named at link time).
 * It runs the consumer contract check (docs/packaging.md): the Q4_K tagged
 * fixture in kernel order passes, canonical bytes read as kernel order are
 * named as wrong, and a golden fixture's DECODED part equals skn_dequantize
 * of its PACKED part. */
#include <skn/skn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        ++checks;                                                                        \
        if (!(cond)) {                                                                   \
            ++failures;                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s (%s)\n", __FILE__, __LINE__, #cond, \
                    skn_last_error());                                                   \
        }                                                                                \
    } while (0)

static unsigned char* fixture(skn_format f, int kernel_order, int64_t rows, int64_t blocks, size_t* n) {
    CHECK(skn_fixture_bytes(f, kernel_order, rows, blocks, NULL, 0, n) == SKN_OK);
    unsigned char* buf = malloc(*n);
    CHECK(buf != NULL && skn_fixture_bytes(f, kernel_order, rows, blocks, buf, *n, n) == SKN_OK);
    return buf;
}

static void golden_decoded_matches(skn_format f) {
    skn_golden_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK(skn_fixture_golden_info(f, &info) == SKN_OK);
    size_t packed_n = 0, decoded_n = 0;
    CHECK(skn_fixture_golden(f, SKN_GOLDEN_PACKED, NULL, 0, &packed_n) == SKN_OK);
    CHECK(skn_fixture_golden(f, SKN_GOLDEN_DECODED, NULL, 0, &decoded_n) == SKN_OK);
    CHECK(decoded_n == (size_t)(info.rows * info.cols) * sizeof(float));
    unsigned char* packed = malloc(packed_n);
    float* decoded = malloc(decoded_n);
    float* mine = malloc(decoded_n);
    if (!packed || !decoded || !mine) {
        ++failures;
        return;
    }
    CHECK(skn_fixture_golden(f, SKN_GOLDEN_PACKED, packed, packed_n, &packed_n) == SKN_OK);
    CHECK(skn_fixture_golden(f, SKN_GOLDEN_DECODED, decoded, decoded_n, &decoded_n) == SKN_OK);
    CHECK(skn_dequantize(f, packed, packed_n, info.rows, info.cols, mine, decoded_n / sizeof(float)) == SKN_OK);
    CHECK(memcmp(mine, decoded, decoded_n) == 0);
    free(packed);
    free(decoded);
    free(mine);
}

int main(void) {
    CHECK(skn_version() / 10000 == SKN_VERSION_MAJOR);
    CHECK(skn_version() >= SKN_VERSION_NUMBER);

    size_t n = 0, n_canonical = 0;
    unsigned char* kernel = fixture(SKN_FORMAT_Q4_K, 1, 4, 3, &n);
    unsigned char* canonical = fixture(SKN_FORMAT_Q4_K, 0, 4, 3, &n_canonical);
    CHECK(n == n_canonical);
    const char* problem = skn_fixture_disagreement(kernel, n, SKN_FORMAT_Q4_K, 1, 4, 3);
    CHECK(problem == NULL);
    problem = skn_fixture_disagreement(canonical, n, SKN_FORMAT_Q4_K, 1, 4, 3);
    CHECK(problem != NULL);
    if (problem) printf("canonical bytes read as kernel order: %s\n", problem);
    free(kernel);
    free(canonical);

    golden_decoded_matches(SKN_FORMAT_Q4_K);
    golden_decoded_matches(SKN_FORMAT_Q8_0);

    printf("consumer_c against libskn %s: %d passed, %d failed\n", skn_version_string(), checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
