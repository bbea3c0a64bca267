/* SPDX-License-Identifier: MIT */
/* The misuse suite: every function in skn.h called the way a careless or
 * hostile caller would (NULL pointers, enums out of range, sizes zero,
 * negative or overflowing, short buffers, re-entrant callbacks, FIFOs,
 * directories and devices as paths, files changed under an open reader).
 *
 * Each case runs in a forked child under alarm(), so a crash or a hang fails
 * the case by name instead of taking the suite down. The parent makes no skn
 * call, so each child starts with the library's state untouched (logging is
 * configured from SKN_LOG on first use, which the log cases rely on).
 *
 * A case lists the functions it covers; `misuse --check-header skn.h` fails
 * when a function declared in the header is covered by no case, so a new API
 * function cannot be added without misuse cases. Compiled as C11 + POSIX. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../c/check.h"
#include "skn/skn.h"

/* ---- helpers ------------------------------------------------------------ */

static char g_dir[256];

static void make_dir(void) {
    snprintf(g_dir, sizeof g_dir, "/tmp/skn-misuse-XXXXXX");
    if (mkdtemp(g_dir) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
}

static const char* path_in_dir(const char* name) {
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    return p;
}

/* A Q8_0 weight [out = 4, in = 96] (3 blocks per row), metadata of each
 * kind, and a 64 KiB F32 tensor so tensor data spans many pages. */
#define BIG_FLOATS 16384
static skn_gguf_writer* sample_writer(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    CHECK(skn_gguf_writer_add_u32(w, "a.u32", 7) == SKN_OK);
    CHECK(skn_gguf_writer_add_string(w, "a.str", "hello", 5) == SKN_OK);
    const int32_t nums[3] = {1, 2, 3};
    CHECK(skn_gguf_writer_add_array(w, "a.arr", SKN_GGUF_TYPE_I32, nums, 3) == SKN_OK);
    const char* words[2] = {"x", "yz"};
    CHECK(skn_gguf_writer_add_string_array(w, "a.words", words, NULL, 2) == SKN_OK);
    size_t need = 0;
    CHECK(skn_quantized_size(SKN_FORMAT_Q8_0, 4, 96, &need) == SKN_OK);
    float src[4 * 96];
    for (int i = 0; i < 4 * 96; ++i) src[i] = (float)((i * 37) % 19) - 9.0f;
    unsigned char* q = malloc(need);
    CHECK(skn_quantize(SKN_FORMAT_Q8_0, src, 4, 96, q, need) == SKN_OK);
    const int64_t ne[2] = {96, 4};
    CHECK(skn_gguf_writer_add_tensor(w, "w", SKN_FORMAT_Q8_0, 2, ne, q, need) == SKN_OK);
    free(q);
    float* big = malloc(BIG_FLOATS * sizeof(float));
    for (int i = 0; i < BIG_FLOATS; ++i) big[i] = (float)i;
    const int64_t ne_big[1] = {BIG_FLOATS};
    CHECK(skn_gguf_writer_add_tensor(w, "big", SKN_FORMAT_F32, 1, ne_big, big, BIG_FLOATS * sizeof(float)) == SKN_OK);
    free(big);
    return w;
}

static const char* sample_file(void) {
    static char path[512];
    snprintf(path, sizeof path, "%s", path_in_dir("sample.gguf"));
    skn_gguf_writer* w = sample_writer();
    CHECK(skn_gguf_writer_write_file(w, path) == SKN_OK);
    skn_gguf_writer_destroy(w);
    return path;
}

static skn_gguf* open_sample(void) {
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(sample_file(), NULL, &g) == SKN_OK);
    if (g == NULL) exit(1);
    return g;
}

/* A Q8_0 [4, 96] view over static bytes. */
static unsigned char g_q8[4 * 3 * 34];
static skn_view* sample_view(void) {
    float src[4 * 96];
    for (int i = 0; i < 4 * 96; ++i) src[i] = (float)(i % 7) - 3.0f;
    CHECK(skn_quantize(SKN_FORMAT_Q8_0, src, 4, 96, g_q8, sizeof g_q8) == SKN_OK);
    const int64_t shape[2] = {4, 96};
    skn_view* v = NULL;
    CHECK(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 2, SKN_ORDER_ROW_MAJOR, &v) == SKN_OK);
    if (v == NULL) exit(1);
    return v;
}

/* stderr captured into a file, for the log cases. */
static int g_saved_stderr = -1;
static void capture_stderr(void) {
    fflush(stderr);
    g_saved_stderr = dup(2);
    const int fd = open(path_in_dir("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
}
/* Restores stderr and returns what was written (static buffer). */
static const char* captured_stderr(void) {
    static char buf[1 << 16];
    fflush(stderr);
    dup2(g_saved_stderr, 2);
    FILE* f = fopen(path_in_dir("stderr.txt"), "r");
    const size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = 0;
    if (f) fclose(f);
    return buf;
}

static int count_of(const char* hay, const char* needle) {
    int n = 0;
    for (const char* p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle)) ++n;
    return n;
}

/* A failing call (logged at DEBUG like every error). */
static void fail_once(void) { (void)skn_scope_create(NULL); }

/* A GGUF holding a tensor of a type skn does not implement (I8, id 24):
 * opening it with allow_unsupported logs one WARN line. */
static skn_gguf* open_unsupported(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    unsigned char q[34 * 8] = {0}; /* 256 elements: 256 I8 bytes fit in 8 Q8_0 blocks */
    const int64_t ne[1] = {256};
    CHECK(skn_gguf_writer_add_tensor(w, "odd", SKN_FORMAT_Q8_0, 1, ne, q, sizeof q) == SKN_OK);
    uint64_t size = 0;
    CHECK(skn_gguf_writer_size(w, &size) == SKN_OK);
    static unsigned char buf[4096];
    CHECK(size <= sizeof buf);
    CHECK(skn_gguf_writer_write_memory(w, buf, sizeof buf) == SKN_OK);
    skn_gguf_writer_destroy(w);
    /* Tensor info: name (u64 len + "odd"), n_dims u32, ne i64, type u32. */
    unsigned char* p = memmem(buf, (size_t)size, "odd", 3);
    CHECK(p != NULL);
    const uint32_t i8 = 24;
    memcpy(p + 3 + 4 + 8, &i8, 4);
    skn_gguf_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.allow_unsupported = 1;
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open_memory(buf, (size_t)size, &o, &g) == SKN_OK);
    return g;
}

/* ---- hangs and deadlocks ------------------------------------------------ */

static void case_open_fifo(void) {
    const char* p = path_in_dir("fifo");
    CHECK(mkfifo(p, 0600) == 0);
    skn_gguf* g = NULL;
    /* Before: open(2) on a FIFO with no writer blocked forever. */
    CHECK_ERROR(skn_gguf_open(p, NULL, &g), SKN_E_INVALID_ARGUMENT, "not a regular file");
    CHECK(g == NULL);
}

static void case_open_directory_and_devices(void) {
    skn_gguf* g = NULL;
    CHECK_ERROR(skn_gguf_open(g_dir, NULL, &g), SKN_E_INVALID_ARGUMENT, "directory");
    CHECK_ERROR(skn_gguf_open("/dev/zero", NULL, &g), SKN_E_INVALID_ARGUMENT, "not a regular file");
    CHECK_ERROR(skn_gguf_open("/dev/null", NULL, &g), SKN_E_INVALID_ARGUMENT, "not a regular file");
    CHECK(g == NULL);
}

static void case_open_missing_file(void) {
    skn_gguf* g = NULL;
    CHECK_ERROR(skn_gguf_open(path_in_dir("no-such.gguf"), NULL, &g), SKN_E_NOT_FOUND, "no-such.gguf");
    CHECK_ERROR(skn_gguf_open(path_in_dir("no/such/dir.gguf"), NULL, &g), SKN_E_NOT_FOUND, NULL);
    CHECK(strcmp(skn_status_name(SKN_E_NOT_FOUND), "SKN_E_NOT_FOUND") == 0);
    CHECK(strcmp(skn_status_name(SKN_E_IO), "SKN_E_IO") == 0);
}

static void case_open_unreadable(void) {
    if (geteuid() == 0) return; /* root reads anything */
    const char* p = sample_file();
    CHECK(chmod(p, 0) == 0);
    skn_gguf* g = NULL;
    CHECK_ERROR(skn_gguf_open(p, NULL, &g), SKN_E_IO, "sample.gguf");
}

static void case_write_file_unwritable(void) {
    skn_gguf_writer* w = sample_writer();
    CHECK_ERROR(skn_gguf_writer_write_file(w, path_in_dir("no/such/dir.gguf")), SKN_E_IO, "cannot create");
    CHECK_ERROR(skn_gguf_writer_write_file(w, NULL), SKN_E_INVALID_ARGUMENT, "path");
    CHECK_ERROR(skn_gguf_writer_write_file(NULL, "x"), SKN_E_INVALID_ARGUMENT, "writer");
    skn_gguf_writer_destroy(w);
}

static int g_reentered;
static void log_calls_failing_function(skn_log_level level, const char* msg, void* user) {
    (void)level, (void)msg, (void)user;
    ++g_reentered;
    fail_once(); /* logs again, from inside the callback */
}

static void case_log_callback_calls_failing_function(void) {
    CHECK(skn_set_log_callback(SKN_LOG_DEBUG, log_calls_failing_function, NULL) == SKN_OK);
    fail_once(); /* Before: deadlock on the sink's mutex. */
    CHECK(g_reentered == 1); /* messages raised inside a callback are not re-delivered */
    CHECK(skn_set_log_callback(SKN_LOG_DEBUG, NULL, NULL) == SKN_OK);
}

static void other_log(skn_log_level level, const char* msg, void* user) {
    (void)level, (void)msg;
    ++*(int*)user;
}
static int g_other_count;
static void log_swaps_callback(skn_log_level level, const char* msg, void* user) {
    (void)level, (void)msg, (void)user;
    CHECK(skn_set_log_callback(SKN_LOG_DEBUG, other_log, &g_other_count) == SKN_OK);
}

static void case_log_callback_sets_callback(void) {
    CHECK(skn_set_log_callback(SKN_LOG_DEBUG, log_swaps_callback, NULL) == SKN_OK);
    fail_once(); /* Before: deadlock. */
    fail_once(); /* now goes to other_log */
    CHECK(g_other_count == 1);
    CHECK(skn_set_log_callback(SKN_LOG_OFF, NULL, NULL) == SKN_OK);
}

static void counting_log(skn_log_level level, const char* msg, void* user) {
    (void)level, (void)msg, (void)user;
}
/* Atomic, not volatile: the swapping thread reads what the main thread
 * writes, and ThreadSanitizer rightly reports a plain flag as a race. */
static atomic_int g_stop;
static void* swap_callbacks(void* arg) {
    (void)arg;
    for (int i = 0; i < 20000 && !atomic_load(&g_stop); ++i) {
        skn_set_log_callback(SKN_LOG_DEBUG, counting_log, NULL);
        skn_set_log_callback(SKN_LOG_DEBUG, NULL, NULL);
    }
    return NULL;
}
static void* fail_repeatedly(void* arg) {
    (void)arg;
    for (int i = 0; i < 20000; ++i) fail_once();
    return NULL;
}

static void case_log_swaps_never_reach_stderr(void) {
    unsetenv("SKN_LOG");
    capture_stderr();
    pthread_t a, b;
    pthread_create(&a, NULL, swap_callbacks, NULL);
    pthread_create(&b, NULL, fail_repeatedly, NULL);
    pthread_join(b, NULL);
    atomic_store(&g_stop, 1);
    pthread_join(a, NULL);
    const char* out = captured_stderr();
    /* Before: debug lines slipped out between the level and the sink switch. */
    CHECK(out[0] == 0);
    if (out[0] != 0) fprintf(stderr, "stderr got: %.200s\n", out);
}

static void case_log_env_debug_survives_callback_reset(void) {
    setenv("SKN_LOG", "debug", 1);
    capture_stderr();
    CHECK(skn_set_log_callback(SKN_LOG_ERROR, counting_log, NULL) == SKN_OK);
    CHECK(skn_set_log_callback(SKN_LOG_ERROR, NULL, NULL) == SKN_OK);
    fail_once();
    const char* out = captured_stderr();
    /* Before: the restored default was WARN, so this DEBUG line was lost. */
    CHECK(strstr(out, "SKN_E_INVALID_ARGUMENT") != NULL);
}

static void case_log_env_off_is_silent(void) {
    setenv("SKN_LOG", "off", 1);
    capture_stderr();
    skn_gguf* g = open_unsupported();
    fail_once();
    skn_gguf_close(g);
    const char* out = captured_stderr();
    CHECK(out[0] == 0); /* Before: "off" meant WARN. */
}

static void case_log_env_unknown_reported_once(void) {
    setenv("SKN_LOG", "verbose-please", 1);
    capture_stderr();
    fail_once();
    skn_gguf* g = open_unsupported();
    skn_gguf_close(g);
    CHECK(skn_set_log_callback(SKN_LOG_WARN, NULL, NULL) == SKN_OK);
    fail_once();
    const char* out = captured_stderr();
    CHECK(count_of(out, "verbose-please") == 1);
    /* Ignored: the library stays as quiet as with SKN_LOG unset. */
    CHECK(count_of(out, "skn ") == 0);
}

static void case_log_env_warn_prints_warn(void) {
    setenv("SKN_LOG", "warn", 1);
    capture_stderr();
    skn_gguf* g = open_unsupported();
    skn_gguf_close(g);
    fail_once();
    const char* out = captured_stderr();
    CHECK(count_of(out, "do not implement") + count_of(out, "does not implement") == 1);
    CHECK(strstr(out, "SKN_E_INVALID_ARGUMENT") == NULL); /* DEBUG stays out */
}

