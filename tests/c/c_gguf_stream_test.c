/* SPDX-License-Identifier: MIT */
/* Streaming GGUF files (skn_gguf_writer_declare_tensor, skn_gguf_stream_*,
 * to a path or a caller's descriptor), tensors named by GGUF type id (the
 * plain types I8 ... F64 included) and arrays of arrays from C (skn_gguf_writer_add_array_value): the bytes
 * equal the in-memory writer's, every refusal names what was wrong, and no
 * partial file is ever left behind. Compiled as C11 + POSIX. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "skn/skn.h"

static char g_dir[256];

static const char* in_dir(const char* name) {
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    return p;
}

/* Files in g_dir whose name contains `part`. */
static int count_files(const char* part) {
    DIR* d = opendir(g_dir);
    int n = 0;
    if (d == NULL) return -1;
    for (struct dirent* e = readdir(d); e != NULL; e = readdir(d))
        if (strstr(e->d_name, part) != NULL) ++n;
    closedir(d);
    return n;
}

static unsigned char* read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char* buf = malloc((size_t)n + 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* Three tensors: Q4_K [out 3, in 512] (3 x 2 blocks), F32 [7] (28 bytes:
 * padded), I2_S [out 2, in 128] (trailer). */
enum { kTensors = 3 };
static const char* const k_names[kTensors] = {"blk.0.ffn_up.weight", "norm.weight", "ternary.weight"};
static const skn_format k_formats[kTensors] = {SKN_FORMAT_Q4_K, SKN_FORMAT_F32, SKN_FORMAT_I2_S};
static const int32_t k_ranks[kTensors] = {2, 1, 2};
static const int64_t k_ne[kTensors][2] = {{512, 3}, {7, 1}, {128, 2}};
static unsigned char* g_bytes[kTensors];
static size_t g_sizes[kTensors];

static void make_tensors(void) {
    for (int t = 0; t < kTensors; ++t) {
        const int64_t rows = k_ranks[t] == 2 ? k_ne[t][1] : 1, cols = k_ne[t][0];
        float* src = malloc((size_t)(rows * cols) * sizeof(float));
        for (int64_t i = 0; i < rows * cols; ++i)
            src[i] = k_formats[t] == SKN_FORMAT_I2_S ? (float)((i % 3) - 1) * 0.5f : (float)((i * 37) % 101) / 50.0f - 1.0f;
        CHECK(skn_quantized_size(k_formats[t], rows, cols, &g_sizes[t]) == SKN_OK);
        g_bytes[t] = malloc(g_sizes[t]);
        CHECK(skn_quantize(k_formats[t], src, rows, cols, g_bytes[t], g_sizes[t]) == SKN_OK);
        free(src);
    }
}

/* The same metadata on any writer, arrays of arrays included. */
static void add_metadata(skn_gguf_writer* w) {
    CHECK(skn_gguf_writer_set_alignment(w, 64) == SKN_OK);
    CHECK(skn_gguf_writer_add_string(w, "general.architecture", "llama", 5) == SKN_OK);
    CHECK(skn_gguf_writer_add_u32(w, "general.file_type", 15) == SKN_OK);
    const int32_t a[3] = {1, -2, 3};
    const char* const words[2] = {"merge a", "b c"};
    skn_gguf_array_value nums = {sizeof nums, SKN_GGUF_TYPE_I32, 3, a, NULL, NULL, NULL};
    skn_gguf_array_value strs = {sizeof strs, SKN_GGUF_TYPE_STRING, 2, NULL, words, NULL, NULL};
    const skn_gguf_array_value* inner[2] = {&nums, &strs};
    skn_gguf_array_value mixed = {sizeof mixed, SKN_GGUF_TYPE_ARRAY, 2, NULL, NULL, NULL, inner};
    const skn_gguf_array_value* outer_elems[1] = {&mixed};
    skn_gguf_array_value outer = {sizeof outer, SKN_GGUF_TYPE_ARRAY, 1, NULL, NULL, NULL, outer_elems};
    CHECK(skn_gguf_writer_add_array_value(w, "skn.test.nested", &outer) == SKN_OK);
    CHECK(skn_gguf_writer_add_array_value(w, "skn.test.flat", &nums) == SKN_OK);
}

static void test_nested_arrays_read_back(const char* path) {
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(path, NULL, &g) == SKN_OK);
    if (g == NULL) return;
    int64_t key = -1;
    CHECK(skn_gguf_find_key(g, "skn.test.nested", &key) == SKN_OK && key >= 0);
    skn_gguf_type type;
    uint64_t count = 0, mixed = 0, child = 0;
    CHECK(skn_gguf_array_info(g, (uint64_t)key, &type, &count) == SKN_OK && type == SKN_GGUF_TYPE_ARRAY && count == 1);
    CHECK(skn_gguf_array_nested(g, (uint64_t)key, 0, &mixed) == SKN_OK);
    CHECK(skn_gguf_array_info(g, mixed, &type, &count) == SKN_OK && type == SKN_GGUF_TYPE_ARRAY && count == 2);
    CHECK(skn_gguf_array_nested(g, mixed, 0, &child) == SKN_OK);
    const void* data = NULL;
    CHECK(skn_gguf_array_data(g, child, &data, &count) == SKN_OK && count == 3);
    int32_t got[3] = {0, 0, 0};
    if (data != NULL) memcpy(got, data, sizeof got);
    CHECK(got[0] == 1 && got[1] == -2 && got[2] == 3);
    CHECK(skn_gguf_array_nested(g, mixed, 1, &child) == SKN_OK);
    const char* s = NULL;
    size_t len = 0;
    CHECK(skn_gguf_array_string(g, child, 1, &s, &len) == SKN_OK && len == 3 && memcmp(s, "b c", 3) == 0);
    skn_gguf_close(g);
}

