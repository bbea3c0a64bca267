/* SPDX-License-Identifier: MIT */
/* The C API from C: every function, every error path. Compiled as C11. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "skn/skn.h"

static void test_version_and_errors(void) {
    CHECK(skn_version() == SKN_VERSION_NUMBER);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", SKN_VERSION_MAJOR, SKN_VERSION_MINOR, SKN_VERSION_PATCH);
    CHECK(strcmp(skn_version_string(), expect) == 0);
    CHECK(strcmp(skn_status_name(SKN_OK), "SKN_OK") == 0);
    CHECK(strcmp(skn_status_name(SKN_E_BUFFER_TOO_SMALL), "SKN_E_BUFFER_TOO_SMALL") == 0);
    CHECK(strcmp(skn_status_name((skn_status)1234), "unknown status") == 0);
    CHECK(skn_last_error() != NULL);
}

static void test_formats(void) {
    skn_format_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    CHECK(skn_format_info(SKN_FORMAT_Q4_K, &p) == SKN_OK);
    CHECK(skn_last_error()[0] == 0);
    CHECK(strcmp(p.name, "Q4_K") == 0);
    CHECK(p.block_elems == 256 && p.block_bytes == 144 && p.is_block_quantized == 1);
    CHECK(p.activation_format == SKN_FORMAT_Q8_K);
    CHECK(p.bits_per_weight == 4.5);
    CHECK(skn_format_info(SKN_FORMAT_I2_S, &p) == SKN_OK && p.tensor_trailer_bytes > 0);
    CHECK(skn_format_info(SKN_FORMAT_BF16, &p) == SKN_OK && p.is_block_quantized == 0 && p.block_elems == 1);
    CHECK(p.needs_importance == 0);
    CHECK(skn_format_info(SKN_FORMAT_IQ2_XXS, &p) == SKN_OK && p.needs_importance == 1 && p.block_bytes == 66);
    CHECK(skn_format_info(SKN_FORMAT_IQ2_S, &p) == SKN_OK && p.needs_importance == 0 && p.block_bytes == 82);
    /* A caller built against the 1.0 fields: the new field is not written. */
    skn_format_props v1;
    memset(&v1, 0x5a, sizeof v1);
    v1.struct_size = offsetof(skn_format_props, needs_importance);
    CHECK(skn_format_info(SKN_FORMAT_IQ1_S, &v1) == SKN_OK && v1.block_bytes == 50);
    CHECK(v1.needs_importance == 0x5a5a5a5a);

    CHECK_ERROR(skn_format_info(SKN_FORMAT_Q4_K, NULL), SKN_E_INVALID_ARGUMENT, "props");
    CHECK_ERROR(skn_format_info((skn_format)4, &p), SKN_E_UNKNOWN_FORMAT, "4");
    CHECK_ERROR(skn_format_info((skn_format)-7, &p), SKN_E_UNKNOWN_FORMAT, "-7");
    skn_format_props small;
    memset(&small, 0, sizeof small);
    small.struct_size = 8;
    CHECK_ERROR(skn_format_info(SKN_FORMAT_Q4_0, &small), SKN_E_INVALID_ARGUMENT, "struct_size");

    const int32_t n = skn_format_count();
    CHECK(n == 49); /* 32, and 17 row-interleaved formats */
    int32_t prev = -1;
    for (int32_t i = 0; i < n; ++i) {
        const int32_t id = skn_format_at(i);
        CHECK(id > prev);
        prev = id;
        CHECK(skn_format_info((skn_format)id, &p) == SKN_OK);
    }
    CHECK(skn_format_at(-1) == -1);
    CHECK(skn_format_at(n) == -1);

    skn_format f = SKN_FORMAT_F32;
    CHECK(skn_format_from_name("iq4_nl", &f) == SKN_OK && f == SKN_FORMAT_IQ4_NL);
    CHECK(skn_format_from_name("Q6_K", &f) == SKN_OK && f == SKN_FORMAT_Q6_K);
    CHECK(skn_format_from_name("iq3_xxs", &f) == SKN_OK && f == SKN_FORMAT_IQ3_XXS);
    CHECK(skn_format_info(f, &p) == SKN_OK && p.block_elems == 256 && p.block_bytes == 98);
    CHECK(skn_format_from_name("IQ3_S", &f) == SKN_OK && f == SKN_FORMAT_IQ3_S);
    CHECK(skn_format_info(f, &p) == SKN_OK && p.block_bytes == 110 && p.activation_format == SKN_FORMAT_Q8_K);
    CHECK_ERROR(skn_format_from_name("Q7_K", &f), SKN_E_UNKNOWN_FORMAT, "Q7_K");
    CHECK_ERROR(skn_format_from_name(NULL, &f), SKN_E_INVALID_ARGUMENT, "name");
    CHECK_ERROR(skn_format_from_name("Q4_0", NULL), SKN_E_INVALID_ARGUMENT, "format");
}

