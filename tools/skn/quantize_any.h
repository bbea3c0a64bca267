/* SPDX-License-Identifier: MIT */
#ifndef SKN_TOOL_QUANTIZE_ANY_H
#define SKN_TOOL_QUANTIZE_ANY_H

#include <stddef.h>
#include <stdint.h>

#include "skn/skn.h"

/* skn_quantize for a weight the tools make up themselves (doctor's probes,
 * tune's timed weights): a format skn_quantize cannot write without
 * importance weights (IQ2_XXS, IQ2_XS, IQ1_S and their row-interleaved
 * twins) gets unit ones, every other format none. Errors as
 * skn_quantize_with_options's; SKN_E_OUT_OF_MEMORY for the unit weights. */
skn_status quantize_any(skn_format format, const float* src, int64_t rows, int64_t cols, void* dst, size_t dst_size);

#endif
