/* SPDX-License-Identifier: MIT */
#include "quant_overrides.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int skn_override_parse(const char* arg, skn_override* out, char* err, size_t errlen) {
    memset(out, 0, sizeof *out);
    out->text = arg;
    /* The last '=': a pattern may hold '=' itself, a type name never does. */
    const char* eq = strrchr(arg, '=');
    if (eq == NULL || eq == arg || eq[1] == 0) {
        snprintf(err, errlen, "--tensor-type \"%s\": give PATTERN=TYPE, e.g. 'attn_v=q8_0' or 'blk\\.[0-3]\\.ffn_down=q6_k'",
                 arg);
        return -1;
    }
    if (skn_format_from_name(eq + 1, &out->format) != SKN_OK) {
        snprintf(err, errlen, "--tensor-type \"%s\": %s", arg, skn_last_error());
        return -1;
    }
    skn_format_props fp;
    memset(&fp, 0, sizeof fp);
    fp.struct_size = sizeof fp;
    if (skn_format_info(out->format, &fp) != SKN_OK) {
        snprintf(err, errlen, "--tensor-type \"%s\": %s", arg, skn_last_error());
        return -1;
    }
    out->format_name = fp.name;
    out->pattern = malloc((size_t)(eq - arg) + 1);
    if (out->pattern == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* llama-quantize lower-cases the pattern (tensor names are lower case). */
    for (size_t i = 0; i < (size_t)(eq - arg); ++i) out->pattern[i] = (char)tolower((unsigned char)arg[i]);
    out->pattern[eq - arg] = 0;
    const int rc = regcomp(&out->re, out->pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[128];
        regerror(rc, &out->re, why, sizeof why);
        snprintf(err, errlen, "--tensor-type \"%s\": the pattern \"%s\" is not a POSIX extended regular expression: %s",
                 arg, out->pattern, why);
        free(out->pattern);
        out->pattern = NULL;
        return -1;
    }
    return 0;
}

int skn_override_matches(const skn_override* o, const char* name) { return regexec(&o->re, name, 0, NULL, 0) == 0; }

void skn_override_free(skn_override* o) {
    if (o->pattern != NULL) {
        regfree(&o->re);
        free(o->pattern);
        o->pattern = NULL;
    }
}
