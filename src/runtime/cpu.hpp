// SPDX-License-Identifier: MIT
// What this CPU can run, detected once: on x86-64 cpu_features for the
// documented bits and our own CPUID read for AVX-VNNI (cpu_features 0.7 has no
// field for it); on arm64 the kernel's HWCAP words alone (cpu.cpp says why). Which tier these make is runtime/isa.hpp's job.
#pragma once

#include <string>

#include "runtime/isa.hpp"

namespace skn_core {

struct CpuFeatures {
    bool sse42 = false;
    bool avx2 = false, fma = false, f16c = false;
    bool avx_vnni = false;
    bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false;
    bool avx512vnni = false, avx512bf16 = false;
    bool neon = false, neon_dotprod = false, neon_i8mm = false;
    bool neon_bf16 = false;  // BFDOT / BFMMLA (FEAT_BF16); no tier implies it
    bool sve = false, sve2 = false;
    int sve_vector_bits = 0;  // the SVE vector length this process runs with; 0 without SVE
    // Which core this is, for the choices no ISA bit implies (the tuning
    // table, dispatch/tuning.hpp). x86: the CPUID vendor string and display
    // family and model (base + extended); aarch64: "arm:<implementer>" and
    // the MIDR part number as the model (family 0), read from
    // /proc/cpuinfo; empty and 0 where unknown (a portable build, qemu).
    std::string vendor;
    int family = 0;
    int model = 0;
    bool x86_amd = false;
    int x86_family = 0;  // as `family`, on x86 only
};

const CpuFeatures& cpu_features();

// "x86-64: avx2 fma f16c avx512f ..." or "aarch64: neon dotprod i8mm bf16 sve sve2
// (SVE vector length 256 bits)": the architecture and every feature bit above
// that is set, in the order of the struct, built once.
const char* cpu_features_text();

}  // namespace skn_core
