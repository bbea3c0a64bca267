/* SPDX-License-Identifier: MIT */
/* skn: the command-line face of libskn, built on its public C API only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "help_text.h" /* generated from tools/skn/help/, as the manual pages are */
#include "skn/skn.h"

static int version(void) {
    printf("skn %s (cpu: %s)\n", skn_version_string(), skn_isa_name(skn_cpu_isa()));
    printf("cpu features: %s\n", skn_cpu_features());
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) return skn_cli_usage_error(NULL, skn_help_skn, "give a command");
    const char* cmd = argv[1];
    if (strcmp(cmd, "demo") == 0) return skn_cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "inspect") == 0) return skn_cmd_inspect(argc - 1, argv + 1);
    if (strcmp(cmd, "imatrix") == 0) return skn_cmd_imatrix(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0) return skn_cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "verify") == 0) return skn_cmd_verify(argc - 1, argv + 1);
    if (strcmp(cmd, "dump") == 0) return skn_cmd_dump(argc - 1, argv + 1);
    if (strcmp(cmd, "doctor") == 0) return skn_cmd_doctor(argc - 1, argv + 1);
    if (strcmp(cmd, "tune") == 0) return skn_cmd_tune(argc - 1, argv + 1);
    if (strcmp(cmd, "quantize") == 0) return skn_cmd_quantize(argc - 1, argv + 1);
    if (strcmp(cmd, "edit") == 0) return skn_cmd_edit(argc - 1, argv + 1);
    if (strcmp(cmd, "split") == 0) return skn_cmd_split(argc - 1, argv + 1);
    if (strcmp(cmd, "merge") == 0) return skn_cmd_merge(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0) {
        if (argc == 3 && skn_cli_is_help(argv[2])) return skn_cli_help(skn_help_skn_version);
        if (argc > 2) return skn_cli_usage_error("version", skn_help_skn_version, "unexpected argument \"%s\"", argv[2]);
        return version();
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) return version();
    if (strcmp(cmd, "help") == 0 || skn_cli_is_help(cmd)) return skn_cli_help(skn_help_skn);
    return skn_cli_usage_error(NULL, skn_help_skn, "unknown command \"%s\"", cmd);
}
