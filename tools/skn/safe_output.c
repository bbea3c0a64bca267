/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* O_TMPFILE, linkat */
#include "safe_output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct skn_output {
    const char* cmd;
    char user_path[PATH_MAX];  /* as given */
    char final_path[PATH_MAX]; /* where the file goes: user_path, or the file a symbolic link names */
    char dir[PATH_MAX];        /* final_path's directory */
    int fd;
    int slot;                  /* the pending slot of a named temporary file, or -1 */
};

/* ---- temporary names the signal handler removes ----------------------- */

/* A fixed pool, so that the handler reads nothing that is being freed: a
 * slot's name is written before the slot is marked used and not touched
 * while it is. Pages of the pool that are never used cost no memory. */
enum { kMaxPending = 1024 };
static char g_pending_name[kMaxPending][PATH_MAX];
static volatile sig_atomic_t g_pending_used[kMaxPending];

static int pending_add(const char* path) {
    for (int i = 0; i < kMaxPending; ++i)
        if (!g_pending_used[i]) {
            snprintf(g_pending_name[i], PATH_MAX, "%s", path);
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            g_pending_used[i] = 1;
            return i;
        }
    return -1;
}

static void pending_remove(int slot) {
    if (slot >= 0) g_pending_used[slot] = 0;
}

/* SIGINT, SIGTERM, SIGHUP: remove every named temporary file, then die of
 * the signal as if unhandled (the shell sees 128 + N). unlink is
 * async-signal-safe. */
