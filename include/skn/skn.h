/* SPDX-License-Identifier: MIT */
/*
 * skn — block-quantized weights and the CPU matrix products over them.
 *
 * skn owns the byte layout of GGUF-style block-quantized weights: what every
 * byte of a Q4_0 ... Q6_K, IQ4_NL, grid (IQ2_XXS ... IQ1_M), MXFP4, TQ2_0 or
 * BitNet I2_S block means, how floats become those bytes, and how they become
 * floats again. Engines and converters link it so that none of them
 * re-implements a decoder, a quantizer or a block permutation.
 *
 * Conventions that hold for every function in this header:
 *  - Every fallible call returns an skn_status. SKN_OK (0) is success; on any
 *    other value skn_last_error() returns a message for the calling thread that
 *    says what was wrong and how to fix it. Outputs are left untouched on error.
 *  - Pointers passed in are borrowed for the duration of the call unless the
 *    function's documentation says otherwise. Strings returned as `const char*`
 *    point to static storage unless documented otherwise; never free them.
 *  - No function aborts, throws or reads outside the sizes it is given. Every
 *    product and sum of sizes, counts and strides a caller passes is checked
 *    for overflow; one that overflows is refused with SKN_E_INVALID_ARGUMENT
 *    naming the argument.
 *
 * Threads and re-entrancy (the one statement of the contract; each object's
 * section repeats only its own line of it):
 *  - Functions without a handle (formats, quantize, fixtures, relayout,
 *    version, skn_set_log_callback) may be called from any number of threads
 *    at once.
 *  - skn_view: immutable; any number of threads may use one view at once,
 *    and retain/release it from any thread.
 *  - skn_scope: any number of threads may allocate in one scope at once;
 *    skn_scope_destroy must not race with a call using the scope.
 *  - skn_gguf: immutable once open; any number of threads may read one at
 *    once. skn_gguf_close must not race with a call using it.
 *  - skn_imatrix: likewise immutable once open; skn_imatrix_close must not
 *    race with a call using it.
 *  - skn_context, skn_gguf_writer and skn_gguf_stream: one thread at a time
 *    (use one context per calling thread; a context's own pool threads are
 *    internal).
 *  - skn_last_error() is per OS thread: it describes the last skn call made
 *    on the calling thread. A Go caller must pin the goroutine with
 *    runtime.LockOSThread() around the skn call and its skn_last_error read
 *    (cgo may move a goroutine between threads between two calls).
 *  - Callbacks (log, trace, parallel-for) run with no skn lock held and may
 *    call any skn function, skn_set_log_callback included. Log messages
 *    raised by skn calls made inside a log callback are not delivered (that
 *    would recurse). A call that succeeds ends with an empty skn_last_error()
 *    whatever its callbacks did.
 *
 * Sections, from simple to advanced:
 *   1. Errors and version
 *   2. Formats
 *   3. Quantize and dequantize
 *   4. CPU features
 *   5. Scopes and views: packed weights and their block order
 *   6. Prepack and byte relayout
 *   7. Fixtures: bytes to test converters and kernels against
 *   8. GGUF files
 *   9. Importance matrices (llama.cpp imatrix files)
 *  10. Context and matmul_wt
 *  11. Logging
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
    SKN_E_IO = 7,               /* the system failed to read or write a file (permissions, I/O error); the message has its reason */
    SKN_E_NOT_FOUND = 8,        /* a path names no file */
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
 * Ids skn does not implement (the integer types I8 ... F64, removed ids) are
 * refused with SKN_E_UNKNOWN_FORMAT; the GGUF writer still stores I8 ... F64
 * tensors as given (skn_gguf_writer_add_tensor_of_type). */
typedef enum skn_format {
    /* Not a format: what skn_view_format(NULL) returns. Its presence makes
     * the enum's underlying type signed int, so `format < 0` works in C. */
    SKN_FORMAT_INVALID = -1,
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
    /* The grid formats: each group of eight weights is one point of a fixed
     * lattice (a table of 256 ... 2048 points) with signs or a shift, scaled
     * per sub-block. IQ2_XXS, IQ2_XS and IQ1_S quantize only with importance
     * weights (an imatrix): skn_quantize refuses them with
     * SKN_E_INVALID_ARGUMENT, as the reference quantizer aborts; they decode,
     * load and multiply like any other format. */
    SKN_FORMAT_IQ2_XXS = 16,
    SKN_FORMAT_IQ2_XS = 17,
    SKN_FORMAT_IQ3_XXS = 18,
    SKN_FORMAT_IQ1_S = 19,
    SKN_FORMAT_IQ4_NL = 20,
    SKN_FORMAT_IQ3_S = 21,
    SKN_FORMAT_IQ2_S = 22,
    SKN_FORMAT_IQ4_XS = 23,
    SKN_FORMAT_IQ1_M = 29,
    SKN_FORMAT_BF16 = 30,
    SKN_FORMAT_TQ1_0 = 34,
    SKN_FORMAT_TQ2_0 = 35,
    /* BitNet b1.58 I2_S as bitnet.cpp writes it on x86: 2-bit codes in groups
     * of 128, one float32 scale per tensor after the codes. Mainline GGUF once
     * used id 36 for a since-removed interleaved IQ4_NL type; see
     * docs/formats.md for how the two are told apart. bitnet.cpp's arm64
     * build writes the same type id and byte count in another layout,
     * SKN_FORMAT_I2_S_G64 below; a GGUF file must say which (docs/gguf.md). */
    SKN_FORMAT_I2_S = 36,
    SKN_FORMAT_MXFP4 = 39,
    SKN_FORMAT_NVFP4 = 40,
    SKN_FORMAT_Q1_0 = 41,
    SKN_FORMAT_Q2_0 = 42,
    /* Row-interleaved formats (ik_llama.cpp's type ids and file bytes): a
     * block covers block_rows (R) consecutive output rows times block_elems
     * inputs, holding the R rows' blocks of the canonical format named in
     * skn_format_props.interleaves, their scales together and their codes
     * interleaved so that one wide load feeds R dot products. Every byte is
     * the canonical bytes moved (a lossless repack), so to_float and get give
     * exactly the canonical values and a product equals the canonical
     * format's bit for bit. A weight in one is [out, in] with out a multiple
     * of R, and has the same two block orders as any other block format
     * (docs/packed-weight-layout.md, "Row-interleaved formats"). Convert with
     * skn_view_convert or skn_packed_convert. */
    SKN_FORMAT_Q4_0_R8 = 202,
    SKN_FORMAT_Q5_0_R4 = 206,
    SKN_FORMAT_Q8_0_R8 = 208,
    SKN_FORMAT_Q2_K_R4 = 210,
    SKN_FORMAT_Q3_K_R4 = 211,
    SKN_FORMAT_Q4_K_R4 = 212,
    SKN_FORMAT_Q5_K_R4 = 213,
    SKN_FORMAT_Q6_K_R4 = 214,
    SKN_FORMAT_IQ2_XXS_R4 = 216,
    SKN_FORMAT_IQ2_XS_R4 = 217,
    SKN_FORMAT_IQ3_XXS_R4 = 218,
    SKN_FORMAT_IQ4_NL_R4 = 220,
    SKN_FORMAT_IQ3_S_R4 = 221,
    SKN_FORMAT_IQ2_S_R4 = 222,
    SKN_FORMAT_IQ4_XS_R8 = 223,
    SKN_FORMAT_BF16_R16 = 230,
    SKN_FORMAT_MXFP4_R8 = 353,
    /* skn-only ids (1000 and up) are not GGUF type ids. */
    /* I2_S as bitnet.cpp's arm64 (NEON) build writes it: the same codes,
     * quantizer and per-tensor trailer as SKN_FORMAT_I2_S, in blocks of 64
     * elements (16 bytes). GGUF stores it as type 36; convert between the two
     * layouts with skn_i2_s_change_layout. */
    SKN_FORMAT_I2_S_G64 = 1036
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
    double bits_per_weight;        /* block_bytes * 8 / block_elems (per row), trailer not counted */
    /* 1 when skn_quantize refuses the format because its reference quantizer
     * works only with importance weights (an imatrix): IQ2_XXS, IQ2_XS,
     * IQ1_S, and the twins IQ2_XXS_R4, IQ2_XS_R4. Such a format still decodes, loads and multiplies. Written only
     * when struct_size covers it (a caller built against the 1.0 fields gets
     * the rest and nothing here). */
    int32_t needs_importance;
    /* Rows one block spans: R for a row-interleaved format (SKN_FORMAT_Q4_0_R8:
     * 8), 1 for every other. block_bytes above stays the bytes block_elems
     * elements of ONE row take (ggml's type size), so a row of `in` elements
     * is in / block_elems * block_bytes bytes in every format, and one whole
     * block of an interleaved format is block_rows * block_bytes bytes.
     * Written only when struct_size covers it. */
    int32_t block_rows;
    /* The canonical format a row-interleaved format re-encodes
     * (SKN_FORMAT_Q4_0 for SKN_FORMAT_Q4_0_R8); the format itself for every
     * other. Written only when struct_size covers it. */
    skn_format interleaves;
} skn_format_props;

/* Fill `*props` for `format`.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT if props is NULL or its struct_size is
 * smaller than the fields up to bits_per_weight; SKN_E_UNKNOWN_FORMAT. */
SKN_API skn_status skn_format_info(skn_format format, skn_format_props* props);

/* The number of formats skn implements, and the i-th of them (0 <= i < count),
 * in increasing id order. skn_format_at returns -1 for an index out of range. */
SKN_API int32_t skn_format_count(void);
SKN_API int32_t skn_format_at(int32_t index);

/* Look a format up by its name, case-insensitively ("q4_k", "Q4_K").
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT for NULL arguments;
 * SKN_E_UNKNOWN_FORMAT when no format has that name; its message lists the
 * names, and says when the name is a llama.cpp file type such as "Q4_K_M"
 * (a per-tensor mix of formats) or a GGUF type skn knows of but does not
 * implement ("I32", type 26). */
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
 * write when no importance matrix is given; the formats whose reference cannot
 * quantize without one (IQ2_XXS, IQ2_XS, IQ1_S) are refused with
 * SKN_E_INVALID_ARGUMENT and a message saying so. I2_S computes one scale for the
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

/* Options for skn_quantize_with_options. Zero-initialise, set struct_size =
 * sizeof(skn_quantize_options); a NULL options pointer means the defaults
 * (no importance weights, one thread: exactly skn_quantize). Fields added in
 * later versions go at the end; a struct_size that ends before a field means
 * that field's default. */
typedef struct skn_quantize_options {
    size_t struct_size;
    /* Importance weights (an imatrix entry for this tensor): one per column,
     * shared by every row, finite and non-negative; importance_count must
     * equal n_per_row. NULL (default): none. The caller keeps them alive for
     * the call only. */
    const float* importance;
    int64_t importance_count;
    /* Threads that share the rows, 1..1024, the calling thread included;
     * 0 (default) means the library's default, one thread, as a new
     * skn_context has: skn starts no thread it was not asked for. With more
     * than one, the threads stay idle after the call for the next call of
     * the same count (at most four idle pools per process; concurrent calls
     * never share one). The bytes are identical for every thread count. */
    int32_t threads;
} skn_quantize_options;

/* skn_quantize with options: importance weights and threads.
 * With importance weights the bytes are identical to those the GGUF
 * ecosystem's reference quantizers write when given the same weights as
 * their importance matrix row (quant_weights), for the formats whose
 * reference reads them: Q4_0 Q4_1 Q5_0 Q5_1, Q2_K..Q6_K, IQ4_NL, IQ4_XS,
 * IQ3_XXS, IQ3_S, IQ2_S, IQ1_M, and IQ2_XXS, IQ2_XS, IQ1_S (these three
 * quantize only with them: refused without them, as needs_importance says);
 * a row-interleaved format as its canonical format (IQ2_XXS_R4 as IQ2_XXS).
 * Every other format (F32, F16, BF16, Q8_0, Q8_1, Q8_K, the ternary, MXFP4,
 * NVFP4, Q1_0, Q2_0, I2_S) ignores them: the call is accepted and writes the
 * same bytes as without (docs/formats.md says how each format uses them). Threads split the rows (I2_S's per-tensor scale is a maximum, taken
 * per share of rows and then over the shares): the bytes never depend on the
 * thread count. Errors and what is written on error are as skn_quantize's;
 * the non-finite check is done by all the threads before anything is written.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (as skn_quantize, and: options
 * with a struct_size too small; importance_count not n_per_row, or a count
 * without weights; a negative or non-finite weight, named by its index;
 * threads outside 0..1024; a format that needs importance weights called
 * without them); SKN_E_UNKNOWN_FORMAT; SKN_E_BUFFER_TOO_SMALL. */
