// SPDX-License-Identifier: MIT
// libxsmm, the dense f32/bf16 GEMM backend (used by the dense matmul path).
#pragma once

#include <cstdint>
#include <string>

namespace skn_core {

// "libxsmm 1.17 (target: spr)": which build of libxsmm is linked and the code
// path it selected for this CPU.
std::string dense_backend_description();

// C[m, n] (column-major, ldc = m) = A[m, k] B[k, n] in f32, A column-major
// with lda = m, B column-major with leading dimension ldb (for us: activation
// rows). `first` overwrites C, `next` adds to it.
using XsmmGemmFn = void (*)(const float* a, const float* b, float* c, ...);  // libxsmm_smmfunction
struct XsmmGemm {
    XsmmGemmFn first = nullptr, next = nullptr;
};

// libxsmm's JIT'd pair for one shape, or null when it cannot serve it
// (dispatch returned NULL, m <= 16, or libxsmm's code path for this CPU is not
// one whose summation order was checked: docs/kernels/dense.md). The answer
// for a shape is decided once and kept for the life of the process, so every
// task of every call takes the same path.
const XsmmGemm* xsmm_sgemm(int64_t m, int64_t n, int64_t k, int64_t ldb);

// Test hook: while set, xsmm_sgemm answers null for shapes not yet decided,
// without deciding them (so a test can take the fallback path on a machine
// where libxsmm works).
void xsmm_refuse_new_shapes_for_testing(bool refuse);

}  // namespace skn_core
