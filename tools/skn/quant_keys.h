/* SPDX-License-Identifier: MIT */
/* skn quantize's output metadata and the --override-kv values the rules
 * read (quant_keys.c). */
#ifndef SKN_TOOL_QUANT_KEYS_H
#define SKN_TOOL_QUANT_KEYS_H

#include <stdint.h>

#include "meta_list.h"
#include "quant_plan.h"
#include "skn/skn.h"

/* The output's metadata as llama-quantize writes it (llama_model_quantize_impl):
 * IN's pairs in order without split.no, split.count and split.tensors.count;
 * then general.quantization_version (u32 2) and general.file_type (when
 * `has_file_type`); then each --override-kv in order; then, with an imatrix,
 * quantize.imatrix.file, .dataset (its first dataset), .entries_count and
 * .chunks_count (when positive) -- each set as ggml's gguf_set_val_* sets a
 * key: removed from its place and appended. Returns 0 or -1 (out of memory;
 * message printed). */
int skn_quant_metadata(const skn_quant_options* o, const skn_gguf* g, const skn_imatrix* im, int has_file_type,
                       uint32_t file_type, skn_meta_list* out);

/* llama.cpp reads the model's hyper-parameters through the --override-kv
 * values too: an int override of {arch}.block_count, .expert_count,
 * .attention.head_count or .attention.head_count_kv replaces what the rules
 * read. */
void skn_quant_override_facts(const skn_quant_options* o, skn_model_facts* m);

#endif