static void case_log_level_out_of_range(void) {
    CHECK_ERROR(skn_set_log_callback((skn_log_level)5, counting_log, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_set_log_callback((skn_log_level)-1, counting_log, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_set_log_callback((skn_log_level)7, NULL, NULL), SKN_E_INVALID_ARGUMENT, NULL);
}

/* ---- arithmetic on caller sizes ----------------------------------------- */

static void case_matmul_overflowing_strides(void) {
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    skn_view* w = sample_view();
    static float x[2 * 96], y[2 * 4];
    /* Before: SKN_OK, row 1 written over row 0. */
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, 96, w, NULL, y, (int64_t)1 << 62, NULL), SKN_E_INVALID_ARGUMENT,
                "y_row_stride");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, INT64_MAX, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "x_row_stride");
    CHECK_ERROR(skn_matmul_wt(ctx, x, (int64_t)1 << 62, 96, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "x_rows");
    CHECK_ERROR(skn_matmul_wt(ctx, x, INT64_MAX, 96, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "x_rows");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 0, 96, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "x_rows");
    CHECK_ERROR(skn_matmul_wt(ctx, x, -1, 96, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "x_rows");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, -96, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "x_row_stride");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, 96, w, NULL, y, INT64_MIN, NULL), SKN_E_INVALID_ARGUMENT, "y_row_stride");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, 96, w, NULL, (float*)x, 4, NULL), SKN_E_INVALID_ARGUMENT, "overlap");
    CHECK_ERROR(skn_matmul_wt(ctx, NULL, 2, 96, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "x");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, 96, w, NULL, NULL, 4, NULL), SKN_E_INVALID_ARGUMENT, "y");
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, 96, NULL, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "w");
    CHECK_ERROR(skn_matmul_wt(NULL, x, 2, 96, w, NULL, y, 4, NULL), SKN_E_INVALID_ARGUMENT, "ctx");
    skn_matmul_options o;
    memset(&o, 0, sizeof o);
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, 96, w, NULL, y, 4, &o), SKN_E_INVALID_ARGUMENT, "struct_size");
    o.struct_size = sizeof o;
    o.precision = (skn_precision)7;
    CHECK_ERROR(skn_matmul_wt(ctx, x, 2, 96, w, NULL, y, 4, &o), SKN_E_INVALID_ARGUMENT, "precision");
    o.precision = SKN_PRECISION_FAST;
    CHECK(skn_matmul_wt(ctx, x, 2, 96, w, NULL, y, 4, &o) == SKN_OK);
    skn_view_release(w);
    skn_context_destroy(ctx);
}

static void case_writer_huge_counts(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const uint32_t few[2] = {1, 2};
    /* Before: SKN_E_INTERNAL with std::vector's exception text. */
    const skn_status s = skn_gguf_writer_add_array(w, "k", SKN_GGUF_TYPE_U32, few, UINT64_MAX);
    CHECK(s == SKN_E_INVALID_ARGUMENT || s == SKN_E_OUT_OF_MEMORY);
    CHECK(strstr(skn_last_error(), "count") != NULL);
    CHECK(strstr(skn_last_error(), "max_size") == NULL && strstr(skn_last_error(), "internal") == NULL);
    const skn_status s2 = skn_gguf_writer_add_array(w, "k", SKN_GGUF_TYPE_U8, few, UINT64_MAX);
    CHECK(s2 == SKN_E_INVALID_ARGUMENT || s2 == SKN_E_OUT_OF_MEMORY);
    CHECK(strstr(skn_last_error(), "max_size") == NULL && strstr(skn_last_error(), "internal") == NULL);
    const char* two[2] = {"a", "b"};
    /* Before: read far past `two`. */
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, "s", two, NULL, (uint64_t)1 << 62), SKN_E_INVALID_ARGUMENT,
                "count");
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, "s", two, NULL, UINT64_MAX), SKN_E_INVALID_ARGUMENT, "count");
    CHECK_ERROR(skn_gguf_writer_add_array(w, "k", (skn_gguf_type)13, few, 2), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_array(w, "k", (skn_gguf_type)-1, few, 2), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_array(w, "k", SKN_GGUF_TYPE_STRING, few, 2), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_array(w, "k", SKN_GGUF_TYPE_U32, NULL, 2), SKN_E_INVALID_ARGUMENT, "data");
    CHECK_ERROR(skn_gguf_writer_add_array(NULL, "k", SKN_GGUF_TYPE_U32, few, 2), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_add_array(w, NULL, SKN_GGUF_TYPE_U32, few, 2), SKN_E_INVALID_ARGUMENT, "key");
    skn_gguf_writer_destroy(w);
}

static void case_writer_null_string_without_lengths(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const char* s[2] = {"a", NULL};
    /* Before: accepted and written as "". */
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, "s", s, NULL, 2), SKN_E_INVALID_ARGUMENT, "strings[1]");
    const size_t lens[2] = {1, 0};
    CHECK(skn_gguf_writer_add_string_array(w, "s", s, lens, 2) == SKN_OK); /* NULL with length 0: "" */
    const size_t bad[2] = {1, 3};
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, "t", s, bad, 2), SKN_E_INVALID_ARGUMENT, "strings[1]");
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, "u", NULL, NULL, 2), SKN_E_INVALID_ARGUMENT, "strings");
    CHECK(skn_gguf_writer_add_string_array(w, "v", NULL, NULL, 0) == SKN_OK);
    CHECK_ERROR(skn_gguf_writer_add_string_array(NULL, "w", s, lens, 2), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, NULL, s, lens, 2), SKN_E_INVALID_ARGUMENT, "key");
    skn_gguf_writer_destroy(w);
}

/* ---- handles and ids ---------------------------------------------------- */

static void case_array_ids_past_keys(void) {
    skn_gguf* g = open_sample();
    const int64_t n = skn_gguf_kv_count(g);
    int64_t arr = -1, words = -1;
    CHECK(skn_gguf_find_key(g, "a.arr", &arr) == SKN_OK && arr >= 0);
    CHECK(skn_gguf_find_key(g, "a.words", &words) == SKN_OK && words >= 0);
    skn_gguf_type t;
    uint64_t count = 0;
    const void* data = NULL;
    CHECK(skn_gguf_array_info(g, (uint64_t)arr, &t, &count) == SKN_OK && t == SKN_GGUF_TYPE_I32 && count == 3);
    /* Before: ids n and n+1 aliased the keys' own arrays. */
    for (uint64_t id = (uint64_t)n; id < (uint64_t)n + 40; ++id) {
        CHECK_ERROR(skn_gguf_array_info(g, id, &t, &count), SKN_E_INVALID_ARGUMENT, "names no array");
        CHECK_ERROR(skn_gguf_array_data(g, id, &data, &count), SKN_E_INVALID_ARGUMENT, "names no array");
    }
    CHECK_ERROR(skn_gguf_array_info(g, UINT64_MAX, &t, &count), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_array_string(g, (uint64_t)n, 0, &(const char*){0}, &(size_t){0}), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_gguf_array_nested(g, (uint64_t)n, 0, &(uint64_t){0}), SKN_E_INVALID_ARGUMENT, NULL);
    int64_t str = -1;
    CHECK(skn_gguf_find_key(g, "a.str", &str) == SKN_OK);
    /* Before: "holds a string, not a array". */
    CHECK_ERROR(skn_gguf_array_info(g, (uint64_t)str, &t, &count), SKN_E_INVALID_ARGUMENT, "not an array");
    CHECK_ERROR(skn_gguf_array_data(g, (uint64_t)words, &data, &count), SKN_E_INVALID_ARGUMENT, "string");
    CHECK_ERROR(skn_gguf_array_string(g, (uint64_t)words, 2, &(const char*){0}, &(size_t){0}),
                SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_array_string(g, (uint64_t)words, 0, NULL, &(size_t){0}), SKN_E_INVALID_ARGUMENT, "str");
    CHECK_ERROR(skn_gguf_array_nested(g, (uint64_t)arr, 0, &(uint64_t){0}), SKN_E_INVALID_ARGUMENT, "not arrays");
    CHECK_ERROR(skn_gguf_array_nested(g, (uint64_t)arr, 0, NULL), SKN_E_INVALID_ARGUMENT, "nested");
    CHECK_ERROR(skn_gguf_array_info(NULL, 0, &t, &count), SKN_E_INVALID_ARGUMENT, "gguf");
    CHECK_ERROR(skn_gguf_array_info(g, (uint64_t)arr, NULL, &count), SKN_E_INVALID_ARGUMENT, "element_type");
    CHECK_ERROR(skn_gguf_array_data(g, (uint64_t)arr, NULL, &count), SKN_E_INVALID_ARGUMENT, "data");
    skn_gguf_close(g);
}

static void trace_fails_a_call(const skn_trace_event* e, void* user) {
    (void)e, (void)user;
    fail_once();
}

static void case_trace_callback_error_does_not_leak(void) {
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    CHECK(skn_context_set_trace(ctx, trace_fails_a_call, NULL) == SKN_OK);
    skn_view* w = sample_view();
    static float x[96], y[4];
    CHECK(skn_matmul_wt(ctx, x, 1, 96, w, NULL, y, 4, NULL) == SKN_OK);
    /* Before: the trace callback's failure was still the thread's message. */
    CHECK(skn_last_error()[0] == 0);
    skn_view_release(w);
    skn_context_destroy(ctx);
}

/* A lent parallel-for that runs the tasks itself and makes skn calls, one
 * failing, from inside: no lock may be held across it. */
static int g_pf_calls;
static void serial_parallel_for(skn_task_fn task, void* task_arg, int64_t count, void* user) {
    (void)user;
    ++g_pf_calls;
    fail_once();
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    CHECK(skn_format_info(SKN_FORMAT_Q8_0, &p) == SKN_OK);
    for (int64_t i = 0; i < count; ++i) task(task_arg, i);
}

static void log_counts(skn_log_level level, const char* msg, void* user) {
    (void)level, (void)msg;
    ++*(int*)user;
}

static void case_parallel_for_callback_reenters(void) {
    int logged = 0;
    CHECK(skn_set_log_callback(SKN_LOG_DEBUG, log_counts, &logged) == SKN_OK);
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    CHECK(skn_context_set_parallel_for(ctx, serial_parallel_for, NULL) == SKN_OK);
    skn_view* w = sample_view();
    static float x[2 * 96], y[2 * 4];
    CHECK(skn_matmul_wt(ctx, x, 2, 96, w, NULL, y, 4, NULL) == SKN_OK);
    CHECK(g_pf_calls >= 1);
    CHECK(logged >= 1); /* the failing call inside was logged, not deadlocked */
    CHECK(skn_last_error()[0] == 0);
    skn_view_release(w);
    skn_context_destroy(ctx);
    CHECK(skn_set_log_callback(SKN_LOG_OFF, NULL, NULL) == SKN_OK);
}