static void test_quantize_roundtrip(void) {
    /* max_rows: 4 groups of the largest R (BF16_R16's 16) for row-interleaved formats. */
    enum { rows = 4, cols = 768, max_rows = 4 * 16 };
    static float w[max_rows * cols], back[max_rows * cols];
    for (int i = 0; i < max_rows * cols; ++i) w[i] = sinf((float)i * 0.37f) * (1.0f + (float)(i % 5));

    size_t bytes = 0;
    CHECK(skn_quantized_size(SKN_FORMAT_Q4_0, rows, cols, &bytes) == SKN_OK && bytes == (size_t)rows * 24 * 18);
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_0, rows, cols, NULL), SKN_E_INVALID_ARGUMENT, "out_bytes");
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_K, rows, 100, &bytes), SKN_E_INVALID_ARGUMENT, "256");
    CHECK_ERROR(skn_quantized_size(SKN_FORMAT_Q4_K, 0, 256, &bytes), SKN_E_INVALID_ARGUMENT, NULL);
    CHECK_ERROR(skn_quantized_size((skn_format)99, 1, 256, &bytes), SKN_E_UNKNOWN_FORMAT, "99");

    for (int32_t i = 0; i < skn_format_count(); ++i) {
        const skn_format f = (skn_format)skn_format_at(i);
        /* A row-interleaved format quantizes groups of its R rows: 4 of them. */
        const int64_t r = rows_for(f, rows);
        if (rows % block_rows_of(f) != 0)
            CHECK_ERROR(skn_quantized_size(f, rows, cols, &bytes), SKN_E_INVALID_ARGUMENT, "multiple of");
        CHECK(skn_quantized_size(f, r, cols, &bytes) == SKN_OK);
        unsigned char* q = malloc(bytes);
        CHECK(q != NULL);
        if (!q) return;
        skn_format_props fp;
        memset(&fp, 0, sizeof fp);
        fp.struct_size = sizeof fp;
        CHECK(skn_format_info(f, &fp) == SKN_OK);
        if (fp.needs_importance) {
            /* The reference aborts without importance weights; skn refuses. */
            CHECK_ERROR(skn_quantize(f, w, r, cols, q, bytes), SKN_E_INVALID_ARGUMENT, "importance");
            free(q);
            continue;
        }
        CHECK(skn_quantize(f, w, r, cols, q, bytes) == SKN_OK);
        CHECK(skn_dequantize(f, q, bytes, r, cols, back, (size_t)(r * cols)) == SKN_OK);
        double e2 = 0, s2 = 0;
        for (int64_t k = 0; k < r * cols; ++k) {
            e2 += ((double)back[k] - w[k]) * ((double)back[k] - w[k]);
            s2 += (double)w[k] * w[k];
        }
        /* Every format keeps the signal (low_bit/binary ones coarsely); I2_S
         * (either layout) only represents weights that are already ternary. */
        CHECK(f == SKN_FORMAT_I2_S || f == SKN_FORMAT_I2_S_G64 || e2 < s2);
        free(q);
    }

    unsigned char q8[4 * 24 * 34];
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q8_0, NULL, rows, cols, q8, sizeof q8), SKN_E_INVALID_ARGUMENT, "src");
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q8_0, w, rows, cols, NULL, sizeof q8), SKN_E_INVALID_ARGUMENT, "dst");
    CHECK_ERROR(skn_quantize((skn_format)5, w, rows, cols, q8, sizeof q8), SKN_E_UNKNOWN_FORMAT, NULL);
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q8_0, w, rows, 33, q8, sizeof q8), SKN_E_INVALID_ARGUMENT, "33");
    memset(q8, 0x5a, sizeof q8);
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q8_0, w, rows, cols, q8, sizeof q8 - 1), SKN_E_BUFFER_TOO_SMALL, "3264");
    int untouched = 1;
    for (size_t k = 0; k < sizeof q8; ++k) untouched &= q8[k] == 0x5a;
    CHECK(untouched);
    float bad[64];
    for (int k = 0; k < 64; ++k) bad[k] = 1.0f;
    bad[40] = NAN;
    CHECK_ERROR(skn_quantize(SKN_FORMAT_Q8_0, bad, 1, 64, q8, sizeof q8), SKN_E_INVALID_ARGUMENT, "[0, 40]");

    CHECK(skn_quantize(SKN_FORMAT_Q8_0, w, rows, cols, q8, sizeof q8) == SKN_OK);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q8_0, NULL, sizeof q8, rows, cols, back, rows * cols), SKN_E_INVALID_ARGUMENT, "src");
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q8_0, q8, sizeof q8, rows, cols, NULL, rows * cols), SKN_E_INVALID_ARGUMENT, "dst");
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q8_0, q8, sizeof q8 - 1, rows, cols, back, rows * cols), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q8_0, q8, sizeof q8, rows, cols, back, rows * cols - 1), SKN_E_BUFFER_TOO_SMALL, NULL);
    CHECK_ERROR(skn_dequantize(SKN_FORMAT_Q8_0, q8, sizeof q8, rows, 31, back, rows * cols), SKN_E_INVALID_ARGUMENT, "31");
    CHECK_ERROR(skn_dequantize((skn_format)1000, q8, sizeof q8, rows, cols, back, rows * cols), SKN_E_UNKNOWN_FORMAT, NULL);
}

