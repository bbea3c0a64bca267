/* SPDX-License-Identifier: MIT */
/* llama.cpp's split file names and keys (llama_split_path,
 * llama_split_prefix; LLM_KV_SPLIT_*), shared by skn split and skn merge. */
#ifndef SKN_TOOL_SPLIT_NAMES_H
#define SKN_TOOL_SPLIT_NAMES_H

#include <stddef.h>

#define SKN_SPLIT_NO "split.no"                     /* u16: this file's 0-based index */
#define SKN_SPLIT_COUNT "split.count"               /* u16: the number of files */
#define SKN_SPLIT_TENSORS_COUNT "split.tensors.count" /* i32: the tensors in all files */

/* "PREFIX-%05d-of-%05d.gguf" for file i (0-based) of n. Returns 0, or -1
 * when it does not fit in `cap`. */
int skn_split_path(char* out, size_t cap, const char* prefix, int i, int n);

/* The PREFIX of a path named as file i of n, or -1 when the path does not
 * end in "-%05d-of-%05d.gguf" (or `cap` is too small). */
int skn_split_prefix(char* out, size_t cap, const char* path, int i, int n);

#endif