static void case_format_sentinel_is_negative(void) {
    /* Before: skn_format was unsigned, so this read 4294967295. */
    CHECK(skn_view_format(NULL) < 0);
    CHECK(skn_view_format(NULL) == SKN_FORMAT_INVALID);
    CHECK((int)SKN_FORMAT_INVALID == -1);
    CHECK(skn_format_at(-1) == -1 && skn_format_at(skn_format_count()) == -1 && skn_format_at(INT32_MIN) == -1);
    CHECK(skn_format_count() > 0 && skn_format_at(0) == SKN_FORMAT_F32);
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    CHECK_ERROR(skn_format_info(SKN_FORMAT_INVALID, &p), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_format_info((skn_format)4, &p), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_format_info(SKN_FORMAT_Q4_0, NULL), SKN_E_INVALID_ARGUMENT, "props");
    p.struct_size = 1;
    CHECK_ERROR(skn_format_info(SKN_FORMAT_Q4_0, &p), SKN_E_INVALID_ARGUMENT, "struct_size");
    skn_format f;
    CHECK_ERROR(skn_format_from_name(NULL, &f), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_format_from_name("q4_0", NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_format_from_name("", &f), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_format_from_name("INVALID", &f), SKN_E_UNKNOWN_FORMAT, NULL);
}

static void case_narrow_messages(void) {
    skn_view* v = sample_view();
    skn_view* out = NULL;
    /* Before: "range [3, 3) is outside dimension 0 of extent 8". */
    CHECK_ERROR(skn_view_narrow(v, 0, 3, 0, &out), SKN_E_INVALID_ARGUMENT, "length 0");
    CHECK_ERROR(skn_view_narrow(v, 0, 3, -1, &out), SKN_E_INVALID_ARGUMENT, "length -1");
    CHECK_ERROR(skn_view_narrow(v, 0, INT64_MAX, 2, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_narrow(v, 0, 2, INT64_MAX, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_narrow(v, 0, -1, 2, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_narrow(v, 2, 0, 1, &out), SKN_E_INVALID_ARGUMENT, "dim");
    CHECK_ERROR(skn_view_narrow(v, -1, 0, 1, &out), SKN_E_INVALID_ARGUMENT, "dim");
    CHECK_ERROR(skn_view_narrow(v, 1, 1, 32, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_narrow(NULL, 0, 0, 1, &out), SKN_E_INVALID_ARGUMENT, "view");
    CHECK_ERROR(skn_view_narrow(v, 0, 0, 1, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(out == NULL);
    skn_view_release(v);
}

static void case_select_messages(void) {
    skn_view* v = sample_view(); /* Q8_0 [4, 96] */
    skn_view* out = NULL;
    CHECK_ERROR(skn_view_select(v, 1, 0, &out), SKN_E_INVALID_ARGUMENT, "block axis");
    CHECK_ERROR(skn_view_select(v, 0, 4, &out), SKN_E_INVALID_ARGUMENT, "extent 4");
    CHECK_ERROR(skn_view_select(v, 0, -1, &out), SKN_E_INVALID_ARGUMENT, "valid: 0..3");
    CHECK_ERROR(skn_view_select(v, 0, INT64_MAX, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_select(v, 0, INT64_MIN, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_select(v, 2, 0, &out), SKN_E_INVALID_ARGUMENT, "dimension 2");
    CHECK_ERROR(skn_view_select(v, -1, 0, &out), SKN_E_INVALID_ARGUMENT, "dimension -1");
    CHECK_ERROR(skn_view_select(v, INT_MAX, 0, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_select(v, INT_MIN, 0, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_select(NULL, 0, 0, &out), SKN_E_INVALID_ARGUMENT, "view");
    CHECK_ERROR(skn_view_select(v, 0, 0, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(out == NULL);
    /* A row of a packed weight is rank 1; nothing is left to select. */
    skn_view* row = NULL;
    CHECK(skn_view_select(v, 0, 3, &row) == SKN_OK);
    CHECK(skn_view_rank(row) == 1);
    CHECK_ERROR(skn_view_select(row, 0, 0, &out), SKN_E_INVALID_ARGUMENT, "skn_view_get");
    float a[96], b[4 * 96];
    CHECK(skn_view_to_float(row, a, 96) == SKN_OK && skn_view_to_float(v, b, 4 * 96) == SKN_OK);
    CHECK(memcmp(a, b + 3 * 96, sizeof a) == 0);
    skn_view_release(row);
    skn_view_release(v);
}

/* The conversions between a canonical format and its row-interleaved twin
 * (skn_view_convert, skn_packed_convert): NULLs, unknown and non-twin
 * formats, out not a multiple of R, bad orders, overlapping and short
 * buffers, sizes that overflow. Nothing is written on a refusal. */
static void case_convert_misuse(void) {
    enum { rows = 16, cols = 96 }; /* Q4_0: 3 blocks per row; two groups of Q4_0_R8's 8 rows */
    static float w[rows * cols];
    for (int i = 0; i < rows * cols; ++i) w[i] = (float)((i * 29) % 23) - 11.0f;
    static unsigned char q[rows * 3 * 18], r8[rows * 3 * 18 + 18];
    CHECK(skn_quantize(SKN_FORMAT_Q4_0, w, rows, cols, q, sizeof q) == SKN_OK);
    const size_t n = sizeof q;

    /* skn_packed_convert */
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, NULL, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "NULL");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, NULL, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "NULL");
    CHECK_ERROR(skn_packed_convert((skn_format)4, SKN_FORMAT_Q4_0_R8, q, n, r8, n, rows, cols), SKN_E_UNKNOWN_FORMAT,
                "4");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, (skn_format)-1, q, n, r8, n, rows, cols), SKN_E_UNKNOWN_FORMAT,
                "-1");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, (skn_format)201, q, n, r8, n, rows, cols), SKN_E_UNKNOWN_FORMAT,
                "201");
    /* Not twins: another canonical format, another twin, a dense format. */
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q8_0_R8, q, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "Q4_0 converts only to Q4_0");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0_R8, SKN_FORMAT_IQ4_NL, q, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "cannot convert Q4_0_R8 to IQ4_NL");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q8_0, q, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "cannot convert");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_F32, SKN_FORMAT_Q4_0_R8, q, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "cannot convert");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0_R8, SKN_FORMAT_Q8_0_R8, q, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "cannot convert");
    /* Rows that split a block of 8 rows, in either direction. */
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n, 12, cols),
                SKN_E_INVALID_ARGUMENT, "multiple of 8");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0_R8, SKN_FORMAT_Q4_0, q, n, r8, n, 7, cols),
                SKN_E_INVALID_ARGUMENT, "multiple of 8");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n, rows, 100),
                SKN_E_INVALID_ARGUMENT, "100");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n, 0, cols), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n, -8, cols),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n, rows, -96),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n, (int64_t)1 << 62,
                                   (int64_t)32 << 40),
                SKN_E_INVALID_ARGUMENT, NULL);
    /* Short buffers: the message gives the size needed and the size given. */
    memset(r8, 0x5a, sizeof r8);
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n - 1, r8, n, rows, cols),
                SKN_E_BUFFER_TOO_SMALL, "863");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n - 1, rows, cols),
                SKN_E_BUFFER_TOO_SMALL, "863");
    /* Overlapping buffers: the same one, or shifted by a block. */
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, r8, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "overlap");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, r8, n, r8 + 18, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "overlap");
    CHECK_ERROR(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, r8 + 18, n, r8, n, rows, cols),
                SKN_E_INVALID_ARGUMENT, "overlap");
    int untouched = 1;
    for (size_t k = 0; k < sizeof r8; ++k) untouched &= r8[k] == 0x5a;
    CHECK(untouched);
    CHECK(skn_packed_convert(SKN_FORMAT_Q4_0, SKN_FORMAT_Q4_0_R8, q, n, r8, n, rows, cols) == SKN_OK);

    /* skn_view_convert */
    const int64_t shape[2] = {rows, cols}, shape12[2] = {12, cols};
    skn_view* v = NULL;
    skn_view* v12 = NULL;
    skn_view* out = NULL;
    skn_scope* s = NULL;
    CHECK(skn_scope_create(&s) == SKN_OK);
    CHECK(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_0, shape, 2, SKN_ORDER_ROW_MAJOR, &v) == SKN_OK);
    CHECK(skn_view_from_bytes(q, n, SKN_FORMAT_Q4_0, shape12, 2, SKN_ORDER_ROW_MAJOR, &v12) == SKN_OK);
    CHECK_ERROR(skn_view_convert(NULL, SKN_FORMAT_Q4_0_R8, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out),
                SKN_E_INVALID_ARGUMENT, "view");
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_Q4_0_R8, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, NULL),
                SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_view_convert(v, (skn_format)4, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out), SKN_E_UNKNOWN_FORMAT,
                "4");
    CHECK_ERROR(skn_view_convert(v, (skn_format)INT32_MIN, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out),
                SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_Q8_0_R8, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out),
                SKN_E_INVALID_ARGUMENT, "Q4_0 converts only to Q4_0");
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_Q8_0, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT,
                "cannot convert");
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_BF16, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT,
                "cannot convert");
    CHECK_ERROR(skn_view_convert(v12, SKN_FORMAT_Q4_0_R8, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out),
                SKN_E_INVALID_ARGUMENT, "multiple of 8");
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_Q4_0_R8, SKN_ORDER_ROW_MAJOR, NULL, NULL, NULL, &out),
                SKN_E_INVALID_ARGUMENT, "scope");
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_Q4_0_R8, (skn_block_order)2, s, NULL, NULL, &out),
                SKN_E_INVALID_ARGUMENT, "block order 2");
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_Q4_0_R8, (skn_block_order)-1, s, NULL, NULL, &out),
                SKN_E_INVALID_ARGUMENT, "block order -1");
    CHECK_ERROR(skn_view_convert(v, SKN_FORMAT_Q4_0, (skn_block_order)7, s, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK(out == NULL);
    /* A dense twin has one order: BF16_R16 to BF16 in INPUT_BLOCK_MAJOR is refused. */
    static unsigned char bf[16 * 4 * 2];
    static float wf[16 * 4];
    for (int i = 0; i < 16 * 4; ++i) wf[i] = (float)i * 0.5f;
    CHECK(skn_quantize(SKN_FORMAT_BF16_R16, wf, 16, 4, bf, sizeof bf) == SKN_OK);
    const int64_t bf_shape[2] = {16, 4};
    skn_view* vb = NULL;
    CHECK(skn_view_from_bytes(bf, sizeof bf, SKN_FORMAT_BF16_R16, bf_shape, 2, SKN_ORDER_ROW_MAJOR, &vb) == SKN_OK);
    CHECK_ERROR(skn_view_convert(vb, SKN_FORMAT_BF16, SKN_ORDER_INPUT_BLOCK_MAJOR, s, NULL, NULL, &out),
                SKN_E_INVALID_ARGUMENT, "dense");
    CHECK(out == NULL);
    uint64_t allocated = 1;
    CHECK(skn_scope_allocated(s, &allocated) == SKN_OK && allocated == 0);
    skn_view_release(vb);
    skn_view_release(v12);
    skn_view_release(v);
    skn_scope_destroy(s);
}

/* skn_matmul_wt_id over a Q8_0 [2, 2, 96] stack (the sample's bytes). */
static void case_matmul_id_misuse(void) {
    const int64_t shape[3] = {2, 2, 96};
    skn_view* base = sample_view();
    skn_view* w = NULL;
    CHECK(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 3, SKN_ORDER_ROW_MAJOR, &w) == SKN_OK);
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    static float x[2 * 96], y[2 * 2 * 2], gates[4];
    int32_t ids[4] = {1, 0, 1, 1};
    const int64_t big = (int64_t)1 << 62;
    CHECK(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, -5, w, NULL, y, 4, 2, NULL) == SKN_OK);
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, big, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "y_row_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, big, NULL),
                SKN_E_INVALID_ARGUMENT, "y_slot_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, INT64_MAX, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "x_slot_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, INT64_MAX, INT64_MAX, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, INT64_MAX, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, gates, INT64_MAX, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "gates_row_stride");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, gates, -1, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "negative");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, INT64_MIN, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "negative");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, INT64_MIN, 2, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "k is");
    ids[2] = INT32_MIN;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "row 1, slot 0");
    ids[2] = INT32_MAX;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "2147483647");
    ids[2] = 1;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, base, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "rank 3");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, (float*)x, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "overlap");
    CHECK_ERROR(skn_matmul_wt_id(NULL, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, NULL, NULL, y, 4, 2, NULL),
                SKN_E_INVALID_ARGUMENT, "w");
    skn_matmul_options o;
    memset(&o, 0, sizeof o);
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, &o), SKN_E_INVALID_ARGUMENT,
                "struct_size");
    o.struct_size = sizeof o;
    o.precision = (skn_precision)-3;
    CHECK_ERROR(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, NULL, 0, w, NULL, y, 4, 2, &o), SKN_E_INVALID_ARGUMENT,
                "precision");
    o.precision = SKN_PRECISION_FAST;
    CHECK(skn_matmul_wt_id(ctx, x, 2, 96, 0, ids, 2, 2, gates, 2, w, NULL, y, 4, 2, &o) == SKN_OK);
    /* skn_prepack_for_matmul takes [out, in] and [E, out, in], nothing else. */
    skn_view* row = NULL;
    skn_view* p = NULL;
    CHECK(skn_view_select(base, 0, 1, &row) == SKN_OK);
    CHECK_ERROR(skn_prepack_for_matmul(ctx, row, NULL, &p), SKN_E_INVALID_ARGUMENT, "[E, out, in]");
    CHECK(p == NULL);
    skn_view_release(row);
    skn_context_destroy(ctx);
    skn_view_release(w);
    skn_view_release(base);
}

/* skn_matmul_wt_id_ex over the same stack: a struct a careless caller fills
 * in float units, halfway, or not at all; byte strides that split a float,
 * x_slots that do not divide k, sizes that overflow. */
static void case_matmul_id_ex_misuse(void) {
    const int64_t shape[3] = {2, 2, 96};
    skn_view* w = NULL;
    CHECK(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 3, SKN_ORDER_ROW_MAJOR, &w) == SKN_OK);
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    static float x[2 * 2 * 96], y[2 * 2 * 2], gates[4];
    int32_t ids[4] = {1, 0, 1, 1};
    skn_routed_matmul a;
    memset(&a, 0, sizeof a);
    a.struct_size = sizeof a;
    a.w = w;
    a.x = x;
    a.x_rows = 2;
    a.x_slots = 1;
    a.x_row_stride = 96 * 4;
    a.ids = ids;
    a.k = 2;
    a.ids_row_stride = 2 * 4;
    a.y = y;
    a.y_row_stride = 4 * 4;
    a.y_slot_stride = 2 * 4;
    CHECK(skn_matmul_wt_id_ex(ctx, &a, NULL) == SKN_OK);
    skn_routed_matmul b = a;
    CHECK_ERROR(skn_matmul_wt_id_ex(NULL, &a, NULL), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, NULL, NULL), SKN_E_INVALID_ARGUMENT, "args");
    b.struct_size = 0;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "struct_size");
    b = a;
    b.w = NULL;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "args->w");
    /* Strides in floats where bytes are asked: too small, named in bytes. */
    b = a;
    b.x_row_stride = 96;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "x_row_stride 96 bytes");
    b = a;
    b.y_row_stride = 4 * 4 + 2;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "not a multiple of 4");
    b = a;
    b.ids_row_stride = -4;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "negative");
    b = a;
    b.gates = gates;
    b.gates_row_stride = 3;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "gates_row_stride");
    for (int64_t slots = -1; slots <= 3; slots += 4) {
        b = a;
        b.x_slots = slots;
        CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "x_slots");
    }
    b = a;
    b.x_slots = 2;
    b.x_slot_stride = 0;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "x_slot_stride");
    b.x_slot_stride = INT64_MAX - 3;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "x_slot_stride");
    b = a;
    b.x_rows = INT64_MAX;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "x_rows");
    b = a;
    b.k = INT64_MAX;
    b.ids_row_stride = INT64_MAX - 3;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    b = a;
    b.y = x;
    CHECK_ERROR(skn_matmul_wt_id_ex(ctx, &b, NULL), SKN_E_INVALID_ARGUMENT, "overlap");
    skn_context_destroy(ctx);
    skn_view_release(w);
}

/* ---- files that change under the reader --------------------------------- */

/* A fresh sample file at *path, opened with read_into_memory (the reader's
 * private copy); the case exits when it cannot open. */
static skn_gguf* open_sample_in_memory(const char** path) {
    *path = sample_file();
    skn_gguf_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.read_into_memory = 1;
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(*path, &o, &g) == SKN_OK);
    if (g == NULL) exit(1);
    return g;
}

static void case_truncated_under_reader_in_memory(void) {
    const char* p = NULL;
    skn_gguf* g = open_sample_in_memory(&p);
    CHECK(truncate(p, 0) == 0);
    int64_t big = -1;
    CHECK(skn_gguf_find_tensor(g, "big", &big) == SKN_OK);
    const void* data = NULL;
    size_t size = 0;
    CHECK(skn_gguf_tensor_data(g, big, &data, &size) == SKN_OK);
    CHECK(size == BIG_FLOATS * sizeof(float));
    float last;
    memcpy(&last, (const char*)data + size - 4, 4); /* With a mapping: SIGBUS. */
    CHECK(last == (float)(BIG_FLOATS - 1));
    int64_t words = -1;
    CHECK(skn_gguf_find_key(g, "a.words", &words) == SKN_OK);
    const char* s;
    size_t len;
    CHECK(skn_gguf_array_string(g, (uint64_t)words, 1, &s, &len) == SKN_OK && len == 2 && memcmp(s, "yz", 2) == 0);
    skn_gguf_close(g);
}

static void case_rewritten_under_reader_in_memory(void) {
    const char* p = NULL;
    skn_gguf* g = open_sample_in_memory(&p);
    /* Overwrite every byte in place (same inode, same size). */
    const int fd = open(p, O_WRONLY);
    static char junk[1 << 17];
    memset(junk, 0x7f, sizeof junk);
    const uint64_t n = skn_gguf_file_size(g);
    CHECK(n <= sizeof junk && write(fd, junk, (size_t)n) == (ssize_t)n);
    close(fd);
    int64_t big = -1;
    CHECK(skn_gguf_find_tensor(g, "big", &big) == SKN_OK);
    const void* data = NULL;
    size_t size = 0;
    CHECK(skn_gguf_tensor_data(g, big, &data, &size) == SKN_OK);
    float f;
    memcpy(&f, (const char*)data + 4 * 100, 4);
    CHECK(f == 100.0f);
    skn_gguf_close(g);
}

static void case_truncated_under_mapped_reader_is_documented(void) {
    /* Without read_into_memory the reader maps the file: truncating it is a
     * contract violation (skn.h, docs/gguf.md). What still holds: metadata
     * read at open is copied, so names and counts survive. */
    const char* p = sample_file();
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(p, NULL, &g) == SKN_OK);
    CHECK(truncate(p, 0) == 0);
    CHECK(skn_gguf_tensor_count(g) == 2);
    int64_t i = -1;
    CHECK(skn_gguf_find_tensor(g, "big", &i) == SKN_OK && i == 1);
    skn_gguf_close(g);
}