static void test_stream_matches_memory_writer(void) {
    /* In memory, with the bytes. */
    skn_gguf_writer* mem = NULL;
    CHECK(skn_gguf_writer_create(&mem) == SKN_OK);
    add_metadata(mem);
    for (int t = 0; t < kTensors; ++t)
        CHECK(skn_gguf_writer_add_tensor(mem, k_names[t], k_formats[t], k_ranks[t], k_ne[t], g_bytes[t], g_sizes[t]) ==
              SKN_OK);
    uint64_t mem_size = 0;
    CHECK(skn_gguf_writer_size(mem, &mem_size) == SKN_OK);
    unsigned char* expected = malloc((size_t)mem_size);
    CHECK(skn_gguf_writer_write_memory(mem, expected, (size_t)mem_size) == SKN_OK);

    /* Declared, then streamed in odd-sized chunks. */
    skn_gguf_writer* decl = NULL;
    CHECK(skn_gguf_writer_create(&decl) == SKN_OK);
    add_metadata(decl);
    for (int t = 0; t < kTensors; ++t)
        CHECK(skn_gguf_writer_declare_tensor(decl, k_names[t], k_formats[t], k_ranks[t], k_ne[t]) == SKN_OK);
    uint64_t decl_size = 0;
    CHECK(skn_gguf_writer_size(decl, &decl_size) == SKN_OK);
    CHECK(decl_size == mem_size); /* the final size is known before any byte */
    unsigned char tiny[8];
    CHECK_ERROR(skn_gguf_writer_write_memory(decl, tiny, sizeof tiny), SKN_E_INVALID_ARGUMENT,
                "\"blk.0.ffn_up.weight\" was declared without its bytes");
    CHECK_ERROR(skn_gguf_writer_write_file(decl, in_dir("never.gguf")), SKN_E_INVALID_ARGUMENT, "declared");
    CHECK(access(in_dir("never.gguf"), F_OK) != 0);

    const char* path = in_dir("streamed.gguf");
    /* A file already at the path stays until finish. */
    FILE* old = fopen(path, "wb");
    fputs("old contents", old);
    fclose(old);
    skn_gguf_stream* s = NULL;
    CHECK(skn_gguf_stream_begin(decl, path, &s) == SKN_OK);
    skn_gguf_writer_destroy(decl); /* the stream copied what it needs */
    CHECK(count_files(".skn-partial-") == 1);
    for (int t = 0; t < kTensors; ++t) {
        size_t at = 0, chunk = 1;
        while (at < g_sizes[t]) {
            const size_t n = at + chunk > g_sizes[t] ? g_sizes[t] - at : chunk;
            CHECK(skn_gguf_stream_write(s, k_names[t], g_bytes[t] + at, n) == SKN_OK);
            at += n;
            chunk = chunk * 3 + 1;
        }
        int64_t where = -1;
        uint64_t written = 1;
        CHECK(skn_gguf_stream_position(s, &where, &written) == SKN_OK && where == t + 1 && written == 0);
    }
    CHECK_ERROR(skn_gguf_stream_write(s, "norm.weight", NULL, 0), SKN_E_INVALID_ARGUMENT, "already written in full");
    size_t old_size = 0;
    unsigned char* before = read_file(path, &old_size);
    CHECK(before != NULL && old_size == 12 && memcmp(before, "old contents", 12) == 0);
    free(before);
    CHECK(skn_gguf_stream_finish(s) == SKN_OK);
    CHECK_ERROR(skn_gguf_stream_finish(s), SKN_E_INVALID_ARGUMENT, "finished");
    CHECK_ERROR(skn_gguf_stream_write(s, k_names[0], g_bytes[0], 1), SKN_E_INVALID_ARGUMENT, "finished");
    skn_gguf_stream_destroy(s);
    CHECK(count_files(".skn-partial-") == 0);

    size_t got_size = 0;
    unsigned char* got = read_file(path, &got_size);
    CHECK(got != NULL && got_size == mem_size && memcmp(got, expected, got_size) == 0);
    test_nested_arrays_read_back(path);
    free(got);
    free(expected);
    skn_gguf_writer_destroy(mem);
}

