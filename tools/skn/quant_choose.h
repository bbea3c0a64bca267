/* SPDX-License-Identifier: MIT */
/* skn quantize's per-tensor decision and general.file_type (quant_choose.c). */
#ifndef SKN_TOOL_QUANT_CHOOSE_H
#define SKN_TOOL_QUANT_CHOOSE_H

#include <stdint.h>

#include "quant_plan.h"
#include "skn/skn.h"

/* llama.cpp's tensor order (by layer, then name): the indexes of `plan`. */
int64_t* skn_quant_llama_order(const skn_quant_row* plan, int64_t nt);

/* Choose row r's type (call in llama.cpp's order: the rule counters advance).
 * Returns 0, 1 for a tensor refused (message printed), -1 for an internal
 * failure. */
int skn_quant_choose(const skn_quant_options* o, const skn_model_facts* m, skn_rule_state* st, skn_quant_row* r);

/* Find tensor r's entry in the imatrix, as llama-quantize does: by name; no
 * entry, no importance weights; an entry whose size is not ne[0] x ne[2] is
 * an error, except for token_embd.weight (quantized without). Returns 0 or
 * -1 (message printed). */
int skn_quant_attach_importance(const skn_imatrix* im, const char* path, skn_quant_row* r);

/* general.file_type for the output: the preset's llama_ftype, llama.cpp's
 * number for a plain format, for COPY the input's (or the loader's guess,
 * 1024 + ftype). Returns 1 with *file_type set, or 0 when there is none. */
int skn_quant_file_type(const skn_quant_options* o, const skn_gguf* g, const skn_quant_row* plan,
                        const int64_t* order, int64_t nt, uint32_t* file_type);

#endif
