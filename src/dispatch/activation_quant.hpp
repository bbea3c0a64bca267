// SPDX-License-Identifier: MIT
// Which quantizer prepares fast-precision activations: a vectorized one
// where the CPU and the context's ISA cap allow (byte-identical to the
// codec's, src/kernels/x86/activation_kernels.hpp), else the codec's own.
#pragma once

#include "formats/format.hpp"
#include "skn/skn.h"

namespace skn_core {

QuantizeRowFn activation_quantizer(const FormatTraits& act, skn_isa cap);

}  // namespace skn_core
