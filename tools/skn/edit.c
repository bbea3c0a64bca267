/* SPDX-License-Identifier: MIT */
/* skn edit [options] IN.gguf [OUT.gguf]: set, add, remove and rename
 * metadata keys (what gguf-py's gguf_set_metadata.py and
 * gguf_new_metadata.py do). Without OUT the file is edited in place: its
 * header is patched when the new one has exactly the old size and the
 * tensor data stays where it is, else the file is rewritten beside itself
 * and renamed over it. With OUT, OUT is written. Writing goes through the
 * tools' safe output; tensor data is streamed, never held. On the public C
 * API only. */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h"
#include "meta_list.h"
#include "safe_output.h"
#include "skn/skn.h"
#include "tensor_copy.h"
#include "tensor_util.h"

typedef enum { OP_SET, OP_ADD, OP_REMOVE, OP_RENAME } op_kind;

typedef struct {
    op_kind kind;
    const char* arg; /* as given */
} edit_op;

enum { kMaxOps = 256 };

typedef struct {
    const char* in_path;
    const char* out_path; /* NULL: edit IN in place */
    edit_op ops[kMaxOps];
    int n_ops;
    int rewrite, force_overwrite, dry_run;
} edit_options;

/* A usage error: the message, the usage lines, "see --help"; exit status 2. */
#define USAGE_ERROR(...) skn_cli_usage_error("edit", skn_help_skn_edit, __VA_ARGS__)

static int parse_args(int argc, char** argv, edit_options* o) {
    const char* pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        op_kind kind;
        if (skn_cli_is_help(a)) {
            skn_cli_help(skn_help_skn_edit);
            return -1;
        } else if (strcmp(a, "--rewrite") == 0) {
            o->rewrite = 1;
            continue;
        } else if (strcmp(a, "--force-overwrite") == 0) {
            o->force_overwrite = 1;
            continue;
        } else if (strcmp(a, "--dry-run") == 0) {
            o->dry_run = 1;
            continue;
        } else if (strcmp(a, "--i2s-layout") == 0) {
            if (i + 1 >= argc || !skn_tool_set_i2s_layout(argv[++i]))
                return USAGE_ERROR("--i2s-layout needs x86 or arm64 (the bitnet.cpp build that wrote the file's I2_S "
                                   "tensors)");
            continue;
        } else if (strcmp(a, "--set") == 0) {
            kind = OP_SET;
        } else if (strcmp(a, "--add") == 0) {
            kind = OP_ADD;
        } else if (strcmp(a, "--remove") == 0) {
            kind = OP_REMOVE;
        } else if (strcmp(a, "--rename") == 0) {
            kind = OP_RENAME;
        } else if (a[0] == '-' && a[1] != 0) {
            return USAGE_ERROR("unknown option \"%s\"", a);
        } else if (npos < 2) {
            pos[npos++] = a;
            continue;
        } else {
            return USAGE_ERROR("unexpected argument \"%s\": give IN.gguf [OUT.gguf]", a);
        }
        if (i + 1 >= argc) return USAGE_ERROR("%s needs a value", a);
        if (o->n_ops == kMaxOps) return USAGE_ERROR("more than 256 edits");
        o->ops[o->n_ops++] = (edit_op){kind, argv[++i]};
    }
    if (npos == 0) return USAGE_ERROR("give the GGUF file to edit");
    if (o->n_ops == 0) return USAGE_ERROR("give at least one --set, --add, --remove or --rename");
    o->in_path = pos[0];
    o->out_path = pos[1];
    return 0;
}

/* "KEY=REST": the key copied into `key` (at most 65535 bytes), REST returned;
 * NULL when there is no '=' or the key is empty. */
static const char* split_key(const char* arg, char* key, size_t cap) {
    const char* eq = strchr(arg, '=');
    if (eq == NULL || eq == arg || (size_t)(eq - arg) >= cap) return NULL;
    memcpy(key, arg, (size_t)(eq - arg));
    key[eq - arg] = 0;
    return eq + 1;
}

static const char* const kOpNames[] = {"--set", "--add", "--remove", "--rename"};

/* Apply one edit to the list. Returns 0, or an exit status after printing
 * why (2: a value that does not parse; 1: a key that is not there or is). */