/* Whether [p, p + n) lies inside [base, base + size). */
static int inside(const void* p, uint64_t n, const unsigned char* base, uint64_t size) {
    const unsigned char* c = p;
    return c >= base && n <= size && (uint64_t)(c - base) <= size - n;
}

/* A mapped file rewritten in place, every byte 0xff (so every length prefix
 * now reads 2^64 - 1), then every getter called: counts, names, types and
 * scalar values are those read at open, and every pointer and length served
 * lies inside the mapping. Only the bytes behind the pointers changed. */
static void case_rewritten_under_mapped_reader(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    CHECK(skn_gguf_writer_add_u8(w, "v.u8", 200) == SKN_OK);
    CHECK(skn_gguf_writer_add_i8(w, "v.i8", -100) == SKN_OK);
    CHECK(skn_gguf_writer_add_u16(w, "v.u16", 60000) == SKN_OK);
    CHECK(skn_gguf_writer_add_i16(w, "v.i16", -30000) == SKN_OK);
    CHECK(skn_gguf_writer_add_u32(w, "v.u32", 4000000000u) == SKN_OK);
    CHECK(skn_gguf_writer_add_i32(w, "v.i32", -2000000000) == SKN_OK);
    CHECK(skn_gguf_writer_add_u64(w, "v.u64", UINT64_C(1) << 60) == SKN_OK);
    CHECK(skn_gguf_writer_add_i64(w, "v.i64", -(INT64_C(1) << 60)) == SKN_OK);
    CHECK(skn_gguf_writer_add_f32(w, "v.f32", 1.5f) == SKN_OK);
    CHECK(skn_gguf_writer_add_f64(w, "v.f64", -2.25) == SKN_OK);
    CHECK(skn_gguf_writer_add_bool(w, "v.bool", 1) == SKN_OK);
    CHECK(skn_gguf_writer_add_string(w, "v.str", "hello", 5) == SKN_OK);
    const int32_t nums[3] = {1, 2, 3};
    CHECK(skn_gguf_writer_add_array(w, "v.nums", SKN_GGUF_TYPE_I32, nums, 3) == SKN_OK);
    const char* words[3] = {"x", "yz", "abc"};
    CHECK(skn_gguf_writer_add_string_array(w, "v.words", words, NULL, 3) == SKN_OK);
    skn_gguf_array_value inner[2];
    memset(inner, 0, sizeof inner);
    for (int i = 0; i < 2; ++i) {
        inner[i].struct_size = sizeof inner[i];
        inner[i].element_type = SKN_GGUF_TYPE_STRING;
        inner[i].count = 2;
        inner[i].strings = words + i;
    }
    const skn_gguf_array_value* kids[2] = {&inner[0], &inner[1]};
    skn_gguf_array_value outer;
    memset(&outer, 0, sizeof outer);
    outer.struct_size = sizeof outer;
    outer.element_type = SKN_GGUF_TYPE_ARRAY;
    outer.count = 2;
    outer.arrays = kids;
    CHECK(skn_gguf_writer_add_array_value(w, "v.nested", &outer) == SKN_OK);
    float f[3 * 64];
    for (int i = 0; i < 3 * 64; ++i) f[i] = (float)i;
    const int64_t ne[2] = {64, 3};
    CHECK(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_F32, 2, ne, f, sizeof f) == SKN_OK);
    const char* p = path_in_dir("rewritten.gguf");
    CHECK(skn_gguf_writer_write_file(w, p) == SKN_OK);
    skn_gguf_writer_destroy(w);

    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(p, NULL, &g) == SKN_OK);
    if (g == NULL) exit(1);
    const uint64_t size = skn_gguf_file_size(g);
    const uint32_t version = skn_gguf_version(g), alignment = skn_gguf_alignment(g);
    const uint64_t data_offset = skn_gguf_data_offset(g);
    skn_gguf_tensor_props before;
    memset(&before, 0, sizeof before);
    before.struct_size = sizeof before;
    CHECK(skn_gguf_tensor_info(g, 0, &before) == SKN_OK);
    const void* tdata = NULL;
    size_t tsize = 0;
    CHECK(skn_gguf_tensor_data(g, 0, &tdata, &tsize) == SKN_OK);
    const unsigned char* base = (const unsigned char*)tdata - before.offset; /* the mapping's first byte */

    const int fd = open(p, O_WRONLY);
    static unsigned char junk[1 << 16];
    memset(junk, 0xff, sizeof junk);
    CHECK(fd >= 0 && size <= sizeof junk && write(fd, junk, (size_t)size) == (ssize_t)size);
    close(fd);

    CHECK(skn_gguf_version(g) == version && skn_gguf_alignment(g) == alignment);
    CHECK(skn_gguf_data_offset(g) == data_offset && skn_gguf_file_size(g) == size);
    CHECK(skn_gguf_kv_count(g) == 15 && skn_gguf_tensor_count(g) == 1 && skn_gguf_unsupported_count(g) == 0);
    int64_t k = -1;
    const char* name = NULL;
    size_t name_len = 0;
    skn_gguf_type type;
    CHECK(skn_gguf_find_key(g, "v.str", &k) == SKN_OK && k == 11);
    CHECK(skn_gguf_kv_key(g, k, &name, &name_len) == SKN_OK && name_len == 5 && strcmp(name, "v.str") == 0);
    CHECK(skn_gguf_kv_type(g, k, &type) == SKN_OK && type == SKN_GGUF_TYPE_STRING);
    uint8_t u8 = 0;
    int8_t i8 = 0;
    uint16_t u16 = 0;
    int16_t i16 = 0;
    uint32_t u32 = 0;
    int32_t i32 = 0;
    uint64_t u64 = 0;
    int64_t i64 = 0;
    float f32 = 0;
    double f64 = 0;
    int b = -1;
    CHECK(skn_gguf_get_u8(g, 0, &u8) == SKN_OK && u8 == 200);
    CHECK(skn_gguf_get_i8(g, 1, &i8) == SKN_OK && i8 == -100);
    CHECK(skn_gguf_get_u16(g, 2, &u16) == SKN_OK && u16 == 60000);
    CHECK(skn_gguf_get_i16(g, 3, &i16) == SKN_OK && i16 == -30000);
    CHECK(skn_gguf_get_u32(g, 4, &u32) == SKN_OK && u32 == 4000000000u);
    CHECK(skn_gguf_get_i32(g, 5, &i32) == SKN_OK && i32 == -2000000000);
    CHECK(skn_gguf_get_u64(g, 6, &u64) == SKN_OK && u64 == UINT64_C(1) << 60);
    CHECK(skn_gguf_get_i64(g, 7, &i64) == SKN_OK && i64 == -(INT64_C(1) << 60));
    CHECK(skn_gguf_get_f32(g, 8, &f32) == SKN_OK && f32 == 1.5f);
    CHECK(skn_gguf_get_f64(g, 9, &f64) == SKN_OK && f64 == -2.25);
    CHECK(skn_gguf_get_bool(g, 10, &b) == SKN_OK && b == 1); /* the byte is now 0xff: still 0 or 1 */
    const char* str = NULL;
    size_t len = 0;
    CHECK(skn_gguf_get_string(g, 11, &str, &len) == SKN_OK && len == 5 && inside(str, len, base, size));
    uint64_t count = 0;
    const void* data = NULL;
    CHECK(skn_gguf_array_info(g, 12, &type, &count) == SKN_OK && type == SKN_GGUF_TYPE_I32 && count == 3);
    CHECK(skn_gguf_array_data(g, 12, &data, &count) == SKN_OK && count == 3 && inside(data, 12, base, size));
    CHECK(skn_gguf_array_info(g, 13, &type, &count) == SKN_OK && type == SKN_GGUF_TYPE_STRING && count == 3);
    for (uint64_t i = 0; i < 3; ++i) {
        CHECK(skn_gguf_array_string(g, 13, i, &str, &len) == SKN_OK && len == i + 1 && inside(str, len, base, size));
    }
    CHECK_ERROR(skn_gguf_array_string(g, 13, 3, &str, &len), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK(skn_gguf_array_info(g, 14, &type, &count) == SKN_OK && type == SKN_GGUF_TYPE_ARRAY && count == 2);
    for (uint64_t i = 0; i < 2; ++i) {
        uint64_t child = 0;
        CHECK(skn_gguf_array_nested(g, 14, i, &child) == SKN_OK);
        CHECK(skn_gguf_array_info(g, child, &type, &count) == SKN_OK && type == SKN_GGUF_TYPE_STRING && count == 2);
        for (uint64_t j = 0; j < 2; ++j)
            CHECK(skn_gguf_array_string(g, child, j, &str, &len) == SKN_OK && len == i + j + 1 &&
                  inside(str, len, base, size));
    }
    skn_gguf_tensor_props after;
    memset(&after, 0, sizeof after);
    after.struct_size = sizeof after;
    int64_t t = -1;
    CHECK(skn_gguf_find_tensor(g, "t", &t) == SKN_OK && t == 0);
    CHECK(skn_gguf_tensor_info(g, 0, &after) == SKN_OK && after.offset == before.offset && after.size == before.size &&
          after.ne[0] == 64 && after.ne[1] == 3 && after.format == SKN_FORMAT_F32 && strcmp(after.name, "t") == 0);
    CHECK(skn_gguf_tensor_data(g, 0, &tdata, &tsize) == SKN_OK && tsize == sizeof f && inside(tdata, tsize, base, size));
    skn_view* v = NULL;
    CHECK(skn_gguf_tensor_view(g, 0, &v) == SKN_OK);
    float got = 0;
    const int64_t at[2] = {2, 63};
    CHECK(skn_view_get(v, at, 2, &got) == SKN_OK && isnan(got)); /* 0xffffffff: the new bytes, in place */
    skn_view_release(v);
    skn_gguf_close(g);
}

static void case_open_options_misuse(void) {
    const char* p = sample_file();
    skn_gguf* g = NULL;
    skn_gguf_options o;
    memset(&o, 0, sizeof o);
    CHECK_ERROR(skn_gguf_open(p, &o, &g), SKN_E_INVALID_ARGUMENT, "struct_size");
    o.struct_size = sizeof o;
    o.orientation = (skn_gguf_orientation)2;
    CHECK_ERROR(skn_gguf_open(p, &o, &g), SKN_E_INVALID_ARGUMENT, "orientation");
    o.orientation = SKN_GGUF_OUT_IN;
    o.read_into_memory = 2;
    CHECK_ERROR(skn_gguf_open(p, &o, &g), SKN_E_INVALID_ARGUMENT, "read_into_memory");
    o.read_into_memory = 0;
    o.i2_s_layout = 3;
    CHECK_ERROR(skn_gguf_open(p, &o, &g), SKN_E_INVALID_ARGUMENT, "SKN_I2_S_LAYOUT_ARM64");
    o.i2_s_layout = SKN_I2_S_LAYOUT_FROM_FILE;
    CHECK_ERROR(skn_gguf_open(NULL, NULL, &g), SKN_E_INVALID_ARGUMENT, "path");
    CHECK_ERROR(skn_gguf_open(p, NULL, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_gguf_open("", NULL, &g), SKN_E_NOT_FOUND, NULL);
    CHECK_ERROR(skn_gguf_open_memory(NULL, 10, NULL, &g), SKN_E_INVALID_ARGUMENT, "data");
    CHECK_ERROR(skn_gguf_open_memory("GGUF", 4, NULL, &g), SKN_E_FORMAT, NULL);
    CHECK_ERROR(skn_gguf_open_memory("GGUF", 0, NULL, &g), SKN_E_FORMAT, NULL);
    CHECK_ERROR(skn_gguf_open_memory("GGUF", 4, NULL, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(g == NULL);
    /* An empty file. */
    const int fd = open(path_in_dir("empty.gguf"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    close(fd);
    CHECK_ERROR(skn_gguf_open(path_in_dir("empty.gguf"), NULL, &g), SKN_E_FORMAT, "empty");
    skn_gguf_close(NULL);
}

/* ---- every other function: NULLs, enums out of range, bad sizes ---------- */

static void case_errors_and_version(void) {
    CHECK(skn_last_error() != NULL);
    CHECK(strcmp(skn_status_name((skn_status)12345), "unknown status") == 0);
    CHECK(strcmp(skn_status_name((skn_status)-1), "unknown status") == 0);
    CHECK(skn_version() == SKN_VERSION_NUMBER);
    CHECK(strlen(skn_version_string()) >= 5);
    CHECK(strcmp(skn_isa_name((skn_isa)-7), "unknown") == 0);
    CHECK(strcmp(skn_isa_name((skn_isa)1000), "unknown") == 0);
    CHECK(strlen(skn_isa_name(skn_cpu_isa())) > 0);
    CHECK(skn_isa_at(-1) == -1 && skn_isa_at(skn_isa_count()) == -1 && skn_isa_at(INT32_MIN) == -1);
    CHECK(skn_isa_count() > 0 && skn_isa_at(0) == SKN_ISA_SCALAR);
    CHECK(skn_cpu_runs_isa((skn_isa)-7) == 0 && skn_cpu_runs_isa((skn_isa)1000) == 0);
    CHECK(skn_cpu_features() != NULL && skn_cpu_features() == skn_cpu_features()); /* static, built once */
    CHECK(skn_kernel_count() > 0 && skn_kernel_name(-1) == NULL && skn_kernel_name(skn_kernel_count()) == NULL);
    CHECK(skn_kernel_name(0) != NULL);
    CHECK(strcmp(skn_gguf_type_name((skn_gguf_type)-1), "invalid") == 0);
    CHECK(strcmp(skn_gguf_type_name((skn_gguf_type)13), "invalid") == 0);
}

static void case_tuning_misuse(void) {
    CHECK(skn_cpu_id() != NULL && skn_cpu_id() == skn_cpu_id() && strlen(skn_cpu_id()) >= 5); /* static */
    CHECK(skn_kernel_variant(-1) == NULL && skn_kernel_variant(skn_kernel_count()) == NULL);
    CHECK(skn_kernel_variant(INT32_MIN) == NULL && skn_kernel_variant(0) != NULL);
    CHECK(skn_tuning_count(NULL) == 0);
    const char* why = NULL;
    CHECK(skn_tuning_file(NULL) != NULL && skn_tuning_file(&why) != NULL && why != NULL);
    CHECK(skn_tuning_file_path() != NULL && skn_tuning_file_path() == skn_tuning_file_path());
    skn_context* ctx = NULL;
    CHECK(skn_context_create(&ctx) == SKN_OK);
    skn_tuning_row row;
    memset(&row, 0, sizeof row);
    row.struct_size = sizeof row;
    CHECK_ERROR(skn_tuning_row_at(NULL, 0, &row), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_tuning_row_at(ctx, 0, NULL), SKN_E_INVALID_ARGUMENT, "row");
    CHECK_ERROR(skn_tuning_row_at(ctx, -1, &row), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_tuning_row_at(ctx, skn_tuning_count(ctx), &row), SKN_E_INVALID_ARGUMENT, "out of range");
    row.struct_size = 8;
    CHECK_ERROR(skn_tuning_row_at(ctx, 0, &row), SKN_E_INVALID_ARGUMENT, "struct_size");
    row.struct_size = sizeof row;
    CHECK_ERROR(skn_context_set_tuning(NULL, "variant", "matmul_wt_*", ""), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_context_set_tuning(ctx, NULL, "matmul_wt_*", ""), SKN_E_INVALID_ARGUMENT, "choice");
    CHECK_ERROR(skn_context_set_tuning(ctx, "variant", NULL, ""), SKN_E_INVALID_ARGUMENT, "subject");
    CHECK_ERROR(skn_context_set_tuning(ctx, "variant", "matmul_wt_*", NULL), SKN_E_INVALID_ARGUMENT, "value");
    CHECK_ERROR(skn_context_set_tuning(ctx, "speed", "matmul_wt_*", "far"), SKN_E_INVALID_ARGUMENT,
                "variant, tasks or prefer");
    CHECK_ERROR(skn_context_set_tuning(ctx, "variant", "", "far"), SKN_E_INVALID_ARGUMENT, "subject");
    CHECK_ERROR(skn_context_set_tuning(ctx, "variant", "matmul_wt_*", "Far Away"), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_tuning(ctx, "tasks", "matmul_wt_*", "0"), SKN_E_INVALID_ARGUMENT, "row count");
    CHECK_ERROR(skn_context_set_tuning(ctx, "tasks", "matmul_wt_*", "12abc"), SKN_E_INVALID_ARGUMENT, "row count");
    CHECK_ERROR(skn_context_set_tuning(ctx, "prefer", "q4_0:gemv", "q4_k/rm"), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_tuning(ctx, "prefer", "q4_0:batch", "q4_0/rm"), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_tuning(ctx, "prefer", "q4_0:gemv", "q4_0/sideways"), SKN_E_INVALID_ARGUMENT, NULL);
    /* A refused setting adds no row; an accepted one is the last row, from "context". */
    const int32_t before = skn_tuning_count(ctx);
    CHECK(skn_context_set_tuning(ctx, "variant", "matmul_wt_q4_0_ibm_*", "far") == SKN_OK);
    CHECK(skn_tuning_count(ctx) == before + 1);
    CHECK(skn_tuning_row_at(ctx, before, &row) == SKN_OK);
    CHECK(strcmp(row.choice, "variant") == 0 && strcmp(row.value, "far") == 0 && strcmp(row.source, "context") == 0);
    skn_context_destroy(ctx);
}

static void case_quantize_options_misuse(void) {
    float src[3 * 64];
    for (int i = 0; i < 3 * 64; ++i) src[i] = (float)(i % 7) - 3.0f;
    unsigned char dst[3 * 2 * 34]; /* room for Q8_0 */
    float importance[64];
    for (int i = 0; i < 64; ++i) importance[i] = 1.0f;
    skn_quantize_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    /* NULL options and zeroed options are skn_quantize */
    CHECK(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, NULL) == SKN_OK);
    CHECK(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o) == SKN_OK);
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, NULL, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, 5, &o), SKN_E_BUFFER_TOO_SMALL, NULL);
    o.struct_size = 4;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "struct_size");
    o.struct_size = sizeof o;
    o.importance = importance;
    o.importance_count = 32;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "importance_count");
    o.importance = NULL;
    o.importance_count = 64;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "NULL");
    o.importance = importance;
    importance[17] = -1.0f;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "importance[17]");
    importance[17] = 0.0f / 0.0f;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q8_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "importance[17]");
    importance[17] = 1.0f;
    o.threads = -1;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "threads");
    o.threads = 1025;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "threads");
    o.threads = 3;
    src[2 * 64 + 5] = 1.0f / 0.0f;
    CHECK_ERROR(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o), SKN_E_INVALID_ARGUMENT,
                "[2, 5]");
    src[2 * 64 + 5] = 0.0f;
    CHECK(skn_quantize_with_options(SKN_FORMAT_Q4_0, src, 3, 64, dst, sizeof dst, &o) == SKN_OK);
}

