/* SPDX-License-Identifier: MIT */
#ifndef SKN_TOOL_QUANT_META_H
#define SKN_TOOL_QUANT_META_H

#include <stdint.h>

#include "skn/skn.h"

/* Add pair `k` of `g` (named `key`) to the writer with the same type and
 * value. Returns the writer's or reader's status. */
skn_status skn_quant_copy_pair(const skn_gguf* g, int64_t k, const char* key, skn_gguf_writer* w);

#endif
