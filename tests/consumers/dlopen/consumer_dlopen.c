/* SPDX-License-Identifier: MIT */
/* A plug-in host's view of libskn: no -lskn at link time. The library is
 * loaded with dlopen("libskn.so.1") and every function is resolved with
 * dlvsym(handle, name, "SKN_1.0"), so the program binds to the 1.0 ABI by
 * symbol version, as a host that must survive a newer libskn.so.1 would.
 * Built with: cc -std=c11 consumer_dlopen.c $(pkg-config --cflags skn) -ldl
 * (skn.h is used for its types only). Runs the consumer contract check. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <skn/skn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void* lib;
static int failures = 0;
static int checks = 0;
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        ++checks;                                                                        \
        if (!(cond)) {                                                                   \
            ++failures;                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
        }                                                                                \
    } while (0)

static void* sym(const char* name) {
    void* p = dlvsym(lib, name, "SKN_1.0");
    if (p == NULL) {
        fprintf(stderr, "dlvsym(%s, SKN_1.0): %s\n", name, dlerror());
        exit(1);
    }
    return p;
}

/* Function pointers typed from skn.h's declarations. */
static __typeof__(&skn_version) p_version;
static __typeof__(&skn_version_string) p_version_string;
static __typeof__(&skn_fixture_bytes) p_fixture_bytes;
static __typeof__(&skn_fixture_disagreement) p_fixture_disagreement;
static __typeof__(&skn_fixture_golden_info) p_golden_info;
static __typeof__(&skn_fixture_golden) p_golden;
static __typeof__(&skn_dequantize) p_dequantize;

static unsigned char* fixture(int kernel_order, size_t* n) {
    CHECK(p_fixture_bytes(SKN_FORMAT_Q4_K, kernel_order, 4, 3, NULL, 0, n) == SKN_OK);
    unsigned char* buf = malloc(*n);
    CHECK(buf != NULL && p_fixture_bytes(SKN_FORMAT_Q4_K, kernel_order, 4, 3, buf, *n, n) == SKN_OK);
    return buf;
}

int main(void) {
    lib = dlopen("libskn.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "dlopen(libskn.so.1): %s\n", dlerror());
        return 1;
    }
    p_version = (__typeof__(p_version))sym("skn_version");
    p_version_string = (__typeof__(p_version_string))sym("skn_version_string");
    p_fixture_bytes = (__typeof__(p_fixture_bytes))sym("skn_fixture_bytes");
    p_fixture_disagreement = (__typeof__(p_fixture_disagreement))sym("skn_fixture_disagreement");
    p_golden_info = (__typeof__(p_golden_info))sym("skn_fixture_golden_info");
    p_golden = (__typeof__(p_golden))sym("skn_fixture_golden");
    p_dequantize = (__typeof__(p_dequantize))sym("skn_dequantize");

    /* A version node that does not exist resolves nothing. */
    CHECK(dlvsym(lib, "skn_version", "SKN_0.9") == NULL);
    CHECK(p_version() / 10000 == SKN_VERSION_MAJOR);

    size_t n = 0, n2 = 0;
    unsigned char* kernel = fixture(1, &n);
    unsigned char* canonical = fixture(0, &n2);
    CHECK(n == n2);
    CHECK(p_fixture_disagreement(kernel, n, SKN_FORMAT_Q4_K, 1, 4, 3) == NULL);
    CHECK(p_fixture_disagreement(canonical, n, SKN_FORMAT_Q4_K, 1, 4, 3) != NULL);
    free(kernel);
    free(canonical);

    skn_golden_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK(p_golden_info(SKN_FORMAT_Q4_K, &info) == SKN_OK);
    size_t packed_n = 0, decoded_n = 0;
    CHECK(p_golden(SKN_FORMAT_Q4_K, SKN_GOLDEN_PACKED, NULL, 0, &packed_n) == SKN_OK);
    CHECK(p_golden(SKN_FORMAT_Q4_K, SKN_GOLDEN_DECODED, NULL, 0, &decoded_n) == SKN_OK);
    unsigned char* packed = malloc(packed_n);
    float* decoded = malloc(decoded_n);
    float* mine = malloc(decoded_n);
    if (!packed || !decoded || !mine) return 1;
    CHECK(p_golden(SKN_FORMAT_Q4_K, SKN_GOLDEN_PACKED, packed, packed_n, &packed_n) == SKN_OK);
    CHECK(p_golden(SKN_FORMAT_Q4_K, SKN_GOLDEN_DECODED, decoded, decoded_n, &decoded_n) == SKN_OK);
    CHECK(p_dequantize(SKN_FORMAT_Q4_K, packed, packed_n, info.rows, info.cols, mine, decoded_n / sizeof(float)) ==
          SKN_OK);
    CHECK(memcmp(mine, decoded, decoded_n) == 0);
    free(packed);
    free(decoded);
    free(mine);

    printf("consumer_dlopen against libskn %s: %d passed, %d failed\n", p_version_string(), checks - failures,
           failures);
    dlclose(lib);
    return failures == 0 ? 0 : 1;
}
