/* SPDX-License-Identifier: MIT */
/* What several sub-commands share: JSON strings, tensors as rows of
 * decoded floats. On the public C API only. */
#ifndef SKN_TOOL_TENSOR_UTIL_H
#define SKN_TOOL_TENSOR_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "skn/skn.h"

/* The length of the valid UTF-8 sequence at s[0..n) (1 for ASCII), its code
 * point in *code_point; or 0 when it is not one (bad lead byte, missing
 * continuation, overlong form, surrogate, above U+10FFFF). */
size_t skn_utf8_decode(const unsigned char* s, size_t n, uint32_t* code_point);

/* Print `len` bytes as a JSON string (quotes included): valid UTF-8 as is,
 * '"', '\\' and control characters escaped, and each byte that is not part
 * of valid UTF-8 as U+FFFD (JSON text must be UTF-8). */
void skn_json_string(FILE* out, const char* s, size_t len);

/* A float as a JSON value: finite as %.9g, NaN and infinities as null. */
void skn_json_float(FILE* out, double v, int digits);

/* The tensor as a matrix: `cols` = ne[0] (the contiguous row), `rows` = the
 * product of the other dimensions. */
int64_t skn_tensor_rows(const skn_gguf_tensor_props* t);

/* The name of a format ("Q4_K"), or "?" for one libskn does not know. */
const char* skn_tool_format_name(skn_format format);

/* Rows one block of `format` spans: R for a row-interleaved format
 * (skn_format_props.block_rows: Q4_0_R8 8), 1 for every other and for a
 * format skn does not know. A row-interleaved tensor's bytes are contiguous
 * per group of R rows, not per row: slice it in whole groups. */
int64_t skn_format_rows_per_block(skn_format format);

/* The canonical format a row-interleaved format re-encodes
 * (skn_format_props.interleaves: Q4_0 for Q4_0_R8); `format` itself for
 * every other. */
skn_format skn_format_canonical(skn_format format);

/* The row-interleaved format that re-encodes canonical `format` (Q4_0_R8 for
 * Q4_0), found among the formats libskn lists; SKN_FORMAT_INVALID when it
 * has none (or `format` is itself interleaved). */
skn_format skn_format_interleaved_twin(skn_format format);

/* Whether `a` and `b` are a canonical format and its row-interleaved twin,
 * in either order: the one conversion that moves bytes without decoding. */
int skn_formats_are_twins(skn_format a, skn_format b);

/* How many rows to handle at a time: about `max_elements` values of rows of
 * `cols`, at least one, rounded down to a multiple of `unit` (the rows one
 * block spans: a chunk must hold whole groups) but never below it, at most
 * `rows`. */
int64_t skn_chunk_rows(int64_t cols, int64_t rows, int64_t max_elements, int64_t unit);

/* Decode rows [row0, row0 + nrows) of tensor `index` into dst (nrows *
 * ne[0] floats), any rows: a row-interleaved tensor is decoded in whole
 * groups of its block_rows rows (a partial group at either end through a
 * group-sized scratch buffer). Formats with a per-tensor trailer (I2_S) are
 * decoded whole and the rows copied out. Returns SKN_OK or the status of
 * the failing call (skn_last_error() has the message). */
skn_status skn_tensor_decode_rows(const skn_gguf* g, int64_t index, const skn_gguf_tensor_props* t, int64_t row0,
                                  int64_t nrows, float* dst);

/* The tools' --i2s-layout option: "x86" or "arm64" says how a file without
 * the "skn.i2_s_layout" key holds its I2_S (type 36) tensors, for every
 * file opened afterwards. Returns 0 (and changes nothing) for any other
 * value. */
int skn_tool_set_i2s_layout(const char* value);

/* The options the tools open GGUF files with: OUT_IN labels, tensors of
 * types skn does not implement listed (allow_unsupported), and the
 * --i2s-layout given. */
void skn_tool_gguf_options(skn_gguf_options* opts);

/* Open FILE with skn_tool_gguf_options. */
skn_status skn_tool_open(const char* path, skn_gguf** out);

/* Why tensor t (supported = 0) cannot be decoded, for a message: an I2_S
 * tensor whose layout the file does not say gets the --i2s-layout advice,
 * anything else "a type skn does not decode". */
const char* skn_tool_unsupported_reason(const skn_gguf_tensor_props* t);

/* The --i2s-layout advice alone, for a footnote. */
const char* skn_tool_i2s_layout_advice(void);

#endif