SKN_API skn_status skn_quantize_with_options(skn_format format, const float* src, int64_t n_rows, int64_t n_per_row,
                                             void* dst, size_t dst_size, const skn_quantize_options* options);

/* Decode a ROW_MAJOR [n_rows, n_per_row] tensor of `format` held in the
 * `src_size` bytes at `src` to floats in `dst` (room for dst_count floats).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointer, unaligned n_per_row);
 * SKN_E_UNKNOWN_FORMAT; SKN_E_BUFFER_TOO_SMALL (src smaller than the tensor,
 * or dst_count < n_rows * n_per_row). */
SKN_API skn_status skn_dequantize(skn_format format, const void* src, size_t src_size, int64_t n_rows,
                                  int64_t n_per_row, float* dst, size_t dst_count);

/* ===== 4. CPU features ==================================================== */

/* Instruction-set tiers skn's kernels are built for. Each tier belongs to one
 * architecture (SCALAR to all); tiers are ordered by capability within their
 * architecture only, so the numeric values are names, not ranks: a cap of an
 * x86-64 tier on an Arm CPU (or the reverse) allows the scalar kernels alone.
 * Values never change; new tiers are appended. */
typedef enum skn_isa {
    SKN_ISA_SCALAR = 0,
    SKN_ISA_AVX2 = 1,         /* x86-64: AVX2 + FMA + F16C */
    SKN_ISA_AVX_VNNI = 2,     /* x86-64: AVX2 tier plus AVX-VNNI (vpdpbusd on ymm) */
    SKN_ISA_AVX512 = 3,       /* x86-64: AVX-512 F, BW, VL, DQ */
    SKN_ISA_AVX512_VNNI = 4,  /* x86-64: AVX-512 tier plus AVX512_VNNI */
    SKN_ISA_NEON = 16,        /* aarch64: Advanced SIMD */
    SKN_ISA_NEON_DOTPROD = 17, /* aarch64: NEON plus the dot-product extension (sdot/udot) */
    SKN_ISA_NEON_I8MM = 18,   /* aarch64: NEON dot-product tier plus int8 matrix multiply (smmla) */
    SKN_ISA_SVE = 19,         /* aarch64: NEON i8mm tier plus SVE */
    SKN_ISA_SVE2 = 20         /* aarch64: SVE tier plus SVE2 */
} skn_isa;

/* The best tier this CPU and operating system support. Never fails. */
SKN_API skn_isa skn_cpu_isa(void);

/* The CPU features skn detected, as one line: the architecture, then every
 * feature the tiers are made of that this CPU and OS provide, e.g.
 * "x86-64: sse4.2 avx2 fma f16c avx512f avx512bw avx512vl avx512dq avx512vnni"
 * or "aarch64: neon dotprod i8mm bf16 sve sve2 (SVE vector length 256 bits)".
 * For logs and bug reports; the exact words may grow in later versions.
 * The string is static (never freed). Never fails. */
SKN_API const char* skn_cpu_features(void);

/* Which core this is, as the tuning table and a tuning file key it:
 * "VENDOR FAMILY MODEL", e.g. "AuthenticAMD 0x1a 0x02" (x86: the CPUID
 * vendor, display family and model; aarch64: "arm:0xIMPLEMENTER 0x0 0xPART"
 * from /proc/cpuinfo; "unknown 0x0 0x0" where it cannot be read). Static;
 * never fails. */
SKN_API const char* skn_cpu_id(void);

/* The lower-case name of a tier ("avx512vnni", "neoni8mm", "sve2"), or
 * "unknown". The names are the ones SKN_ISA accepts. */
SKN_API const char* skn_isa_name(skn_isa isa);

/* The number of tiers skn knows (of every architecture, scalar included),
 * and the i-th of them (0 <= i < count): scalar first, then each
 * architecture's tiers from its lowest rank up, so a program lists the
 * tiers (with skn_isa_name) without naming them. skn_isa_at returns -1 for
 * an index out of range. Never fail. */
SKN_API int32_t skn_isa_count(void);
SKN_API int32_t skn_isa_at(int32_t index);

/* 1 when this CPU and operating system run kernels of tier `isa` (SCALAR:
 * always), else 0: also for a tier of another architecture and a value that
 * is no tier. A CPU need not run every tier ranked below its best (an
 * AVX-512 CPU may lack AVX-VNNI). Never fails. */
SKN_API int skn_cpu_runs_isa(skn_isa isa);

/* ===== 5. Scopes and views: packed weights and their block order ========= */
/* A weight [out, in] in a block format is a grid of out x (in / block_elems)
 * blocks. Files, quantizers and the ternary codec hold it ROW_MAJOR: block
 * (o, b) at flat index o * blocks_per_row + b. Packed kernels read it
 * INPUT_BLOCK_MAJOR: block (o, b) at b * out + o. A view carries its order in
 * its layout's strides, so every operation below means the same matrix in
 * either order (docs/packed-weight-layout.md, rules 1-4). The block axis is
 * always the last dimension of a packed view. */

typedef enum skn_block_order {
    SKN_ORDER_ROW_MAJOR = 0,        /* canonical: what files hold; block (o, b) at o * blocks_per_row + b */
    SKN_ORDER_INPUT_BLOCK_MAJOR = 1 /* kernel order: block (o, b) at b * out + o */
} skn_block_order;

/* How a view's bytes are laid out, as kernels are selected by it. */
typedef enum skn_layout_class {
    SKN_LAYOUT_CONTIGUOUS = 0,          /* dense, row-major, no gaps */
    SKN_LAYOUT_STRIDED = 1,             /* dense, any strides (after transpose or narrow) */
    SKN_LAYOUT_BLOCKED_ROW_MAJOR = 2,   /* block format, ROW_MAJOR order */
    SKN_LAYOUT_BLOCKED_INPUT_MAJOR = 3  /* block format, INPUT_BLOCK_MAJOR order */
} skn_layout_class;

/* An arena. Prepacked copies (and later, scratch) are allocated in a scope.
 * Bytes allocated in a scope stay valid while the scope or any view over them
 * is alive: destroying the scope releases its own hold, and the memory is
 * freed when the last view over it is released too, so a view never dangles.
 * A scope may be used from several threads at once. */
typedef struct skn_scope skn_scope;

/* A layout (format, shape, block grid strides and offset, block order) over
 * bytes it borrows (skn_view_from_bytes: the caller keeps them alive and
 * unchanged) or shares with a scope (skn_view_prepack). Views are immutable
 * and reference-counted: every function that returns a view handle returns
 * a reference the caller must give back with skn_view_release exactly once,
 * even when the handle equals one it already holds. A view may be read from
 * several threads at once. */
typedef struct skn_view skn_view;

/* Create an empty scope. Returns SKN_OK; SKN_E_INVALID_ARGUMENT (out NULL);
 * SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_scope_create(skn_scope** out);

/* Release the caller's hold on a scope (NULL is ignored). Memory still used
 * by views is freed when those views are released. */
SKN_API void skn_scope_destroy(skn_scope* scope);

/* Total bytes ever allocated in `scope` (a prepack that copies adds its byte
 * count; one that copies nothing adds 0). Returns SKN_OK or
 * SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_scope_allocated(const skn_scope* scope, uint64_t* out_bytes);

/* Wrap `nbytes` at `data` as a view of `rank` (1..4) dimensions `shape`,
 * labelled row-major with the block axis last (a weight is [out, in]), in
 * block order `order`. The caller states the order; skn never guesses it.
 * The bytes are borrowed: keep them alive and unchanged while any view over
 * them exists. Only sizes are checked, not contents.
 * Dense formats (F32, F16, BF16) take order SKN_ORDER_ROW_MAJOR only.
 * I2_S bytes include the per-tensor trailer after the codes.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointers, rank outside 1..4, a
 * dimension <= 0, the last dimension not a multiple of the block size (when
 * the one before it is, the message is skn_require_out_in's: the shape
 * "looks like [in, out]"), nbytes smaller than the layout needs: the message
 * gives both sizes, an order that is not an skn_block_order);
 * SKN_E_UNKNOWN_FORMAT. */
SKN_API skn_status skn_view_from_bytes(const void* data, size_t nbytes, skn_format format, const int64_t* shape,
                                       int rank, skn_block_order order, skn_view** out);

/* Take an extra reference to a view (returns `view`), and give one back
 * (NULL is ignored). The view is freed with its last reference. */
SKN_API skn_view* skn_view_retain(skn_view* view);
SKN_API void skn_view_release(skn_view* view);

/* A one-line description, e.g.
 * "Q4_K [4, 768] BLOCKED_INPUT_MAJOR order=INPUT_BLOCK_MAJOR grid=[4, 3] strides=[1, 4] offset=0 (borrowed)".
 * Owned by the view: valid until its last release. NULL view gives "(null)". */
SKN_API const char* skn_view_describe(const skn_view* view);

/* Properties. On a NULL view: order ROW_MAJOR, class CONTIGUOUS, format SKN_FORMAT_INVALID (-1),
 * rank 0; skn_view_shape returns SKN_E_INVALID_ARGUMENT. */
SKN_API skn_block_order skn_view_order(const skn_view* view);
SKN_API skn_layout_class skn_view_layout_class(const skn_view* view);
SKN_API skn_format skn_view_format(const skn_view* view);
SKN_API int skn_view_rank(const skn_view* view);
/* Copy the view's shape (rank values) into shape[0..3]. */
SKN_API skn_status skn_view_shape(const skn_view* view, int64_t shape[4]);

/* A view of indices [start, start + length) along `dim`, sharing the bytes.
 * On the block axis of a packed view start and length must be multiples of
 * the block size (a block cannot be split). The order is kept.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (dim out of range, the range outside
 * the dimension, an unaligned range on the block axis: the message names the
 * block size and the nearest aligned range). */
SKN_API skn_status skn_view_narrow(const skn_view* view, int dim, int64_t start, int64_t length, skn_view** out);

/* The slice at `index` of dimension `dim`, with that dimension dropped: a
 * view of rank - 1 dimensions sharing the bytes (nothing is copied). The
 * other dimensions keep their strides, so the slice is read in the view's
 * block order and means the same matrix in either order. For a stacked
 * expert weight [E, out, in] (a GGUF tensor opened SKN_GGUF_OUT_IN, or its
 * skn_view_prepack copy in either order), skn_view_select(w, 0, e, &we)
 * gives expert e's [out, in] weight, which skn_matmul_wt takes as it is: in
 * a fresh [E, out, in] layout each expert's blocks are one contiguous run in
 * the view's order (INPUT_BLOCK_MAJOR: b * out + o within expert e's run),
 * so the slice of either order has the strides of a fresh [out, in] weight
 * and gets that order's SIMD kernels. A slice of a narrowed view keeps the
 * narrowed strides, as skn_view_narrow's result does.
 * The block axis (the last dimension) of a packed view cannot be selected: a
 * single element cannot be cut out of a block. A dense view may select any
 * dimension. The result keeps the view's bytes alive as any view does.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL view or out, a rank-1 view
 * (a view keeps at least one dimension: use skn_view_get), dim out of range,
 * the block axis of a packed view, index outside 0..extent-1: the message
 * names the dimension, its extent and the valid range). */
SKN_API skn_status skn_view_select(const skn_view* view, int dim, int64_t index, skn_view** out);

/* Swap two dimensions (metadata only; no byte moves). Dense views only: a
 * packed weight cannot be transposed because its blocks run along the input
 * axis; to compute x * W^T use skn_matmul_wt, which reads W as stored.
 * Returns SKN_OK; SKN_E_UNSUPPORTED (packed view: the message names
 * skn_matmul_wt); SKN_E_INVALID_ARGUMENT (dims out of range). */
