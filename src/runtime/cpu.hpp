// SPDX-License-Identifier: MIT
// What this CPU can run, detected once: cpu_features for the documented bits,
// our own CPUID read for AVX-VNNI (cpu_features 0.7 has no field for it).
#pragma once

#include "skn/skn.h"

namespace skn_core {

struct CpuFeatures {
    bool sse42 = false;
    bool avx2 = false, fma = false, f16c = false;
    bool avx_vnni = false;
    bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false;
    bool avx512vnni = false, avx512bf16 = false;
    bool neon = false, neon_dotprod = false;
};

const CpuFeatures& cpu_features();

// The best tier the hardware has, ignoring any cap.
skn_isa detected_isa();

}  // namespace skn_core
