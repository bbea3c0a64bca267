/* SPDX-License-Identifier: MIT */
/* skn quantize --tensor-type PATTERN=TYPE: a per-tensor type chosen by a
 * regular expression searched in the tensor's name (as llama-quantize's
 * --tensor-type; POSIX extended syntax here, see docs/tools.md). */
#ifndef SKN_TOOL_QUANT_OVERRIDES_H
#define SKN_TOOL_QUANT_OVERRIDES_H

#include <regex.h>
#include <stddef.h>

#include "skn/skn.h"

typedef struct {
    const char* text; /* the argument as given (borrowed from argv) */
    char* pattern;    /* the part before the last '=' */
    skn_format format;
    const char* format_name; /* static, from skn_format_info */
    regex_t re;
} skn_override;

/* Parse "PATTERN=TYPE". Returns 0, or -1 with a message for the user in
 * `err` (no '=', an empty side, a pattern that does not compile, a TYPE
 * skn does not know). */
int skn_override_parse(const char* arg, skn_override* out, char* err, size_t errlen);

/* Whether the pattern matches anywhere in `name`. */
int skn_override_matches(const skn_override* o, const char* name);

void skn_override_free(skn_override* o);

#endif