static skn_gguf_writer* declared_writer(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    for (int t = 0; t < kTensors; ++t)
        CHECK(skn_gguf_writer_declare_tensor(w, k_names[t], k_formats[t], k_ranks[t], k_ne[t]) == SKN_OK);
    return w;
}

static void test_stream_refusals(void) {
    skn_gguf_writer* w = declared_writer();
    const char* path = in_dir("refused.gguf");
    skn_gguf_stream* s = NULL;
    CHECK(skn_gguf_stream_begin(w, path, &s) == SKN_OK);
    /* Out of order, unknown, too long: named, and nothing written. */
    CHECK_ERROR(skn_gguf_stream_write(s, "norm.weight", g_bytes[1], g_sizes[1]), SKN_E_INVALID_ARGUMENT,
                "tensor \"norm.weight\" is at position 1 in the file but the stream is at tensor "
                "\"blk.0.ffn_up.weight\" (position 0, 0 of 864 bytes written)");
    CHECK_ERROR(skn_gguf_stream_write(s, "nope", g_bytes[0], 1), SKN_E_INVALID_ARGUMENT, "no tensor \"nope\"");
    unsigned char* big = calloc(1, g_sizes[0] + 5);
    CHECK_ERROR(skn_gguf_stream_write(s, k_names[0], big, g_sizes[0] + 5), SKN_E_INVALID_ARGUMENT,
                "is 864 bytes and 0 are written: a chunk of 869 bytes is 5 too many");
    CHECK(skn_gguf_stream_write(s, k_names[0], big, 100) == SKN_OK);
    CHECK_ERROR(skn_gguf_stream_write(s, k_names[0], big, 800), SKN_E_INVALID_ARGUMENT, "764 remain");
    CHECK(skn_gguf_stream_write(s, k_names[0], big, 764) == SKN_OK);
    CHECK_ERROR(skn_gguf_stream_write(s, k_names[0], big, 1), SKN_E_INVALID_ARGUMENT, "already written in full");
    /* Finishing early names the tensor, and the stream goes on. */
    CHECK_ERROR(skn_gguf_stream_finish(s), SKN_E_INVALID_ARGUMENT, "\"norm.weight\" (position 1 of 3) has 0 of its 28");
    CHECK(skn_gguf_stream_write(s, k_names[1], g_bytes[1], g_sizes[1]) == SKN_OK);
    CHECK(skn_gguf_stream_write(s, k_names[2], g_bytes[2], g_sizes[2]) == SKN_OK);
    CHECK_ERROR(skn_gguf_stream_write(s, k_names[2], g_bytes[2], 1), SKN_E_INVALID_ARGUMENT, "already written in full");
    CHECK(skn_gguf_stream_finish(s) == SKN_OK);
    skn_gguf_stream_destroy(s);
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(path, NULL, &g) == SKN_OK && skn_gguf_tensor_count(g) == 3);
    skn_gguf_close(g);
    free(big);

    /* Abandoned: the temporary file goes, the path never appears. */
    const char* never = in_dir("abandoned.gguf");
    CHECK(skn_gguf_stream_begin(w, never, &s) == SKN_OK);
    CHECK(skn_gguf_stream_write(s, k_names[0], g_bytes[0], 10) == SKN_OK);
    CHECK(count_files("abandoned.gguf.skn-partial-") == 1);
    skn_gguf_stream_destroy(s);
    CHECK(count_files("abandoned.gguf") == 0);

    /* Two streams to one path have their own temporary files. */
    skn_gguf_stream* a = NULL;
    skn_gguf_stream* b = NULL;
    CHECK(skn_gguf_stream_begin(w, never, &a) == SKN_OK);
    CHECK(skn_gguf_stream_begin(w, never, &b) == SKN_OK);
    CHECK(count_files("abandoned.gguf.skn-partial-") == 2);
    skn_gguf_stream_destroy(a);
    skn_gguf_stream_destroy(b);
    CHECK(count_files("abandoned.gguf") == 0);

    /* A writer holding bytes cannot stream. */
    skn_gguf_writer* held = NULL;
    CHECK(skn_gguf_writer_create(&held) == SKN_OK);
    CHECK(skn_gguf_writer_add_tensor(held, "h", k_formats[1], 1, k_ne[1], g_bytes[1], g_sizes[1]) == SKN_OK);
    CHECK_ERROR(skn_gguf_stream_begin(held, in_dir("held.gguf"), &s), SKN_E_INVALID_ARGUMENT,
                "tensor \"h\" was added with its bytes");
    CHECK(count_files("held.gguf") == 0);
    skn_gguf_writer_destroy(held);
    skn_gguf_writer_destroy(w);
}

