/*
 * skn — block-quantized weights and the CPU matrix products over them.
 *
 * skn owns the byte layout of GGUF-style block-quantized weights: what every
 * byte of a Q4_0 ... Q6_K, IQ4_NL, MXFP4, TQ2_0 or BitNet I2_S block means, how
 * floats become those bytes, and how they become floats again. Engines and
 * converters link it so that none of them re-implements a decoder, a quantizer
 * or a block permutation.
 *
 * Conventions that hold for every function in this header:
 *  - Every fallible call returns an skn_status. SKN_OK (0) is success; on any
 *    other value skn_last_error() returns a message for the calling thread that
 *    says what was wrong and how to fix it. Outputs are left untouched on error.
 *  - Pointers passed in are borrowed for the duration of the call unless the
 *    function's documentation says otherwise. Strings returned as `const char*`
 *    point to static storage unless documented otherwise; never free them.
 *  - No function aborts, throws or reads outside the sizes it is given.
 *  - Every function is safe to call from several threads at once.
 *
 * Sections, from simple to advanced:
 *   1. Errors and version
 *   2. Formats
 *   3. Quantize and dequantize
 *   4. CPU features
 *   5. Logging
 *
 * The normative description of the byte layouts is docs/formats.md.
 */
#ifndef SKN_H
#define SKN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SKN_BUILDING_LIBRARY)
#define SKN_API __attribute__((visibility("default")))
#else
#define SKN_API
#endif

/* ===== 1. Errors and version ============================================= */

#define SKN_VERSION_MAJOR 1
#define SKN_VERSION_MINOR 0
#define SKN_VERSION_PATCH 0
/* One number that orders versions: MAJOR*10000 + MINOR*100 + PATCH. */
#define SKN_VERSION_NUMBER (SKN_VERSION_MAJOR * 10000 + SKN_VERSION_MINOR * 100 + SKN_VERSION_PATCH)

typedef enum skn_status {
    SKN_OK = 0,
    SKN_E_INVALID_ARGUMENT = 1, /* a NULL pointer, a bad size or shape, a bad value in the input */
    SKN_E_UNKNOWN_FORMAT = 2,   /* a format id skn does not know */
    SKN_E_UNSUPPORTED = 3,      /* a known format or option this operation does not support */
    SKN_E_BUFFER_TOO_SMALL = 4, /* a destination smaller than the result; the message gives both sizes */
    SKN_E_OUT_OF_MEMORY = 5,
    SKN_E_FORMAT = 6,           /* malformed bytes (a file, a block) */
    SKN_E_INTERNAL = 99         /* a bug in skn: please report the message */
} skn_status;

/* The message describing the last error on the calling thread, or "" if the
 * last call on this thread succeeded. Valid until the next skn call on this
 * thread; copy it if you need it longer. Never NULL. */
SKN_API const char* skn_last_error(void);

/* The name of a status value ("SKN_E_INVALID_ARGUMENT"), or "unknown status". */
SKN_API const char* skn_status_name(skn_status status);

/* The library's version as SKN_VERSION_NUMBER computes it, for comparing the
 * header a program was compiled with against the library it runs with. */
SKN_API unsigned skn_version(void);

/* The library's version as "MAJOR.MINOR.PATCH". */
SKN_API const char* skn_version_string(void);

/* ===== 2. Formats ========================================================= */

/* A weight format. The value of each constant is its GGUF tensor type id, so a
 * value read from a GGUF file is a valid skn_format and values never change.
 * Ids skn does not implement (the IQ1/IQ2/IQ3 grid formats, integer types)
 * are refused with SKN_E_UNKNOWN_FORMAT. */
typedef enum skn_format {
    SKN_FORMAT_F32 = 0,
    SKN_FORMAT_F16 = 1,
    SKN_FORMAT_Q4_0 = 2,
    SKN_FORMAT_Q4_1 = 3,
    SKN_FORMAT_Q5_0 = 6,
    SKN_FORMAT_Q5_1 = 7,
    SKN_FORMAT_Q8_0 = 8,
    SKN_FORMAT_Q8_1 = 9,
    SKN_FORMAT_Q2_K = 10,
    SKN_FORMAT_Q3_K = 11,
    SKN_FORMAT_Q4_K = 12,
    SKN_FORMAT_Q5_K = 13,
    SKN_FORMAT_Q6_K = 14,
    SKN_FORMAT_Q8_K = 15,
    SKN_FORMAT_IQ4_NL = 20,
    SKN_FORMAT_IQ4_XS = 23,
    SKN_FORMAT_BF16 = 30,
    SKN_FORMAT_TQ1_0 = 34,
    SKN_FORMAT_TQ2_0 = 35,
    /* BitNet b1.58 I2_S as bitnet.cpp writes it on x86: 2-bit codes in groups
     * of 128, one float32 scale per tensor after the codes. Mainline GGUF once
     * used id 36 for a since-removed interleaved IQ4_NL type; see
     * docs/formats.md for how the two are told apart. */
    SKN_FORMAT_I2_S = 36,
    SKN_FORMAT_MXFP4 = 39,
    SKN_FORMAT_NVFP4 = 40,
    SKN_FORMAT_Q1_0 = 41,
    SKN_FORMAT_Q2_0 = 42
} skn_format;

/* What skn knows about a format. Set `struct_size = sizeof(skn_format_props)`
 * before the call: later versions may append fields and fill only those the
 * caller's struct has room for. */
