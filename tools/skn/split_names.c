/* SPDX-License-Identifier: MIT */
#include "split_names.h"

#include <stdio.h>
#include <string.h>

int skn_split_path(char* out, size_t cap, const char* prefix, int i, int n) {
    const int w = snprintf(out, cap, "%s-%05d-of-%05d.gguf", prefix, i + 1, n);
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

int skn_split_prefix(char* out, size_t cap, const char* path, int i, int n) {
    char tail[48];
    snprintf(tail, sizeof tail, "-%05d-of-%05d.gguf", i + 1, n);
    const size_t len = strlen(path), tl = strlen(tail);
    if (len <= tl || strcmp(path + len - tl, tail) != 0 || len - tl >= cap) return -1;
    memcpy(out, path, len - tl);
    out[len - tl] = 0;
    return 0;
}
