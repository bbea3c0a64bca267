/* SPDX-License-Identifier: MIT */
/* What every sub-command's command line shares: the help flag, and how a
 * usage error is reported (the message, the usage lines of the command's
 * help page and a pointer to --help, never the whole manual). Used by
 * main.c and each command file, so none of them calls into another. */
#ifndef SKN_TOOL_CLI_H
#define SKN_TOOL_CLI_H

/* "--help" or "-h". */
int skn_cli_is_help(const char* arg);

/* Print "skn CMD: MESSAGE", then the "usage:" lines at the top of `help`
 * (the command's help page) and "see `skn CMD --help`", all to stderr.
 * Returns 2, the exit status of bad usage. `cmd` is the sub-command ("quantize"),
 * or NULL for skn itself. */
int skn_cli_usage_error(const char* cmd, const char* help, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Print `help` to stdout; returns 0. */
int skn_cli_help(const char* help);

/* The number of online CPUs (at least 1): the default thread count of the
 * commands that take --threads. */
int skn_cli_online_cpus(void);

#endif