static void case_quantize_misuse(void) {
    size_t n = 0;
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_0, 1, 32, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_0, 0, 32, &n), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_0, 1, 31, &n), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_0, -1, 32, &n), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_0, INT64_MAX, INT64_MAX - 31, &n), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_F32, INT64_MAX, 2, &n), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantized_size((skn_format)-5, 1, 32, &n), SKN_E_UNKNOWN_FORMAT, NULL);
    float src[64] = {0};
    unsigned char dst[64];
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q4_0, NULL, 1, 32, dst, sizeof dst), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q4_0, src, 1, 32, NULL, sizeof dst), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q4_0, src, 1, 32, dst, 3), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q4_0, src, (int64_t)1 << 62, 32, dst, sizeof dst), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_quantize((skn_format)99, src, 1, 32, dst, sizeof dst), SKN_E_UNKNOWN_FORMAT, NULL);
    src[3] = 1.0f / 0.0f;
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q4_0, src, 1, 32, dst, sizeof dst), SKN_E_INVALID_ARGUMENT, NULL);
    float out[32];
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q4_0, NULL, 18, 1, 32, out, 32), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q4_0, dst, 18, 1, 32, NULL, 32), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q4_0, dst, 17, 1, 32, out, 32), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q4_0, dst, 18, 1, 32, out, 31), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q4_0, dst, 18, (int64_t)1 << 62, (int64_t)1 << 40, out, 32),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q4_0, dst, 18, 1, 0, out, 32), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_dequantize((skn_format)4, dst, 18, 1, 32, out, 32), SKN_E_UNKNOWN_FORMAT, NULL);
}