static void test_cpu(void) {
    const skn_isa isa = skn_cpu_isa();
    CHECK(strcmp(skn_isa_name(isa), "unknown") != 0);
    CHECK(strcmp(skn_isa_name(SKN_ISA_AVX512_VNNI), "avx512vnni") == 0);
    CHECK(strcmp(skn_isa_name((skn_isa)77), "unknown") == 0);
    CHECK(strcmp(skn_isa_name(SKN_ISA_NEON_DOTPROD), "neondotprod") == 0);
    CHECK(strcmp(skn_isa_name(SKN_ISA_NEON_I8MM), "neoni8mm") == 0);
    CHECK(strcmp(skn_isa_name(SKN_ISA_SVE), "sve") == 0);
    CHECK(strcmp(skn_isa_name(SKN_ISA_SVE2), "sve2") == 0);
    CHECK(strcmp(skn_isa_name((skn_isa)5), "unknown") == 0);

    /* The feature line names the architecture and the features the detected
     * tier is made of; on SVE, a vector length that is a multiple of 128. */
    const char* features = skn_cpu_features();
    CHECK(features != NULL);
    CHECK(strncmp(features, "x86-64:", 7) == 0 || strncmp(features, "aarch64:", 8) == 0 ||
          strncmp(features, "portable build", 14) == 0);

    /* The tier list: scalar first, every tier once and named, both
     * architectures' tiers in it; the best tier among those the CPU runs,
     * and no tier of the other architecture runs. */
    const int32_t ntiers = skn_isa_count();
    CHECK(ntiers >= 10);
    CHECK(skn_isa_at(0) == SKN_ISA_SCALAR && skn_isa_at(-1) == -1 && skn_isa_at(ntiers) == -1);
    int best_listed = 0, avx2_listed = 0, neon_listed = 0;
    for (int32_t i = 0; i < ntiers; ++i) {
        const skn_isa t = (skn_isa)skn_isa_at(i);
        CHECK(strcmp(skn_isa_name(t), "unknown") != 0);
        for (int32_t j = 0; j < i; ++j) CHECK(skn_isa_at(j) != (int32_t)t);
        best_listed |= t == isa;
        avx2_listed |= t == SKN_ISA_AVX2;
        neon_listed |= t == SKN_ISA_NEON;
    }
    CHECK(best_listed && avx2_listed && neon_listed);
    CHECK(skn_cpu_runs_isa(isa) == 1 && skn_cpu_runs_isa(SKN_ISA_SCALAR) == 1);
    CHECK(skn_cpu_runs_isa((skn_isa)77) == 0 && skn_cpu_runs_isa((skn_isa)5) == 0);
    if (strncmp(features, "x86-64:", 7) == 0) CHECK(skn_cpu_runs_isa(SKN_ISA_NEON) == 0);
    if (strncmp(features, "aarch64:", 8) == 0) CHECK(skn_cpu_runs_isa(SKN_ISA_AVX2) == 0);
    switch (isa) {
        case SKN_ISA_AVX512_VNNI: CHECK(strstr(features, " avx512vnni") != NULL); /* fall through */
        case SKN_ISA_AVX512: CHECK(strstr(features, " avx512bw") != NULL); /* fall through */
        case SKN_ISA_AVX2: CHECK(strstr(features, " avx2") != NULL); break;
        case SKN_ISA_AVX_VNNI: CHECK(strstr(features, " avxvnni") != NULL); break;
        case SKN_ISA_SVE2: CHECK(strstr(features, " sve2") != NULL); /* fall through */
        case SKN_ISA_SVE: {
            static const char kPrefix[] = "(SVE vector length ";
            const char* vl = strstr(features, kPrefix);
            CHECK(vl != NULL);
            if (vl != NULL) {
                const int bits = atoi(vl + sizeof kPrefix - 1);
                CHECK(bits >= 128 && bits % 128 == 0);
            }
        } /* fall through */
        case SKN_ISA_NEON_I8MM: CHECK(strstr(features, " i8mm") != NULL); /* fall through */
        case SKN_ISA_NEON_DOTPROD: CHECK(strstr(features, " dotprod") != NULL); /* fall through */
        case SKN_ISA_NEON: CHECK(strstr(features, " neon") != NULL); break;
        default: break;
    }
}

