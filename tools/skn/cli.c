/* SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN) */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int skn_cli_is_help(const char* arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

/* The help page's "usage:" line and its continuation lines: everything up
 * to the first blank line. */
static void print_usage_lines(const char* help) {
    const char* end = strstr(help, "\n\n");
    const size_t n = end != NULL ? (size_t)(end - help) + 1 : strlen(help);
    fwrite(help, 1, n, stderr);
}

int skn_cli_usage_error(const char* cmd, const char* help, const char* fmt, ...) {
    fprintf(stderr, "skn%s%s: ", cmd != NULL ? " " : "", cmd != NULL ? cmd : "");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    print_usage_lines(help);
    fprintf(stderr, "see `skn%s%s --help` for the options\n", cmd != NULL ? " " : "", cmd != NULL ? cmd : "");
    return 2;
}

int skn_cli_help(const char* help) {
    fputs(help, stdout);
    return 0;
}

int skn_cli_online_cpus(void) {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (int)n : 1;
}
