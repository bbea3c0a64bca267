/* SPDX-License-Identifier: MIT */
/* The hyper-parameters skn quantize's preset rules read from a GGUF file's
 * metadata, with what it assumes when a key is missing. */
#ifndef SKN_TOOL_QUANT_MODEL_H
#define SKN_TOOL_QUANT_MODEL_H

#include "quant_rules.h"
#include "skn/skn.h"

/* Fill `m` from general.architecture and {arch}.block_count, .expert_count,
 * .attention.head_count, .attention.head_count_kv. `names` are the tensor
 * names (block_count's stand-in: 1 + the highest blk.N). */
void skn_model_facts_read(const skn_gguf* g, const char* const* names, int64_t n, skn_model_facts* m);

#endif
