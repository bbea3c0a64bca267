// SPDX-License-Identifier: MIT
#include "dispatch/activation_quant.hpp"

#include "dispatch/registry.hpp"

namespace skn_core {

QuantizeRowFn activation_quantizer(const FormatTraits& act, skn_isa cap) {
    const ActivationQuantizer* q = default_registry().best_quantizer(act.id, cap);
    return q != nullptr ? q->fn : act.quantize_row;
}

}  // namespace skn_core
