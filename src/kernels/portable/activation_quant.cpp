// SPDX-License-Identifier: MIT
// The activation quantizer choice on CPU architectures without a kernel
// provider of their own yet (built instead of src/kernels/x86 there, see
// src/CMakeLists.txt): the codec's own quantizer, the one every vectorized
// quantizer must match byte for byte.
#include "dispatch/activation_quant.hpp"

namespace skn_core {

QuantizeRowFn activation_quantizer(const FormatTraits& act, skn_isa /*cap*/) { return act.quantize_row; }

}  // namespace skn_core
