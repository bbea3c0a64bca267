/* SPDX-License-Identifier: MIT */
/* skn: the command-line face of libskn, built on its public C API only. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "help_text.h" /* generated from tools/skn/help/, as the manual pages are */
#include "skn/skn.h"

int skn_is_help_flag(const char* arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

static int version(void) {
    printf("skn %s (cpu: %s)\n", skn_version_string(), skn_isa_name(skn_cpu_isa()));
    printf("cpu features: %s\n", skn_cpu_features());
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fputs(skn_help_skn, stderr);
        return 2;
    }
    const char* cmd = argv[1];
    if (strcmp(cmd, "demo") == 0) return skn_cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "inspect") == 0) return skn_cmd_inspect(argc - 1, argv + 1);
    if (strcmp(cmd, "imatrix") == 0) return skn_cmd_imatrix(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0) return skn_cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "verify") == 0) return skn_cmd_verify(argc - 1, argv + 1);
    if (strcmp(cmd, "dump") == 0) return skn_cmd_dump(argc - 1, argv + 1);
    if (strcmp(cmd, "doctor") == 0) return skn_cmd_doctor(argc - 1, argv + 1);
    if (strcmp(cmd, "quantize") == 0) return skn_cmd_quantize(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0) {
        if (argc == 3 && skn_is_help_flag(argv[2])) {
            fputs(skn_help_skn_version, stdout);
            return 0;
        }
        if (argc > 2) {
            fputs(skn_help_skn_version, stderr);
            return 2;
        }
        return version();
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) return version();
    if (strcmp(cmd, "help") == 0 || skn_is_help_flag(cmd)) {
        fputs(skn_help_skn, stdout);
        return 0;
    }
    fprintf(stderr, "skn: unknown command \"%s\"\n\n", cmd);
    fputs(skn_help_skn, stderr);
    return 2;
}
