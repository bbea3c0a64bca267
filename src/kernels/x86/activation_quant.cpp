// SPDX-License-Identifier: MIT
// Picks the activation quantizer (built without ISA flags).
#include "dispatch/activation_quant.hpp"
#include "dispatch/registry.hpp"
#include "kernels/x86/activation_kernels.hpp"

namespace skn_core {

QuantizeRowFn activation_quantizer(const FormatTraits& act, skn_isa cap) {
    if (cap >= SKN_ISA_AVX2 && cpu_runs(SKN_ISA_AVX2)) {
        if (act.id == FormatId::Q8_0) return kernels::x86::quantize_row_q8_0_avx2;
        if (act.id == FormatId::Q8_K) return kernels::x86::quantize_row_q8_k_avx2;
    }
    return act.quantize_row;
}

}  // namespace skn_core
