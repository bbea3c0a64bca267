/* SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE /* madvise */
#include "tensor_copy.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "safe_output.h"
#include "tensor_util.h"

enum { kCopyChunkBytes = 16 << 20 };

void skn_release_input(const void* p, size_t n) {
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t a = ((uintptr_t)p + page - 1) / page * page;
    const uintptr_t b = ((uintptr_t)p + n) / page * page;
    if (b > a) (void)madvise((void*)a, b - a, MADV_DONTNEED);
}

skn_status skn_copy_declare(skn_gguf_writer* w, const skn_gguf_tensor_props* t) {
    if (t->supported) return skn_gguf_writer_declare_tensor(w, t->name, t->format, t->rank, t->ne);
    return skn_gguf_writer_declare_tensor_of_type(w, t->name, t->type_id, t->rank, t->ne);
}

int skn_copy_records_i2s_layout(skn_format format) {
    return format == SKN_FORMAT_I2_S || format == SKN_FORMAT_I2_S_G64;
}

int skn_copy_range_records_i2s(const skn_gguf* g, int64_t first, int64_t n) {
    for (int64_t i = first; i < first + n; ++i) {
        skn_gguf_tensor_props t;
        memset(&t, 0, sizeof t);
        t.struct_size = sizeof t;
        if (skn_gguf_tensor_info(g, i, &t) == SKN_OK && t.supported && skn_copy_records_i2s_layout(t.format)) return 1;
    }
    return 0;
}

int skn_copy_declare_range(const char* cmd, skn_gguf_writer* w, const skn_gguf* g, int64_t first, int64_t n) {
    for (int64_t i = first; i < first + n; ++i) {
        skn_gguf_tensor_props t;
        memset(&t, 0, sizeof t);
        t.struct_size = sizeof t;
        if (skn_gguf_tensor_info(g, i, &t) != SKN_OK) {
            fprintf(stderr, "skn %s: %s\n", cmd, skn_last_error());
            return -1;
        }
        if (!t.supported && t.type_id == 36) {
            fprintf(stderr, "skn %s: tensor \"%s\" is I2_S (type 36) and %s\n", cmd, t.name,
                    skn_tool_i2s_layout_advice());
            return -1;
        }
        if (skn_copy_declare(w, &t) != SKN_OK) {
            fprintf(stderr, "skn %s: tensor \"%s\": %s\n", cmd, t.name, skn_last_error());
            return -1;
        }
    }
    return 0;
}

int skn_copy_tensor(const char* cmd, const skn_gguf* g, int64_t index, const char* name, skn_gguf_stream* s,
                    skn_progress* progress, int64_t position) {
    const void* data = NULL;
    size_t size = 0;
    if (skn_gguf_tensor_data(g, index, &data, &size) != SKN_OK) goto fail;
    for (size_t at = 0; at < size;) {
        const size_t n = size - at < (size_t)kCopyChunkBytes ? size - at : (size_t)kCopyChunkBytes;
        if (skn_gguf_stream_write(s, name, (const unsigned char*)data + at, n) != SKN_OK) goto fail;
        skn_release_input(data, at + n); /* from the start: a page split by two chunks goes too */
        if (progress != NULL) skn_progress_step(progress, position, name, n);
        at += n;
    }
    return 0;
fail:
    fprintf(stderr, "skn %s: tensor \"%s\": %s\n", cmd, name, skn_last_error());
    return -1;
}

int skn_copy_into(const char* cmd, const skn_gguf_writer* w, skn_output* out, const skn_copy_range* ranges,
                  int n_ranges) {
    skn_gguf_stream* s = NULL;
    skn_status st = skn_gguf_stream_begin_fd(w, skn_output_fd(out), &s);
    int failed = st != SKN_OK;
    for (int r = 0; !failed && r < n_ranges; ++r)
        for (int64_t i = ranges[r].first; !failed && i < ranges[r].first + ranges[r].count; ++i) {
            skn_gguf_tensor_props t;
            memset(&t, 0, sizeof t);
            t.struct_size = sizeof t;
            failed = skn_gguf_tensor_info(ranges[r].g, i, &t) != SKN_OK ||
                     skn_copy_tensor(cmd, ranges[r].g, i, t.name, s, NULL, i) != 0;
            if (failed) st = SKN_OK; /* skn_copy_tensor said why */
        }
    if (!failed && (st = skn_gguf_stream_finish(s)) != SKN_OK) failed = 1;
    if (st != SKN_OK) fprintf(stderr, "skn %s: %s: %s: %s\n", cmd, skn_output_path(out), skn_status_name(st), skn_last_error());
    skn_gguf_stream_destroy(s);
    if (failed) {
        skn_output_abort(out);
        return 1;
    }
    return skn_output_commit(out);
}
