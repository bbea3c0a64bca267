/* SPDX-License-Identifier: MIT */
/* skn quantize's progress line: tensor i/N, bytes, rate and ETA on stderr,
 * redrawn in place, only when stderr is a terminal (a log file or a pipe
 * gets nothing). */
#ifndef SKN_TOOL_QUANT_PROGRESS_H
#define SKN_TOOL_QUANT_PROGRESS_H

#include <stdint.h>

typedef struct {
    int enabled;
    int64_t n_tensors;
    uint64_t total_bytes; /* input bytes of all tensors */
    uint64_t done_bytes;
    double start, last_draw;
} skn_progress;

/* Seconds on a monotonic clock. */
double skn_now(void);

void skn_progress_begin(skn_progress* p, int64_t n_tensors, uint64_t total_bytes);
/* `bytes` more input bytes are done; tensor `i` (0-based) is under way. */
void skn_progress_step(skn_progress* p, int64_t i, const char* name, uint64_t bytes);
/* Erase the line. */
void skn_progress_end(skn_progress* p);

#endif
