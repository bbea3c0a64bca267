// libxsmm, the dense f32/bf16 GEMM backend (used by the dense matmul path).
#pragma once

#include <string>

namespace skn {

// "libxsmm 1.17 (target: spr)": which build of libxsmm is linked and the code
// path it selected for this CPU.
std::string dense_backend_description();

}  // namespace skn
