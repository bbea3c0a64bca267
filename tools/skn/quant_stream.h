/* SPDX-License-Identifier: MIT */
/* skn quantize's tensor pass: decode a few rows, quantize them on N threads,
 * stream them to the writer, and let go of the input pages read so far, so
 * that memory holds one chunk, never a tensor or the model. */
#ifndef SKN_TOOL_QUANT_STREAM_H
#define SKN_TOOL_QUANT_STREAM_H

#include <stdint.h>

#include "quant_progress.h"
#include "skn/skn.h"

/* Values decoded per step (16 MiB of floats); a row longer than this is one step. */
enum { kQuantChunkElements = 1 << 22, kQuantMaxThreads = 256 };

typedef struct {
    const skn_gguf* g;
    int64_t index;                   /* the tensor in g */
    const skn_gguf_tensor_props* in;
    skn_format out_format;
    uint64_t out_bytes;
    int copy;                        /* write the stored bytes unchanged */
    /* Convert the stored bytes to out_format without decoding them: the two
     * are a canonical format and its row-interleaved twin (skn_packed_convert,
     * lossless). */
    int repack;
    /* Importance weights (--imatrix): ne[0] floats per matrix, one matrix per
     * ne[2] slice (an expert of a 3-D weight), matrix after matrix; or NULL. */
    const float* importance;
} skn_quant_job;

/* Write one tensor's bytes to `s`. `position` is its 0-based place in the
 * output (for the progress line). Returns 0, or -1 after printing a message
 * that names the tensor (and the rows, for a conversion error). */
int skn_quant_stream_tensor(const skn_quant_job* job, skn_gguf_stream* s, int threads, skn_progress* progress,
                            int64_t position);

#endif
