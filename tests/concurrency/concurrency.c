/* SPDX-License-Identifier: MIT */
/* Concurrency: what skn.h promises about threads, exercised so that
 * ThreadSanitizer (scripts/test-tsan) can see every shared access.
 *
 *  - many threads share one view, one skn_gguf and one scope, each with its
 *    own context (some with a 2-thread pool), and get the single-threaded
 *    result bit for bit;
 *  - skn_last_error is per thread: each thread's failure message survives
 *    the other threads' failures;
 *  - log callbacks are swapped by one thread while the others raise errors;
 *  - views are retained and released across threads.
 *
 * Compiled as C11 with POSIX threads; runs in the ordinary suite too. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../c/check.h"
#include "skn/skn.h"

#define THREADS 8
#define ROUNDS 20
#define OUT 16
#define IN 256

static skn_view* g_weight;       /* shared, ROW_MAJOR */
static skn_gguf* g_gguf;         /* shared */
static skn_scope* g_scope;       /* shared: every thread prepacks into it */
static unsigned char* g_file;    /* the bytes g_gguf reads */
static float g_x[2 * IN];
static float g_expected[2 * OUT];
static atomic_int g_log_calls;
static atomic_int g_failures_seen;
static pthread_mutex_t g_report = PTHREAD_MUTEX_INITIALIZER;

#define TCHECK(cond)                                                                                \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            pthread_mutex_lock(&g_report);                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
                    skn_last_error());                                                              \
            pthread_mutex_unlock(&g_report);                                                        \
            atomic_fetch_add(&g_failures_seen, 1);                                                  \
        }                                                                                           \
    } while (0)

static void setup(void) {
    static float w[OUT * IN];
    for (int i = 0; i < OUT * IN; ++i) w[i] = (float)((i * 7919) % 97) / 97.0f - 0.5f;
    for (int i = 0; i < 2 * IN; ++i) g_x[i] = (float)((i * 31) % 13) / 13.0f - 0.5f;
    size_t need = 0;
    CHECK(skn_quantized_size(SKN_FORMAT_Q4_K, OUT, IN, &need) == SKN_OK);
    unsigned char* q = malloc(need);
    CHECK(skn_quantize(SKN_FORMAT_Q4_K, w, OUT, IN, q, need) == SKN_OK);

    skn_gguf_writer* wr = NULL;
    CHECK(skn_gguf_writer_create(&wr) == SKN_OK);
    CHECK(skn_gguf_writer_add_u32(wr, "c.u32", 42) == SKN_OK);
    const char* words[3] = {"alpha", "beta", "gamma"};
    CHECK(skn_gguf_writer_add_string_array(wr, "c.words", words, NULL, 3) == SKN_OK);
    const int64_t ne[2] = {IN, OUT};
    CHECK(skn_gguf_writer_add_tensor(wr, "w", SKN_FORMAT_Q4_K, 2, ne, q, need) == SKN_OK);
    uint64_t size = 0;
    CHECK(skn_gguf_writer_size(wr, &size) == SKN_OK);
    g_file = malloc((size_t)size);
    CHECK(skn_gguf_writer_write_memory(wr, g_file, (size_t)size) == SKN_OK);
    skn_gguf_writer_destroy(wr);
    CHECK(skn_gguf_open_memory(g_file, (size_t)size, NULL, &g_gguf) == SKN_OK);
    CHECK(skn_gguf_tensor_view(g_gguf, 0, &g_weight) == SKN_OK);
    free(q);
    CHECK(skn_scope_create(&g_scope) == SKN_OK);

    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    CHECK(skn_matmul_wt(ctx, g_x, 2, IN, g_weight, NULL, g_expected, OUT, NULL) == SKN_OK);
    skn_context_destroy(ctx);
}

static void counting_log(skn_log_level level, const char* msg, void* user) {
    (void)level, (void)msg, (void)user;
    atomic_fetch_add(&g_log_calls, 1);
}

