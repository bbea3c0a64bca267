/* SPDX-License-Identifier: MIT */
/* skn_imatrix from C: a GGUF-form imatrix written with skn_gguf_writer (a
 * dense entry and a 3-D expert entry whose second expert was never routed
 * to) and a legacy one written byte by byte, read from memory and from a
 * file; names, counts, metadata and the exact floats llama-quantize derives
 * (sum / count per matrix, 1.0 for a zero count; value / ncall). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "skn/skn.h"

enum { ROW = 96, EXPERTS = 3 };

static float dense_sum(int i) { return (float)(i % 11) * 3.0f + 0.5f; }
static float expert_sum(int e, int i) { return e == 1 ? 0.0f : (float)((i * 7 + e) % 13) + 1.0f; }
static const float k_expert_counts[EXPERTS] = {40.0f, 0.0f, 3.0f};

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static uint8_t* gguf_form(size_t* size) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK);
    const char* datasets[] = {"calib.txt", "more.txt"};
    CHECK(skn_gguf_writer_add_string(w, "general.type", "imatrix", 7) == SKN_OK);
    CHECK(skn_gguf_writer_add_string_array(w, "imatrix.datasets", datasets, NULL, 2) == SKN_OK);
    CHECK(skn_gguf_writer_add_u32(w, "imatrix.chunk_count", 12) == SKN_OK);
    CHECK(skn_gguf_writer_add_u32(w, "imatrix.chunk_size", 512) == SKN_OK);
    float dense[ROW], one_count = 6144.0f, experts[ROW * EXPERTS];
    for (int i = 0; i < ROW; ++i) dense[i] = dense_sum(i);
    for (int e = 0; e < EXPERTS; ++e)
        for (int i = 0; i < ROW; ++i) experts[e * ROW + i] = expert_sum(e, i);
    const int64_t dense_ne[2] = {ROW, 1}, one_ne[2] = {1, 1};
    const int64_t exp_ne[2] = {ROW, EXPERTS}, exp_counts_ne[2] = {1, EXPERTS};
    /* Expert entry first: entries come back sorted by name regardless. */
    CHECK(skn_gguf_writer_add_tensor(w, "blk.3.ffn_gate_exps.weight.in_sum2", SKN_FORMAT_F32, 2, exp_ne, experts,
                                     sizeof experts) == SKN_OK);
    CHECK(skn_gguf_writer_add_tensor(w, "blk.3.ffn_gate_exps.weight.counts", SKN_FORMAT_F32, 2, exp_counts_ne,
                                     k_expert_counts, sizeof k_expert_counts) == SKN_OK);
    CHECK(skn_gguf_writer_add_tensor(w, "blk.0.attn_k.weight.in_sum2", SKN_FORMAT_F32, 2, dense_ne, dense,
                                     sizeof dense) == SKN_OK);
    CHECK(skn_gguf_writer_add_tensor(w, "blk.0.attn_k.weight.counts", SKN_FORMAT_F32, 2, one_ne, &one_count,
                                     sizeof one_count) == SKN_OK);
    uint64_t n = 0;
    CHECK(skn_gguf_writer_size(w, &n) == SKN_OK);
    uint8_t* b = malloc((size_t)n);
    if (b == NULL) exit(1);
    CHECK(skn_gguf_writer_write_memory(w, b, (size_t)n) == SKN_OK);
    skn_gguf_writer_destroy(w);
    *size = (size_t)n;
    return b;
}

