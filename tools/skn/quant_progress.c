/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "quant_progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

double skn_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void skn_progress_begin(skn_progress* p, int64_t n_tensors, uint64_t total_bytes) {
    p->enabled = isatty(STDERR_FILENO);
    p->n_tensors = n_tensors;
    p->total_bytes = total_bytes;
    p->done_bytes = 0;
    p->start = skn_now();
    p->last_draw = 0;
}

static void human(char* out, size_t n, double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        ++u;
    }
    snprintf(out, n, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

void skn_progress_step(skn_progress* p, int64_t i, const char* name, uint64_t bytes) {
    p->done_bytes += bytes;
    if (!p->enabled) return;
    const double now = skn_now();
    /* Redrawing more often than 10 times a second only costs time. */
    if (now - p->last_draw < 0.1 && p->done_bytes < p->total_bytes) return;
    p->last_draw = now;
    const double elapsed = now - p->start;
    const double rate = elapsed > 0 ? (double)p->done_bytes / elapsed : 0;
    char done[32], total[32], r[32], eta[32] = "--:--";
    human(done, sizeof done, (double)p->done_bytes);
    human(total, sizeof total, (double)p->total_bytes);
    human(r, sizeof r, rate);
    if (rate > 0 && p->done_bytes > 0) {
        const long s = (long)((double)(p->total_bytes - p->done_bytes) / rate + 0.5);
        snprintf(eta, sizeof eta, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    }
    /* \r, the line, then erase whatever a longer earlier line left. */
    fprintf(stderr, "\r[%" PRId64 "/%" PRId64 "] %.40s  %s / %s  %s/s  ETA %s\033[K", i + 1, p->n_tensors, name, done,
            total, r, eta);
    fflush(stderr);
}

void skn_progress_end(skn_progress* p) {
    if (!p->enabled) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
}
