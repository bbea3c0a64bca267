// SPDX-License-Identifier: MIT
#include "runtime/cpu.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <cpu_features/cpuinfo_x86.h>
#define SKN_X86 1
#elif defined(__aarch64__)
#include <cpu_features/cpuinfo_aarch64.h>
#define SKN_ARM64 1
#endif

namespace skn_core {
namespace {

#if SKN_X86
// AVX-VNNI is CPUID.(EAX=7, ECX=1):EAX bit 4. The OS must also save YMM state,
// which the AVX2 tier already requires (cpu_features checks XCR0 for avx2).
bool cpuid_avx_vnni() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_max(0, nullptr) < 7) return false;
    __cpuid_count(7, 1, a, b, c, d);
    return (a & (1u << 4)) != 0;
}
#endif

CpuFeatures detect() {
    CpuFeatures f;
#if SKN_X86
    // cpu_features' flags are signed one-bit fields: a set bit reads as -1, so
    // compare with 0 rather than 1.
    const auto x = cpu_features::GetX86Info().features;
    f.sse42 = x.sse4_2 != 0;
    f.avx2 = x.avx2 != 0;
    f.fma = x.fma3 != 0;
    f.f16c = x.f16c != 0;
    f.avx512f = x.avx512f != 0;
    f.avx512bw = x.avx512bw != 0;
    f.avx512vl = x.avx512vl != 0;
    f.avx512dq = x.avx512dq != 0;
    f.avx512vnni = x.avx512vnni != 0;
    f.avx512bf16 = x.avx512_bf16 != 0;
    f.avx_vnni = f.avx2 && cpuid_avx_vnni();
#elif SKN_ARM64
    const auto a = cpu_features::GetAarch64Info().features;
    f.neon = a.asimd != 0;
    f.neon_dotprod = a.asimddp != 0;
#endif
    return f;
}

}  // namespace

const CpuFeatures& cpu_features() {
    static const CpuFeatures features = detect();
    return features;
}

skn_isa detected_isa() {
    const CpuFeatures& f = cpu_features();
    const bool avx2_tier = f.avx2 && f.fma && f.f16c;
    const bool avx512_tier = avx2_tier && f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq;
    if (avx512_tier && f.avx512vnni) return SKN_ISA_AVX512_VNNI;
    if (avx512_tier) return SKN_ISA_AVX512;
    if (avx2_tier && f.avx_vnni) return SKN_ISA_AVX_VNNI;
    if (avx2_tier) return SKN_ISA_AVX2;
    if (f.neon && f.neon_dotprod) return SKN_ISA_NEON_DOTPROD;
    if (f.neon) return SKN_ISA_NEON;
    return SKN_ISA_SCALAR;
}

}  // namespace skn_core