static int apply(const edit_op* op, skn_meta_list* l, const skn_gguf* g, const char* in_path) {
    static char key[65536];
    char err[512];
    const char* rest = op->kind == OP_REMOVE ? "" : split_key(op->arg, key, sizeof key);
    if (op->kind == OP_REMOVE) snprintf(key, sizeof key, "%s", op->arg);
    if (rest == NULL || key[0] == 0) {
        fprintf(stderr, "skn edit: %s \"%s\": give %s\n", kOpNames[op->kind], op->arg,
                op->kind == OP_SET ? "KEY=VALUE" : op->kind == OP_ADD ? "KEY=TYPE:VALUE" : "OLD=NEW");
        return 2;
    }
    if (strcmp(key, "skn.i2_s_layout") == 0 || (op->kind == OP_RENAME && strcmp(rest, "skn.i2_s_layout") == 0)) {
        fprintf(stderr, "skn edit: %s %s: skn.i2_s_layout says how the file's type-36 tensors are laid out; it is "
                        "not edited by hand (skn quantize converts between the layouts)\n", kOpNames[op->kind], key);
        return 1;
    }
    const int64_t at = skn_meta_list_find(l, key);
    if (at < 0 && op->kind != OP_ADD) {
        fprintf(stderr, "skn edit: %s %s: %s has no key \"%s\"%s\n", kOpNames[op->kind], op->arg, in_path, key,
                op->kind == OP_SET ? " (--add KEY=TYPE:VALUE adds one)" : "");
        return 1;
    }
    skn_meta_value v;
    switch (op->kind) {
        case OP_SET: {
            const skn_gguf_type type = skn_meta_list_type(l, g, at);
            if (type == SKN_GGUF_TYPE_ARRAY) {
                fprintf(stderr, "skn edit: --set %s: the key holds an array; skn edit sets numbers, bools and "
                                "strings (--remove it, or --add KEY=TYPE:VALUE to replace it with one)\n", key);
                return 1;
            }
            if (skn_meta_parse_as(type, rest, &v, err, sizeof err) != 0) {
                fprintf(stderr, "skn edit: --set %s: the key holds a value of type %s, and %s (--add KEY=TYPE:VALUE "
                                "changes the type too)\n", op->arg, skn_gguf_type_name(type), err);
                return 2;
            }
            break;
        }
        case OP_ADD:
            if (skn_meta_parse_typed(rest, 0, &v, err, sizeof err) != 0) {
                fprintf(stderr, "skn edit: --add %s: %s\n", op->arg, err);
                return 2;
            }
            break;
        case OP_REMOVE:
            skn_meta_list_remove(l, key);
            return 0;
        case OP_RENAME:
            if (rest[0] == 0) {
                fprintf(stderr, "skn edit: --rename %s: the new name is empty\n", op->arg);
                return 2;
            }
            if (skn_meta_list_find(l, rest) >= 0) {
                fprintf(stderr, "skn edit: --rename %s: the file already has a key \"%s\" (--remove it first)\n",
                        op->arg, rest);
                return 1;
            }
            return skn_meta_list_rename(l, at, rest) == 0 ? 0 : 1;
    }
    const int rc = skn_meta_list_put(l, key, &v);
    skn_meta_value_free(&v);
    return rc == 0 ? 0 : 1;
}

/* The data section's alignment the list asks for (general.alignment). */
static uint32_t list_alignment(const skn_meta_list* l, const skn_gguf* g) {
    const int64_t at = skn_meta_list_find(l, "general.alignment");
    if (at < 0) return 32;
    if (l->e[at].source < 0) return (uint32_t)l->e[at].value.u;
    uint32_t a = 32;
    (void)skn_gguf_get_u32(g, l->e[at].source, &a);
    return a;
}

/* Whether IN's tensors lie where a writer would put them: in file order,
 * each at the previous one's end rounded up to the alignment, from the
 * start of the data section. Only then does a new header of the same size
 * describe the same data. */
static int sequential_layout(const skn_gguf* g) {
    const uint64_t a = skn_gguf_alignment(g);
    uint64_t expect = skn_gguf_data_offset(g);
    for (int64_t i = 0; i < skn_gguf_tensor_count(g); ++i) {
        skn_gguf_tensor_props t;
        memset(&t, 0, sizeof t);
        t.struct_size = sizeof t;
        if (skn_gguf_tensor_info(g, i, &t) != SKN_OK || t.offset != expect || t.size == 0) return 0;
        expect += t.size + (a - t.size % a) % a;
    }
    return 1;
}

/* The header the writer would write (everything before the data section),
 * through a stream to an anonymous memory file. Returns a malloc'd copy, or
 * NULL. */
