// SPDX-License-Identifier: MIT
// Registers the NEON activation quantizers (byte-identical to the codecs';
// activation/kernels.hpp). Built without ISA flags.
#include "dispatch/registry.hpp"
#include "kernels/aarch64/activation/kernels.hpp"

namespace skn_core {

void register_aarch64_activation_kernels(Registry& r) {
    namespace k = kernels::aarch64;
    r.add_quantizer({FormatId::Q8_0, SKN_ISA_NEON, k::quantize_row_q8_0_neon, {}});
    r.add_quantizer({FormatId::Q8_K, SKN_ISA_NEON, k::quantize_row_q8_k_neon, {}});
}

}  // namespace skn_core