SKN_API skn_status skn_view_transpose(const skn_view* view, int dim0, int dim1, skn_view** out);

/* Insert a dimension of extent 1 before position `dim` (0..rank; on a packed
 * view 0..rank-1, since the block axis stays last). The order is kept.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (rank already 4, dim out of range). */
SKN_API skn_status skn_view_unsqueeze(const skn_view* view, int dim, skn_view** out);

/* The element at `indices` (rank values, in the view's labelling), decoded
 * through the layout: the same number in either block order.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, wrong rank, index out of range). */
SKN_API skn_status skn_view_get(const skn_view* view, const int64_t* indices, int rank, float* out);

/* Decode the whole view to row-major floats (its shape's element count) in
 * `dst`, reading blocks through the layout: the same floats in either order.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT; SKN_E_BUFFER_TOO_SMALL (dst_count
 * below the element count; both are in the message). */
SKN_API skn_status skn_view_to_float(const skn_view* view, float* dst, size_t dst_count);

/* ===== 6. Prepack and byte relayout ======================================= */
/* The only ways blocks change place (rule 3: a conversion is visible). */

/* Kinds of trace event. */
typedef enum skn_trace_kind {
    SKN_TRACE_ADAPTER = 0,  /* bytes were converted from one block order to another */
    SKN_TRACE_KERNEL = 1,   /* a kernel ran: its name, ISA, layout class, shape and time */
    SKN_TRACE_FALLBACK = 2  /* the reference kernel ran although the ISA cap allowed SIMD: what was wanted, what ran, why */
} skn_trace_kind;

/* One trace event. Strings are valid only during the callback. */
typedef struct skn_trace_event {
    size_t struct_size;           /* sizeof(skn_trace_event) of the library that emitted it */
    skn_trace_kind kind;
    const char* name;             /* ADAPTER: "prepack" or "convert"; KERNEL/FALLBACK: a kernel name */
    const char* detail;           /* human-readable: what moved, or why a fallback happened */
    skn_format format;
    skn_block_order from_order;   /* ADAPTER: the order converted from */
    skn_block_order to_order;     /* ADAPTER: the order converted to */
    uint64_t bytes;               /* ADAPTER: bytes copied */
    int64_t nanoseconds;          /* time the work took */
    skn_isa isa;                  /* KERNEL/FALLBACK: the ISA of the kernel that ran */
    int32_t layout_class;         /* KERNEL/FALLBACK: the weight's skn_layout_class */
    int64_t n, out, in;           /* KERNEL/FALLBACK: the shape: x [n, in], W [out, in] */
    /* ADAPTER: the format converted to: `format` for a prepack ("prepack"),
     * the other encoding for a change between a canonical format and its
     * row-interleaved twin ("convert", skn_view_convert). Present when
     * struct_size covers it. */
    skn_format to_format;
} skn_trace_event;

/* Receives trace events; called on the thread doing the work. */
typedef void (*skn_trace_fn)(const skn_trace_event* event, void* user);

/* Return `view` in block order `order`.
 * Same order: *out is `view` itself (one more reference): nothing is copied,
 * allocated or traced. Otherwise the blocks are copied into `scope` in the
 * new order, one SKN_TRACE_ADAPTER event with the byte count is sent to
 * `trace` (if not NULL), and *out is a new view over the copy. A narrowed or
 * unsqueezed packed view is packed densely in the new order.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL view/out, NULL scope when a
 * copy is needed, an order that is not an skn_block_order);
 * SKN_E_UNSUPPORTED (a dense view: block order applies to block formats);
 * SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_view_prepack(const skn_view* view, skn_block_order order, skn_scope* scope,
                                    skn_trace_fn trace, void* user, skn_view** out);

/* Return `view` in `format` and block order `order`: the one conversion
 * between encodings of a weight. `format` is the view's own format (then
 * this is skn_view_prepack), or the view's format and `format` are a
 * canonical format and its row-interleaved twin (SKN_FORMAT_Q4_0 and
 * SKN_FORMAT_Q4_0_R8, SKN_FORMAT_BF16 and SKN_FORMAT_BF16_R16; see
 * skn_format_props.interleaves), in either direction. The conversion is
 * lossless: the result decodes to the same floats and multiplies to the same
 * bits. A copy goes into `scope`, and one SKN_TRACE_ADAPTER event named
 * "convert" (event.format the source, event.to_format the target, the bytes
 * written) is sent to `trace` (if not NULL). Nothing to do: *out is `view`
 * itself, nothing copied or traced. Reads any layout (narrowed, stacked
 * [E, out, in] experts: each expert is converted).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL view/out, NULL scope when a
 * copy is needed, formats that are not twins: the message names what
 * `format` may be, out not a multiple of the interleaved format's
 * block_rows: the message names it, a dense target in INPUT_BLOCK_MAJOR);
 * SKN_E_UNKNOWN_FORMAT; SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_view_convert(const skn_view* view, skn_format format, skn_block_order order, skn_scope* scope,
                                    skn_trace_fn trace, void* user, skn_view** out);

/* The byte-level twin of skn_view_convert for converters holding raw bytes:
 * rewrite a ROW_MAJOR [rows, cols] tensor of `from` as ROW_MAJOR `to`, the
 * two being a canonical format and its row-interleaved twin (or the same
 * format: a copy). Both sides are the same number of bytes. Quantizing
 * straight into an interleaved format (skn_quantize) gives the same bytes
 * as quantizing to the canonical format and converting.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointers, rows or cols not
 * positive, cols not a multiple of block_elems, rows not a multiple of the
 * interleaved format's block_rows, formats that are not twins, overlapping
 * buffers); SKN_E_UNKNOWN_FORMAT; SKN_E_BUFFER_TOO_SMALL (src_size or
 * dst_size below the tensor's size: the message gives both counts). */
SKN_API skn_status skn_packed_convert(skn_format from, skn_format to, const void* src, size_t src_size, void* dst,
                                      size_t dst_size, int64_t rows, int64_t cols);

/* Byte-level twins of prepack for converters holding raw bytes: copy a
 * [rows, blocks_per_row] block grid of `format` from ROW_MAJOR `src` to
 * INPUT_BLOCK_MAJOR `dst` (to_kernel_order), or back (to_canonical_order).
 * `rows` counts output rows: for a row-interleaved format it must be a
 * multiple of block_rows, and its rows / block_rows rows of blocks move.
 * The two are exact inverses. For I2_S the per-tensor trailer is copied
 * unchanged after the blocks. src and dst must not overlap.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointers, rows or
 * blocks_per_row <= 0, overlapping buffers, a dense format);
 * SKN_E_UNKNOWN_FORMAT; SKN_E_BUFFER_TOO_SMALL (src_size or dst_size below
 * the tensor's size: the message gives the needed and given byte counts). */
SKN_API skn_status skn_packed_to_kernel_order(skn_format format, const void* src, size_t src_size, void* dst,
                                              size_t dst_size, int64_t rows, int64_t blocks_per_row);
SKN_API skn_status skn_packed_to_canonical_order(skn_format format, const void* src, size_t src_size, void* dst,
                                                 size_t dst_size, int64_t rows, int64_t blocks_per_row);

/* Convert a whole ROW_MAJOR BitNet tensor of `elements` weights between
 * bitnet.cpp's two I2_S layouts: `from` and `to` are SKN_FORMAT_I2_S (x86,
 * blocks of 128) and SKN_FORMAT_I2_S_G64 (arm64, blocks of 64), in either
 * direction (from == to copies). The codes move, the per-tensor trailer (its
 * scale) is copied; both sides are elements / 4 + 32 bytes and the two
 * directions are exact inverses. Use it to feed a file written by one build
 * of bitnet.cpp to the other, or to pick the layout with the faster kernels
 * on this CPU (docs/kernels.md). src and dst must not overlap.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointers, `from` or `to` not
 * one of the two, elements <= 0 or not a multiple of 128, overlapping
 * buffers); SKN_E_BUFFER_TOO_SMALL (src_size or dst_size below the tensor's
 * size: the message gives the needed and given byte counts). */
SKN_API skn_status skn_i2_s_change_layout(skn_format from, skn_format to, const void* src, size_t src_size, void* dst,
                                          size_t dst_size, int64_t elements);

/* The orientation guard. A weight for skn_matmul_wt is [out, in] with its
 * blocks along `in`. Refuses a shape whose first dimension is a multiple of
 * the block size while the second is not (it looks like [in, out]: label it
 * [out, in], e.g. open GGUF files with SKN_GGUF_OUT_IN), and any `in` that is
 * not a multiple of the block size. Stays quiet when both are aligned (it
 * cannot tell) and for dense formats.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (the message contains
 * "looks like [in, out]" for the swapped case); SKN_E_UNKNOWN_FORMAT. */
SKN_API skn_status skn_require_out_in(int64_t rows, int64_t in, skn_format format);

/* ===== 7. Fixtures: bytes to test converters and kernels against ========= */
/* Shipped in the library so a downstream converter checks its output against
 * the same bytes skn's kernels are checked against. */

/* The default tagged-fixture grid: 4 rows by 3 blocks per row. Non-square,
 * so a caller that swaps rows and blocks_per_row is caught as well. */
#define SKN_FIXTURE_DEFAULT_ROWS 4
#define SKN_FIXTURE_DEFAULT_BLOCKS_PER_ROW 3

/* Tagged fixture: a [rows, blocks_per_row] grid (rows 2..65535, blocks_per_row
 * 3..65535: with one row or one block per row both orders put every block at
 * the same index, so such a grid would agree whatever order its bytes are in,
 * and is refused) of `format`
 * in which every byte of block (o, b) is derived from (o, b), so no two
 * blocks are alike. kernel_order = 0 gives ROW_MAJOR bytes, 1 gives
 * INPUT_BLOCK_MAJOR bytes. The bytes are not meant to decode to anything
 * useful (scales may be NaN); they identify blocks.
 * With buf NULL, only *needed is set (a size query). Returns SKN_OK;
 * SKN_E_INVALID_ARGUMENT (needed NULL, sizes out of range, a dense format);
 * SKN_E_UNKNOWN_FORMAT; SKN_E_BUFFER_TOO_SMALL (cap < *needed). */
SKN_API skn_status skn_fixture_bytes(skn_format format, int kernel_order, int64_t rows, int64_t blocks_per_row,
                                     void* buf, size_t cap, size_t* needed);

/* Check `n` bytes against the tagged fixture of the same format, order and
 * grid. Returns NULL when every byte agrees. Otherwise a message naming the
 * first block found in the wrong place: which block it is, where it belongs,
 * and what was found there instead; then "K of N blocks are out of place",
 * and whether the bytes are exactly the other order's fixture ("the bytes
 * are exactly the ROW_MAJOR order fixture") or not (or why the bytes could
 * not be checked: wrong size, unknown format, a grid under 2 x 3). The message is owned by the library and valid
 * until the next call of this function on the same thread. */
SKN_API const char* skn_fixture_disagreement(const void* bytes, size_t n, skn_format format, int kernel_order,
                                             int64_t rows, int64_t blocks_per_row);

/* Golden fixtures for decode fidelity: per format, a weight W of realistic
 * values [rows, cols] (at least 3 blocks per row), its quantized ROW_MAJOR
 * bytes, the floats those bytes decode to, a fixed activation x [x_rows, cols]
 * and y = x * decoded(W)^T [x_rows, rows] (accumulated in double, in index
 * order, then rounded to float). */
typedef enum skn_golden_part {
    SKN_GOLDEN_SOURCE = 0,   /* float32 W before quantization, [rows, cols] */
    SKN_GOLDEN_PACKED = 1,   /* quantized bytes, ROW_MAJOR */
    SKN_GOLDEN_PACKED_KERNEL_ORDER = 2, /* the same bytes in INPUT_BLOCK_MAJOR order */
    SKN_GOLDEN_DECODED = 3,  /* float32 decode of the packed bytes, [rows, cols] */
    SKN_GOLDEN_X = 4,        /* float32 activation, [x_rows, cols] */
    SKN_GOLDEN_Y = 5         /* float32 x * decoded(W)^T, [x_rows, rows] */
} skn_golden_part;