static void on_fatal_signal(int sig) {
    for (int i = 0; i < kMaxPending; ++i)
        if (g_pending_used[i]) (void)unlink(g_pending_name[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* SIGINT, SIGTERM and SIGHUP held back while a temporary file gets or
 * loses its name, so that no signal lands between creating a name and
 * registering it for removal (a signal that arrives meanwhile is delivered
 * when `old` is restored). */
static void hold_fatal_signals(sigset_t* old) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void release_fatal_signals(const sigset_t* old) { pthread_sigmask(SIG_SETMASK, old, NULL); }

static void install_signal_handling(void) {
    static int installed = 0;
    if (installed) return;
    installed = 1;
    static const int fatal[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; ++i) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal[i], &sa, NULL);
    }
    /* A write past `ulimit -f` then fails with EFBIG and is reported, and the
     * temporary file removed, instead of the process dying silently. */
    signal(SIGXFSZ, SIG_IGN);
}

/* ---- checks ------------------------------------------------------------- */

static void dir_of(const char* path, char* dir, size_t cap) {
    const char* slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(dir, cap, ".");
    else if (slash == path)
        snprintf(dir, cap, "/");
    else
        snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* Fills o->final_path and o->dir from o->user_path and checks them.
 * Returns 0 or 1 (message printed). */
static int resolve_and_check(skn_output* o, const char* const* inputs, int n_inputs, int overwrite_inputs) {
    const char* cmd = o->cmd;
    const char* out = o->user_path;
    if (out[0] == 0) {
        fprintf(stderr, "skn %s: the output path is empty\n", cmd);
        return 1;
    }
    snprintf(o->final_path, sizeof o->final_path, "%s", out);
    struct stat ls;
    const int exists = lstat(out, &ls) == 0;
    if (exists && S_ISLNK(ls.st_mode)) {
        /* Replace the file the link names, as writing through the link would. */
        if (realpath(out, o->final_path) == NULL) {
            fprintf(stderr,
                    "skn %s: %s is a symbolic link to a missing file (%s): remove the link or point it at an "
                    "existing file\n",
                    cmd, out, strerror(errno));
            return 1;
        }
    }
    struct stat st;
    const int target_exists = stat(o->final_path, &st) == 0;
    if (target_exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "skn %s: %s is a directory: give the output file's name (e.g. %s/model.gguf)\n", cmd, out,
                out);
        return 1;
    }
    if (target_exists && !S_ISREG(st.st_mode)) {
        fprintf(stderr,
                "skn %s: %s is not a regular file (a device, FIFO or socket): skn writes a new file and moves it "
                "into place, which would replace it; give a file path\n",
                cmd, out);
        return 1;
    }
    if (target_exists)
        for (int i = 0; i < n_inputs; ++i) {
            struct stat in;
            if (inputs[i] == NULL || stat(inputs[i], &in) != 0) continue;
            if (in.st_dev == st.st_dev && in.st_ino == st.st_ino && !overwrite_inputs) {
                fprintf(stderr,
                        "skn %s: %s is the input %s%s: writing it would replace the input; give another output "
                        "path, or --force-overwrite to replace the input once the new file is complete\n",
                        cmd, out, inputs[i],
                        strcmp(inputs[i], out) == 0 ? "" : " (the same file, through a link)");
                return 1;
            }
        }
    dir_of(o->final_path, o->dir, sizeof o->dir);
    struct stat ds;
    if (stat(o->dir, &ds) != 0) {
        fprintf(stderr, "skn %s: cannot write %s: its directory %s %s\n", cmd, out, o->dir,
                errno == ENOENT ? "does not exist (create it first: mkdir -p)" : strerror(errno));
        return 1;
    }
    if (!S_ISDIR(ds.st_mode)) {
        fprintf(stderr, "skn %s: cannot write %s: %s is not a directory\n", cmd, out, o->dir);
        return 1;
    }
    if (access(o->dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "skn %s: cannot write %s: no permission to create files in %s (%s)\n", cmd, out, o->dir,
                strerror(errno));
        return 1;
    }
    /* The new file is made in OUT's directory and moved over OUT: both must
     * be on one filesystem (OUT is not, when it is a mount point itself). */
    if (target_exists && st.st_dev != ds.st_dev) {
        fprintf(stderr,
                "skn %s: %s is on another filesystem than its directory %s (a file mounted over it): it cannot be "
                "replaced in one step; write elsewhere and copy\n",
                cmd, out, o->dir);
        return 1;
    }
    return 0;
}

int skn_output_check(const char* cmd, const char* out_path, const char* const* inputs, int n_inputs,
                     int overwrite_inputs) {
    skn_output o;
    memset(&o, 0, sizeof o);
    o.cmd = cmd;
    if (strlen(out_path) >= sizeof o.user_path) {
        fprintf(stderr, "skn %s: the output path is longer than %d bytes\n", cmd, PATH_MAX - 1);
        return 1;
    }
    snprintf(o.user_path, sizeof o.user_path, "%s", out_path);
    return resolve_and_check(&o, inputs, n_inputs, overwrite_inputs);
}

/* ---- the temporary file ------------------------------------------------- */

static void random_suffix(char out[7]) {
    static uint64_t counter = 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^ (++counter * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int i = 0; i < 6; ++i) {
        out[i] = chars[x % 36];
        x /= 36;
    }
    out[6] = 0;
}

static void proc_path(int fd, char* out, size_t cap) { snprintf(out, cap, "/proc/self/fd/%d", fd); }

/* A fresh candidate name for a temporary file beside OUT
 * ("OUT.skn-partial-XXXXXX"). Returns 0, or -1 (ENAMETOOLONG). */
static int temp_name(const skn_output* o, char name[PATH_MAX]) {
    char suffix[7];
    random_suffix(suffix);
    if (snprintf(name, PATH_MAX, "%s.skn-partial-%s", o->final_path, suffix) < PATH_MAX) return 0;
    errno = ENAMETOOLONG;
    return -1;
}

/* A named temporary file beside OUT, created exclusively (0666 less the
 * umask, as any new file) and registered for removal on signals. */
static int create_named(skn_output* o) {
    char name[PATH_MAX];
    for (int attempt = 0; attempt < 100; ++attempt) {
        if (temp_name(o, name) != 0) return -1;
        const int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) return -1;
        o->slot = pending_add(name);
        if (o->slot < 0) {
            close(fd);
            unlink(name);
            errno = EMFILE;
            return -1;
        }
        o->fd = fd;
        return 0;
    }
    errno = EEXIST;
    return -1;
}

