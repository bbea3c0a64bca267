// SPDX-License-Identifier: MIT
// Registers the vectorized activation quantizers (byte-identical to the
// codecs'; activation/kernels.hpp). Built without ISA flags.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/activation/kernels.hpp"

namespace skn_core {

void register_activation_kernels(Registry& r) {
    namespace k = kernels::x86_64;
    r.add_quantizer({FormatId::Q8_0, SKN_ISA_AVX2, k::quantize_row_q8_0_avx2, {}});
    r.add_quantizer({FormatId::Q8_K, SKN_ISA_AVX2, k::quantize_row_q8_k_avx2, {}});
    r.add_quantizer({FormatId::Q8_0, SKN_ISA_AVX512, k::quantize_row_q8_0_avx512, {}});
}

}  // namespace skn_core
