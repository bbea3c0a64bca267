/* SPDX-License-Identifier: MIT */
/* The GGUF part of the C API from C: every function, every error path.
 * Compiled as C11. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "skn/skn.h"

/* A [out = 4, in = 64] Q8_0 weight (file ne = {64, 4}), a 12-float bias,
 * metadata of several types. Returns the file bytes (malloc'd). */
static unsigned char* build_file(size_t* size, unsigned char* q8, size_t q8_size, const float* bias) {
    skn_gguf_writer* w = NULL;
    CHECK(skn_gguf_writer_create(&w) == SKN_OK && w != NULL);
    CHECK(skn_gguf_writer_set_alignment(w, 64) == SKN_OK);
    CHECK(skn_gguf_writer_add_u8(w, "t.u8", 200) == SKN_OK);
    CHECK(skn_gguf_writer_add_i8(w, "t.i8", -100) == SKN_OK);
    CHECK(skn_gguf_writer_add_u16(w, "t.u16", 60000) == SKN_OK);
    CHECK(skn_gguf_writer_add_i16(w, "t.i16", -30000) == SKN_OK);
    CHECK(skn_gguf_writer_add_u32(w, "t.u32", 4096) == SKN_OK);
    CHECK(skn_gguf_writer_add_i32(w, "t.i32", -7) == SKN_OK);
    CHECK(skn_gguf_writer_add_u64(w, "t.u64", 1ull << 40) == SKN_OK);
    CHECK(skn_gguf_writer_add_i64(w, "t.i64", -(1ll << 40)) == SKN_OK);
    CHECK(skn_gguf_writer_add_f32(w, "t.f32", 0.5f) == SKN_OK);
    CHECK(skn_gguf_writer_add_f64(w, "t.f64", 1e300) == SKN_OK);
    CHECK(skn_gguf_writer_add_bool(w, "t.bool", 1) == SKN_OK);
    CHECK(skn_gguf_writer_add_string(w, "t.str", "a\0b", 3) == SKN_OK);
    CHECK(skn_gguf_writer_add_string(w, "t.empty", NULL, 0) == SKN_OK);
    const float nums[3] = {1.0f, -2.0f, 3.5f};
    CHECK(skn_gguf_writer_add_array(w, "t.nums", SKN_GGUF_TYPE_F32, nums, 3) == SKN_OK);
    const char* words[3] = {"<s>", "", "hello"};
    CHECK(skn_gguf_writer_add_string_array(w, "t.words", words, NULL, 3) == SKN_OK);
    const char* sized[2] = {"xyz", "pq"};
    const size_t lens[2] = {2, 2};
    CHECK(skn_gguf_writer_add_string_array(w, "t.sized", sized, lens, 2) == SKN_OK);

    const int64_t ne_w[2] = {64, 4};
    const int64_t ne_b[1] = {12};
    CHECK(skn_gguf_writer_add_tensor(w, "w", SKN_FORMAT_Q8_0, 2, ne_w, q8, q8_size) == SKN_OK);
    CHECK(skn_gguf_writer_add_tensor(w, "b", SKN_FORMAT_F32, 1, ne_b, bias, 48) == SKN_OK);

    /* Writer errors. */
    CHECK_ERROR(skn_gguf_writer_create(NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_gguf_writer_set_alignment(NULL, 32), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_set_alignment(w, 12), SKN_E_INVALID_ARGUMENT, "12");
    CHECK_ERROR(skn_gguf_writer_add_u32(w, "t.u32", 1), SKN_E_INVALID_ARGUMENT, "already added");
    CHECK_ERROR(skn_gguf_writer_add_u32(w, NULL, 1), SKN_E_INVALID_ARGUMENT, "key");
    CHECK_ERROR(skn_gguf_writer_add_u32(NULL, "k", 1), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_add_u8(w, "", 1), SKN_E_INVALID_ARGUMENT, "empty");
    CHECK_ERROR(skn_gguf_writer_add_i8(w, "t.i8", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_u16(w, "t.u16", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_i16(w, "t.i16", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_i32(w, "t.i32", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_u64(w, "t.u64", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_i64(w, "t.i64", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_f32(w, "t.f32", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_f64(w, "t.f64", 1), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_gguf_writer_add_bool(w, "t.bool2", 2), SKN_E_INVALID_ARGUMENT, "0 or 1");
    CHECK_ERROR(skn_gguf_writer_add_string(w, "t.s2", NULL, 3), SKN_E_INVALID_ARGUMENT, "value");
    CHECK_ERROR(skn_gguf_writer_add_u64(w, "general.alignment", 64), SKN_E_INVALID_ARGUMENT, "u32");
    CHECK_ERROR(skn_gguf_writer_add_array(w, "t.a", SKN_GGUF_TYPE_STRING, nums, 1), SKN_E_INVALID_ARGUMENT,
                "string array");
    CHECK_ERROR(skn_gguf_writer_add_array(w, "t.a", (skn_gguf_type)13, nums, 1), SKN_E_INVALID_ARGUMENT, "13");
    CHECK_ERROR(skn_gguf_writer_add_array(w, "t.a", SKN_GGUF_TYPE_U8, NULL, 1), SKN_E_INVALID_ARGUMENT, "data");
    const unsigned char bad_bools[2] = {1, 3};
    CHECK_ERROR(skn_gguf_writer_add_array(w, "t.a", SKN_GGUF_TYPE_BOOL, bad_bools, 2), SKN_E_INVALID_ARGUMENT,
                "0 or 1");
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, "t.sa", NULL, NULL, 1), SKN_E_INVALID_ARGUMENT, "strings");
    const char* with_null[1] = {NULL};
    const size_t one[1] = {1};
    CHECK_ERROR(skn_gguf_writer_add_string_array(w, "t.sa", with_null, one, 1), SKN_E_INVALID_ARGUMENT, "NULL");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w", SKN_FORMAT_Q8_0, 2, ne_w, q8, q8_size), SKN_E_INVALID_ARGUMENT,
                "already added");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w2", SKN_FORMAT_Q8_0, 2, ne_w, q8, q8_size - 1),
                SKN_E_INVALID_ARGUMENT, "271");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w2", (skn_format)26, 2, ne_w, q8, q8_size), SKN_E_UNKNOWN_FORMAT,
                "26");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w2", SKN_FORMAT_Q8_0, 0, ne_w, q8, q8_size), SKN_E_INVALID_ARGUMENT,
                "rank 0");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w2", SKN_FORMAT_Q8_0, 5, ne_w, q8, q8_size), SKN_E_INVALID_ARGUMENT,
                "rank 5");
    const int64_t swapped[2] = {4, 64};
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w2", SKN_FORMAT_Q8_0, 2, swapped, q8, q8_size),
                SKN_E_INVALID_ARGUMENT, "ne[0] is 4");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, NULL, SKN_FORMAT_Q8_0, 2, ne_w, q8, q8_size), SKN_E_INVALID_ARGUMENT,
                "name");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w2", SKN_FORMAT_Q8_0, 2, NULL, q8, q8_size), SKN_E_INVALID_ARGUMENT,
                "ne");
    CHECK_ERROR(skn_gguf_writer_add_tensor(w, "w2", SKN_FORMAT_Q8_0, 2, ne_w, NULL, q8_size),
                SKN_E_INVALID_ARGUMENT, "data");

    uint64_t total = 0;
    CHECK(skn_gguf_writer_size(w, &total) == SKN_OK && total > 0);
    CHECK_ERROR(skn_gguf_writer_size(NULL, &total), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK_ERROR(skn_gguf_writer_size(w, NULL), SKN_E_INVALID_ARGUMENT, "size");
    unsigned char* buf = malloc((size_t)total);
    CHECK(buf != NULL);
    memset(buf, 0xEE, (size_t)total);
    CHECK_ERROR(skn_gguf_writer_write_memory(w, buf, (size_t)total - 1), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK(buf[0] == 0xEE); /* nothing written on error */
    CHECK_ERROR(skn_gguf_writer_write_memory(w, NULL, (size_t)total), SKN_E_INVALID_ARGUMENT, "dst");
    CHECK_ERROR(skn_gguf_writer_write_memory(NULL, buf, (size_t)total), SKN_E_INVALID_ARGUMENT, "writer");
    CHECK(skn_gguf_writer_write_memory(w, buf, (size_t)total) == SKN_OK);
    CHECK(memcmp(buf, "GGUF", 4) == 0);

    char path[64];
    snprintf(path, sizeof path, "/tmp/skn_c_gguf_%d.gguf", (int)getpid());
    CHECK(skn_gguf_writer_write_file(w, path) == SKN_OK);
    CHECK_ERROR(skn_gguf_writer_write_file(w, "/nonexistent-dir/x.gguf"), SKN_E_IO,
                "/nonexistent-dir/x.gguf");
    CHECK_ERROR(skn_gguf_writer_write_file(w, NULL), SKN_E_INVALID_ARGUMENT, "path");
    CHECK_ERROR(skn_gguf_writer_write_file(NULL, path), SKN_E_INVALID_ARGUMENT, "writer");

    /* The file on disk and the buffer hold the same bytes. */
    skn_gguf* from_disk = NULL;
    CHECK(skn_gguf_open(path, NULL, &from_disk) == SKN_OK);
    CHECK(skn_gguf_tensor_count(from_disk) == 2);
    const void* d = NULL;
    size_t n = 0;
    CHECK(skn_gguf_tensor_data(from_disk, 0, &d, &n) == SKN_OK && n == q8_size && memcmp(d, q8, n) == 0);
    skn_gguf_close(from_disk);
    remove(path);
    CHECK_ERROR(skn_gguf_open(path, NULL, &from_disk), SKN_E_NOT_FOUND, "No such file");

    skn_gguf_writer_destroy(w);
    skn_gguf_writer_destroy(NULL);
    *size = (size_t)total;
    return buf;
}

static void test_read(void) {
    float weight[4 * 64], decoded[4 * 64], bias[12];
    for (int i = 0; i < 4 * 64; ++i) weight[i] = sinf((float)i * 0.31f);
    for (int i = 0; i < 12; ++i) bias[i] = (float)i - 5.5f;
    unsigned char q8[4 * 2 * 34];
    CHECK(skn_quantize(SKN_FORMAT_Q8_0, weight, 4, 64, q8, sizeof q8) == SKN_OK);
    size_t size = 0;
    unsigned char* file = build_file(&size, q8, sizeof q8, bias);

    skn_gguf* g = NULL;
    CHECK(skn_gguf_open_memory(file, size, NULL, &g) == SKN_OK && g != NULL);
    CHECK(skn_gguf_version(g) == 3);
    CHECK(skn_gguf_alignment(g) == 64);
    CHECK(skn_gguf_data_offset(g) % 64 == 0 && skn_gguf_data_offset(g) > 0);
    CHECK(skn_gguf_file_size(g) == size);
    CHECK(skn_gguf_file_size(NULL) == 0);
    CHECK(skn_gguf_tensor_count(g) == 2);
    CHECK(skn_gguf_unsupported_count(g) == 0);
    CHECK(skn_gguf_kv_count(g) == 17); /* 16 added + general.alignment */
    CHECK(skn_gguf_version(NULL) == 0 && skn_gguf_alignment(NULL) == 0 && skn_gguf_data_offset(NULL) == 0);
    CHECK(skn_gguf_tensor_count(NULL) == -1 && skn_gguf_kv_count(NULL) == -1 && skn_gguf_unsupported_count(NULL) == -1);

    /* Tensors, default orientation OUT_IN. */
    skn_gguf_tensor_props t;
    memset(&t, 0, sizeof t);
    t.struct_size = sizeof t;
    CHECK(skn_gguf_tensor_info(g, 0, &t) == SKN_OK);
    CHECK(t.name_len == 1 && strcmp(t.name, "w") == 0);
    CHECK(t.type_id == 8 && t.supported == 1 && t.format == SKN_FORMAT_Q8_0 && strcmp(t.type_name, "Q8_0") == 0);
    CHECK(t.rank == 2 && t.shape[0] == 4 && t.shape[1] == 64 && t.shape[2] == 1 && t.shape[3] == 1);
    CHECK(t.ne[0] == 64 && t.ne[1] == 4);
    CHECK(t.size == sizeof q8 && t.offset == skn_gguf_data_offset(g));
    CHECK(skn_require_out_in(t.shape[0], t.shape[1], t.format) == SKN_OK);
    const void* data = NULL;
    size_t n = 0;
    CHECK(skn_gguf_tensor_data(g, 0, &data, &n) == SKN_OK && n == sizeof q8);
    CHECK(data == file + t.offset); /* zero-copy */
    CHECK(skn_dequantize(t.format, data, n, t.shape[0], t.shape[1], decoded, 4 * 64) == SKN_OK);
    CHECK(fabsf(decoded[3 * 64 + 5] - weight[3 * 64 + 5]) < 0.02f);
    CHECK(skn_gguf_tensor_info(g, 1, &t) == SKN_OK);
    CHECK(t.rank == 1 && t.shape[0] == 12 && t.offset % 64 == 0 && t.size == 48);
    CHECK(skn_gguf_tensor_data(g, 1, &data, &n) == SKN_OK && n == 48 && memcmp(data, bias, 48) == 0);

    int64_t index = -5;
    CHECK(skn_gguf_find_tensor(g, "b", &index) == SKN_OK && index == 1);
    CHECK(skn_gguf_find_tensor(g, "nope", &index) == SKN_OK && index == -1);
    CHECK_ERROR(skn_gguf_find_tensor(NULL, "b", &index), SKN_E_INVALID_ARGUMENT, "gguf");
    CHECK_ERROR(skn_gguf_find_tensor(g, NULL, &index), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_gguf_find_tensor(g, "b", NULL), SKN_E_INVALID_ARGUMENT, "index");
    CHECK_ERROR(skn_gguf_tensor_info(g, 2, &t), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_tensor_info(g, -1, &t), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_tensor_info(NULL, 0, &t), SKN_E_INVALID_ARGUMENT, "gguf");
    CHECK_ERROR(skn_gguf_tensor_info(g, 0, NULL), SKN_E_INVALID_ARGUMENT, "info");
    skn_gguf_tensor_props small;
    memset(&small, 0, sizeof small);
    small.struct_size = 8;
    CHECK_ERROR(skn_gguf_tensor_info(g, 0, &small), SKN_E_INVALID_ARGUMENT, "struct_size");
    CHECK_ERROR(skn_gguf_tensor_data(g, 7, &data, &n), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_tensor_data(g, 0, NULL, &n), SKN_E_INVALID_ARGUMENT, "data");
    CHECK_ERROR(skn_gguf_tensor_data(g, 0, &data, NULL), SKN_E_INVALID_ARGUMENT, "size");
    CHECK_ERROR(skn_gguf_tensor_data(NULL, 0, &data, &n), SKN_E_INVALID_ARGUMENT, "gguf");

    /* Metadata. */
    const char* key = NULL;
    size_t key_len = 0;
    CHECK(skn_gguf_kv_key(g, 0, &key, &key_len) == SKN_OK && strcmp(key, "general.alignment") == 0 &&
          key_len == 17);
    CHECK(skn_gguf_kv_key(g, 1, &key, NULL) == SKN_OK && strcmp(key, "t.u8") == 0);
    CHECK_ERROR(skn_gguf_kv_key(g, 17, &key, NULL), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_kv_key(g, 0, NULL, NULL), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_gguf_kv_key(NULL, 0, &key, NULL), SKN_E_INVALID_ARGUMENT, "gguf");

#define KEY(name) (skn_gguf_find_key(g, name, &index) == SKN_OK ? index : -100)
    skn_gguf_type type;
    CHECK(skn_gguf_kv_type(g, KEY("t.u16"), &type) == SKN_OK && type == SKN_GGUF_TYPE_U16);
    CHECK(strcmp(skn_gguf_type_name(type), "u16") == 0);
    CHECK(strcmp(skn_gguf_type_name(SKN_GGUF_TYPE_ARRAY), "array") == 0);
    CHECK(strcmp(skn_gguf_type_name((skn_gguf_type)13), "invalid") == 0);
    CHECK(strcmp(skn_gguf_type_name((skn_gguf_type)-1), "invalid") == 0);
    CHECK_ERROR(skn_gguf_kv_type(g, 99, &type), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_kv_type(g, 0, NULL), SKN_E_INVALID_ARGUMENT, "type");
    CHECK(skn_gguf_find_key(g, "missing", &index) == SKN_OK && index == -1);
    CHECK_ERROR(skn_gguf_find_key(g, NULL, &index), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_gguf_find_key(g, "t.u8", NULL), SKN_E_INVALID_ARGUMENT, "index");
    CHECK_ERROR(skn_gguf_find_key(NULL, "t.u8", &index), SKN_E_INVALID_ARGUMENT, "gguf");

    uint8_t u8;
    int8_t i8;
    uint16_t u16;
    int16_t i16;
    uint32_t u32;
    int32_t i32;
    uint64_t u64;
    int64_t i64;
    float f32;
    double f64;
    int b;
    CHECK(skn_gguf_get_u8(g, KEY("t.u8"), &u8) == SKN_OK && u8 == 200);
    CHECK(skn_gguf_get_i8(g, KEY("t.i8"), &i8) == SKN_OK && i8 == -100);
    CHECK(skn_gguf_get_u16(g, KEY("t.u16"), &u16) == SKN_OK && u16 == 60000);
    CHECK(skn_gguf_get_i16(g, KEY("t.i16"), &i16) == SKN_OK && i16 == -30000);
    CHECK(skn_gguf_get_u32(g, KEY("t.u32"), &u32) == SKN_OK && u32 == 4096);
    CHECK(skn_gguf_get_i32(g, KEY("t.i32"), &i32) == SKN_OK && i32 == -7);
    CHECK(skn_gguf_get_u64(g, KEY("t.u64"), &u64) == SKN_OK && u64 == (1ull << 40));
    CHECK(skn_gguf_get_i64(g, KEY("t.i64"), &i64) == SKN_OK && i64 == -(1ll << 40));
    CHECK(skn_gguf_get_f32(g, KEY("t.f32"), &f32) == SKN_OK && f32 == 0.5f);
    CHECK(skn_gguf_get_f64(g, KEY("t.f64"), &f64) == SKN_OK && f64 == 1e300);
    CHECK(skn_gguf_get_bool(g, KEY("t.bool"), &b) == SKN_OK && b == 1);
    CHECK(skn_gguf_get_u32(g, KEY("general.alignment"), &u32) == SKN_OK && u32 == 64);
    /* Strict typing: no widening, message names the actual type. */
    CHECK_ERROR(skn_gguf_get_u64(g, KEY("t.u32"), &u64), SKN_E_INVALID_ARGUMENT, "holds a u32, not a u64");
    CHECK_ERROR(skn_gguf_get_u8(g, KEY("t.i8"), &u8), SKN_E_INVALID_ARGUMENT, "i8");
    CHECK_ERROR(skn_gguf_get_i8(g, KEY("t.u8"), &i8), SKN_E_INVALID_ARGUMENT, "u8");
    CHECK_ERROR(skn_gguf_get_u16(g, KEY("t.i16"), &u16), SKN_E_INVALID_ARGUMENT, "i16");
    CHECK_ERROR(skn_gguf_get_i16(g, KEY("t.u16"), &i16), SKN_E_INVALID_ARGUMENT, "u16");
    CHECK_ERROR(skn_gguf_get_i32(g, KEY("t.u32"), &i32), SKN_E_INVALID_ARGUMENT, "u32");
    CHECK_ERROR(skn_gguf_get_i64(g, KEY("t.u64"), &i64), SKN_E_INVALID_ARGUMENT, "u64");
    CHECK_ERROR(skn_gguf_get_f32(g, KEY("t.f64"), &f32), SKN_E_INVALID_ARGUMENT, "f64");
    CHECK_ERROR(skn_gguf_get_f64(g, KEY("t.f32"), &f64), SKN_E_INVALID_ARGUMENT, "f32");
    CHECK_ERROR(skn_gguf_get_bool(g, KEY("t.u8"), &b), SKN_E_INVALID_ARGUMENT, "not a bool");
    CHECK_ERROR(skn_gguf_get_u32(g, -1, &u32), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_get_u32(g, KEY("t.u32"), NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_gguf_get_u32(NULL, 0, &u32), SKN_E_INVALID_ARGUMENT, "gguf");
    CHECK_ERROR(skn_gguf_get_bool(g, KEY("t.bool"), NULL), SKN_E_INVALID_ARGUMENT, "out");

    const char* str = NULL;
    size_t len = 0;
    CHECK(skn_gguf_get_string(g, KEY("t.str"), &str, &len) == SKN_OK && len == 3 && memcmp(str, "a\0b", 3) == 0);
    CHECK((const unsigned char*)str > file && (const unsigned char*)str < file + size); /* zero-copy */
    CHECK(skn_gguf_get_string(g, KEY("t.empty"), &str, &len) == SKN_OK && len == 0);
    CHECK_ERROR(skn_gguf_get_string(g, KEY("t.u8"), &str, &len), SKN_E_INVALID_ARGUMENT, "not a string");
    CHECK_ERROR(skn_gguf_get_string(g, KEY("t.str"), NULL, &len), SKN_E_INVALID_ARGUMENT, "str");
    CHECK_ERROR(skn_gguf_get_string(g, KEY("t.str"), &str, NULL), SKN_E_INVALID_ARGUMENT, "len");

    /* Arrays. */
    skn_gguf_type et;
    uint64_t count = 0;
    const uint64_t nums_id = (uint64_t)KEY("t.nums");
    CHECK(skn_gguf_array_info(g, nums_id, &et, &count) == SKN_OK && et == SKN_GGUF_TYPE_F32 && count == 3);
    const void* raw = NULL;
    CHECK(skn_gguf_array_data(g, nums_id, &raw, &count) == SKN_OK && count == 3);
    float back[3];
    memcpy(back, raw, sizeof back);
    CHECK(back[0] == 1.0f && back[1] == -2.0f && back[2] == 3.5f);
    const uint64_t words_id = (uint64_t)KEY("t.words");
    CHECK(skn_gguf_array_info(g, words_id, &et, &count) == SKN_OK && et == SKN_GGUF_TYPE_STRING && count == 3);
    CHECK(skn_gguf_array_string(g, words_id, 2, &str, &len) == SKN_OK && len == 5 && memcmp(str, "hello", 5) == 0);
    CHECK(skn_gguf_array_string(g, words_id, 1, &str, &len) == SKN_OK && len == 0);
    CHECK(skn_gguf_array_string(g, (uint64_t)KEY("t.sized"), 0, &str, &len) == SKN_OK && len == 2 &&
          memcmp(str, "xy", 2) == 0);
    CHECK_ERROR(skn_gguf_array_string(g, words_id, 3, &str, &len), SKN_E_INVALID_ARGUMENT, "out of range");
    CHECK_ERROR(skn_gguf_array_string(g, nums_id, 0, &str, &len), SKN_E_INVALID_ARGUMENT, "not strings");
    CHECK_ERROR(skn_gguf_array_string(g, words_id, 0, NULL, &len), SKN_E_INVALID_ARGUMENT, "str");
    CHECK_ERROR(skn_gguf_array_string(g, words_id, 0, &str, NULL), SKN_E_INVALID_ARGUMENT, "len");
    CHECK_ERROR(skn_gguf_array_data(g, words_id, &raw, &count), SKN_E_INVALID_ARGUMENT, "skn_gguf_array_string");
    CHECK_ERROR(skn_gguf_array_data(g, nums_id, NULL, &count), SKN_E_INVALID_ARGUMENT, "data");
    CHECK_ERROR(skn_gguf_array_data(g, nums_id, &raw, NULL), SKN_E_INVALID_ARGUMENT, "count");
    CHECK_ERROR(skn_gguf_array_info(g, (uint64_t)KEY("t.u8"), &et, &count), SKN_E_INVALID_ARGUMENT, "u8");
    CHECK_ERROR(skn_gguf_array_info(g, 1000, &et, &count), SKN_E_INVALID_ARGUMENT, "names no array");
    CHECK_ERROR(skn_gguf_array_info(g, nums_id, NULL, &count), SKN_E_INVALID_ARGUMENT, "element_type");
    CHECK_ERROR(skn_gguf_array_info(g, nums_id, &et, NULL), SKN_E_INVALID_ARGUMENT, "count");
    uint64_t nested = 0;
    CHECK_ERROR(skn_gguf_array_nested(g, nums_id, 0, &nested), SKN_E_INVALID_ARGUMENT, "not arrays");
    CHECK_ERROR(skn_gguf_array_nested(g, nums_id, 0, NULL), SKN_E_INVALID_ARGUMENT, "nested");
    CHECK_ERROR(skn_gguf_array_nested(NULL, nums_id, 0, &nested), SKN_E_INVALID_ARGUMENT, "gguf");
#undef KEY
    skn_gguf_close(g);

    /* AS_STORED labels the weight in the file's order. */
    skn_gguf_options opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.orientation = SKN_GGUF_AS_STORED;
    CHECK(skn_gguf_open_memory(file, size, &opts, &g) == SKN_OK);
    CHECK(skn_gguf_tensor_info(g, 0, &t) == SKN_OK && t.shape[0] == 64 && t.shape[1] == 4);
    skn_gguf_close(g);
    skn_gguf_close(NULL);

    /* Open errors. */
    skn_gguf* untouched = (skn_gguf*)&opts;
    opts.orientation = (skn_gguf_orientation)5;
    CHECK_ERROR(skn_gguf_open_memory(file, size, &opts, &untouched), SKN_E_INVALID_ARGUMENT, "orientation");
    CHECK(untouched == (skn_gguf*)&opts);
    opts.orientation = SKN_GGUF_OUT_IN;
    opts.struct_size = 4;
    CHECK_ERROR(skn_gguf_open_memory(file, size, &opts, &g), SKN_E_INVALID_ARGUMENT, "struct_size");
    CHECK_ERROR(skn_gguf_open_memory(NULL, size, NULL, &g), SKN_E_INVALID_ARGUMENT, "data");
    CHECK_ERROR(skn_gguf_open_memory(file, size, NULL, NULL), SKN_E_INVALID_ARGUMENT, "out");
    CHECK_ERROR(skn_gguf_open_memory(file, 10, NULL, &g), SKN_E_FORMAT, "truncated");
    /* The last tensor's 48 bytes are followed by 16 bytes of padding. */
    CHECK(skn_gguf_open_memory(file, size - 16, NULL, &g) == SKN_OK);
    skn_gguf_close(g);
    CHECK_ERROR(skn_gguf_open_memory(file, size - 17, NULL, &g), SKN_E_FORMAT, "\"b\"");
    CHECK_ERROR(skn_gguf_open(NULL, NULL, &g), SKN_E_INVALID_ARGUMENT, "path");
    CHECK_ERROR(skn_gguf_open("/tmp", NULL, &g), SKN_E_INVALID_ARGUMENT, "not a regular file");
    CHECK_ERROR(skn_gguf_open("x.gguf", NULL, NULL), SKN_E_INVALID_ARGUMENT, "out");
    unsigned char v1[24];
    memcpy(v1, file, 24);
    v1[4] = 1;
    CHECK_ERROR(skn_gguf_open_memory(v1, sizeof v1, NULL, &g), SKN_E_UNSUPPORTED, "version 1");
    free(file);
}

/* A hand-built file with an unsupported tensor type and a nested array. */
static void test_unsupported_and_nested(void) {
    unsigned char buf[512];
    size_t at = 0;
#define PUT(p, n) (memcpy(buf + at, (p), (n)), at += (n))
#define PUT32(v) do { uint32_t v_ = (v); PUT(&v_, 4); } while (0)
#define PUT64(v) do { uint64_t v_ = (v); PUT(&v_, 8); } while (0)
#define PUTSTR(s) do { PUT64(strlen(s)); PUT((s), strlen(s)); } while (0)
    PUT("GGUF", 4);
    PUT32(3);
    PUT64(2); /* tensors */
    PUT64(1); /* kvs */
    PUTSTR("n");
    PUT32(9);           /* array */
    PUT32(9);           /* of arrays */
    PUT64(1);
    PUT32(5);           /* of i32 */
    PUT64(2);
    PUT32((uint32_t)-3);
    PUT32(4);
    PUTSTR("ints");
    PUT32(1);
    PUT64(64);
    const size_t ints_type_at = at;
    PUT32(24); /* I8: 64 bytes */
    PUT64(0);
    PUTSTR("f");
    PUT32(1);
    PUT64(4);
    PUT32(0); /* F32 */
    PUT64(96);
    while (at % 32) buf[at++] = 0;
    memset(buf + at, 0, 128);
    at += 128;

    skn_gguf* g = NULL;
    CHECK_ERROR(skn_gguf_open_memory(buf, at, NULL, &g), SKN_E_UNSUPPORTED, "\"ints\" (type 24 (I8))");
    skn_gguf_options opts;
    memset(&opts, 0, sizeof opts);
    opts.struct_size = sizeof opts;
    opts.allow_unsupported = 1;
    CHECK(skn_gguf_open_memory(buf, at, &opts, &g) == SKN_OK);
    CHECK(skn_gguf_unsupported_count(g) == 1);
    skn_gguf_tensor_props t;
    memset(&t, 0, sizeof t);
    t.struct_size = sizeof t;
    CHECK(skn_gguf_tensor_info(g, 0, &t) == SKN_OK && t.supported == 0 && t.type_id == 24 &&
          strcmp(t.type_name, "I8") == 0 && t.size == 64);
    CHECK(skn_gguf_tensor_info(g, 1, &t) == SKN_OK && t.supported == 1 && t.format == SKN_FORMAT_F32);

    uint64_t inner = 0, count = 0;
    skn_gguf_type et;
    CHECK(skn_gguf_array_info(g, 0, &et, &count) == SKN_OK && et == SKN_GGUF_TYPE_ARRAY && count == 1);
    CHECK(skn_gguf_array_nested(g, 0, 0, &inner) == SKN_OK);
    CHECK(skn_gguf_array_info(g, inner, &et, &count) == SKN_OK && et == SKN_GGUF_TYPE_I32 && count == 2);
    const void* raw = NULL;
    int32_t v[2];
    CHECK(skn_gguf_array_data(g, inner, &raw, &count) == SKN_OK);
    memcpy(v, raw, sizeof v);
    CHECK(v[0] == -3 && v[1] == 4);
    CHECK_ERROR(skn_gguf_array_nested(g, 0, 1, &inner), SKN_E_INVALID_ARGUMENT, "out of range");

    const void* data = NULL;
    size_t n = 0;
    CHECK(skn_gguf_tensor_data(g, 0, &data, &n) == SKN_OK && n == 64); /* raw bytes of a known size */
    skn_gguf_close(g);

    /* A removed type of unknown size: listed, its bytes cannot be located. */
    const uint32_t q4_2 = 4;
    memcpy(buf + ints_type_at, &q4_2, 4);
    CHECK_ERROR(skn_gguf_open_memory(buf, at, NULL, &g), SKN_E_UNSUPPORTED, "Q4_2, removed");
    CHECK(skn_gguf_open_memory(buf, at, &opts, &g) == SKN_OK);
    CHECK(skn_gguf_tensor_info(g, 0, &t) == SKN_OK && t.supported == 0 && t.size == 0);
    CHECK_ERROR(skn_gguf_tensor_data(g, 0, &data, &n), SKN_E_UNSUPPORTED, "\"ints\"");
    skn_gguf_close(g);
#undef PUT
#undef PUT32
#undef PUT64
#undef PUTSTR
}

int main(void) {
    test_read();
    test_unsupported_and_nested();
    return check_summary();
}
