/* SPDX-License-Identifier: MIT */
/* skn: the command-line face of libskn, built on its public C API only. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "skn/skn.h"

static void usage(FILE* out) {
    fprintf(out,
            "usage: skn <command> [options]\n"
            "\n"
            "commands:\n"
            "  demo        quantize the embedded sample weight to every format, decode it back,\n"
            "              and print the error table\n"
            "  inspect     print a GGUF file's metadata and tensor table: skn inspect [FILE]\n"
            "              (no FILE: an embedded sample built with the GGUF writer)\n"
            "  bench       time matmul_wt per format, order, ISA, shape and thread count against the\n"
            "              machine's measured roofline: skn bench --help\n"
            "  version     print the library version and the CPU tier kernels will use\n"
            "  help        show this text\n");
}

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char* cmd = argv[1];
    if (strcmp(cmd, "demo") == 0) return skn_cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "inspect") == 0) return skn_cmd_inspect(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0) return skn_cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0) {
        printf("skn %s (cpu: %s)\n", skn_version_string(), skn_isa_name(skn_cpu_isa()));
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "skn: unknown command \"%s\"\n\n", cmd);
    usage(stderr);
    return 2;
}
