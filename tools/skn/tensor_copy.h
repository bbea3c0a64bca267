/* SPDX-License-Identifier: MIT */
/* Tensors copied byte for byte from one GGUF file into a stream (skn
 * quantize's kept tensors, skn edit, split and merge): declared with the
 * type they are stored in, streamed in chunks, input pages released as they
 * are read. On the public C API only. */
#ifndef SKN_TOOL_TENSOR_COPY_H
#define SKN_TOOL_TENSOR_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "meta_list.h"
#include "quant_progress.h"
#include "skn/skn.h"

/* Drop the pages of the mapped input in [p, p + n) from this process (the
 * whole pages inside the range): a pass over a mapped file would otherwise
 * keep every page it read resident until the end, and RSS would grow to the
 * file's size. The pages come back from the file if read again. */
void skn_release_input(const void* p, size_t n);

/* Declare tensor `t` (a tensor of an open file) on `w` as stored: by format
 * when skn implements its type (I2_S keeps its layout), else by type id
 * (I8 ... F64). Returns the writer's status (SKN_E_UNSUPPORTED for a type
 * whose size skn does not know). */
skn_status skn_copy_declare(skn_gguf_writer* w, const skn_gguf_tensor_props* t);

/* Whether declaring tensor `format` makes the writer record the
 * "skn.i2_s_layout" key itself (I2_S or I2_S_G64): a copied key of that
 * name must then be dropped from the metadata, or the writer refuses it as
 * repeated. */
int skn_copy_records_i2s_layout(skn_format format);

/* Whether declaring tensors [first, first + n) of `g` as stored makes the
 * writer record "skn.i2_s_layout" (drop a copied key of that name first). */
int skn_copy_range_records_i2s(const skn_gguf* g, int64_t first, int64_t n);

/* Declare tensors [first, first + n) of `g` on `w` as stored, in order.
 * Returns 0, or -1 after printing "skn CMD: ..." (a type-36 tensor of a
 * layout neither the file nor --i2s-layout gives, a type whose size skn
 * does not know). */
int skn_copy_declare_range(const char* cmd, skn_gguf_writer* w, const skn_gguf* g, int64_t first, int64_t n);

/* Write tensor `index` of `g` (named `name`) to `s` as stored, in chunks of
 * 16 MiB. `progress` may be NULL. Returns 0, or -1 after printing "skn CMD:
 * tensor "NAME": why". */
int skn_copy_tensor(const char* cmd, const skn_gguf* g, int64_t index, const char* name, skn_gguf_stream* s,
                    skn_progress* progress, int64_t position);

/* Tensors [first, first + count) of one input. */
typedef struct {
    const skn_gguf* g;
    int64_t first, count;
} skn_copy_range;

struct skn_output;

/* Stream the file `w` describes (metadata added, the ranges' tensors
 * declared in this order) into `out`, each tensor copied as stored, then put
 * it in place. Takes `out`: committed on success, removed on failure.
 * Returns 0, or 1 after printing "skn CMD: ..." naming `out`'s path. */
int skn_copy_into(const char* cmd, const skn_gguf_writer* w, struct skn_output* out, const skn_copy_range* ranges,
                  int n_ranges);

#endif