static void case_scope_and_view_misuse(void) {
    skn_scope* s = NULL;
    CHECK_ERROR(skn_scope_create(NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(skn_scope_create(&s) == SKN_OK);
    uint64_t bytes = 1;
    CHECK_ERROR(skn_scope_allocated(NULL, &bytes), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_scope_allocated(s, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK(skn_scope_allocated(s, &bytes) == SKN_OK && bytes == 0);
    skn_scope_destroy(NULL);

    const int64_t shape[2] = {4, 96};
    skn_view* v = NULL;
    CHECK_ERROR(skn_view_from_bytes(NULL, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 2, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, NULL, 2, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 2, SKN_ORDER_ROW_MAJOR, NULL),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8 - 1, SKN_FORMAT_Q8_0, shape, 2, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 0, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 5, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, shape, 2, (skn_block_order)2, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, (skn_format)4, shape, 2, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_UNKNOWN_FORMAT, NULL);
    const int64_t huge[4] = {(int64_t)1 << 40, (int64_t)1 << 40, (int64_t)1 << 40, 32};
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, huge, 4, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    const int64_t neg[2] = {-4, 96};
    CHECK_ERROR(skn_view_from_bytes(g_q8, sizeof g_q8, SKN_FORMAT_Q8_0, neg, 2, SKN_ORDER_ROW_MAJOR, &v),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK(v == NULL);

    v = sample_view();
    CHECK(skn_view_retain(NULL) == NULL);
    skn_view_release(NULL);
    CHECK(strcmp(skn_view_describe(NULL), "(null)") == 0);
    CHECK(skn_view_order(NULL) == SKN_ORDER_ROW_MAJOR && skn_view_layout_class(NULL) == SKN_LAYOUT_CONTIGUOUS);
    CHECK(skn_view_rank(NULL) == 0);
    int64_t sh[4];
    CHECK_ERROR(skn_view_shape(NULL, sh), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_shape(v, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    skn_view* out = NULL;
    CHECK_ERROR(skn_view_transpose(v, 0, 1, &out), SKN_E_UNSUPPORTED, "skn_matmul_wt");
    {
        static float dense[6];
        const int64_t dshape[2] = {2, 3};
        skn_view* d = NULL;
        CHECK(skn_view_from_bytes(dense, sizeof dense, SKN_FORMAT_F32, dshape, 2, SKN_ORDER_ROW_MAJOR, &d) == SKN_OK);
        CHECK_ERROR(skn_view_transpose(d, 0, 5, &out), SKN_E_INVALID_ARGUMENT, NULL);
        CHECK_ERROR(skn_view_transpose(d, -1, 0, &out), SKN_E_INVALID_ARGUMENT, NULL);
        CHECK_ERROR(skn_view_from_bytes(dense, sizeof dense, SKN_FORMAT_F32, dshape, 2, SKN_ORDER_INPUT_BLOCK_MAJOR,
                                        &out),
                    SKN_E_INVALID_ARGUMENT, NULL);
        skn_view_release(d);
    }
    CHECK_ERROR(skn_view_transpose(NULL, 0, 1, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_transpose(v, 0, 1, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_unsqueeze(v, 5, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_unsqueeze(v, -1, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_unsqueeze(NULL, 0, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_unsqueeze(v, 0, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    float f;
    const int64_t idx[2] = {4, 0}, ok_idx[2] = {1, 1}, neg_idx[2] = {-1, 0};
    CHECK_ERROR(skn_view_get(v, idx, 2, &f), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_get(v, neg_idx, 2, &f), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_get(v, ok_idx, 3, &f), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_get(v, NULL, 2, &f), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_get(v, ok_idx, 2, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_get(NULL, ok_idx, 2, &f), SKN_E_INVALID_ARGUMENT, NULL);
    static float all[4 * 96];
    CHECK_ERROR(skn_view_to_float(v, all, 4 * 96 - 1), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_view_to_float(v, NULL, 4 * 96), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_to_float(NULL, all, 4 * 96), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_prepack(v, (skn_block_order)-1, s, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_prepack(v, SKN_ORDER_INPUT_BLOCK_MAJOR, NULL, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_view_prepack(NULL, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_view_prepack(v, SKN_ORDER_ROW_MAJOR, s, NULL, NULL, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK(out == NULL);
    skn_view_release(v);
    skn_scope_destroy(s);
}

static void case_relayout_misuse(void) {
    static unsigned char src[4 * 3 * 34], dst[4 * 3 * 34];
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, NULL, sizeof src, dst, sizeof dst, 4, 3),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, src, sizeof src, NULL, sizeof dst, 4, 3),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, src, sizeof src, dst, sizeof dst - 1, 4, 3),
                SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, src, sizeof src, src, sizeof src, 4, 3),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, src, sizeof src, dst, sizeof dst, 0, 3),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_Q8_0, src, sizeof src, dst, sizeof dst, (int64_t)1 << 62,
                                           (int64_t)1 << 62),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_to_kernel_order(SKN_FORMAT_F32, src, sizeof src, dst, sizeof dst, 4, 3),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_packed_to_canonical_order((skn_format)4, src, sizeof src, dst, sizeof dst, 4, 3),
                SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_packed_to_canonical_order(SKN_FORMAT_Q8_0, src, 3, dst, sizeof dst, 4, 3),
                SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_packed_to_canonical_order(SKN_FORMAT_Q8_0, src, sizeof src, dst, sizeof dst, INT64_MAX, 2),
                SKN_E_INVALID_ARGUMENT, NULL);
    static unsigned char i2s[128 / 4 + 32], i2s_out[128 / 4 + 32];
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, NULL, sizeof i2s, i2s_out, sizeof i2s_out,
                                       128),
                SKN_E_INVALID_ARGUMENT, "src");
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, i2s, sizeof i2s, NULL, sizeof i2s_out,
                                       128),
                SKN_E_INVALID_ARGUMENT, "dst");
    CHECK_ERROR(skn_i2_s_change_layout((skn_format)99, SKN_FORMAT_I2_S_G64, i2s, sizeof i2s, i2s_out, sizeof i2s_out,
                                       128),
                SKN_E_INVALID_ARGUMENT, "99");
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, i2s, sizeof i2s, i2s_out, sizeof i2s_out,
                                       -128),
                SKN_E_INVALID_ARGUMENT, "128");
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, i2s, sizeof i2s, i2s_out, sizeof i2s_out,
                                       INT64_MAX),
                SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, i2s, 3, i2s_out, sizeof i2s_out, 128),
                SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_require_out_in(96, 4, SKN_FORMAT_Q8_0), SKN_E_INVALID_ARGUMENT, "looks like [in, out]");
    CHECK_ERROR(skn_require_out_in(4, 96, (skn_format)4), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK(skn_require_out_in(-4, 96, SKN_FORMAT_Q8_0) != SKN_OK);
}

static void case_fixture_misuse(void) {
    size_t need = 0;
    static unsigned char buf[1 << 16];
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 4, 3, buf, sizeof buf, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 0, 3, NULL, 0, &need), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 65536, 3, NULL, 0, &need), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 2, 4, 3, NULL, 0, &need), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_F32, 0, 4, 3, NULL, 0, &need), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_fixture_bytes((skn_format)4, 0, 4, 3, NULL, 0, &need), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 4, 3, NULL, 0, &need) == SKN_OK && need == 4 * 3 * 18);
    CHECK_ERROR(skn_fixture_bytes(SKN_FORMAT_Q4_0, 0, 4, 3, buf, need - 1, &need), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK(skn_fixture_disagreement(NULL, 10, SKN_FORMAT_Q4_0, 0, 4, 3) != NULL);
    CHECK(skn_fixture_disagreement(buf, 10, SKN_FORMAT_Q4_0, 0, 4, 3) != NULL);
    CHECK(skn_fixture_disagreement(buf, 216, (skn_format)4, 0, 4, 3) != NULL);
    CHECK(skn_fixture_disagreement(buf, 216, SKN_FORMAT_Q4_0, 7, 4, 3) != NULL);
    CHECK(skn_fixture_disagreement(buf, 216, SKN_FORMAT_Q4_0, 0, INT64_MAX, INT64_MAX) != NULL);
    skn_golden_info gi;
    memset(&gi, 0, sizeof gi);
    CHECK_ERROR(skn_fixture_golden_info(SKN_FORMAT_Q4_0, &gi), SKN_E_INVALID_ARGUMENT, "struct_size");
    gi.struct_size = sizeof gi;
    CHECK_ERROR(skn_fixture_golden_info(SKN_FORMAT_Q4_0, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_fixture_golden_info((skn_format)4, &gi), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_fixture_golden(SKN_FORMAT_Q4_0, (skn_golden_part)6, NULL, 0, &need), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_fixture_golden(SKN_FORMAT_Q4_0, (skn_golden_part)-1, NULL, 0, &need), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_fixture_golden(SKN_FORMAT_Q4_0, SKN_GOLDEN_X, buf, sizeof buf, NULL), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK(skn_fixture_golden(SKN_FORMAT_Q4_0, SKN_GOLDEN_X, NULL, 0, &need) == SKN_OK && need > 0);
    CHECK_ERROR(skn_fixture_golden(SKN_FORMAT_Q4_0, SKN_GOLDEN_X, buf, need - 1, &need), SKN_E_BUFFER_TOO_SMALL,
                NULL);
}

static void case_context_misuse(void) {
    skn_context* ctx = NULL;
    CHECK_ERROR(skn_context_create(NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(skn_context_create(&ctx) == SKN_OK);
    CHECK_ERROR(skn_context_set_threads(ctx, 0), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_threads(ctx, -1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_threads(ctx, 1025), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_threads(NULL, 2), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_context_set_parallel_for(NULL, NULL, NULL), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK(skn_context_set_parallel_for(ctx, NULL, NULL) == SKN_OK);
    CHECK_ERROR(skn_context_set_trace(NULL, NULL, NULL), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_context_set_isa(ctx, (skn_isa)5), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_isa(ctx, (skn_isa)-1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_context_set_isa(NULL, SKN_ISA_SCALAR), SKN_E_INVALID_ARGUMENT, "ctx");
    skn_view* w = sample_view();
    skn_view* out = NULL;
    CHECK_ERROR(skn_prepack_for_matmul(NULL, w, NULL, &out), SKN_E_INVALID_ARGUMENT, "ctx");
    CHECK_ERROR(skn_prepack_for_matmul(ctx, NULL, NULL, &out), SKN_E_INVALID_ARGUMENT, "w");
    CHECK_ERROR(skn_prepack_for_matmul(ctx, w, NULL, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(out == NULL);
    skn_view_release(w);
    skn_context_destroy(ctx);
    skn_context_destroy(NULL);
}

static void case_gguf_reader_misuse(void) {
    skn_gguf* g = open_sample();
    CHECK(skn_gguf_version(NULL) == 0 && skn_gguf_alignment(NULL) == 0 && skn_gguf_data_offset(NULL) == 0);
    CHECK(skn_gguf_file_size(NULL) == 0 && skn_gguf_tensor_count(NULL) == -1 && skn_gguf_kv_count(NULL) == -1);
    CHECK(skn_gguf_unsupported_count(NULL) == -1 && skn_gguf_unsupported_count(g) == 0);
    CHECK(skn_gguf_version(g) == 3 && skn_gguf_alignment(g) == 32 && skn_gguf_data_offset(g) > 0);
    skn_gguf_tensor_props tp;
    memset(&tp, 0, sizeof tp);
    CHECK_ERROR(skn_gguf_tensor_info(g, 0, &tp), SKN_E_INVALID_ARGUMENT, "struct_size");
    tp.struct_size = sizeof tp;
    CHECK_ERROR(skn_gguf_tensor_info(g, 2, &tp), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_info(g, -1, &tp), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_info(g, INT64_MIN, &tp), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_info(g, 0, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_info(NULL, 0, &tp), SKN_E_INVALID_ARGUMENT, NULL);
    int64_t i = 0;
    CHECK(skn_gguf_find_tensor(g, "nope", &i) == SKN_OK && i == -1);
    CHECK_ERROR(skn_gguf_find_tensor(g, NULL, &i), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_find_tensor(g, "w", NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_find_tensor(NULL, "w", &i), SKN_E_INVALID_ARGUMENT, NULL);
    const void* d;
    size_t sz;
    CHECK_ERROR(skn_gguf_tensor_data(g, 5, &d, &sz), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_data(g, 0, NULL, &sz), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_data(g, 0, &d, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_data(NULL, 0, &d, &sz), SKN_E_INVALID_ARGUMENT, NULL);
    skn_view* v = NULL;
    CHECK_ERROR(skn_gguf_tensor_view(g, -1, &v), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_view(g, 0, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_tensor_view(NULL, 0, &v), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK(v == NULL);
    const char* name;
    size_t len;
    CHECK_ERROR(skn_gguf_kv_key(g, -1, &name, &len), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_kv_key(g, skn_gguf_kv_count(g), &name, &len), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_kv_key(g, 0, NULL, &len), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_kv_key(NULL, 0, &name, &len), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_find_key(g, NULL, &i), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_find_key(g, "a.u32", NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_find_key(NULL, "a.u32", &i), SKN_E_INVALID_ARGUMENT, NULL);
    skn_gguf_type t;
    CHECK_ERROR(skn_gguf_kv_type(g, 99, &t), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_kv_type(g, 0, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_kv_type(NULL, 0, &t), SKN_E_INVALID_ARGUMENT, NULL);
    int64_t k32 = -1, kstr = -1;
    CHECK(skn_gguf_find_key(g, "a.u32", &k32) == SKN_OK && skn_gguf_find_key(g, "a.str", &kstr) == SKN_OK);
    union {
        uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32; uint64_t u64; int64_t i64;
        float f32; double f64; int b;
    } u;
    /* Wrong type, out-of-range key, NULL out, NULL handle for each getter. */
#define GETTER_MISUSE(fn, field)                                                            \
    CHECK_ERROR(fn(g, kstr, &u.field), SKN_E_INVALID_ARGUMENT, "holds a string");          \
    CHECK_ERROR(fn(g, 1000, &u.field), SKN_E_INVALID_ARGUMENT, "out of range");            \
    CHECK_ERROR(fn(g, -1, &u.field), SKN_E_INVALID_ARGUMENT, "out of range");              \
    CHECK_ERROR(fn(g, k32, NULL), SKN_E_INVALID_ARGUMENT, "out");                          \
    CHECK_ERROR(fn(NULL, k32, &u.field), SKN_E_INVALID_ARGUMENT, "gguf");
    GETTER_MISUSE(skn_gguf_get_u8, u8)
    GETTER_MISUSE(skn_gguf_get_i8, i8)
    GETTER_MISUSE(skn_gguf_get_u16, u16)
    GETTER_MISUSE(skn_gguf_get_i16, i16)
    GETTER_MISUSE(skn_gguf_get_i32, i32)
    GETTER_MISUSE(skn_gguf_get_u64, u64)
    GETTER_MISUSE(skn_gguf_get_i64, i64)
    GETTER_MISUSE(skn_gguf_get_f32, f32)
    GETTER_MISUSE(skn_gguf_get_f64, f64)
    GETTER_MISUSE(skn_gguf_get_bool, b)
#undef GETTER_MISUSE
    CHECK_ERROR(skn_gguf_get_u32(g, kstr, &u.u32), SKN_E_INVALID_ARGUMENT, "holds a string, not a u32");
    CHECK_ERROR(skn_gguf_get_u32(g, k32, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_gguf_get_string(g, k32, &name, &len), SKN_E_INVALID_ARGUMENT, "holds a u32");
    CHECK_ERROR(skn_gguf_get_string(g, kstr, NULL, &len), SKN_E_INVALID_ARGUMENT, "str");
    CHECK_ERROR(skn_gguf_get_string(g, kstr, &name, NULL), SKN_E_INVALID_ARGUMENT, "len");
    CHECK_ERROR(skn_gguf_get_string(NULL, kstr, &name, &len), SKN_E_INVALID_ARGUMENT, "gguf");
    skn_gguf_close(g);
    skn_gguf_close(NULL);
}

static void case_gguf_writer_misuse(void) {
    skn_gguf_writer* w = NULL;
    CHECK_ERROR(skn_gguf_writer_create(NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    CHECK_ERROR(skn_gguf_writer_set_alignment(w, 0), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_set_alignment(w, 12), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_set_alignment(NULL, 32), SKN_E_INVALID_ARGUMENT, "writer");
#define ADDER_MISUSE(fn, value)                                                     \
    CHECK_ERROR(fn(NULL, "k", value), SKN_E_INVALID_ARGUMENT, "writer");           \
    CHECK_ERROR(fn(w, NULL, value), SKN_E_INVALID_ARGUMENT, "key");                \
    CHECK_ERROR(fn(w, "", value), SKN_E_INVALID_ARGUMENT, "empty");
    ADDER_MISUSE(skn_gguf_writer_add_u8, 1)
    ADDER_MISUSE(skn_gguf_writer_add_i8, 1)
    ADDER_MISUSE(skn_gguf_writer_add_u16, 1)
    ADDER_MISUSE(skn_gguf_writer_add_i16, 1)
    ADDER_MISUSE(skn_gguf_writer_add_u32, 1)
    ADDER_MISUSE(skn_gguf_writer_add_i32, 1)
    ADDER_MISUSE(skn_gguf_writer_add_u64, 1)
    ADDER_MISUSE(skn_gguf_writer_add_i64, 1)
    ADDER_MISUSE(skn_gguf_writer_add_f32, 1.0f)
    ADDER_MISUSE(skn_gguf_writer_add_f64, 1.0)
    ADDER_MISUSE(skn_gguf_writer_add_bool, 1)
#undef ADDER_MISUSE
    CHECK_ERROR(skn_gguf_writer_add_bool(w, "b", 2), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_bool(w, "b", -1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_u64(w, "general.alignment", 64), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_string(w, "s", NULL, 3), SKN_E_INVALID_ARGUMENT, "value");
    CHECK_ERROR(skn_gguf_writer_add_string(NULL, "s", "x", 1), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_add_string(w, NULL, "x", 1), SKN_E_INVALID_ARGUMENT, "key");
    CHECK_ERROR(skn_gguf_writer_add_string(w, "s", "x", SIZE_MAX), SKN_E_INVALID_ARGUMENT, "len");
    static unsigned char q[34 * 3];
    const int64_t ne[2] = {96, 1}, bad_ne[2] = {95, 1}, neg_ne[2] = {96, -1};
    const int64_t huge_ne[4] = {(int64_t)1 << 40, (int64_t)1 << 40, (int64_t)1 << 40, 1};
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, NULL, SKN_FORMAT_Q8_0, 2, ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                "name");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 2, NULL, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                "ne");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 2, ne, NULL, sizeof q), SKN_E_INVALID_ARGUMENT,
                "data");
    CHECK_ERROR(skn_gguf_writer_add_tensor(NULL, "t", SKN_FORMAT_Q8_0, 2, ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                "writer");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 0, ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                "rank");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 5, ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                "rank");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 2, bad_ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 2, neg_ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 4, huge_ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", SKN_FORMAT_Q8_0, 2, ne, q, sizeof q - 1), SKN_E_INVALID_ARGUMENT,
                NULL);
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "t", (skn_format)4, 2, ne, q, sizeof q), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "", SKN_FORMAT_Q8_0, 2, ne, q, sizeof q), SKN_E_INVALID_ARGUMENT,
                NULL);
    uint64_t size = 0;
    CHECK_ERROR(skn_gguf_writer_size(NULL, &size), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_size(w, NULL), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK(skn_gguf_writer_size(w, &size) == SKN_OK && size > 0);
    static unsigned char out[4096];
    CHECK_ERROR(skn_gguf_writer_write_memory(w, out, (size_t)size - 1), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_gguf_writer_write_memory(w, NULL, sizeof out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_write_memory(NULL, out, sizeof out), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK(skn_gguf_writer_write_memory(w, out, sizeof out) == SKN_OK);
    skn_gguf_writer_destroy(w);
    skn_gguf_writer_destroy(NULL);
}

static void case_success_clears_message(void) {
    fail_once();
    CHECK(skn_last_error()[0] != 0);
    skn_scope* s = NULL;
    CHECK(skn_scope_create(&s) == SKN_OK);
    CHECK(skn_last_error()[0] == 0);
    skn_scope_destroy(s);
}

/* ---- streamed GGUF files and arrays of arrays -------------------------- */

static void case_writer_array_value_misuse(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const uint32_t nums[2] = {1, 2};
    skn_gguf_array_value leaf = {sizeof leaf, SKN_GGUF_TYPE_U32, 2, nums, NULL, NULL, NULL};
    CHECK_ERROR(skn_gguf_writer_add_array_value(NULL, "k", &leaf), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, NULL, &leaf), SKN_E_INVALID_ARGUMENT, "key");
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "", &leaf), SKN_E_INVALID_ARGUMENT, "empty");
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", NULL), SKN_E_INVALID_ARGUMENT, "value");
    skn_gguf_array_value bad = leaf;
    bad.count = UINT64_MAX;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &bad), SKN_E_INVALID_ARGUMENT, "count");
    bad = leaf;
    bad.element_type = (skn_gguf_type)-1;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &bad), SKN_E_INVALID_ARGUMENT, "element_type");
    bad.struct_size = 0;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &bad), SKN_E_INVALID_ARGUMENT, "struct_size");
    /* An array listing itself, and a huge count of arrays with NULL arrays. */
    skn_gguf_array_value loop = {sizeof loop, SKN_GGUF_TYPE_ARRAY, 1, NULL, NULL, NULL, NULL};
    const skn_gguf_array_value* self[1] = {&loop};
    loop.arrays = self;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &loop), SKN_E_INVALID_ARGUMENT, "deep");
    skn_gguf_array_value many = {sizeof many, SKN_GGUF_TYPE_ARRAY, UINT64_MAX, NULL, NULL, NULL, NULL};
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &many), SKN_E_INVALID_ARGUMENT, "arrays");
    many.arrays = self;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &many), SKN_E_INVALID_ARGUMENT, "count");
    /* One big leaf listed 2^40 times would be 2^40 copies: refused by count. */
    static uint8_t big[1 << 20];
    skn_gguf_array_value big_leaf = {sizeof big_leaf, SKN_GGUF_TYPE_U8, sizeof big, big, NULL, NULL, NULL};
    const skn_gguf_array_value* same[4] = {&big_leaf, &big_leaf, &big_leaf, &big_leaf};
    skn_gguf_array_value four = {sizeof four, SKN_GGUF_TYPE_ARRAY, 4, NULL, NULL, NULL, same};
    CHECK(skn_gguf_writer_add_array_value(w, "four", &four) == SKN_OK);
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "four", &four), SKN_E_INVALID_ARGUMENT, "already");
    skn_gguf_writer_destroy(w);
}

static skn_gguf_writer* declared_writer(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const int64_t ne[1] = {BIG_FLOATS};
    CHECK(skn_gguf_writer_declare_tensor(w, "big", SKN_FORMAT_F32, 1, ne) == SKN_OK);
    return w;
}

