/* SPDX-License-Identifier: MIT */
/* skn tune's measurements: candidates for one choice (a kernel's variants,
 * or a format's encodings), each with its own context and its own copies of
 * one memory-bound weight, timed at n = 1 in interleaved rounds. Knows
 * nothing of the tuning file; tune.c decides what a result means. */
#ifndef SKN_TOOL_TUNE_MEASURE_H
#define SKN_TOOL_TUNE_MEASURE_H

#include <stdint.h>

#include "skn/skn.h"

#define TUNE_MAX_CANDIDATES 8
#define TUNE_MAX_ROUNDS 201
#define TUNE_CALLS_PER_ROUND 4 /* a candidate's calls per round (tune_time_rounds) */

typedef struct tune_candidate {
    char label[48];      /* "plain", "far", "Q4_0_R8/ibm": what the summary prints */
    char value[48];      /* the tuning value it stands for: "", "far", "Q4_0_R8/ibm" */
    skn_format format;   /* the encoding its weight copies are in */
    skn_block_order order;
    skn_context* ctx;
    skn_view** copies;   /* `ncopies` views over distinct memory */
    char ran[128];       /* the kernel the trace saw */
    skn_isa ran_isa;
    int fallback;        /* the trace saw a FALLBACK event */
    int dropped;         /* not timed: its kernel is not the one intended, or a lower tier */
    double us[TUNE_MAX_ROUNDS];
    int rounds;
    int next_copy;       /* where its next round starts in the rotation */
    double median, q1, q3; /* microseconds per call */
} tune_candidate;

typedef struct tune_weight {
    skn_format format; /* canonical, ROW_MAJOR */
    int64_t rows, cols;
    int ncopies;
    void** bytes;      /* the quantized copies */
    size_t nbytes;     /* one copy */
    skn_view** views;  /* ROW_MAJOR views over them */
    skn_scope* scope;  /* where the converted copies live */
    float* x;
    float* y;
} tune_weight;

/* Quantize a [rows, cols] weight of `format` once (deterministic values)
 * and copy it until the copies hold at least `min_total` bytes (at least
 * two). Returns 0, or -1 with `err` saying why. */
int tune_weight_make(tune_weight* w, skn_format format, int64_t rows, int64_t cols, size_t min_total, char* err,
                     size_t err_cap);
void tune_weight_free(tune_weight* w);

/* Give `c` its context (`threads` threads, no tuning of its own yet) and its
 * copies of `w` in c->format / c->order. Returns 0, or -1 with `err`. */
int tune_candidate_prepare(tune_candidate* c, tune_weight* w, int threads, char* err, size_t err_cap);
void tune_candidate_free(tune_candidate* c, const tune_weight* w);

/* One call on `view` with a trace sink: the kernel that ran into `name`,
 * its tier and whether it was a fallback. Returns 0, or -1 with `name`
 * holding the error. */
int tune_trace_call(skn_context* ctx, const tune_weight* w, const skn_view* view, char* name, size_t name_cap,
                    skn_isa* isa, int* fallback);

/* Time the candidates that are not dropped round by round (the order
 * rotating each round) until `rounds_max` rounds or `deadline` (seconds on
 * roofline_now's clock) pass; a round is TUNE_CALLS_PER_ROUND calls on each
 * candidate's next copies in turn, its time the mean per call. Candidates
 * start a share of the rotation apart, so two that read the same copies
 * (a kernel's variants) never read one right after the other. Fills us,
 * rounds, median, q1, q3. Returns the rounds run. */
int tune_time_rounds(tune_candidate* cands, int ncands, tune_weight* w, int rounds_max, double deadline);

#endif