struct log_capture {
    int count;
    char last[256];
};

static void on_log(skn_log_level level, const char* message, void* user) {
    struct log_capture* c = (struct log_capture*)user;
    (void)level;
    c->count++;
    snprintf(c->last, sizeof c->last, "%s", message);
}

static void test_logging(void) {
    struct log_capture cap = {0, ""};
    CHECK(skn_set_log_callback(SKN_LOG_DEBUG, on_log, &cap) == SKN_OK);
    size_t bytes;
    /* A failing call logs its error at debug level. */
    CHECK(skn_quantized_size((skn_format)3000, 1, 1, &bytes) == SKN_E_UNKNOWN_FORMAT);
    CHECK(cap.count >= 1);
    CHECK(strstr(cap.last, "3000") != NULL);
    CHECK(skn_set_log_callback(SKN_LOG_OFF, NULL, NULL) == SKN_OK);
    const int before = cap.count;
    CHECK(skn_quantized_size((skn_format)3000, 1, 1, &bytes) == SKN_E_UNKNOWN_FORMAT);
    CHECK(cap.count == before);
    CHECK_ERROR(skn_set_log_callback((skn_log_level)9, on_log, &cap), SKN_E_INVALID_ARGUMENT, "level");
}

/* The two I2_S layouts: quantizing in one and converting equals quantizing
 * in the other (bitnet.cpp's two builds differ only in the packing), both
 * directions are exact, and bad arguments are refused. 3 rows of 384. */
static void test_i2_s_change_layout(void) {
    enum { kRows = 3, kCols = 384, kElems = kRows * kCols, kBytes = kElems / 4 + 32 };
    float w[kElems];
    for (int i = 0; i < kElems; ++i) w[i] = (float)((i * 7 + i / 5) % 3 - 1) * 0.25f;
    unsigned char x86[kBytes], g64[kBytes], out[kBytes];
    CHECK(skn_quantize(SKN_FORMAT_I2_S, w, kRows, kCols, x86, sizeof x86) == SKN_OK);
    CHECK(skn_quantize(SKN_FORMAT_I2_S_G64, w, kRows, kCols, g64, sizeof g64) == SKN_OK);
    CHECK(memcmp(x86, g64, kElems / 4) != 0); /* different layouts of the same codes */
    CHECK(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, x86, sizeof x86, out, sizeof out, kElems) ==
          SKN_OK);
    CHECK(memcmp(out, g64, sizeof out) == 0);
    CHECK(skn_i2_s_change_layout(SKN_FORMAT_I2_S_G64, SKN_FORMAT_I2_S, g64, sizeof g64, out, sizeof out, kElems) ==
          SKN_OK);
    CHECK(memcmp(out, x86, sizeof out) == 0);
    CHECK(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S, x86, sizeof x86, out, sizeof out, kElems) == SKN_OK);
    CHECK(memcmp(out, x86, sizeof out) == 0);
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_TQ2_0, SKN_FORMAT_I2_S, x86, sizeof x86, out, sizeof out, kElems),
                SKN_E_INVALID_ARGUMENT, "SKN_FORMAT_I2_S_G64");
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, x86, sizeof x86, out, sizeof out, 192),
                SKN_E_INVALID_ARGUMENT, "128");
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, x86, sizeof x86, out, sizeof out - 1,
                                       kElems),
                SKN_E_BUFFER_TOO_SMALL, "320");
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, out, sizeof out, out, sizeof out, kElems),
                SKN_E_INVALID_ARGUMENT, "overlap");
    CHECK_ERROR(skn_i2_s_change_layout(SKN_FORMAT_I2_S, SKN_FORMAT_I2_S_G64, NULL, sizeof x86, out, sizeof out, kElems),
                SKN_E_INVALID_ARGUMENT, "src");
}

int main(void) {
    test_version_and_errors();
    test_formats();
    test_quantize_roundtrip();
    test_i2_s_change_layout();
    test_cpu();
    test_logging();
    return check_summary();
}