static void case_writer_declare_tensor_misuse(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const int64_t ne[2] = {96, 2}, bad_ne[2] = {95, 2}, zero_ne[2] = {96, 0};
    const int64_t huge_ne[4] = {(int64_t)1 << 40, (int64_t)1 << 40, (int64_t)1 << 40, 1};
    const int64_t big_ne[4] = {(int64_t)1 << 30, (int64_t)1 << 30, 2, 1}; /* 2^61 floats: 2^63 bytes */
    CHECK_ERROR(skn_gguf_writer_declare_tensor(NULL, "t", SKN_FORMAT_Q8_0, 2, ne), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, NULL, SKN_FORMAT_Q8_0, 2, ne), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", SKN_FORMAT_Q8_0, 2, NULL), SKN_E_INVALID_ARGUMENT, "ne");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", SKN_FORMAT_Q8_0, 0, ne), SKN_E_INVALID_ARGUMENT, "rank");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", SKN_FORMAT_Q8_0, 5, ne), SKN_E_INVALID_ARGUMENT, "rank");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", (skn_format)4, 2, ne), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", (skn_format)-7, 2, ne), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", SKN_FORMAT_Q8_0, 2, bad_ne), SKN_E_INVALID_ARGUMENT, "ne[0]");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", SKN_FORMAT_Q8_0, 2, zero_ne), SKN_E_INVALID_ARGUMENT,
                "positive");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "t", SKN_FORMAT_Q8_0, 4, huge_ne), SKN_E_INVALID_ARGUMENT,
                "overflows");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "", SKN_FORMAT_Q8_0, 2, ne), SKN_E_INVALID_ARGUMENT, "empty");
    /* A size the file can address is accepted (nothing is allocated), two
     * whose sum overflows the file's 64-bit offsets are not. */
    CHECK(skn_gguf_writer_declare_tensor(w, "huge0", SKN_FORMAT_F32, 3, big_ne) == SKN_OK);
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "huge1", SKN_FORMAT_F32, 3, big_ne), SKN_E_INVALID_ARGUMENT,
                "file size");
    CHECK_ERROR(skn_gguf_writer_declare_tensor(w, "huge0", SKN_FORMAT_F32, 1, ne), SKN_E_INVALID_ARGUMENT,
                "already added");
    static unsigned char out[256];
    CHECK_ERROR(skn_gguf_writer_write_memory(w, out, sizeof out), SKN_E_INVALID_ARGUMENT, "huge0");
    skn_gguf_writer_destroy(w);
}

