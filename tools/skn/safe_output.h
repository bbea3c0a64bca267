/* SPDX-License-Identifier: MIT */
/* How every skn command that writes a file writes it (docs/tools.md, "Writing
 * files"): OUT is checked before any work (not a directory, not a device,
 * not one of the inputs unless the user said so, its directory there and
 * writable, the file and its directory on one filesystem); the bytes go to
 * a temporary file beside OUT, unnamed (O_TMPFILE) where the kernel and
 * filesystem allow, so that even SIGKILL leaves nothing behind; the finished
 * file is linked or renamed into place in one step. A named temporary file
 * ("OUT.skn-partial-XXXXXX", the fallback) is removed on every failure and
 * on SIGINT, SIGTERM and SIGHUP; SIGXFSZ is ignored, so a write past
 * `ulimit -f` fails with EFBIG and is reported like any other write error.
 * Messages name the path the user gave. */
#ifndef SKN_TOOL_SAFE_OUTPUT_H
#define SKN_TOOL_SAFE_OUTPUT_H

typedef struct skn_output skn_output;

/* Check that `out_path` can be written without harm, creating nothing:
 * refused when it is a directory, not a regular file, a symbolic link to a
 * missing file, the same file as any of the `n_inputs` paths in `inputs`
 * (same device and inode: a hard or symbolic link counts) unless
 * `overwrite_inputs`, or when its directory is missing, not writable, or
 * not on OUT's filesystem. Prints "skn CMD: ..." naming the path and how
 * to fix it. Returns 0 when it can be written, else 1. */
int skn_output_check(const char* cmd, const char* out_path, const char* const* inputs, int n_inputs,
                     int overwrite_inputs);

/* skn_output_check, then create the temporary file beside OUT (a symbolic
 * link OUT is followed: the file it names is replaced). Also installs the
 * signal handling described above (once per process). Returns the output,
 * or NULL after printing why. */
skn_output* skn_output_open(const char* cmd, const char* out_path, const char* const* inputs, int n_inputs,
                            int overwrite_inputs);

/* The temporary file's descriptor, open for writing at offset 0. */
int skn_output_fd(const skn_output* o);

/* The path the user gave. */
const char* skn_output_path(const skn_output* o);

/* Put the finished file at OUT in one step (replacing what is there) and
 * release `o`. The data must already be synced (skn_gguf_stream_finish
 * does). Returns 0, or 1 after printing why (the temporary file is then
 * removed, OUT untouched). */
int skn_output_commit(skn_output* o);

/* Remove the temporary file and release `o` (NULL is ignored). OUT is
 * untouched. */
void skn_output_abort(skn_output* o);

#endif
