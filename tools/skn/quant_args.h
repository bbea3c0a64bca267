/* SPDX-License-Identifier: MIT */
/* skn quantize's command line (quant_args.c). */
#ifndef SKN_TOOL_QUANT_ARGS_H
#define SKN_TOOL_QUANT_ARGS_H

#include "quant_plan.h"

/* Fill `o` (zero-initialised, threads preset to the default) from argv.
 * Returns 0; -1 after printing --help (exit 0); or an exit status after
 * printing why (2: bad usage, 1: a file that cannot be read). */
int skn_quant_parse_args(int argc, char** argv, skn_quant_options* o);

/* Resolve o->type_arg into o->preset, o->base, o->copy_only. Returns 0 or
 * an exit status after printing why. */
int skn_quant_resolve_type(skn_quant_options* o);

#endif
