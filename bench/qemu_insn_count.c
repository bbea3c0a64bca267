// SPDX-License-Identifier: MIT
// A qemu-user TCG plugin that counts the guest instructions a program
// executes and prints "insns N" when it exits (to qemu's log: run with
// `-d plugin`). scripts/count-arm64 builds it with the host compiler and
// differences the counts of runs of bench/count_matmul.c.
//
// Debian ships no qemu-plugin.h, so the few entry points of the plugin API
// used here are declared below from its documentation (QEMU 7.2, plugin API
// version 1; these calls are unchanged since API version 0). Inline
// counting adds to one 64-bit counter without atomics: count single-threaded
// programs only (the count is then exact and repeatable).
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info_t;
typedef void (*tb_translated_fn)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*at_exit_fn)(qemu_plugin_id_t id, void* user);
enum { kInlineAddU64 = 0 };  // enum qemu_plugin_op: QEMU_PLUGIN_INLINE_ADD_U64

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_translated_fn fn);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb, int op, void* ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, at_exit_fn fn, void* user);
void qemu_plugin_outs(const char* text);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t executed;

// Each translated block adds its instruction count every time it runs.
static void on_translated(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, kInlineAddU64, &executed, qemu_plugin_tb_n_insns(tb));
}

static void on_exit_report(qemu_plugin_id_t id, void* user) {
    (void)id;
    (void)user;
    char line[48];
    snprintf(line, sizeof line, "insns %llu\n", (unsigned long long)executed);
    qemu_plugin_outs(line);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t* info,
                                                               int argc, char** argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translated);
    qemu_plugin_register_atexit_cb(id, on_exit_report, NULL);
    return 0;
}