typedef struct skn_golden_info {
    size_t struct_size;  /* set to sizeof(skn_golden_info) before the call */
    int64_t rows;
    int64_t cols;
    int64_t x_rows;
} skn_golden_info;

/* The golden fixture's shape for `format` (every block format has one).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT; SKN_E_UNKNOWN_FORMAT. */
SKN_API skn_status skn_fixture_golden_info(skn_format format, skn_golden_info* info);

/* Copy one part of the golden fixture into `buf` (bytes for the packed parts,
 * float32 otherwise). With buf NULL only *needed (in bytes) is set.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT; SKN_E_UNKNOWN_FORMAT;
 * SKN_E_BUFFER_TOO_SMALL. */
SKN_API skn_status skn_fixture_golden(skn_format format, skn_golden_part part, void* buf, size_t cap,
                                      size_t* needed);

/* ===== 8. GGUF files ====================================================== */
/* Reading GGUF v2 and v3 files (docs/gguf.md) and writing GGUF v3.
 *
 * A reader checks every count, length, offset, dimension and byte size
 * against the bytes really present before using it: a malformed file gives
 * SKN_E_FORMAT and a message naming the byte offset and the key or tensor at
 * fault, never a crash or a read outside the file. Files and tensors larger
 * than 4 GiB are supported (offsets are 64-bit).
 *
 * Zero-copy contract: string values, arrays and tensor bytes are pointers
 * into the mapped file (skn_gguf_open) or into the caller's buffer
 * (skn_gguf_open_memory), valid until skn_gguf_close. Such strings are NOT
 * NUL-terminated: use the length returned with them. Numeric array data may
 * be unaligned: read it with memcpy. Key and tensor names are copies owned by
 * the skn_gguf and are NUL-terminated (a name may still hold a NUL byte; the
 * length is authoritative).
 *
 * An open skn_gguf is immutable: every function taking a `const skn_gguf*`
 * may be called from several threads at once. A skn_gguf_writer is used by
 * one thread at a time.
 *
 * skn_gguf_tensor_view wraps a tensor as an skn_view over the file's bytes:
 * ROW_MAJOR, never relaid out (rule 1). */

typedef struct skn_gguf skn_gguf;

/* Metadata value types; the values are the file format's own numbers. */
typedef enum skn_gguf_type {
    SKN_GGUF_TYPE_U8 = 0,
    SKN_GGUF_TYPE_I8 = 1,
    SKN_GGUF_TYPE_U16 = 2,
    SKN_GGUF_TYPE_I16 = 3,
    SKN_GGUF_TYPE_U32 = 4,
    SKN_GGUF_TYPE_I32 = 5,
    SKN_GGUF_TYPE_F32 = 6,
    SKN_GGUF_TYPE_BOOL = 7, /* one byte, 0 or 1 (other values are refused as malformed) */
    SKN_GGUF_TYPE_STRING = 8,
    SKN_GGUF_TYPE_ARRAY = 9,
    SKN_GGUF_TYPE_U64 = 10,
    SKN_GGUF_TYPE_I64 = 11,
    SKN_GGUF_TYPE_F64 = 12
} skn_gguf_type;

/* The lower-case name of a value type ("u32", "string"), or "invalid". */
SKN_API const char* skn_gguf_type_name(skn_gguf_type type);

/* How tensor shapes are labelled. The bytes are never moved either way.
 * SKN_GGUF_OUT_IN (the default) reverses the file's dimension order: a
 * matrix the file stores as ne = [in, out] reads [out, in], with the
 * contiguous block axis last: what skn_matmul_wt and skn_require_out_in
 * expect. SKN_GGUF_AS_STORED keeps the file's (ggml's) order [ne0, ne1, ...]. */
typedef enum skn_gguf_orientation {
    SKN_GGUF_OUT_IN = 0,
    SKN_GGUF_AS_STORED = 1
} skn_gguf_orientation;

/* Which layout GGUF type 36 (BitNet I2_S) is in. bitnet.cpp's x86 and arm64
 * builds write the same type id and byte count in different layouts, and
 * their files do not say which; skn's GGUF writer records it in the
 * metadata key "skn.i2_s_layout" ("x86" or "arm64"). See docs/gguf.md. */
typedef enum skn_i2_s_layout {
    /* The file's "skn.i2_s_layout" key decides. Without it, type-36 tensors
     * are listed (supported = 0) but skn_gguf_tensor_data and
     * skn_gguf_tensor_view refuse them with SKN_E_FORMAT, naming the two
     * layouts: skn never decodes one as the other. */
    SKN_I2_S_LAYOUT_FROM_FILE = 0,
    SKN_I2_S_LAYOUT_X86 = 1,   /* type 36 is SKN_FORMAT_I2_S (an x86 bitnet.cpp build wrote it) */
    SKN_I2_S_LAYOUT_ARM64 = 2  /* type 36 is SKN_FORMAT_I2_S_G64 (an arm64 bitnet.cpp build wrote it) */
} skn_i2_s_layout;

/* Options for opening. Zero-initialise, set struct_size =
 * sizeof(skn_gguf_options); a NULL options pointer means the defaults. */
typedef struct skn_gguf_options {
    size_t struct_size;
    skn_gguf_orientation orientation; /* default SKN_GGUF_OUT_IN */
    /* 0 (default): a file holding any tensor of a type skn does not implement
     * (integer types, removed types, unknown ids)
     * is refused with SKN_E_UNSUPPORTED, every such tensor named in the
     * message. 1: the file opens, those tensors are listed with supported = 0
     * (and one WARN log message names them) but cannot be decoded. */
    int32_t allow_unsupported;
    /* 0 (default): map the file read-only (zero-copy). 1: read the whole
     * file into memory owned by the skn_gguf at open, so that truncating or
     * rewriting the file afterwards cannot affect the reader (see "Files
     * that change under a reader" below); costs the file's size in memory
     * and one read. Added in 1.0.0; a struct_size that ends before this field
     * means 0. */
    int32_t read_into_memory;
    /* An skn_i2_s_layout: the layout of type-36 tensors in a file without
     * the "skn.i2_s_layout" key (default SKN_I2_S_LAYOUT_FROM_FILE). A file
     * whose key says otherwise is refused with SKN_E_INVALID_ARGUMENT. Added
     * in 1.0.0; a struct_size that ends before this field means
     * SKN_I2_S_LAYOUT_FROM_FILE. */
    int32_t i2_s_layout;
} skn_gguf_options;

/* Files that change under a reader. A mapped file (the default) must not be
 * truncated or rewritten while an skn_gguf over it is open: the pointers
 * skn returns, and the bytes its views read, are the file's pages. Reading
 * a page past a new, shorter end raises SIGBUS in the reading thread (which
 * kills the process unless it handles the signal), and bytes rewritten in
 * place show through in tensor data, views, strings and arrays. What a
 * rewrite cannot change: every count, length, offset and scalar value is
 * read once at open, checked, and served from the reader's copy, so no
 * pointer and length skn returns reaches outside the mapping, and the
 * scalar getters return the values read at open. This is how every mmap-based reader behaves (the GGUF ecosystem's,
 * safetensors'). When the file may change (a download still being written,
 * a file a training job replaces in place), open it with
 * options.read_into_memory = 1: the reader then owns a private copy and the
 * file may change or vanish at once. Replacing a file by rename (as
 * skn_gguf_writer_write_file does) is always safe: the old inode stays
 * mapped. */

/* Open and validate the GGUF file at `path`, mapped read-only (the file
 * descriptor is closed before returning; the mapping lives until
 * skn_gguf_close), or read into memory (options.read_into_memory). Only a
 * regular file is opened: a FIFO, a directory or a device is refused
 * without blocking. Tensor types are checked up front: see
 * skn_gguf_options.allow_unsupported. A file holding only supported types
 * opens without logging anything at WARN.
 * On success *out owns the file; release it with skn_gguf_close.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL path/out, options with a
 * struct_size too small, an orientation or i2_s_layout outside its enum,
 * read_into_memory not 0 or 1, a path that is not a regular file, an
 * i2_s_layout the file's "skn.i2_s_layout" key contradicts);
 * SKN_E_NOT_FOUND (no file at path); SKN_E_IO (the file cannot be opened,
 * mapped or read: the message has the system's reason);
 * SKN_E_FORMAT (malformed file: the message names the byte offset and the
 * key or tensor); SKN_E_UNSUPPORTED (GGUF v1, a big-endian or newer file,
 * tensors of types skn does not implement); SKN_E_OUT_OF_MEMORY. *out is
 * untouched on error. */
SKN_API skn_status skn_gguf_open(const char* path, const skn_gguf_options* options, skn_gguf** out);

/* Like skn_gguf_open over the `size` bytes at `data`, which are borrowed:
 * keep them alive and unchanged until skn_gguf_close. */
SKN_API skn_status skn_gguf_open_memory(const void* data, size_t size, const skn_gguf_options* options,
                                        skn_gguf** out);

/* Release a file opened by skn_gguf_open(_memory) (NULL is ignored). Every
 * pointer obtained from it becomes invalid. */
SKN_API void skn_gguf_close(skn_gguf* gguf);

/* File-level facts; on a NULL gguf they return 0 (version, alignment,
 * data_offset, file_size) or -1 (counts). Never fail otherwise.
 * data_offset is the file offset at which the data section starts. */
SKN_API uint32_t skn_gguf_version(const skn_gguf* gguf);
SKN_API uint32_t skn_gguf_alignment(const skn_gguf* gguf);
SKN_API uint64_t skn_gguf_data_offset(const skn_gguf* gguf);
/* The size in bytes of the file (or buffer). */
SKN_API uint64_t skn_gguf_file_size(const skn_gguf* gguf);
SKN_API int64_t skn_gguf_tensor_count(const skn_gguf* gguf);
/* The number of tensors of types skn does not implement (0 unless the file
 * was opened with allow_unsupported). */
SKN_API int64_t skn_gguf_unsupported_count(const skn_gguf* gguf);

/* What the file says about one tensor. Set struct_size =
 * sizeof(skn_gguf_tensor_props) before the call. */
typedef struct skn_gguf_tensor_props {
    size_t struct_size;
    const char* name;         /* NUL-terminated, owned by the skn_gguf */
    size_t name_len;          /* bytes of name, NUL not counted */
    int32_t type_id;          /* the GGUF tensor type id as stored */
    const char* type_name;    /* "Q4_K", "IQ2_XXS", "IQ4_NL_4_4", "unknown"; static storage */
    int32_t supported;        /* 1 when skn implements the type (type 36: and knows its layout) */
    skn_format format;        /* the format skn reads it as: type_id, except SKN_FORMAT_I2_S_G64 for type 36
                                 in the arm64 layout; a valid skn_format only when supported */
    int32_t rank;             /* 1..4 */
    int64_t shape[4];         /* labelled per the orientation; entries past rank are 1 */
    int64_t ne[4];            /* the file's order (ggml's ne), whatever the orientation; past rank 1 */
    uint64_t offset;          /* file offset of the first byte */
    uint64_t size;            /* bytes, I2_S trailer included; 0 when the type's size is unknown */
} skn_gguf_tensor_props;

/* Fill *info for tensor `index` (0 <= index < skn_gguf_tensor_count).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, struct_size too small, index
 * out of range). */
SKN_API skn_status skn_gguf_tensor_info(const skn_gguf* gguf, int64_t index, skn_gguf_tensor_props* info);

/* Set *index to the tensor named `name` (compared byte for byte), or -1 when
 * there is none (which is not an error).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT for NULL arguments. */
SKN_API skn_status skn_gguf_find_tensor(const skn_gguf* gguf, const char* name, int64_t* index);

/* The bytes of tensor `index`: *data points into the file, *size is its byte
 * size. Works for every tensor whose size is known, including those of
 * unsupported types opened with allow_unsupported (raw bytes).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, index out of range);
 * SKN_E_UNSUPPORTED (a removed or unknown type whose size skn does not know);
 * SKN_E_FORMAT (type 36 of a layout neither the file nor
 * skn_gguf_options.i2_s_layout gives). */
SKN_API skn_status skn_gguf_tensor_data(const skn_gguf* gguf, int64_t index, const void** data, size_t* size);