typedef struct skn_format_props {
    size_t struct_size;
    const char* name;              /* "Q4_K": the GGUF name; static storage */
    int32_t block_elems;           /* elements per block (1 for F32/F16/BF16) */
    int32_t block_bytes;           /* bytes per block */
    int32_t tensor_trailer_bytes;  /* bytes after the last block of a whole tensor (I2_S: its scale), else 0 */
    int32_t is_block_quantized;    /* 0 for the dense formats F32, F16, BF16 */
    skn_format activation_format;  /* the format activations are quantized to for integer kernels; dense: itself */
    double bits_per_weight;        /* block_bytes * 8 / block_elems, trailer not counted */
} skn_format_props;

/* Fill `*props` for `format`.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT if props is NULL or its struct_size is
 * smaller than the fields of version 1.0; SKN_E_UNKNOWN_FORMAT. */
SKN_API skn_status skn_format_info(skn_format format, skn_format_props* props);

/* The number of formats skn implements, and the i-th of them (0 <= i < count),
 * in increasing id order. skn_format_at returns -1 for an index out of range. */
SKN_API int32_t skn_format_count(void);
SKN_API int32_t skn_format_at(int32_t index);

/* Look a format up by its name, case-insensitively ("q4_k", "Q4_K").
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT for NULL arguments;
 * SKN_E_UNKNOWN_FORMAT when no format has that name. */
SKN_API skn_status skn_format_from_name(const char* name, skn_format* format);

/* ===== 3. Quantize and dequantize ========================================= */

/* The bytes a row-major [n_rows, n_per_row] tensor takes in `format`,
 * trailer included. n_per_row must be a positive multiple of the block size.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL out, non-positive or unaligned
 * sizes, a size that overflows); SKN_E_UNKNOWN_FORMAT. */
SKN_API skn_status skn_quantized_size(skn_format format, int64_t n_rows, int64_t n_per_row, size_t* out_bytes);

/* Quantize a row-major [n_rows, n_per_row] float tensor to `format`, writing
 * ROW_MAJOR blocks (row 0's blocks, then row 1's, ...) to `dst`.
 * The bytes are identical to those the GGUF ecosystem's reference quantizers
 * write when no importance matrix is given. I2_S computes one scale for the
 * whole tensor and writes it after the codes.
 * Input values must be finite for block-quantized formats: a NaN or infinity
 * is refused with SKN_E_INVALID_ARGUMENT naming its row and column (no
 * quantized format can represent it). F32, F16 and BF16 carry NaN and
 * infinities through.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointer, n_per_row not a
 * multiple of the block size, non-finite input); SKN_E_UNKNOWN_FORMAT;
 * SKN_E_BUFFER_TOO_SMALL (dst_size below skn_quantized_size; both sizes are in
 * the message). Nothing is written to dst on error. */
SKN_API skn_status skn_quantize(skn_format format, const float* src, int64_t n_rows, int64_t n_per_row, void* dst,
                                size_t dst_size);

/* Decode a ROW_MAJOR [n_rows, n_per_row] tensor of `format` held in the
 * `src_size` bytes at `src` to floats in `dst` (room for dst_count floats).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointer, unaligned n_per_row);
 * SKN_E_UNKNOWN_FORMAT; SKN_E_BUFFER_TOO_SMALL (src smaller than the tensor,
 * or dst_count < n_rows * n_per_row). */
SKN_API skn_status skn_dequantize(skn_format format, const void* src, size_t src_size, int64_t n_rows,
                                  int64_t n_per_row, float* dst, size_t dst_count);

/* ===== 4. CPU features ==================================================== */

/* Instruction-set tiers skn's kernels are built for, in increasing order of
 * capability within one architecture. */
typedef enum skn_isa {
    SKN_ISA_SCALAR = 0,
    SKN_ISA_AVX2 = 1,        /* AVX2 + FMA + F16C */
    SKN_ISA_AVX_VNNI = 2,    /* AVX2 tier plus AVX-VNNI (vpdpbusd on ymm) */
    SKN_ISA_AVX512 = 3,      /* AVX-512 F, BW, VL, DQ */
    SKN_ISA_AVX512_VNNI = 4, /* AVX-512 tier plus AVX512_VNNI */
    SKN_ISA_NEON = 16,
    SKN_ISA_NEON_DOTPROD = 17
} skn_isa;

/* The best tier this CPU and operating system support. Never fails. */
SKN_API skn_isa skn_cpu_isa(void);

/* The lower-case name of a tier ("avx512vnni"), or "unknown". */
SKN_API const char* skn_isa_name(skn_isa isa);

/* ===== 5. Logging ========================================================= */

typedef enum skn_log_level {
    SKN_LOG_TRACE = 0,
    SKN_LOG_DEBUG = 1,
    SKN_LOG_INFO = 2,
    SKN_LOG_WARN = 3,
    SKN_LOG_ERROR = 4,
    SKN_LOG_OFF = 6
} skn_log_level;

/* Receives one log message (NUL-terminated, no trailing newline, valid only
 * during the call). It may be called from any thread skn runs on. */
typedef void (*skn_log_fn)(skn_log_level level, const char* message, void* user);

/* Send skn's log messages at `level` and above to `fn` (with `user` passed
 * back). fn = NULL restores the default: messages at WARN and above go to
 * stderr, and only when the environment variable SKN_LOG is set (to a level
 * name such as "debug"), since a library should not write to a program's
 * terminal unasked.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT for a level outside skn_log_level. */
SKN_API skn_status skn_set_log_callback(skn_log_level level, skn_log_fn fn, void* user);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SKN_H */