static void case_stream_misuse(void) {
    skn_gguf_writer* w = declared_writer();
    skn_gguf_stream* s = NULL;
    char path[512]; /* path_in_dir's buffer is reused by the next call */
    snprintf(path, sizeof path, "%s", path_in_dir("stream.gguf"));
    CHECK_ERROR(skn_gguf_stream_begin(NULL, path, &s), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_stream_begin(w, NULL, &s), SKN_E_INVALID_ARGUMENT, "path");
    CHECK_ERROR(skn_gguf_stream_begin(w, path, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_gguf_stream_begin(w, "", &s), SKN_E_INVALID_ARGUMENT, "empty");
    CHECK_ERROR(skn_gguf_stream_begin(w, path_in_dir("no/such/dir.gguf"), &s), SKN_E_IO, "cannot create");
    CHECK(s == NULL);
    CHECK(skn_gguf_stream_begin(w, path, &s) == SKN_OK);
    static float data[BIG_FLOATS];
    CHECK_ERROR(skn_gguf_stream_write(NULL, "big", data, 4), SKN_E_INVALID_ARGUMENT, "stream");
    CHECK_ERROR(skn_gguf_stream_write(s, NULL, data, 4), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_gguf_stream_write(s, "big", NULL, 4), SKN_E_INVALID_ARGUMENT, "data");
    CHECK(skn_gguf_stream_write(s, "big", NULL, 0) == SKN_OK);
    CHECK_ERROR(skn_gguf_stream_write(s, "big", data, SIZE_MAX), SKN_E_INVALID_ARGUMENT, "too many");
    CHECK_ERROR(skn_gguf_stream_write(s, "", data, 4), SKN_E_INVALID_ARGUMENT, "no tensor");
    int64_t tensor = -1;
    uint64_t written = 1;
    CHECK_ERROR(skn_gguf_stream_position(NULL, &tensor, &written), SKN_E_INVALID_ARGUMENT, "stream");
    CHECK(skn_gguf_stream_position(s, NULL, NULL) == SKN_OK);
    CHECK(skn_gguf_stream_position(s, &tensor, &written) == SKN_OK && tensor == 0 && written == 0);
    CHECK_ERROR(skn_gguf_stream_finish(NULL), SKN_E_INVALID_ARGUMENT, "stream");
    CHECK_ERROR(skn_gguf_stream_finish(s), SKN_E_INVALID_ARGUMENT, "\"big\"");
    CHECK(skn_gguf_stream_write(s, "big", data, sizeof data) == SKN_OK);
    CHECK(skn_gguf_stream_position(s, &tensor, &written) == SKN_OK && tensor == 1 && written == 0);
    CHECK(skn_gguf_stream_finish(s) == SKN_OK);
    skn_gguf_stream_destroy(s);
    skn_gguf_stream_destroy(NULL);
    /* A directory at the path: the rename fails, the temporary file goes. */
    CHECK(mkdir(path_in_dir("adir.gguf"), 0700) == 0);
    s = NULL;
    CHECK(skn_gguf_stream_begin(w, path_in_dir("adir.gguf"), &s) == SKN_OK);
    CHECK(skn_gguf_stream_write(s, "big", data, sizeof data) == SKN_OK);
    CHECK_ERROR(skn_gguf_stream_finish(s), SKN_E_IO, "cannot move");
    CHECK_ERROR(skn_gguf_stream_write(s, "big", data, 4), SKN_E_IO, "failed earlier");
    skn_gguf_stream_destroy(s);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q skn-partial", g_dir);
    CHECK(system(cmd) != 0);
    skn_gguf_writer_destroy(w);
}

/* A write that fails (here: the file size limit) breaks the stream; every
 * later call says so, and the temporary file is gone. */
static void case_stream_write_fails(void) {
    skn_gguf_writer* w = declared_writer();
    skn_gguf_stream* s = NULL;
    CHECK(skn_gguf_stream_begin(w, path_in_dir("limited.gguf"), &s) == SKN_OK);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {4096, 4096};
    CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    static float data[BIG_FLOATS];
    CHECK_ERROR(skn_gguf_stream_write(s, "big", data, sizeof data), SKN_E_IO, "cannot write");
    CHECK_ERROR(skn_gguf_stream_write(s, "big", data, 4), SKN_E_IO, "failed earlier");
    CHECK_ERROR(skn_gguf_stream_finish(s), SKN_E_IO, "failed earlier");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q limited", g_dir);
    CHECK(system(cmd) != 0);
    skn_gguf_stream_destroy(s);
    skn_gguf_writer_destroy(w);
}

/* Tensors named by type id, and streams to a caller's descriptor: every
 * bad argument refused, a descriptor that cannot be written refused before
 * anything is written, a write past the file size limit reported as I/O. */
static void case_of_type_and_fd_stream_misuse(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const int64_t ne[2] = {4, 3};
    int32_t ints[12] = {0};
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(NULL, "t", 26, 2, ne, ints, sizeof ints), SKN_E_INVALID_ARGUMENT,
                "writer");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, NULL, 26, 2, ne, ints, sizeof ints), SKN_E_INVALID_ARGUMENT,
                "name");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, "t", 26, 2, NULL, ints, sizeof ints), SKN_E_INVALID_ARGUMENT,
                "ne");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, "t", 26, 2, ne, NULL, sizeof ints), SKN_E_INVALID_ARGUMENT,
                "data");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, "t", 26, 5, ne, ints, sizeof ints), SKN_E_INVALID_ARGUMENT,
                "rank");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, "t", -1, 2, ne, ints, sizeof ints), SKN_E_UNSUPPORTED, NULL);
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, "t", 1036, 2, ne, ints, sizeof ints), SKN_E_UNSUPPORTED,
                "1036");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, "t", 36, 2, ne, ints, sizeof ints), SKN_E_INVALID_ARGUMENT,
                "two layouts");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(w, "t", 26, 2, ne, ints, 4), SKN_E_INVALID_ARGUMENT, "given 4");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(NULL, "t", 26, 2, ne), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(w, NULL, 26, 2, ne), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(w, "t", 26, 2, NULL), SKN_E_INVALID_ARGUMENT, "ne");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(w, "t", 26, 0, ne), SKN_E_INVALID_ARGUMENT, "rank");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(w, "t", 31, 2, ne), SKN_E_UNSUPPORTED, "removed");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(w, "t", 36, 2, ne), SKN_E_INVALID_ARGUMENT, "two layouts");
    CHECK(skn_gguf_writer_declare_tensor_of_type(w, "t", 26, 2, ne) == SKN_OK);
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(w, "t", 26, 2, ne), SKN_E_INVALID_ARGUMENT, "already added");

    skn_gguf_stream* s = NULL;
    CHECK_ERROR(skn_gguf_stream_begin_fd(NULL, 1, &s), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_stream_begin_fd(w, 1, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_gguf_stream_begin_fd(w, -5, &s), SKN_E_INVALID_ARGUMENT, "-5");
    CHECK_ERROR(skn_gguf_stream_begin_fd(w, 9999, &s), SKN_E_INVALID_ARGUMENT, "9999");
    const int ro = open("/dev/null", O_RDONLY);
    CHECK_ERROR(skn_gguf_stream_begin_fd(w, ro, &s), SKN_E_INVALID_ARGUMENT, "read-only");
    close(ro);
    CHECK(s == NULL);
    /* A write past the file size limit: SKN_E_IO with the system's reason. */
    const int fd = open(path_in_dir("fd-limited.gguf"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    skn_gguf_writer_destroy(w);
    w = declared_writer();
    CHECK(skn_gguf_stream_begin_fd(w, fd, &s) == SKN_OK);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {4096, 4096};
    CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    static float data[BIG_FLOATS];
    CHECK_ERROR(skn_gguf_stream_write(s, "big", data, sizeof data), SKN_E_IO, "File too large");
    CHECK_ERROR(skn_gguf_stream_finish(s), SKN_E_IO, "failed earlier");
    skn_gguf_stream_destroy(s);
    close(fd);
    skn_gguf_writer_destroy(w);
}

/* ---- the case table ----------------------------------------------------- */

typedef struct {
    const char* name;
    void (*fn)(void);
    const char* covers; /* the skn.h functions this case exercises */
} misuse_case;


/* ---- importance matrices ------------------------------------------------ */

/* A legacy imatrix: one entry "blk.0.w" (ncall 2, 96 values), chunk count 7,
 * dataset "ds". Returns its size. */
static size_t legacy_imatrix(uint8_t* buf) {
    size_t n = 0;
#define PUT_I32(v)                          \
    do {                                    \
        const int32_t x_ = (v);             \
        memcpy(buf + n, &x_, 4);            \
        n += 4;                             \
    } while (0)
    PUT_I32(1);
    PUT_I32(7);
    memcpy(buf + n, "blk.0.w", 7);
    n += 7;
    PUT_I32(2);
    PUT_I32(96);
    for (int i = 0; i < 96; ++i) {
        const float v = (float)i;
        memcpy(buf + n, &v, 4);
        n += 4;
    }
    PUT_I32(7);
    PUT_I32(2);
    memcpy(buf + n, "ds", 2);
    n += 2;
#undef PUT_I32
    return n;
}

static void case_imatrix_misuse(void) {
    uint8_t buf[512];
    const size_t n = legacy_imatrix(buf);
    skn_imatrix* m = NULL;
    CHECK_ERROR(skn_imatrix_open(NULL, &m), SKN_E_INVALID_ARGUMENT, "path");
    CHECK_ERROR(skn_imatrix_open(path_in_dir("none.dat"), &m), SKN_E_NOT_FOUND, NULL);
    CHECK_ERROR(skn_imatrix_open(g_dir, &m), SKN_E_INVALID_ARGUMENT, "directory");
    CHECK_ERROR(skn_imatrix_open_memory(NULL, 4, &m), SKN_E_INVALID_ARGUMENT, "data");
    CHECK_ERROR(skn_imatrix_open_memory(buf, n, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_imatrix_open_memory(buf, 0, &m), SKN_E_FORMAT, "empty");
    CHECK_ERROR(skn_imatrix_open_memory(buf, n - 1, &m), SKN_E_FORMAT, "truncated");
    CHECK_ERROR(skn_imatrix_open_memory("GGUF", 4, &m), SKN_E_FORMAT, "GGUF");
    CHECK(m == NULL);
    FILE* f = fopen(path_in_dir("m.dat"), "wb");
    CHECK(f != NULL && fwrite(buf, 1, n, f) == n);
    if (f) fclose(f);
    CHECK_ERROR(skn_imatrix_open(path_in_dir("m.dat"), NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK(skn_imatrix_open(path_in_dir("m.dat"), &m) == SKN_OK && m != NULL);
    if (m == NULL) return;

    skn_imatrix_props p;
    memset(&p, 0, sizeof p);
    CHECK_ERROR(skn_imatrix_info(m, &p), SKN_E_INVALID_ARGUMENT, "struct_size");
    p.struct_size = sizeof p;
    CHECK_ERROR(skn_imatrix_info(NULL, &p), SKN_E_INVALID_ARGUMENT, "imatrix");
    CHECK_ERROR(skn_imatrix_info(m, NULL), SKN_E_INVALID_ARGUMENT, "props");
    CHECK(skn_imatrix_info(m, &p) == SKN_OK && p.form == SKN_IMATRIX_LEGACY && p.chunk_count == 7);
    CHECK(skn_imatrix_count(NULL) == -1 && skn_imatrix_count(m) == 1);

    skn_imatrix_entry_props e;
    memset(&e, 0, sizeof e);
    CHECK_ERROR(skn_imatrix_entry_info(m, 0, &e), SKN_E_INVALID_ARGUMENT, "struct_size");
    e.struct_size = sizeof e;
    CHECK_ERROR(skn_imatrix_entry_info(m, 1, &e), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_imatrix_entry_info(m, -1, &e), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_imatrix_entry_info(m, INT64_MIN, &e), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_imatrix_entry_info(m, 0, NULL), SKN_E_INVALID_ARGUMENT, "entry");
    CHECK_ERROR(skn_imatrix_entry_info(NULL, 0, &e), SKN_E_INVALID_ARGUMENT, "imatrix");

    int64_t i = 5;
    CHECK(skn_imatrix_find(m, "nope", &i) == SKN_OK && i == -1);
    CHECK(skn_imatrix_find(m, "blk.0.w", &i) == SKN_OK && i == 0);
    CHECK_ERROR(skn_imatrix_find(m, NULL, &i), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_imatrix_find(m, "x", NULL), SKN_E_INVALID_ARGUMENT, "index");
    CHECK_ERROR(skn_imatrix_find(NULL, "x", &i), SKN_E_INVALID_ARGUMENT, "imatrix");

    const float* v = NULL;
    size_t count = 0;
    CHECK_ERROR(skn_imatrix_values(m, 0, 1, &v, &count), SKN_E_INVALID_ARGUMENT, "matrix 1 is out of range");
    CHECK_ERROR(skn_imatrix_values(m, 0, -2, &v, &count), SKN_E_INVALID_ARGUMENT, "SKN_IMATRIX_ALL_MATRICES");
    CHECK_ERROR(skn_imatrix_values(m, 3, 0, &v, &count), SKN_E_INVALID_ARGUMENT, "entry index 3");
    CHECK_ERROR(skn_imatrix_values(m, 0, 0, NULL, &count), SKN_E_INVALID_ARGUMENT, "values");
    CHECK_ERROR(skn_imatrix_values(m, 0, 0, &v, NULL), SKN_E_INVALID_ARGUMENT, "count");
    CHECK_ERROR(skn_imatrix_values(NULL, 0, 0, &v, &count), SKN_E_INVALID_ARGUMENT, "imatrix");
    CHECK(skn_imatrix_values(m, 0, SKN_IMATRIX_ALL_MATRICES, &v, &count) == SKN_OK && count == 96 && v[3] == 1.5f);

    int64_t c = 0;
    CHECK(skn_imatrix_matrix_count(m, 0, 0, &c) == SKN_OK && c == 2);
    CHECK_ERROR(skn_imatrix_matrix_count(m, 0, SKN_IMATRIX_ALL_MATRICES, &c), SKN_E_INVALID_ARGUMENT, "matrix -1");
    CHECK_ERROR(skn_imatrix_matrix_count(m, 1, 0, &c), SKN_E_INVALID_ARGUMENT, "entry index 1");
    CHECK_ERROR(skn_imatrix_matrix_count(m, 0, 0, NULL), SKN_E_INVALID_ARGUMENT, "count");
    CHECK_ERROR(skn_imatrix_matrix_count(NULL, 0, 0, &c), SKN_E_INVALID_ARGUMENT, "imatrix");

    const char* name = NULL;
    size_t len = 0;
    CHECK(skn_imatrix_dataset(m, 0, &name, &len) == SKN_OK && len == 2 && strcmp(name, "ds") == 0);
    CHECK(skn_imatrix_dataset(m, 0, &name, NULL) == SKN_OK);
    CHECK_ERROR(skn_imatrix_dataset(m, 1, &name, &len), SKN_E_INVALID_ARGUMENT, "dataset index 1");
    CHECK_ERROR(skn_imatrix_dataset(m, -1, &name, &len), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_imatrix_dataset(m, 0, NULL, &len), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_imatrix_dataset(NULL, 0, &name, &len), SKN_E_INVALID_ARGUMENT, "imatrix");
    skn_imatrix_close(m);
    skn_imatrix_close(NULL);
}

static const misuse_case k_cases[] = {
    {"open_fifo", case_open_fifo, "skn_gguf_open"},
    {"open_directory_and_devices", case_open_directory_and_devices, "skn_gguf_open"},
    {"open_missing_file", case_open_missing_file, "skn_gguf_open skn_status_name"},
    {"open_unreadable", case_open_unreadable, "skn_gguf_open"},
    {"write_file_unwritable", case_write_file_unwritable, "skn_gguf_writer_write_file"},
    {"log_callback_calls_failing_function", case_log_callback_calls_failing_function, "skn_set_log_callback"},
    {"log_callback_sets_callback", case_log_callback_sets_callback, "skn_set_log_callback"},
    {"log_swaps_never_reach_stderr", case_log_swaps_never_reach_stderr, "skn_set_log_callback"},
    {"log_env_debug_survives_callback_reset", case_log_env_debug_survives_callback_reset, "skn_set_log_callback"},
    {"log_env_off_is_silent", case_log_env_off_is_silent, "skn_set_log_callback"},
    {"log_env_unknown_reported_once", case_log_env_unknown_reported_once, "skn_set_log_callback"},
    {"log_env_warn_prints_warn", case_log_env_warn_prints_warn, "skn_set_log_callback"},
    {"log_level_out_of_range", case_log_level_out_of_range, "skn_set_log_callback"},
    {"matmul_overflowing_strides", case_matmul_overflowing_strides, "skn_matmul_wt"},
    {"writer_huge_counts", case_writer_huge_counts, "skn_gguf_writer_add_array skn_gguf_writer_add_string_array"},
    {"writer_null_string_without_lengths", case_writer_null_string_without_lengths,
     "skn_gguf_writer_add_string_array"},
    {"array_ids_past_keys", case_array_ids_past_keys,
     "skn_gguf_array_info skn_gguf_array_data skn_gguf_array_string skn_gguf_array_nested"},
    {"trace_callback_error_does_not_leak", case_trace_callback_error_does_not_leak,
     "skn_context_set_trace skn_last_error"},
    {"parallel_for_callback_reenters", case_parallel_for_callback_reenters,
     "skn_context_set_parallel_for skn_matmul_wt skn_set_log_callback"},
    {"format_sentinel_is_negative", case_format_sentinel_is_negative,
     "skn_view_format skn_format_at skn_format_count skn_format_info skn_format_from_name"},
    {"narrow_messages", case_narrow_messages, "skn_view_narrow"},
    {"select_messages", case_select_messages, "skn_view_select"},
    {"convert_misuse", case_convert_misuse, "skn_view_convert skn_packed_convert"},
    {"matmul_id_misuse", case_matmul_id_misuse, "skn_matmul_wt_id skn_prepack_for_matmul"},
    {"matmul_id_ex_misuse", case_matmul_id_ex_misuse, "skn_matmul_wt_id_ex"},
    {"truncated_under_reader_in_memory", case_truncated_under_reader_in_memory, "skn_gguf_open"},
    {"rewritten_under_reader_in_memory", case_rewritten_under_reader_in_memory, "skn_gguf_open"},
    {"truncated_under_mapped_reader_is_documented", case_truncated_under_mapped_reader_is_documented,
     "skn_gguf_open"},
    {"rewritten_under_mapped_reader", case_rewritten_under_mapped_reader,
     "skn_gguf_open skn_gguf_get_u8 skn_gguf_get_i8 skn_gguf_get_u16 skn_gguf_get_i16 skn_gguf_get_u32 "
     "skn_gguf_get_i32 skn_gguf_get_u64 skn_gguf_get_i64 skn_gguf_get_f32 skn_gguf_get_f64 skn_gguf_get_bool "
     "skn_gguf_get_string skn_gguf_array_info skn_gguf_array_data skn_gguf_array_string skn_gguf_array_nested "
     "skn_gguf_kv_key skn_gguf_kv_type skn_gguf_find_key skn_gguf_find_tensor skn_gguf_tensor_info "
     "skn_gguf_tensor_data skn_gguf_tensor_view"},
    {"open_options_misuse", case_open_options_misuse, "skn_gguf_open skn_gguf_open_memory skn_gguf_close"},
    {"errors_and_version", case_errors_and_version,
     "skn_last_error skn_status_name skn_version skn_version_string skn_isa_name skn_cpu_isa skn_cpu_features "
     "skn_isa_count skn_isa_at skn_cpu_runs_isa "
     "skn_kernel_count "
     "skn_kernel_name skn_gguf_type_name"},
    {"tuning_misuse", case_tuning_misuse,
     "skn_cpu_id skn_kernel_variant skn_tuning_count skn_tuning_row_at skn_tuning_file skn_tuning_file_path "
     "skn_context_set_tuning"},
    {"quantize_misuse", case_quantize_misuse, "skn_quantized_size skn_quantize skn_dequantize"},
    {"quantize_options_misuse", case_quantize_options_misuse, "skn_quantize_with_options"},
    {"scope_and_view_misuse", case_scope_and_view_misuse,
     "skn_scope_create skn_scope_destroy skn_scope_allocated skn_view_from_bytes skn_view_retain skn_view_release "
     "skn_view_describe skn_view_order skn_view_layout_class skn_view_rank skn_view_shape skn_view_transpose "
     "skn_view_unsqueeze skn_view_get skn_view_to_float skn_view_prepack"},
    {"relayout_misuse", case_relayout_misuse,
     "skn_packed_to_kernel_order skn_packed_to_canonical_order skn_require_out_in skn_i2_s_change_layout"},
    {"fixture_misuse", case_fixture_misuse,
     "skn_fixture_bytes skn_fixture_disagreement skn_fixture_golden_info skn_fixture_golden"},
    {"context_misuse", case_context_misuse,
     "skn_context_create skn_context_destroy skn_context_set_threads skn_context_set_parallel_for "
     "skn_context_set_trace skn_context_set_isa skn_prepack_for_matmul"},
    {"imatrix_misuse", case_imatrix_misuse,
     "skn_imatrix_open skn_imatrix_open_memory skn_imatrix_close skn_imatrix_info skn_imatrix_count "
     "skn_imatrix_entry_info skn_imatrix_find skn_imatrix_values skn_imatrix_matrix_count skn_imatrix_dataset"},
    {"gguf_reader_misuse", case_gguf_reader_misuse,
     "skn_gguf_version skn_gguf_alignment skn_gguf_data_offset skn_gguf_file_size skn_gguf_tensor_count "
     "skn_gguf_unsupported_count skn_gguf_tensor_info skn_gguf_find_tensor skn_gguf_tensor_data "
     "skn_gguf_tensor_view skn_gguf_kv_count skn_gguf_kv_key skn_gguf_find_key skn_gguf_kv_type skn_gguf_get_u8 "
     "skn_gguf_get_i8 skn_gguf_get_u16 skn_gguf_get_i16 skn_gguf_get_u32 skn_gguf_get_i32 skn_gguf_get_u64 "
     "skn_gguf_get_i64 skn_gguf_get_f32 skn_gguf_get_f64 skn_gguf_get_bool skn_gguf_get_string skn_gguf_close"},
    {"gguf_writer_misuse", case_gguf_writer_misuse,
     "skn_gguf_writer_create skn_gguf_writer_destroy skn_gguf_writer_set_alignment skn_gguf_writer_add_u8 "
     "skn_gguf_writer_add_i8 skn_gguf_writer_add_u16 skn_gguf_writer_add_i16 skn_gguf_writer_add_u32 "
     "skn_gguf_writer_add_i32 skn_gguf_writer_add_u64 skn_gguf_writer_add_i64 skn_gguf_writer_add_f32 "
     "skn_gguf_writer_add_f64 skn_gguf_writer_add_bool skn_gguf_writer_add_string skn_gguf_writer_add_tensor "
     "skn_gguf_writer_size skn_gguf_writer_write_memory"},
    {"success_clears_message", case_success_clears_message, "skn_last_error"},
    {"writer_array_value_misuse", case_writer_array_value_misuse, "skn_gguf_writer_add_array_value"},
    {"writer_declare_tensor_misuse", case_writer_declare_tensor_misuse,
     "skn_gguf_writer_declare_tensor skn_gguf_writer_write_memory"},
    {"stream_misuse", case_stream_misuse,
     "skn_gguf_stream_begin skn_gguf_stream_write skn_gguf_stream_position skn_gguf_stream_finish "
     "skn_gguf_stream_destroy"},
    {"stream_write_fails", case_stream_write_fails, "skn_gguf_stream_write skn_gguf_stream_finish"},
    {"of_type_and_fd_stream_misuse", case_of_type_and_fd_stream_misuse,
     "skn_gguf_writer_add_tensor_of_type skn_gguf_writer_declare_tensor_of_type skn_gguf_stream_begin_fd"},
};
#define N_CASES (sizeof k_cases / sizeof k_cases[0])

static int covered(const char* fn) {
    const size_t n = strlen(fn);
    for (size_t i = 0; i < N_CASES; ++i)
        for (const char* p = strstr(k_cases[i].covers, fn); p != NULL; p = strstr(p + 1, fn)) {
            const int starts = p == k_cases[i].covers || p[-1] == ' ';
            const int ends = p[n] == 0 || p[n] == ' ';
            if (starts && ends) return 1;
        }
    return 0;
}

/* Every `SKN_API ... skn_name(` in the header must be covered by a case,
 * and every name a case claims must be declared (no stale claims). */
static int check_header(const char* header) {
    FILE* f = fopen(header, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", header);
        return 1;
    }
    char line[1024];
    int declared = 0, missing = 0;
    static char names[4096 * 4];
    size_t used = 0;
    names[0] = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "SKN_API ", 8) != 0) continue;
        char* paren = strchr(line, '(');
        if (paren == NULL) continue;
        char* start = paren;
        while (start > line && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                                (start[-1] >= '0' && start[-1] <= '9')))
            --start;
        *paren = 0;
        ++declared;
        used += (size_t)snprintf(names + used, sizeof names - used, " %s", start);
        if (!covered(start)) {
            fprintf(stderr, "misuse: %s is declared in %s but no misuse case covers it\n", start, header);
            ++missing;
        }
    }
    fclose(f);
    strcat(names, " ");
    for (size_t i = 0; i < N_CASES; ++i) {
        char copy[2048];
        snprintf(copy, sizeof copy, "%s", k_cases[i].covers);
        for (char* tok = strtok(copy, " "); tok != NULL; tok = strtok(NULL, " ")) {
            char needle[256];
            snprintf(needle, sizeof needle, " %s ", tok);
            if (strstr(names, needle) == NULL) {
                fprintf(stderr, "misuse: case %s covers %s, which %s does not declare\n", k_cases[i].name, tok,
                        header);
                ++missing;
            }
        }
    }
    printf("%d functions declared, %d uncovered or stale\n", declared, missing);
    return declared > 50 && missing == 0 ? 0 : 1;
}

static int run_case(const misuse_case* c) {
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        c->fn();
        exit(g_failures == 0 ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        printf("ok   %s\n", c->name);
        return 0;
    }
    if (WIFSIGNALED(st))
        printf("FAIL %s: %s\n", c->name, WTERMSIG(st) == SIGALRM ? "hung (alarm)" : strsignal(WTERMSIG(st)));
    else
        printf("FAIL %s\n", c->name);
    return 1;
}

int main(int argc, char** argv) {
    if (argc == 3 && strcmp(argv[1], "--check-header") == 0) return check_header(argv[2]);
    make_dir();
    int failed = 0;
    for (size_t i = 0; i < N_CASES; ++i)
        if (argc < 2 || strstr(k_cases[i].name, argv[1]) != NULL) failed += run_case(&k_cases[i]);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' && rm -rf '%s'", g_dir, g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    printf("%d of %zu cases failed\n", failed, N_CASES);
    return failed == 0 ? 0 : 1;
}