/* Tensor `index` as a zero-copy ROW_MAJOR view, labelled as the file was
 * opened: with SKN_GGUF_OUT_IN a 2-D weight is [out, in] and can go straight
 * to skn_prepack_for_matmul / skn_matmul_wt. With SKN_GGUF_AS_STORED a dense
 * tensor is labelled [ne0, ne1, ...] (a STRIDED view: the transpose of the
 * stored matrix); a block-quantized tensor of rank >= 2 is refused, since its
 * blocks run along ne0, which a packed view keeps as its last dimension.
 * The view keeps the file mapping alive (it stays valid after
 * skn_gguf_close); for skn_gguf_open_memory the caller's buffer must outlive
 * it. Release it with skn_view_release.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, index out of range, a packed
 * tensor labelled AS_STORED: the message says "looks like [in, out]" and
 * names SKN_GGUF_OUT_IN); SKN_E_UNSUPPORTED (a tensor type skn does not
 * implement); SKN_E_FORMAT (type 36 of an unsaid layout, as
 * skn_gguf_tensor_data). */
SKN_API skn_status skn_gguf_tensor_view(const skn_gguf* gguf, int64_t index, skn_view** out);

/* ---- metadata. Keys are addressed by index, 0 <= key < skn_gguf_kv_count. */

/* The number of metadata pairs (-1 for a NULL gguf). */
SKN_API int64_t skn_gguf_kv_count(const skn_gguf* gguf);

/* The key of pair `key` (NUL-terminated, owned by the skn_gguf) and its
 * length (len may be NULL). Returns SKN_OK; SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_gguf_kv_key(const skn_gguf* gguf, int64_t key, const char** name, size_t* len);

/* Set *index to the pair whose key is `name`, or -1 when there is none.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT for NULL arguments. */
SKN_API skn_status skn_gguf_find_key(const skn_gguf* gguf, const char* name, int64_t* index);

/* The value type of pair `key`. Returns SKN_OK; SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_gguf_kv_type(const skn_gguf* gguf, int64_t key, skn_gguf_type* type);

/* Typed scalar getters. The pair's type must be exactly the one named: no
 * conversion, not even a lossless widening.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, key out of range, a
 * different type: the message names the actual type). */
SKN_API skn_status skn_gguf_get_u8(const skn_gguf* gguf, int64_t key, uint8_t* out);
SKN_API skn_status skn_gguf_get_i8(const skn_gguf* gguf, int64_t key, int8_t* out);
SKN_API skn_status skn_gguf_get_u16(const skn_gguf* gguf, int64_t key, uint16_t* out);
SKN_API skn_status skn_gguf_get_i16(const skn_gguf* gguf, int64_t key, int16_t* out);
SKN_API skn_status skn_gguf_get_u32(const skn_gguf* gguf, int64_t key, uint32_t* out);
SKN_API skn_status skn_gguf_get_i32(const skn_gguf* gguf, int64_t key, int32_t* out);
SKN_API skn_status skn_gguf_get_u64(const skn_gguf* gguf, int64_t key, uint64_t* out);
SKN_API skn_status skn_gguf_get_i64(const skn_gguf* gguf, int64_t key, int64_t* out);
SKN_API skn_status skn_gguf_get_f32(const skn_gguf* gguf, int64_t key, float* out);
SKN_API skn_status skn_gguf_get_f64(const skn_gguf* gguf, int64_t key, double* out);
/* *out is 0 or 1. */
SKN_API skn_status skn_gguf_get_bool(const skn_gguf* gguf, int64_t key, int* out);

/* A string value: *str points into the file and is NOT NUL-terminated; *len
 * is its length in bytes. Zero-copy. Returns as the scalar getters do. */
SKN_API skn_status skn_gguf_get_string(const skn_gguf* gguf, int64_t key, const char** str, size_t* len);

/* Arrays are named by an array id. A key's index is the id of that key's
 * array (the key must hold an array); arrays held in arrays have the ids
 * skn_gguf_array_nested returns (all at or above skn_gguf_kv_count). Each
 * array has exactly one id: any other value is refused, never read as
 * another array. */

/* The element type and element count of an array.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, no such array, a key that is
 * not an array: the message names its type). */
SKN_API skn_status skn_gguf_array_info(const skn_gguf* gguf, uint64_t array, skn_gguf_type* element_type,
                                       uint64_t* count);

/* The elements of an array of a fixed-size type (numbers and bools): *data
 * points at `count` little-endian values in the file (zero-copy; possibly
 * unaligned, so copy them out with memcpy). Returns SKN_OK;
 * SKN_E_INVALID_ARGUMENT (as skn_gguf_array_info, or string or array
 * elements). */
SKN_API skn_status skn_gguf_array_data(const skn_gguf* gguf, uint64_t array, const void** data, uint64_t* count);

/* String `i` of a string array, in O(1): *str points into the file, NOT
 * NUL-terminated, *len bytes. (The reader keeps an index of 8 bytes per
 * string, built at open, so a 150k-entry vocabulary is indexed without
 * copying any text.) Returns SKN_OK; SKN_E_INVALID_ARGUMENT (not a string
 * array, i out of range). */
SKN_API skn_status skn_gguf_array_string(const skn_gguf* gguf, uint64_t array, uint64_t i, const char** str,
                                         size_t* len);

/* The array id of element `i` of an array of arrays. Arrays nest at most 8
 * deep. Returns SKN_OK; SKN_E_INVALID_ARGUMENT (not an array of arrays, i
 * out of range). */
SKN_API skn_status skn_gguf_array_nested(const skn_gguf* gguf, uint64_t array, uint64_t i, uint64_t* nested);

/* ---- writing GGUF v3. The writer keeps everything in memory (tensor bytes
 * are copied when added) and validates each addition, so whatever it writes
 * reads back with skn_gguf_open. Pairs and tensors are written in the order
 * added; each tensor's data starts at a multiple of the alignment and is
 * zero-padded to it. For files larger than memory, declare the tensors and
 * stream their bytes instead (skn_gguf_writer_declare_tensor and
 * skn_gguf_stream_*, below). */

typedef struct skn_gguf_writer skn_gguf_writer;

/* Create an empty writer (alignment 32). Release it with
 * skn_gguf_writer_destroy. Returns SKN_OK; SKN_E_INVALID_ARGUMENT (out
 * NULL); SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_gguf_writer_create(skn_gguf_writer** out);

/* Release a writer and the copies it holds (NULL is ignored). */
SKN_API void skn_gguf_writer_destroy(skn_gguf_writer* writer);

/* Set the alignment: a positive multiple of 8. Any value other than 32 is
 * recorded as the u32 key general.alignment (a later call updates it).
 * Adding general.alignment as a u32 pair has the same effect.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_gguf_writer_set_alignment(skn_gguf_writer* writer, uint32_t alignment);

/* Add a metadata pair. Keys are 1..65535 bytes (NUL-terminated here) and
 * unique within a file; general.alignment must be a u32 positive multiple of
 * 8. Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, empty, too long or
 * repeated key); SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_gguf_writer_add_u8(skn_gguf_writer* writer, const char* key, uint8_t value);
SKN_API skn_status skn_gguf_writer_add_i8(skn_gguf_writer* writer, const char* key, int8_t value);
SKN_API skn_status skn_gguf_writer_add_u16(skn_gguf_writer* writer, const char* key, uint16_t value);
SKN_API skn_status skn_gguf_writer_add_i16(skn_gguf_writer* writer, const char* key, int16_t value);
SKN_API skn_status skn_gguf_writer_add_u32(skn_gguf_writer* writer, const char* key, uint32_t value);
SKN_API skn_status skn_gguf_writer_add_i32(skn_gguf_writer* writer, const char* key, int32_t value);
SKN_API skn_status skn_gguf_writer_add_u64(skn_gguf_writer* writer, const char* key, uint64_t value);
SKN_API skn_status skn_gguf_writer_add_i64(skn_gguf_writer* writer, const char* key, int64_t value);
SKN_API skn_status skn_gguf_writer_add_f32(skn_gguf_writer* writer, const char* key, float value);
SKN_API skn_status skn_gguf_writer_add_f64(skn_gguf_writer* writer, const char* key, double value);
/* value must be 0 or 1. */
SKN_API skn_status skn_gguf_writer_add_bool(skn_gguf_writer* writer, const char* key, int value);
/* `len` bytes at `value` (copied; may contain NUL bytes; value may be NULL
 * when len is 0). */
SKN_API skn_status skn_gguf_writer_add_string(skn_gguf_writer* writer, const char* key, const char* value,
                                              size_t len);

/* An array of `count` elements of a fixed-size type (numbers or bools: bool
 * elements are bytes 0 or 1), little-endian at `data` (copied). Returns as
 * the scalar adders, SKN_E_INVALID_ARGUMENT for a string or array element
 * type (use skn_gguf_writer_add_string_array) or a count whose byte size
 * overflows, and SKN_E_OUT_OF_MEMORY when the copy cannot be allocated. */
SKN_API skn_status skn_gguf_writer_add_array(skn_gguf_writer* writer, const char* key, skn_gguf_type element_type,
                                             const void* data, uint64_t count);

/* An array of `count` strings: strings[i] has lengths[i] bytes, or is
 * NUL-terminated when lengths is NULL. Copied. strings[i] may be NULL only
 * when lengths is given and lengths[i] is 0 (an empty string); a NULL string
 * without lengths is refused, since it is more likely a bug than "".
 * Returns as the scalar adders, and SKN_E_INVALID_ARGUMENT for a count
 * larger than a strings array can be (count * sizeof(char*) overflows). */
SKN_API skn_status skn_gguf_writer_add_string_array(skn_gguf_writer* writer, const char* key,
                                                    const char* const* strings, const size_t* lengths,
                                                    uint64_t count);

/* Add a tensor of a format skn implements. `ne` holds `rank` (1..4)
 * dimensions in FILE order (ggml's ne: ne[0] is the contiguous row length,
 * so a weight the model calls [out, in] is ne = {in, out}), each positive,
 * ne[0] a multiple of the format's block size. `size` must equal the
 * tensor's byte size (I2_S: trailer included). The bytes are copied. Names
 * are 1..63 bytes (ggml's limit) and unique. SKN_FORMAT_I2_S and
 * SKN_FORMAT_I2_S_G64 are both stored as GGUF type 36: the first such tensor
 * adds the key "skn.i2_s_layout" ("x86" or "arm64"), so one file holds one
 * of the two (skn_i2_s_change_layout converts).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, bad name, bad shape, size
 * not the tensor's: the message gives both; an I2_S tensor of the other
 * layout than the file's first, or the key added by hand before);
 * SKN_E_UNKNOWN_FORMAT;
 * SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_gguf_writer_add_tensor(skn_gguf_writer* writer, const char* name, skn_format format,
                                              int32_t rank, const int64_t* ne, const void* data, size_t size);

/* Add a tensor named by its GGUF type id, for copying tensors between files
 * as stored. `gguf_type` is either the id of a format skn implements (then
 * exactly as skn_gguf_writer_add_tensor with that format), or one of the
 * plain element types skn stores without computing with them: I8 (24), I16
 * (25), I32 (26), I64 (27) and F64 (28), whose size is the element size
 * times the element count. Type 36 (I2_S) is refused here: add it with
 * skn_gguf_writer_add_tensor and the skn_format naming its layout.
 * Other arguments and checks as skn_gguf_writer_add_tensor. Added in 1.0.0.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (as skn_gguf_writer_add_tensor, or
 * type 36); SKN_E_UNSUPPORTED (a type id that is neither: a removed or
 * unknown type, whose size skn does not know); SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_gguf_writer_add_tensor_of_type(skn_gguf_writer* writer, const char* name, int32_t gguf_type,
                                                      int32_t rank, const int64_t* ne, const void* data,
                                                      size_t size);

/* The size in bytes of the file the writer would write now.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL). */
SKN_API skn_status skn_gguf_writer_size(const skn_gguf_writer* writer, uint64_t* size);

/* Write the file into the caller's buffer (`capacity` bytes, at least
 * skn_gguf_writer_size). The caller owns the buffer throughout.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL); SKN_E_BUFFER_TOO_SMALL
 * (both sizes in the message; nothing written). */