static void test_array_value_refusals(void) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const uint8_t bytes[2] = {1, 2};
    skn_gguf_array_value leaf = {sizeof leaf, SKN_GGUF_TYPE_U8, 2, bytes, NULL, NULL, NULL};
    /* Nine levels: refused naming the path; eight are fine. */
    skn_gguf_array_value levels[9];
    const skn_gguf_array_value* links[9];
    for (int i = 0; i < 9; ++i) {
        links[i] = i == 0 ? &leaf : &levels[i - 1];
        skn_gguf_array_value v = {sizeof v, SKN_GGUF_TYPE_ARRAY, 1, NULL, NULL, NULL, &links[i]};
        levels[i] = v;
    }
    CHECK(skn_gguf_writer_add_array_value(w, "deep8", &levels[6]) == SKN_OK); /* 7 arrays of arrays + the leaf */
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "deep9", &levels[7]), SKN_E_INVALID_ARGUMENT,
                "value.arrays[0].arrays[0].arrays[0].arrays[0].arrays[0].arrays[0].arrays[0].arrays[0] is nested 9 deep");
    /* A cycle is infinitely deep. */
    skn_gguf_array_value loop = {sizeof loop, SKN_GGUF_TYPE_ARRAY, 1, NULL, NULL, NULL, NULL};
    const skn_gguf_array_value* self[1] = {&loop};
    loop.arrays = self;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "loop", &loop), SKN_E_INVALID_ARGUMENT, "infinitely deep");
    skn_gguf_array_value bad = leaf;
    bad.struct_size = 8;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &bad), SKN_E_INVALID_ARGUMENT, "value.struct_size is 8");
    bad = leaf;
    bad.element_type = (skn_gguf_type)13;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &bad), SKN_E_INVALID_ARGUMENT, "value.element_type is 13");
    bad = leaf;
    bad.data = NULL;
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &bad), SKN_E_INVALID_ARGUMENT, "value.data");
    const skn_gguf_array_value* holes[2] = {&leaf, NULL};
    skn_gguf_array_value with_hole = {sizeof with_hole, SKN_GGUF_TYPE_ARRAY, 2, NULL, NULL, NULL, holes};
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &with_hole), SKN_E_INVALID_ARGUMENT, "value.arrays[1]");
    const char* const strs[2] = {"x", NULL};
    skn_gguf_array_value nul = {sizeof nul, SKN_GGUF_TYPE_STRING, 2, NULL, strs, NULL, NULL};
    CHECK_ERROR(skn_gguf_writer_add_array_value(w, "k", &nul), SKN_E_INVALID_ARGUMENT, "value.strings[1]");
    CHECK(skn_gguf_writer_add_array_value(w, "deep8", &leaf) != SKN_OK); /* key already added */
    skn_gguf_writer_destroy(w);
}

