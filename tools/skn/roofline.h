/* SPDX-License-Identifier: MIT */
/* The machine's own roofline, measured in the same run as the kernels:
 * read bandwidth over a buffer larger than the last-level cache, and the
 * int8 dot-product, bf16 dot-product and f32 FMA peaks, at a given thread count. */
#ifndef SKN_TOOL_ROOFLINE_H
#define SKN_TOOL_ROOFLINE_H

#include <stddef.h>

/* Median read bandwidth in GB/s over `bytes` (>= 4x the LLC), `threads` threads:
 * the better of one sequential scan and four prefetched streams per thread. */
double roofline_read_gbps(size_t bytes, int threads, int reps);
/* Median int8 multiply-add peak in GOP/s (2 ops per MAC), using the widest
 * dot-product instruction this CPU has; *how names it. */
double roofline_int8_gops(int threads, int reps, const char** how);
/* Median f32 FMA peak in GFLOP/s; *how names the instruction width. */
double roofline_f32_gflops(int threads, int reps, const char** how);
/* Median bf16 dot-product peak in GFLOP/s (vdpbf16ps: 2 flops per bf16
 * product), or 0 when the CPU has no bf16 dot-product instruction. */
double roofline_bf16_gflops(int threads, int reps, const char** how);
/* Last-level cache size in bytes (32 MiB when it cannot be read). */
size_t roofline_llc_bytes(void);
/* Monotonic seconds. */
double roofline_now(void);

#endif