SKN_API skn_status skn_gguf_writer_write_memory(const skn_gguf_writer* writer, void* dst, size_t capacity);

/* Write the file at `path`, replacing any file there. The bytes go to
 * "<path>.skn-partial" first, renamed over `path` when complete: on failure
 * `path` is untouched and no partial file is left. Returns SKN_OK;
 * SKN_E_INVALID_ARGUMENT (NULL); SKN_E_IO (the file cannot be created,
 * written or renamed: the message has the system's reason). */
SKN_API skn_status skn_gguf_writer_write_file(const skn_gguf_writer* writer, const char* path);

/* ---- nested arrays. An array of arrays (of arrays..., up to 8 deep, as
 * readers accept) is described by a tree of skn_gguf_array_value, each
 * array one node. */

/* One array. Zero-initialise and set struct_size =
 * sizeof(skn_gguf_array_value) in every node: later versions may append
 * fields, read only from nodes whose struct_size has room for them. Which
 * fields are read depends on element_type:
 *  - a fixed-size type (numbers, BOOL): `count` little-endian elements at
 *    `data` (bools are bytes 0 or 1), as skn_gguf_writer_add_array takes;
 *  - SKN_GGUF_TYPE_STRING: `count` strings at `strings`, with `lengths` as
 *    skn_gguf_writer_add_string_array takes them (NULL: NUL-terminated);
 *  - SKN_GGUF_TYPE_ARRAY: `count` pointers to the element arrays at
 *    `arrays` (each its own node; elements may have different types and
 *    counts, as GGUF allows). */
typedef struct skn_gguf_array_value {
    size_t struct_size;
    skn_gguf_type element_type;
    uint64_t count;
    const void* data;
    const char* const* strings;
    const size_t* lengths;
    const struct skn_gguf_array_value* const* arrays;
} skn_gguf_array_value;

/* Add the array `value` (any element type, arrays of arrays included) under
 * `key`. Everything is copied; the tree is borrowed for the call only.
 * A tree deeper than 8 levels (or one that refers back to itself, which
 * would be infinitely deep) is refused.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL writer, key or value, a key
 * refused as skn_gguf_writer_add_u8 refuses it, a node with struct_size too
 * small, an element type outside skn_gguf_type, NULL data, strings or
 * arrays with a non-zero count, a NULL element array, nesting deeper than
 * 8: the message names the path to the node, e.g. "value.arrays[2].arrays[0]");
 * SKN_E_OUT_OF_MEMORY. Thread-safety: as every writer function. */
SKN_API skn_status skn_gguf_writer_add_array_value(skn_gguf_writer* writer, const char* key,
                                                   const skn_gguf_array_value* value);

/* ---- streaming a file. For files larger than memory: declare the metadata
 * and every tensor (name, format, shape) on a writer, begin a stream, then
 * give each tensor's bytes in the order declared, whole or in chunks. The
 * file is byte-for-byte the one skn_gguf_writer_write_file writes for the
 * same metadata and tensors; the stream holds the header and one name and
 * size per tensor, never tensor data. Like a writer, a stream is used by one
 * thread at a time. */

/* Declare a tensor whose bytes a stream will be given later. Arguments and
 * checks as skn_gguf_writer_add_tensor, without data and size: the size is
 * the tensor's (skn_quantized_size; I2_S trailer included), and
 * skn_gguf_writer_size counts it, so the final file size is known before any
 * byte is written. A writer holding declared tensors cannot
 * skn_gguf_writer_write_memory or _write_file (SKN_E_INVALID_ARGUMENT naming
 * the tensor); a stream, in turn, takes only declared tensors.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, bad name, bad shape, a file
 * size that overflows 64 bits); SKN_E_UNKNOWN_FORMAT. */
SKN_API skn_status skn_gguf_writer_declare_tensor(skn_gguf_writer* writer, const char* name, skn_format format,
                                                  int32_t rank, const int64_t* ne);

/* Declare a tensor named by its GGUF type id (see
 * skn_gguf_writer_add_tensor_of_type: a format skn implements, or one of
 * I8, I16, I32, I64, F64), whose bytes a stream will be given later.
 * Checks as skn_gguf_writer_declare_tensor. Added in 1.0.0.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (as skn_gguf_writer_declare_tensor,
 * or type 36); SKN_E_UNSUPPORTED (a removed or unknown type id). */
SKN_API skn_status skn_gguf_writer_declare_tensor_of_type(skn_gguf_writer* writer, const char* name,
                                                          int32_t gguf_type, int32_t rank, const int64_t* ne);

/* A GGUF file being written. */
typedef struct skn_gguf_stream skn_gguf_stream;

/* Start writing the file `writer` describes to `path`: the header goes to a
 * new temporary file in the same directory ("<path>.skn-partial-XXXXXX",
 * created exclusively, so concurrent streams to one path never share one),
 * which skn_gguf_stream_finish renames over `path`. Until then `path` is
 * untouched. The stream copies what it needs: the writer may be changed or
 * destroyed afterwards. Release the stream with skn_gguf_stream_destroy.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, empty path, a tensor added
 * with its bytes: the message names it); SKN_E_IO (the temporary file cannot
 * be created or written: the message has the system's reason);
 * SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_gguf_stream_begin(const skn_gguf_writer* writer, const char* path, skn_gguf_stream** out);

/* Like skn_gguf_stream_begin, but write to the caller's open file
 * descriptor `fd` (open for writing), from its current position, with no
 * temporary file: the caller decides where the file lives and when it
 * appears (for example an unnamed O_TMPFILE file linked into place after
 * skn_gguf_stream_finish, with its own cleanup on signals). The header is
 * written at once. The descriptor stays the caller's: the stream writes
 * through a duplicate of it and never closes, renames, truncates or
 * removes the file; skn_gguf_stream_finish flushes and fsyncs it, and
 * abandoning the stream leaves whatever was written (the caller removes
 * it). Added in 1.0.0.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, fd not an open descriptor,
 * or open read-only; a tensor added with its bytes); SKN_E_IO (the header
 * cannot be written: the message has the system's reason);
 * SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_gguf_stream_begin_fd(const skn_gguf_writer* writer, int fd, skn_gguf_stream** out);

/* Append `size` bytes at `data` to tensor `name` (ROW_MAJOR bytes, as
 * skn_quantize writes them). `name` must be the first declared tensor not yet
 * written in full; a tensor may come in any number of chunks, none running
 * past its end. When its last byte is written the stream pads it to the
 * alignment and moves to the next tensor. size 0 is allowed (data may then
 * be NULL).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL stream or name, NULL data
 * with size > 0, a tensor out of order or already written, an unknown name,
 * a chunk past the tensor's end, a finished stream: the message names the
 * tensor given, the tensor expected, its position and its written and
 * declared byte counts; nothing is written); SKN_E_IO (the write failed,
 * e.g. a full disk or a file size limit, with the system's reason: the
 * stream is then broken, its temporary file removed, and every later call
 * fails with SKN_E_IO saying why). */
SKN_API skn_status skn_gguf_stream_write(skn_gguf_stream* stream, const char* name, const void* data, size_t size);

/* Where the stream is: *tensor is the index (in declaration order) of the
 * tensor the next bytes belong to, or the tensor count when every tensor is
 * written; *written is how many of its bytes are written. Either pointer
 * may be NULL. Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL stream). */
SKN_API skn_status skn_gguf_stream_position(const skn_gguf_stream* stream, int64_t* tensor, uint64_t* written);

/* Complete the file: check every tensor is written in full, flush and sync
 * the temporary file, and rename it over `path` (replacing any file there);
 * for a stream begun on a descriptor, flush and sync it only.
 * Destroy the stream afterwards either way.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL; a tensor not written in
 * full: the message names it and its byte counts, and the stream is
 * unchanged, so the caller may write the rest and finish again; already
 * finished); SKN_E_IO (sync or rename failed: the temporary file is
 * removed, `path` untouched). */
SKN_API skn_status skn_gguf_stream_finish(skn_gguf_stream* stream);

/* Release a stream (NULL is ignored). An unfinished stream's temporary file
 * is removed: abandoning a stream never leaves a partial file behind (a
 * stream begun on a descriptor leaves the descriptor and its file to the
 * caller). */
SKN_API void skn_gguf_stream_destroy(skn_gguf_stream* stream);

/* ----- end of GGUF files ----- */

/* ===== 9. Importance matrices (llama.cpp imatrix files) ================== */
/* Reading the importance-matrix files llama.cpp's llama-imatrix writes
 * (docs/imatrix.md), in either form:
 *  - SKN_IMATRIX_GGUF: a GGUF file (the current default) holding, per weight
 *    tensor NAME, the F32 tensors NAME.in_sum2 ([values per row, matrices]:
 *    sums of squared activations, one row per expert) and NAME.counts (one
 *    count per matrix), and the metadata imatrix.datasets,
 *    imatrix.chunk_count and imatrix.chunk_size;
 *  - SKN_IMATRIX_LEGACY: the older binary ".dat" form (entries of name,
 *    call count and values, then an optional chunk count and dataset name).
 * The form is told by the file's first bytes (the GGUF magic), not its name.
 *
 * Each entry's importance vector is what llama-quantize computes from the
 * file, float for float: GGUF, value = in_sum2 / count per matrix (1.0 for a
 * matrix whose count is 0: an expert calibration never routed to); legacy,
 * value = stored value / (float)ncall (as stored when ncall is 0). Pass it to
 * the quantizer as that weight's importance (for expert e of a 3-D weight,
 * matrix e's vector).
 *
 * Checking: every count, length and offset is checked before use. A file
 * llama.cpp would misread or that cannot come from llama-imatrix is refused
 * with SKN_E_FORMAT and a message naming the byte offset and the entry:
 * truncation, a negative or absurd count, a name that is empty, not UTF-8,
 * holding a NUL or longer than 255 bytes, a sum without its counts (or
 * counts without sums), counts that do not match the sums' matrices, tensors
 * that are not F32, non-finite or negative values, a count that is not a
 * whole number, a name given twice, missing imatrix.* metadata (GGUF form,
 * as llama-quantize requires it), bytes after a legacy file's end.
 *
 * Ownership: everything is read at open and owned by the skn_imatrix;
 * nothing points into the file or the caller's buffer afterwards. Names and
 * value arrays returned stay valid until skn_imatrix_close. An open
 * skn_imatrix is immutable: any number of threads may query it at once. */

typedef struct skn_imatrix skn_imatrix;

typedef enum skn_imatrix_form {
    SKN_IMATRIX_GGUF = 1,  /* llama-imatrix's GGUF output (its default) */
    SKN_IMATRIX_LEGACY = 2 /* the binary .dat form (llama-imatrix --output-format dat) */
} skn_imatrix_form;

/* Read the imatrix file at `path` (either form; read whole into memory, so
 * the file may change or vanish afterwards). On success *out owns it;
 * release it with skn_imatrix_close.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL path/out, a path that is not
 * a regular file); SKN_E_NOT_FOUND (no file at path); SKN_E_IO (the file
 * cannot be read: the message has the system's reason); SKN_E_FORMAT (empty
 * or malformed: the message names the byte offset and the entry);
 * SKN_E_UNSUPPORTED (a GGUF v1, big-endian or newer GGUF file);
 * SKN_E_OUT_OF_MEMORY. *out is untouched on error. */
SKN_API skn_status skn_imatrix_open(const char* path, skn_imatrix** out);

/* Like skn_imatrix_open over the `size` bytes at `data`. The bytes are read
 * during the call only: nothing is borrowed afterwards.
 * Returns as skn_imatrix_open; SKN_E_INVALID_ARGUMENT also for a NULL data
 * pointer; size 0 is SKN_E_FORMAT (empty). */
SKN_API skn_status skn_imatrix_open_memory(const void* data, size_t size, skn_imatrix** out);

/* Release an imatrix (NULL is ignored). Every name and value pointer
 * obtained from it becomes invalid. */
SKN_API void skn_imatrix_close(skn_imatrix* imatrix);

