/* SPDX-License-Identifier: MIT */
/* The skn program's sub-commands. */
#ifndef SKN_TOOL_COMMANDS_H
#define SKN_TOOL_COMMANDS_H

int skn_cmd_demo(int argc, char** argv);
int skn_cmd_inspect(int argc, char** argv);
int skn_cmd_imatrix(int argc, char** argv);
int skn_cmd_bench(int argc, char** argv);
int skn_cmd_verify(int argc, char** argv);
int skn_cmd_dump(int argc, char** argv);
int skn_cmd_doctor(int argc, char** argv);
int skn_cmd_tune(int argc, char** argv);
int skn_cmd_quantize(int argc, char** argv);
int skn_cmd_edit(int argc, char** argv);
int skn_cmd_split(int argc, char** argv);
int skn_cmd_merge(int argc, char** argv);

#endif