static void check_gguf_form(const skn_imatrix* m) {
    skn_imatrix_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    CHECK(skn_imatrix_info(m, &p) == SKN_OK);
    CHECK(p.form == SKN_IMATRIX_GGUF && p.entry_count == 2 && p.dataset_count == 2);
    CHECK(p.chunk_count == 12 && p.chunk_size == 512);
    const char* ds = NULL;
    size_t len = 0;
    CHECK(skn_imatrix_dataset(m, 1, &ds, &len) == SKN_OK && len == 8 && strcmp(ds, "more.txt") == 0);

    skn_imatrix_entry_props e;
    memset(&e, 0, sizeof e);
    e.struct_size = sizeof e;
    CHECK(skn_imatrix_entry_info(m, 0, &e) == SKN_OK && strcmp(e.name, "blk.0.attn_k.weight") == 0);
    CHECK(e.name_len == 19 && e.values_per_row == ROW && e.matrices == 1 && e.count == 6144);
    CHECK(e.unused_matrices == 0);
    const float* v = NULL;
    size_t n = 0;
    CHECK(skn_imatrix_values(m, 0, 0, &v, &n) == SKN_OK && n == ROW);
    for (int i = 0; i < ROW && v; ++i) CHECK(same_bits(v[i], dense_sum(i) / 6144.0f));

    int64_t idx = -1;
    CHECK(skn_imatrix_find(m, "blk.3.ffn_gate_exps.weight", &idx) == SKN_OK && idx == 1);
    CHECK(skn_imatrix_entry_info(m, idx, &e) == SKN_OK);
    CHECK(e.values_per_row == ROW && e.matrices == EXPERTS && e.count == 40 && e.unused_matrices == 1);
    for (int x = 0; x < EXPERTS; ++x) {
        int64_t c = -1;
        CHECK(skn_imatrix_matrix_count(m, idx, x, &c) == SKN_OK && c == (int64_t)k_expert_counts[x]);
        CHECK(skn_imatrix_values(m, idx, x, &v, &n) == SKN_OK && n == ROW);
        for (int i = 0; i < ROW && v; ++i) {
            const float want = k_expert_counts[x] > 0.0f ? expert_sum(x, i) / k_expert_counts[x] : 1.0f;
            CHECK(same_bits(v[i], want));
        }
    }
    const float* all = NULL;
    CHECK(skn_imatrix_values(m, idx, SKN_IMATRIX_ALL_MATRICES, &all, &n) == SKN_OK && n == ROW * EXPERTS);
    CHECK(skn_imatrix_values(m, idx, 2, &v, &n) == SKN_OK && all != NULL && v == all + 2 * ROW);
    /* Hand-checked: expert 2, column 0: ((0 + 2) % 13 + 1) / 3 = 1.0. */
    CHECK(all != NULL && all[2 * ROW] == 1.0f && all[ROW + 5] == 1.0f);
}

static void gguf_round_trip(void) {
    size_t size = 0;
    uint8_t* b = gguf_form(&size);
    skn_imatrix* m = NULL;
    CHECK(skn_imatrix_open_memory(b, size, &m) == SKN_OK);
    /* Nothing is borrowed: scribbling over the buffer changes nothing. */
    memset(b, 0xAB, size);
    if (m) check_gguf_form(m);
    skn_imatrix_close(m);
    free(b);

    b = gguf_form(&size);
    char path[] = "/tmp/skn-imatrix-XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, b, size) == (ssize_t)size);
    close(fd);
    m = NULL;
    CHECK(skn_imatrix_open(path, &m) == SKN_OK);
    unlink(path);
    if (m) check_gguf_form(m);
    skn_imatrix_close(m);
    free(b);
}

static void legacy(void) {
    uint8_t b[1024];
    size_t n = 0;
#define I32(v)                       \
    do {                             \
        const int32_t x_ = (v);      \
        memcpy(b + n, &x_, 4);       \
        n += 4;                      \
    } while (0)
    I32(2);
    const char* names[2] = {"blk.0.attn_v.weight", "blk.0.ffn_down.weight"};
    const int32_t ncall[2] = {3, 7};
    for (int k = 0; k < 2; ++k) {
        I32((int32_t)strlen(names[k]));
        memcpy(b + n, names[k], strlen(names[k]));
        n += strlen(names[k]);
        I32(ncall[k]);
        I32(ROW);
        for (int i = 0; i < ROW; ++i) {
            const float v = dense_sum(i + k);
            memcpy(b + n, &v, 4);
            n += 4;
        }
    }
    I32(9);
    I32(4);
    memcpy(b + n, "wiki", 4);
    n += 4;
#undef I32
    skn_imatrix* m = NULL;
    CHECK(skn_imatrix_open_memory(b, n, &m) == SKN_OK);
    if (m == NULL) return;
    skn_imatrix_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    CHECK(skn_imatrix_info(m, &p) == SKN_OK && p.form == SKN_IMATRIX_LEGACY && p.entry_count == 2);
    CHECK(p.chunk_count == 9 && p.chunk_size == -1 && p.dataset_count == 1);
    for (int k = 0; k < 2; ++k) {
        skn_imatrix_entry_props e;
        memset(&e, 0, sizeof e);
        e.struct_size = sizeof e;
        CHECK(skn_imatrix_entry_info(m, k, &e) == SKN_OK && strcmp(e.name, names[k]) == 0);
        CHECK(e.values_per_row == ROW && e.matrices == 1 && e.count == ncall[k] && e.unused_matrices == 0);
        const float* v = NULL;
        size_t c = 0;
        CHECK(skn_imatrix_values(m, k, SKN_IMATRIX_ALL_MATRICES, &v, &c) == SKN_OK && c == ROW);
        for (int i = 0; i < ROW && v; ++i) CHECK(same_bits(v[i], dense_sum(i + k) / (float)ncall[k]));
    }
    skn_imatrix_close(m);
    /* One byte short: refused, naming where. */
    m = NULL;
    CHECK_ERROR(skn_imatrix_open_memory(b, n - 1, &m), SKN_E_FORMAT, "truncated at byte");
    CHECK(m == NULL);
}

int main(void) {
    gguf_round_trip();
    legacy();
    return check_summary();
}