/* The file as a whole. Set struct_size = sizeof(skn_imatrix_props). */
typedef struct skn_imatrix_props {
    size_t struct_size;
    skn_imatrix_form form;
    int64_t entry_count;   /* the entries, sorted by name (GGUF) or in file order (legacy) */
    int64_t dataset_count; /* imatrix.datasets' strings, or the legacy trailer's dataset name (0 or 1) */
    /* imatrix.chunk_count, or the legacy trailer's chunk count; -1 when the
     * file does not say (a legacy file without a trailer). */
    int64_t chunk_count;
    /* imatrix.chunk_size (tokens per chunk); -1 for the legacy form, which
     * does not record it. */
    int64_t chunk_size;
} skn_imatrix_props;

/* Fill *props. Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, struct_size
 * too small). */
SKN_API skn_status skn_imatrix_info(const skn_imatrix* imatrix, skn_imatrix_props* props);

/* The number of entries (one per weight tensor), or -1 for a NULL imatrix. */
SKN_API int64_t skn_imatrix_count(const skn_imatrix* imatrix);

/* One entry. Set struct_size = sizeof(skn_imatrix_entry_props). */
typedef struct skn_imatrix_entry_props {
    size_t struct_size;
    const char* name;          /* the weight tensor's name, NUL-terminated UTF-8, owned by the imatrix */
    size_t name_len;           /* bytes of name, NUL not counted */
    int64_t values_per_row;    /* the weight's row length (its input dimension, ggml's ne0) */
    /* Matrices (experts of a 3-D weight; 1 for a 2-D one). The legacy form
     * does not record experts: its entries say 1, and values_per_row is
     * every expert's values one after another (llama-quantize slices expert
     * e at e * the tensor's row length). */
    int64_t matrices;
    /* Legacy: the entry's call count (ncall, in chunks). GGUF: the largest
     * per-matrix count (activation rows seen). */
    int64_t count;
    /* GGUF: matrices whose count is 0, whose importance is 1.0 everywhere
     * (experts calibration never routed to); 0 for the legacy form. */
    int64_t unused_matrices;
} skn_imatrix_entry_props;

/* Fill *entry for entry `index` (0 <= index < skn_imatrix_count).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, struct_size too small, index
 * out of range). */
SKN_API skn_status skn_imatrix_entry_info(const skn_imatrix* imatrix, int64_t index, skn_imatrix_entry_props* entry);

/* Set *index to the entry for weight tensor `name` (compared byte for byte),
 * or -1 when there is none (which is not an error: llama-quantize quantizes
 * such a tensor without importance).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT for NULL arguments. */
SKN_API skn_status skn_imatrix_find(const skn_imatrix* imatrix, const char* name, int64_t* index);

/* Pass as `matrix` to skn_imatrix_values for every matrix at once. */
#define SKN_IMATRIX_ALL_MATRICES (-1)

/* The importance values of entry `index`: for 0 <= matrix < matrices, that
 * matrix's values_per_row floats (expert `matrix` of a 3-D weight); for
 * SKN_IMATRIX_ALL_MATRICES, values_per_row * matrices floats, matrix after
 * matrix (the vector llama-quantize hands over for the whole tensor).
 * *values points into the imatrix (valid until skn_imatrix_close), *count
 * is the number of floats. Every value is finite and >= 0.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, index or matrix out of
 * range). */
SKN_API skn_status skn_imatrix_values(const skn_imatrix* imatrix, int64_t index, int64_t matrix,
                                      const float** values, size_t* count);

/* The count of one matrix of entry `index` (GGUF: activation rows; legacy:
 * the entry's ncall, for matrix 0 only).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, index or matrix out of
 * range). */
SKN_API skn_status skn_imatrix_matrix_count(const skn_imatrix* imatrix, int64_t index, int64_t matrix,
                                            int64_t* count);

/* Dataset name `i` (0 <= i < dataset_count): NUL-terminated UTF-8 owned by
 * the imatrix; *len (may be NULL) is its length in bytes.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL, i out of range). */
SKN_API skn_status skn_imatrix_dataset(const skn_imatrix* imatrix, int64_t i, const char** name, size_t* len);

/* ----- end of importance matrices ----- */

/* ===== 10. Context and matmul_wt ========================================== */
/* y[n, out] = x[n, in] * W[out, in]^T (+ bias): the primitive ggml's mul_mat
 * and BLAS's op(B) have, over a packed weight in either block order. Kernels
 * are chosen from a registry keyed by (op, weight format, weight layout
 * class, activation format, ISA); every choice is visible in trace events
 * (rule 2: every kernel declares the order it reads). */

/* A context: threads, the ISA cap, the trace sink and scratch memory reused
 * from call to call. A context must not be used by two threads at once; use
 * one context per calling thread. */
typedef struct skn_context skn_context;

/* The work of a parallel-for: call task(task_arg, i) once for every i in
 * [0, count), on any threads in any order, and return when all are done. */
typedef void (*skn_task_fn)(void* task_arg, int64_t index);
typedef void (*skn_parallel_for_fn)(skn_task_fn task, void* task_arg, int64_t count, void* user);

typedef enum skn_precision {
    /* Default. Activations are quantized per block to the weight format's
     * activation type (Q8_0, Q8_1 or Q8_K; F16/BF16 for those dense weights)
     * as the GGUF ecosystem does, and kernels use integer dot products. */
    SKN_PRECISION_FAST = 0,
    /* Float32 activations against decoded weights. */
    SKN_PRECISION_EXACT = 1
} skn_precision;

typedef struct skn_matmul_options {
    size_t struct_size;       /* sizeof(skn_matmul_options) */
    skn_precision precision;  /* SKN_PRECISION_FAST by default */
    /* When the weight's order has no kernel for this CPU but the other order
     * has: 1 = prepack the weight into `scope` for this call (an ADAPTER
     * event; this copies the whole weight on every call, so prefer
     * skn_prepack_for_matmul once at load); 0 = run the reference kernel
     * with a FALLBACK event. */
    int prepack_weights;
    int strict;               /* 1 = any fallback is an error (SKN_E_UNSUPPORTED) instead of an event */
    skn_scope* scope;         /* where prepack_weights allocates */
} skn_matmul_options;

/* Create a context: one thread, the ISA cap from the environment variable
 * SKN_ISA (scalar|avx2|avxvnni|avx512|avx512vnni|neon|neondotprod|neoni8mm|
 * sve|sve2) or else the best this CPU has, no trace sink.
 * SKN_STREAM (auto|near|far; default auto) forces how the few-row kernels
 * stream a weight from memory where the library would otherwise choose by
 * core family (docs/kernels/q32.md); it never changes a result, and is read
 * once per process.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (out NULL, SKN_ISA not a tier name,
 * SKN_STREAM not auto, near or far); SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_context_create(skn_context** out);
/* Destroy a context and its threads (NULL is ignored). */
SKN_API void skn_context_destroy(skn_context* ctx);

/* Use `threads` threads (1..1024) of the context's own pool for matmul work.
 * After a call the pool's threads spin for about 0.2 ms waiting for the next
 * one before they sleep (back-to-back calls of a decode step find them
 * awake); an idle context's threads then use no CPU.
 * Returns SKN_OK or SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_context_set_threads(skn_context* ctx, int threads);
/* Run matmul work on the caller's parallel-for instead of the pool (fn NULL
 * restores the pool), so an engine can lend its own threads. A task's
 * kernel uses up to about 128 KiB of the running thread's stack (register
 * tiles and decoded panels): lend threads with at least 256 KiB of stack.
 * Returns SKN_OK or SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_context_set_parallel_for(skn_context* ctx, skn_parallel_for_fn fn, void* user);
/* Send ADAPTER, KERNEL and FALLBACK events of this context's calls to `fn`
 * (NULL: none). Returns SKN_OK or SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_context_set_trace(skn_context* ctx, skn_trace_fn fn, void* user);
/* Cap the ISA kernels may use (kernels above the CPU's own tier never run).
 * Returns SKN_OK or SKN_E_INVALID_ARGUMENT. */
SKN_API skn_status skn_context_set_isa(skn_context* ctx, skn_isa cap);

/* y[i, o] = sum_k x[i, k] * W[o, k] (+ bias[o]) for i < x_rows, o < out.
 * x: float32, x_rows rows of `in` values, row i at x + i * x_row_stride.
 * w: a rank-2 view [out, in] in any layout (skn_require_out_in is applied).
 * bias: NULL or `out` floats. y: row i at y + i * y_row_stride.
 * Results are bit-identical for a weight in either block order and for any
 * thread count; across ISAs they agree within the bounds in docs/kernels.md.
 * In fast precision activations must be finite (a NaN or infinity is
 * refused naming its position); exact precision propagates them as IEEE does.
 * opts NULL means defaults.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL pointers, x_rows < 1, strides
 * negative or smaller than a row, sizes whose products overflow, y
 * overlapping x or bias, a weight that is not [out, in], prepack_weights
 * without a scope); SKN_E_UNSUPPORTED (strict and only a
 * fallback was possible: the message says what was wanted and why);
 * SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_matmul_wt(skn_context* ctx, const float* x, int64_t x_rows, int64_t x_row_stride,
                                 const skn_view* w, const float* bias, float* y, int64_t y_row_stride,
                                 const skn_matmul_options* opts);

/* Expert-routed matmul_wt, for mixture-of-experts layers: what llama.cpp's
 * mul_mat_id computes, with its ids checked. w is a stacked expert weight
 * [E, out, in] (rank 3): a GGUF tensor opened SKN_GGUF_OUT_IN, or its
 * skn_view_prepack copy in the other order. Each of the x_rows rows is
 * routed to k experts (k >= 1). For row i, slot s (0 <= s < k) and
 * e = ids[i * ids_row_stride + s]:
 *     y_is[o] = g_is * (sum_c x_is[c] * W[e, o, c] + bias[e * out + o])
 * with x_is = x + i * x_row_stride + s * x_slot_stride,
 *      y_is = y + i * y_row_stride + s * y_slot_stride (strides in floats),
 *      g_is = gates[i * gates_row_stride + s]; gates NULL: no multiply;
 *      bias NULL, or E * out floats (expert e's at bias + e * out).
 * x_slot_stride 0: every slot of row i reads x row i (the gate and up
 * projections); x_slot_stride >= in: each slot reads its own row (the down
 * projection, whose input differs per expert).
 * Output slot s of row i belongs to its s-th id, in the caller's order; an
 * id repeated within a row is computed for each slot naming it. The sum
 * over slots is left to the caller. The outputs of two (row, slot) pairs
 * must not overlap: y_slot_stride >= out and y_row_stride >= (k - 1) *
 * y_slot_stride + out (rows of k slots: llama.cpp's [n, k, out] is
 * y_slot_stride = out, y_row_stride = k * out), or y_row_stride >= out and
 * y_slot_stride >= (x_rows - 1) * y_row_stride + out (slot-major).
 * The slots routed to one expert are gathered into one batch, in (row, slot)
 * order, and run through the kernel skn_matmul_wt chooses for that expert's
 * [out, in] slice (skn_view_select(w, 0, e)) under the same options, its
 * fallbacks and strict mode included: each used expert's weight is read
 * once per call however many rows it serves, and an expert no slot names
 * is not read. The work is split over (expert, output rows) on the
 * context's threads.
 * Bits: y_is is bit-identical to g_is times (one float multiply, skipped
 * when gates is NULL) the matching row of skn_matmul_wt over that batch and
 * slice, with bias + e * out, under the same options and ISA cap; so, as
 * for skn_matmul_wt, the same in either block order and for any thread
 * count. A row's bits depend on its batch only where docs/kernels.md says
 * (exact precision: batches under 4 rows against 4 or more; libxsmm's F32
 * path from 128 rows); elsewhere they equal skn_matmul_wt of that row alone.
 * Trace: one KERNEL event per call (n = x_rows * k, out and in of an
 * expert), one FALLBACK event when experts ran on the reference, and an
 * ADAPTER event for each expert slice prepack_weights relaid out.
 * ids and gates are read during the call only; x, ids, gates and bias are
 * not written. Ids are read before any output is written.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL ctx, x, ids, w or y; a weight
 * that is not rank 3 [E, out, in]; x_rows or k below 1; an id outside
 * 0..E-1: the message names its row, its slot, the id and E; a stride
 * smaller than what it steps over, or x_slot_stride neither 0 nor >= in;
 * overlapping outputs; y overlapping x, gates or bias; sizes whose products
 * overflow; a NaN or infinity in x in fast precision, named by position);
 * SKN_E_UNSUPPORTED (strict and an expert could only fall back);
 * SKN_E_OUT_OF_MEMORY. Nothing is written on error. */
