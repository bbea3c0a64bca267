// SPDX-License-Identifier: MIT
#include "dispatch/kernel.hpp"

#include <cctype>

namespace skn_core {

const char* isa_tag(skn_isa isa) {
    switch (isa) {
        case SKN_ISA_SCALAR: return "scalar";
        case SKN_ISA_AVX2: return "avx2";
        case SKN_ISA_AVX_VNNI: return "avxvnni";
        case SKN_ISA_AVX512: return "avx512";
        case SKN_ISA_AVX512_VNNI: return "avx512vnni";
        case SKN_ISA_NEON: return "neon";
        case SKN_ISA_NEON_DOTPROD: return "neondotprod";
    }
    return "unknown";
}

const char* layout_tag(LayoutClass c) {
    switch (c) {
        case LayoutClass::BlockedRowMajor: return "rm";
        case LayoutClass::BlockedInputMajor: return "ibm";
        case LayoutClass::Contiguous: return "dense";
        case LayoutClass::Strided: return "strided";
    }
    return "?";
}

namespace {
std::string lower(const char* s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
}  // namespace

std::string kernel_name(const KernelKey& k) {
    return "matmul_wt_" + lower(find_format(k.weight)->name) + "_" + layout_tag(k.layout) + "_" +
           lower(find_format(k.activation)->name) + "_" + isa_tag(k.isa);
}

}  // namespace skn_core