skn_output* skn_output_open(const char* cmd, const char* out_path, const char* const* inputs, int n_inputs,
                            int overwrite_inputs) {
    if (strlen(out_path) >= PATH_MAX) {
        fprintf(stderr, "skn %s: the output path is longer than %d bytes\n", cmd, PATH_MAX - 1);
        return NULL;
    }
    skn_output* o = calloc(1, sizeof *o);
    if (o == NULL) {
        fprintf(stderr, "skn %s: out of memory\n", cmd);
        return NULL;
    }
    o->cmd = cmd;
    o->fd = -1;
    o->slot = -1;
    snprintf(o->user_path, sizeof o->user_path, "%s", out_path);
    if (resolve_and_check(o, inputs, n_inputs, overwrite_inputs) != 0) {
        free(o);
        return NULL;
    }
    install_signal_handling();
#ifdef O_TMPFILE
    /* Unnamed: nothing to remove whatever kills the process. Linked into
     * place through /proc/self/fd, so that must be there. SKN_TOOL_TMPFILE=named
     * takes the fallback (a filesystem whose O_TMPFILE misbehaves; tests). */
    const char* want = getenv("SKN_TOOL_TMPFILE");
    if (want == NULL || strcmp(want, "named") != 0) o->fd = open(o->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (o->fd >= 0) {
        char proc[64];
        proc_path(o->fd, proc, sizeof proc);
        if (access(proc, F_OK) != 0) {
            close(o->fd);
            o->fd = -1;
        }
    }
#endif
    sigset_t old;
    hold_fatal_signals(&old);
    const int named = o->fd < 0 ? create_named(o) : 0;
    const int err = errno;
    release_fatal_signals(&old);
    if (named != 0) {
        fprintf(stderr, "skn %s: cannot create a temporary file in %s for %s: %s\n", cmd, o->dir, out_path,
                strerror(err));
        free(o);
        return NULL;
    }
    return o;
}

int skn_output_fd(const skn_output* o) { return o->fd; }

const char* skn_output_path(const skn_output* o) { return o->user_path; }

void skn_output_abort(skn_output* o) {
    if (o == NULL) return;
    if (o->slot >= 0) {
        (void)unlink(g_pending_name[o->slot]);
        pending_remove(o->slot);
    }
    if (o->fd >= 0) close(o->fd);
    free(o);
}

/* Give the unnamed file o->fd a name: OUT itself when nothing is there
 * (linkat never replaces), else a registered temporary name to rename. */
static int link_unnamed(skn_output* o) {
    char proc[64];
    proc_path(o->fd, proc, sizeof proc);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, o->final_path, AT_SYMLINK_FOLLOW) == 0) return 1; /* in place already */
    if (errno != EEXIST) return -1;
    char name[PATH_MAX];
    for (int attempt = 0; attempt < 100; ++attempt) {
        if (temp_name(o, name) != 0) return -1;
        if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) != 0) {
            if (errno == EEXIST) continue;
            return -1;
        }
        o->slot = pending_add(name);
        if (o->slot < 0) {
            unlink(name);
            errno = EMFILE;
            return -1;
        }
        return 0;
    }
    errno = EEXIST;
    return -1;
}

int skn_output_commit(skn_output* o) {
    sigset_t old;
    hold_fatal_signals(&old);
    const int placed = o->slot < 0 ? link_unnamed(o) : 0;
    const int failed = placed < 0 || (!placed && rename(g_pending_name[o->slot], o->final_path) != 0);
    const int err = errno;
    if (!failed) {
        pending_remove(o->slot);
        o->slot = -1;
    }
    release_fatal_signals(&old);
    if (failed) {
        fprintf(stderr, "skn %s: cannot put the finished file at %s: %s\n", o->cmd, o->user_path, strerror(err));
        skn_output_abort(o);
        return 1;
    }
    /* The new name on disk too (best effort: the data is synced already). */
    const int dfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    close(o->fd);
    free(o);
    return 0;
}