SKN_API skn_status skn_matmul_wt_id(skn_context* ctx, const float* x, int64_t x_rows, int64_t x_row_stride,
                                    int64_t x_slot_stride, const int32_t* ids, int64_t k, int64_t ids_row_stride,
                                    const float* gates, int64_t gates_row_stride, const skn_view* w,
                                    const float* bias, float* y, int64_t y_row_stride, int64_t y_slot_stride,
                                    const skn_matmul_options* opts);
/* The operands of skn_matmul_wt_id_ex: an expert-routed matmul described as
 * ggml describes mul_mat_id, with strides in BYTES (ggml's nb) and the number
 * of distinct activation slots per row (ggml's b->ne[1]). Zero-initialise it,
 * set struct_size = sizeof(skn_routed_matmul), then the fields; a later 1.x
 * may append fields (a struct_size that ends before a field means its
 * default). For row i < x_rows, slot s < k and e = ids[i, s]:
 *     y[i, s][o] = gates[i, s] * (sum_c x[i, s % x_slots][c] * W[e, o, c] + bias[e * out + o])
 * where, in bytes from the buffer's start,
 *     x[i, j]    is at x     + i * x_row_stride     + j * x_slot_stride (in floats, contiguous),
 *     ids[i, s]  is at ids   + i * ids_row_stride   + s * 4,
 *     gates[i, s] is at gates + i * gates_row_stride + s * 4,
 *     y[i, s]    is at y     + i * y_row_stride     + s * y_slot_stride (out floats, contiguous).
 * Every stride is a multiple of 4 (whole floats and int32s) and not negative. */
typedef struct skn_routed_matmul {
    size_t struct_size;        /* sizeof(skn_routed_matmul) */
    const skn_view* w;         /* stacked expert weight [E, out, in], as for skn_matmul_wt_id */
    const float* x;            /* activations */
    int64_t x_rows;            /* rows (tokens), >= 1 */
    /* Distinct activation slots per row, 1..k and dividing k: slot s of a row
     * reads its activation slot s % x_slots. 1: every slot reads the row (the
     * gate and up projections; ggml's b->ne[1] = 1); k: each slot its own (the
     * down projection); a divisor between: ggml's partial broadcast. */
    int64_t x_slots;
    int64_t x_row_stride;      /* bytes, >= in * 4 (ggml's b->nb[2]) */
    /* bytes (ggml's b->nb[1]): >= in * 4 when x_slots > 1; with x_slots = 1,
     * 0 or >= in * 4 (not read) */
    int64_t x_slot_stride;
    const int32_t* ids;        /* expert ids, k contiguous per row */
    int64_t k;                 /* slots (experts) per row, >= 1 */
    int64_t ids_row_stride;    /* bytes, >= k * 4 (ggml's ids->nb[1]) */
    const float* gates;        /* NULL (no multiply) or k contiguous floats per row */
    int64_t gates_row_stride;  /* bytes, >= k * 4 when gates is not NULL */
    const float* bias;         /* NULL or E * out floats, expert e's at bias + e * out */
    float* y;                  /* outputs */
    int64_t y_row_stride;      /* bytes (ggml's dst->nb[2]) */
    int64_t y_slot_stride;     /* bytes (ggml's dst->nb[1]); read when k > 1 */
} skn_routed_matmul;

/* skn_matmul_wt_id over an skn_routed_matmul: the same computation, kernels,
 * bits, trace events and contract (see skn_matmul_wt_id), with byte strides
 * and x_slots. skn_matmul_wt_id(..., x_slot_stride, ...) is this call with
 * x_slots = 1 when x_slot_stride is 0, else x_slots = k, and every stride
 * times 4. The outputs of two (row, slot) pairs must not overlap (y_slot_stride
 * >= out * 4 and y_row_stride >= (k - 1) * y_slot_stride + out * 4, or the
 * slot-major nesting); y must not overlap x, gates or bias. args, w and the
 * buffers are borrowed for the call only; only y is written. opts NULL means
 * defaults. docs/kernels.md shows the fields filled from ggml's tensors.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (what skn_matmul_wt_id refuses, and:
 * args NULL or its struct_size smaller than the 1.0 struct, x_slots outside
 * 1..k or not dividing k, a stride that is not a multiple of 4: the message
 * names the field and shows strides in bytes); SKN_E_UNSUPPORTED (strict and
 * an expert could only fall back); SKN_E_OUT_OF_MEMORY. Nothing is written on
 * error. */
SKN_API skn_status skn_matmul_wt_id_ex(skn_context* ctx, const skn_routed_matmul* args,
                                       const skn_matmul_options* opts);


/* Prepare a weight for skn_matmul_wt once, at load: check it is [out, in]
 * (skn_require_out_in), then return it in the block order that is fastest
 * for this context's ISA cap (fast precision). Both orders have SIMD kernels
 * for the block formats; the order is the one whose kernel has the higher
 * ISA tier, and between kernels of the same tier the one measured faster for
 * this format and tier (src/dispatch/order_table.inc, written by
 * `skn bench --order-table`): n = 1 decides, a tie there (under 5%) goes to
 * n >= 32, a tie there too or a tier without measurements keeps the weight's
 * order. The table has rows for every block format at avx2, avx512 and
 * avx512vnni; on avx512vnni it gives INPUT_BLOCK_MAJOR for the 32-element
 * formats (Q4_0 ... Q8_0, IQ4_NL, MXFP4), I2_S, Q1_0 and Q2_0, ROW_MAJOR for
 * Q4_K and IQ4_XS, and keeps the weight's order for the rest (within 5%).
 * The measurements come from one machine per table and the faster order
 * varies between microarchitectures (docs/performance.md shows two).
 * A row of the tuning table for this core (docs/kernels.md, "The tuning
 * table": built in, or written by `skn tune`; skn_tuning_row_at lists them)
 * may instead name another encoding for one-token products: the other
 * order, or the format's row-interleaved twin (Q4_0_R8 ..., a dense BF16
 * weight's BF16_R16). The twin is taken only when out is a multiple of its
 * block_rows and a kernel of the same ISA tier reads it; its products equal
 * the canonical format's bit for bit. The encoding is chosen once, for
 * every batch size.
 * Call it once per weight at load, not per call: a
 * conversion copies the whole weight.
 * A stacked expert weight [E, out, in] for skn_matmul_wt_id is taken too:
 * it gets the order one expert's [out, in] slice would get, and a copy
 * permutes each expert's matrix on its own (skn_view_select's slices of the
 * result are fresh [out, in] weights of that order).
 * A weight already in that order is returned as is (the same handle, one
 * more reference): calling this twice copies nothing. Otherwise the copy
 * lives in `scope` and an ADAPTER event is sent to the context's trace sink
 * (with no sink, to the log at SKN_LOG_DEBUG).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL arguments, not [out, in] or
 * [E, out, in], NULL scope when a copy is needed); SKN_E_OUT_OF_MEMORY. */
SKN_API skn_status skn_prepack_for_matmul(skn_context* ctx, const skn_view* w, skn_scope* scope, skn_view** out);

/* Every registered kernel, by name: matmul_wt_<format>_<order>_<activation>_<isa>
 * (order: rm, ibm, dense, strided), e.g. "matmul_wt_q4_k_ibm_q8_k_avx512vnni",
 * and for a variant "_<variant>" after it ("..._avx512vnni_far").
 * skn_kernel_name returns NULL for an index out of range. */
SKN_API int32_t skn_kernel_count(void);
SKN_API const char* skn_kernel_name(int32_t index);
/* The kernel's variant ("far", "ahead": variants of one kernel differ only in
 * how they stream memory and give the same bits; the tuning table picks one
 * per core), "" for the plain kernel, NULL for an index out of range. */
SKN_API const char* skn_kernel_variant(int32_t index);

/* ----- Tuning: the per-core choices (docs/kernels.md, "The tuning table") --
 * Which variant of a kernel runs, the task size of few-row calls, and the
 * encoding skn_prepack_for_matmul prefers depend on the core, not only on the
 * ISA tier. They come from one table built into the library, keyed by CPU
 * (skn_cpu_id) with the tier as fallback; then from a tuning file `skn tune`
 * wrote for this CPU (SKN_TUNING_FILE, else $XDG_CONFIG_HOME/skn/tuning, else
 * ~/.config/skn/tuning; a file for another CPU is ignored with a log line);
 * then from skn_context_set_tuning. No choice changes a result bit. */

typedef struct skn_tuning_row {
    size_t struct_size;    /* set to sizeof(skn_tuning_row) */
    const char* choice;    /* "variant", "tasks" or "prefer" */
    const char* cores;     /* which CPUs the row is for: "AuthenticAMD family 0x19", "any" ... */
    const char* tier;      /* the ISA tier ("avx512vnni"), or "*" for any */
    const char* subject;   /* a kernel name glob ('*' any run), or "FORMAT:gemv" / "FORMAT:gemm" */
    const char* value;     /* the variant ("" plain), the task rows, or "FORMAT/rm" / "FORMAT/ibm" */
    const char* evidence;  /* the run that measured it: machine, date, results file */
    const char* source;    /* "built-in", the tuning file's path, or "context" */
} skn_tuning_row;

/* The rows that apply on this CPU for `ctx`, in precedence order (a later
 * row beats an earlier one of the same specificity). skn_tuning_row_at's
 * strings live until `ctx` is destroyed or given another
 * skn_context_set_tuning; skn_tuning_count(NULL) is 0. skn_tuning_row_at returns SKN_E_INVALID_ARGUMENT for a NULL
 * argument, a struct_size below the fields above, or an index out of range. */
SKN_API int32_t skn_tuning_count(const skn_context* ctx);
SKN_API skn_status skn_tuning_row_at(const skn_context* ctx, int32_t index, skn_tuning_row* row);

/* The tuning file the process read, or "" when none was; `*why` (if not NULL)
 * says why not, or "". Static strings. */
SKN_API const char* skn_tuning_file(const char** why);
/* The path a tuning file for this user is read from (and `skn tune` writes
 * to by default): SKN_TUNING_FILE, else $XDG_CONFIG_HOME/skn/tuning, else
 * $HOME/.config/skn/tuning; "" when none can be formed. Static. */
SKN_API const char* skn_tuning_file_path(void);

/* Set one choice for `ctx` only, beating the table and the file:
 * choice "variant", subject a kernel name glob, value a variant or "" (the
 * plain kernel); "tasks", a glob, a row count; "prefer", "FORMAT:gemv" or
 * "FORMAT:gemm", "FORMAT/rm" or "FORMAT/ibm" (the weight's format or its
 * row-interleaved twin). `skn tune` times variants this way. Task sizes are
 * fixed when the library starts: a "tasks" row set here is listed but moves
 * no task (it takes a tuning file).
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT (NULL arguments, an unknown choice,
 * a value that cannot be one of that choice's: the message says the form). */
SKN_API skn_status skn_context_set_tuning(skn_context* ctx, const char* choice, const char* subject,
                                          const char* value);

/* ===== 11. Logging ========================================================= */

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
 * back). fn = NULL restores the default (and ignores `level`): messages go
 * to stderr at the level the environment variable SKN_LOG names when the
 * library first logs ("trace", "debug", "info", "warn", "error"); with
 * SKN_LOG unset, empty or "off" nothing is written, since a library should
 * not write to a program's terminal unasked. Any other SKN_LOG value is
 * reported once on stderr and then ignored.
 * The callback runs with no skn lock held and may call skn functions,
 * skn_set_log_callback included; messages those calls raise are dropped.
 * After skn_set_log_callback returns, a message already being delivered on
 * another thread may still reach the previous callback: keep its `user`
 * valid until such calls cannot be running.
 * Every error is logged at DEBUG with its status and message.
 * Returns SKN_OK; SKN_E_INVALID_ARGUMENT for a level outside skn_log_level. */
SKN_API skn_status skn_set_log_callback(skn_log_level level, skn_log_fn fn, void* user);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SKN_H */
