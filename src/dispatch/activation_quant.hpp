// SPDX-License-Identifier: MIT
// Which quantizer prepares fast-precision activations: the best registered
// one (Registry::add_quantizer, byte-identical to the codec's) that the CPU
// and the context's ISA cap allow, else the codec's own.
#pragma once

#include "formats/format.hpp"
#include "skn/skn.h"

namespace skn_core {

QuantizeRowFn activation_quantizer(const FormatTraits& act, skn_isa cap);

}  // namespace skn_core