/* I8, I16, I32, I64 and F64 tensors (types skn stores without a format),
 * and a Q8_0 one named by its type id: the in-memory writer and a stream to
 * a caller's descriptor give the same file, which reads back with the same
 * bytes. */
static void test_stored_types_and_fd_stream(void) {
    enum { kStored = 6 };
    static const int32_t types[kStored] = {24, 25, 26, 27, 28, 8};
    static const char* const names[kStored] = {"i8", "i16", "i32", "i64", "f64", "q8"};
    static const size_t elem[kStored] = {1, 2, 4, 8, 8, 0};
    const int64_t ne[kStored][2] = {{5, 3}, {5, 3}, {5, 3}, {5, 3}, {5, 3}, {96, 3}};
    unsigned char* data[kStored];
    size_t sizes[kStored];
    for (int t = 0; t < kStored; ++t) {
        sizes[t] = elem[t] != 0 ? 15 * elem[t] : 3 * 3 * 34;
        data[t] = malloc(sizes[t]);
        for (size_t i = 0; i < sizes[t]; ++i) data[t][i] = (unsigned char)(i * 7 + (size_t)t);
    }
    /* Q8_0 bytes must decode: scales of zero are fine. */
    for (int b = 0; b < 9; ++b) data[5][b * 34] = data[5][b * 34 + 1] = 0;
    skn_gguf_writer* mem = NULL;
    CHECK(skn_gguf_writer_create(&mem) == SKN_OK);
    for (int t = 0; t < kStored; ++t)
        CHECK(skn_gguf_writer_add_tensor_of_type(mem, names[t], types[t], 2, ne[t], data[t], sizes[t]) == SKN_OK);
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(mem, "short", 26, 2, ne[0], data[2], sizes[2] - 1),
                SKN_E_INVALID_ARGUMENT, "given 59 bytes but 15 elements of I32 take 60");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(mem, "t36", 36, 2, ne[0], data[0], 15), SKN_E_INVALID_ARGUMENT,
                "SKN_FORMAT_I2_S_G64");
    CHECK_ERROR(skn_gguf_writer_add_tensor_of_type(mem, "q4_2", 4, 2, ne[0], data[0], 15), SKN_E_UNSUPPORTED,
                "4 (Q4_2, removed from GGUF)");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(mem, "odd", 9999, 2, ne[0]), SKN_E_UNSUPPORTED,
                "9999 (unknown)");
    CHECK_ERROR(skn_gguf_writer_declare_tensor_of_type(mem, "rank", 24, 0, ne[0]), SKN_E_INVALID_ARGUMENT, "rank 0");
    uint64_t size = 0;
    CHECK(skn_gguf_writer_size(mem, &size) == SKN_OK);
    unsigned char* expected = malloc((size_t)size);
    CHECK(skn_gguf_writer_write_memory(mem, expected, (size_t)size) == SKN_OK);

    skn_gguf_writer* decl = NULL;
    CHECK(skn_gguf_writer_create(&decl) == SKN_OK);
    for (int t = 0; t < kStored; ++t)
        CHECK(skn_gguf_writer_declare_tensor_of_type(decl, names[t], types[t], 2, ne[t]) == SKN_OK);
    const char* path = in_dir("stored.gguf");
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    skn_gguf_stream* s = NULL;
    CHECK(skn_gguf_stream_begin_fd(decl, fd, &s) == SKN_OK);
    CHECK(count_files(".skn-partial-") == 0); /* no temporary file: the descriptor is the file */
    for (int t = 0; t < kStored; ++t) CHECK(skn_gguf_stream_write(s, names[t], data[t], sizes[t]) == SKN_OK);
    CHECK(skn_gguf_stream_finish(s) == SKN_OK);
    skn_gguf_stream_destroy(s);
    CHECK(write(fd, "", 0) == 0); /* still the caller's, still open */
    close(fd);
    size_t got_size = 0;
    unsigned char* got = read_file(path, &got_size);
    CHECK(got != NULL && got_size == size && memcmp(got, expected, got_size) == 0);

    skn_gguf_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.allow_unsupported = 1;
    skn_gguf* g = NULL;
    CHECK(skn_gguf_open(path, &o, &g) == SKN_OK);
    CHECK(skn_gguf_unsupported_count(g) == 5);
    for (int t = 0; g != NULL && t < kStored; ++t) {
        skn_gguf_tensor_props p;
        memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        const void* bytes = NULL;
        size_t n = 0;
        CHECK(skn_gguf_tensor_info(g, t, &p) == SKN_OK && p.type_id == types[t] && p.size == sizes[t]);
        CHECK(skn_gguf_tensor_data(g, t, &bytes, &n) == SKN_OK && n == sizes[t] && memcmp(bytes, data[t], n) == 0);
    }
    skn_gguf_close(g);

    /* Descriptors a stream cannot write to. */
    CHECK_ERROR(skn_gguf_stream_begin_fd(decl, -1, &s), SKN_E_INVALID_ARGUMENT, "not an open file descriptor");
    const int ro = open(path, O_RDONLY);
    CHECK_ERROR(skn_gguf_stream_begin_fd(decl, ro, &s), SKN_E_INVALID_ARGUMENT, "read-only");
    close(ro);
    CHECK_ERROR(skn_gguf_stream_begin_fd(mem, 1, &s), SKN_E_INVALID_ARGUMENT, "added with its bytes");
    /* Abandoned: what was written stays; the file is the caller's to remove. */
    const int fd2 = open(in_dir("abandoned.gguf"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(skn_gguf_stream_begin_fd(decl, fd2, &s) == SKN_OK);
    CHECK(skn_gguf_stream_write(s, names[0], data[0], 4) == SKN_OK);
    skn_gguf_stream_destroy(s);
    CHECK(count_files("abandoned.gguf") == 1 && write(fd2, "x", 1) == 1);
    close(fd2);

    free(got);
    free(expected);
    skn_gguf_writer_destroy(decl);
    skn_gguf_writer_destroy(mem);
    for (int t = 0; t < kStored; ++t) free(data[t]);
}

int main(void) {
    snprintf(g_dir, sizeof g_dir, "/tmp/skn-stream-XXXXXX");
    if (mkdtemp(g_dir) == NULL) return 2;
    make_tensors();
    test_stream_matches_memory_writer();
    test_stream_refusals();
    test_array_value_refusals();
    test_stored_types_and_fd_stream();
    for (int t = 0; t < kTensors; ++t) free(g_bytes[t]);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return check_summary();
}