static unsigned char* header_bytes(const skn_gguf_writer* w, size_t* size) {
    const int fd = memfd_create("skn-edit-header", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    skn_gguf_stream* s = NULL;
    unsigned char* buf = NULL;
    struct stat st;
    if (skn_gguf_stream_begin_fd(w, fd, &s) == SKN_OK) {
        skn_gguf_stream_destroy(s); /* flushes the header; the descriptor stays ours */
        if (fstat(fd, &st) == 0 && st.st_size > 0 && (buf = malloc((size_t)st.st_size)) != NULL &&
            pread(fd, buf, (size_t)st.st_size, 0) != (ssize_t)st.st_size) {
            free(buf);
            buf = NULL;
        }
        if (buf != NULL) *size = (size_t)st.st_size;
    }
    close(fd);
    return buf;
}

/* Write `header` over the first bytes of `path`, which must still be
 * `file_size` bytes long. Returns 0, or 1 after printing why. */
static int patch(const char* path, const unsigned char* header, size_t n, uint64_t file_size) {
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "skn edit: cannot open %s for writing: %s (--rewrite writes a new file beside it instead, "
                        "if the directory is writable)\n", path, strerror(errno));
        if (fd >= 0) close(fd);
        return 1;
    }
    if ((uint64_t)st.st_size != file_size) {
        fprintf(stderr, "skn edit: %s changed size while being edited: nothing written\n", path);
        close(fd);
        return 1;
    }
    size_t done = 0;
    while (done < n) {
        const ssize_t k = pwrite(fd, header + done, n - done, (off_t)done);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            fprintf(stderr, "skn edit: writing %s's header failed after %zu of %zu bytes: %s; the file is damaged: "
                            "restore it from a copy\n", path, done, n, strerror(errno));
            close(fd);
            return 1;
        }
        done += (size_t)k;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        fprintf(stderr, "skn edit: syncing %s failed: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

static void print_changes(const edit_options* o) {
    for (int i = 0; i < o->n_ops; ++i) printf("  %s %s\n", kOpNames[o->ops[i].kind], o->ops[i].arg);
}

int skn_cmd_edit(int argc, char** argv) {
    edit_options o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;
    const char* inputs[1] = {o.in_path};
    const int in_place = o.out_path == NULL;
    /* OUT is checked before any work; editing IN itself is what skn edit is for. */
    if (!in_place && skn_output_check("edit", o.out_path, inputs, 1, o.force_overwrite) != 0) return 1;
    skn_gguf* g = NULL;
    skn_status st = skn_tool_open(o.in_path, &g);
    if (st != SKN_OK) {
        fprintf(stderr, "skn edit: %s: %s\n", skn_status_name(st), skn_last_error());
        return 1;
    }
    skn_meta_list meta;
    skn_gguf_writer* w = NULL;
    unsigned char* header = NULL;
    rc = 1;
    if (skn_meta_list_init(&meta, g) != 0) goto done;
    for (int i = 0; i < o.n_ops; ++i)
        if ((rc = apply(&o.ops[i], &meta, g, o.in_path)) != 0) goto done;
    rc = 1;
    const int64_t nt = skn_gguf_tensor_count(g);
    /* The writer records the I2_S layout itself, after the copied pairs. */
    if (skn_copy_range_records_i2s(g, 0, nt)) skn_meta_list_remove(&meta, "skn.i2_s_layout");
    if (skn_gguf_writer_create(&w) != SKN_OK || skn_meta_list_write(&meta, g, w, "edit") != SKN_OK ||
        skn_copy_declare_range("edit", w, g, 0, nt) != 0)
        goto done;
    /* Patch in place when the new header is the old one's size and the data
     * stays where it is; otherwise rewrite. */
    size_t header_size = 0;
    const int can_patch = in_place && !o.rewrite && list_alignment(&meta, g) == skn_gguf_alignment(g) &&
                          sequential_layout(g) && (header = header_bytes(w, &header_size)) != NULL &&
                          header_size == skn_gguf_data_offset(g);
    if (o.dry_run) {
        printf("%s: %d edit%s; %s\n", o.in_path, o.n_ops, o.n_ops == 1 ? "" : "s",
               can_patch ? "the header keeps its size: would patch it in place"
               : in_place ? "would rewrite the file (the header changes size or the tensors are not laid out as a "
                            "writer lays them)"
                          : "would write OUT");
        print_changes(&o);
        rc = 0;
        goto done;
    }
    if (can_patch) {
        const uint64_t file_size = skn_gguf_file_size(g);
        skn_gguf_close(g); /* nothing more is read from the mapping */
        g = NULL;
        if ((rc = patch(o.in_path, header, header_size, file_size)) == 0)
            printf("%s: %d edit%s, header patched in place (%zu bytes)\n", o.in_path, o.n_ops,
                   o.n_ops == 1 ? "" : "s", header_size);
        goto done;
    }
    const char* target = in_place ? o.in_path : o.out_path;
    skn_output* out = skn_output_open("edit", target, inputs, 1, in_place || o.force_overwrite);
    const skn_copy_range all = {g, 0, nt};
    if (out != NULL && (rc = skn_copy_into("edit", w, out, &all, 1)) == 0)
        printf("%s: %d edit%s, %s\n", target, o.n_ops, o.n_ops == 1 ? "" : "s", in_place ? "rewritten" : "written");
done:
    skn_gguf_writer_destroy(w);
    skn_meta_list_free(&meta);
    free(header);
    skn_gguf_close(g);
    return rc;
}