static void* worker(void* arg) {
    const int id = (int)(intptr_t)arg;
    skn_context* ctx = NULL;
    TCHECK(skn_context_create(&ctx) == SKN_OK);
    if (id % 2 == 1) TCHECK(skn_context_set_threads(ctx, 2) == SKN_OK);
    for (int r = 0; r < ROUNDS; ++r) {
        /* The shared view, and a prepacked copy in the shared scope. */
        skn_view* mine = skn_view_retain(g_weight);
        float y[2 * OUT];
        TCHECK(skn_matmul_wt(ctx, g_x, 2, IN, mine, NULL, y, OUT, NULL) == SKN_OK);
        TCHECK(memcmp(y, g_expected, sizeof y) == 0);
        skn_view* packed = NULL;
        TCHECK(skn_view_prepack(mine, SKN_ORDER_INPUT_BLOCK_MAJOR, g_scope, NULL, NULL, &packed) == SKN_OK);
        TCHECK(skn_matmul_wt(ctx, g_x, 2, IN, packed, NULL, y, OUT, NULL) == SKN_OK);
        TCHECK(memcmp(y, g_expected, sizeof y) == 0);
        float a, b;
        const int64_t at[2] = {id % OUT, (r * 17) % IN};
        TCHECK(skn_view_get(mine, at, 2, &a) == SKN_OK && skn_view_get(packed, at, 2, &b) == SKN_OK && a == b);
        skn_view_release(packed);
        skn_view_release(mine);
        TCHECK(strlen(skn_view_describe(g_weight)) > 0);

        /* The shared reader. */
        int64_t k = -1;
        uint32_t v = 0;
        TCHECK(skn_gguf_find_key(g_gguf, "c.u32", &k) == SKN_OK && skn_gguf_get_u32(g_gguf, k, &v) == SKN_OK);
        TCHECK(v == 42);
        int64_t words = -1;
        const char* s;
        size_t len;
        TCHECK(skn_gguf_find_key(g_gguf, "c.words", &words) == SKN_OK);
        TCHECK(skn_gguf_array_string(g_gguf, (uint64_t)words, 2, &s, &len) == SKN_OK && len == 5);
        skn_view* tv = NULL;
        TCHECK(skn_gguf_tensor_view(g_gguf, 0, &tv) == SKN_OK);
        skn_view_release(tv);

        /* Error isolation: this thread's message names this thread's length. */
        skn_view* out = NULL;
        const int64_t bad = -1000 - id;
        TCHECK(skn_view_narrow(g_weight, 0, 0, bad, &out) == SKN_E_INVALID_ARGUMENT);
        char want[32];
        snprintf(want, sizeof want, "%lld", (long long)bad);
        sched_yield();
        TCHECK(strstr(skn_last_error(), want) != NULL);
        TCHECK(skn_scope_allocated(g_scope, &(uint64_t){0}) == SKN_OK);
        TCHECK(skn_last_error()[0] == 0);
    }
    skn_context_destroy(ctx);
    return NULL;
}

static atomic_int g_stop;
static void* log_swapper(void* arg) {
    (void)arg;
    while (!atomic_load(&g_stop)) {
        TCHECK(skn_set_log_callback(SKN_LOG_DEBUG, counting_log, NULL) == SKN_OK);
        TCHECK(skn_set_log_callback(SKN_LOG_DEBUG, NULL, NULL) == SKN_OK);
    }
    return NULL;
}

int main(void) {
    setup();
    if (g_failures != 0) return 1;
    pthread_t swapper, t[THREADS];
    pthread_create(&swapper, NULL, log_swapper, NULL);
    for (int i = 0; i < THREADS; ++i) pthread_create(&t[i], NULL, worker, (void*)(intptr_t)i);
    for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
    atomic_store(&g_stop, 1);
    pthread_join(swapper, NULL);
    skn_view_release(g_weight);
    skn_gguf_close(g_gguf);
    skn_scope_destroy(g_scope);
    free(g_file);
    const int failed = atomic_load(&g_failures_seen);
    printf("concurrency: %d threads x %d rounds, %d log callbacks, %d failures\n", THREADS, ROUNDS,
           atomic_load(&g_log_calls), failed);
    return failed == 0 ? 0 : 1;
}
