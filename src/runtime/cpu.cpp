// SPDX-License-Identifier: MIT
#include "runtime/cpu.hpp"

#include <cstdio>

#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <cpu_features/cpuinfo_x86.h>
#define SKN_X86 1
#elif defined(__aarch64__)
#include <sys/auxv.h>
#include <sys/prctl.h>
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

#if SKN_ARM64
// The kernel's own words for the features (linux/arch/arm64/include/uapi/asm/hwcap.h),
// spelled out so an old libc's headers cannot hide a feature.
constexpr unsigned long kHwcapAsimd = 1ul << 1, kHwcapAsimdDp = 1ul << 20, kHwcapSve = 1ul << 22;
constexpr unsigned long kHwcap2Sve2 = 1ul << 1, kHwcap2I8mm = 1ul << 13, kHwcap2Bf16 = 1ul << 14;

// The SVE vector length of this thread, in bits (PR_SVE_GET_VL returns bytes
// in its low 16 bits); 0 when the kernel does not say.
int sve_vector_bits() {
#ifndef PR_SVE_GET_VL
    constexpr int PR_SVE_GET_VL = 51;
#endif
    const int vl = prctl(PR_SVE_GET_VL);
    return vl < 0 ? 0 : (vl & 0xffff) * 8;
}
#endif

#if SKN_ARM64
// The first core's implementer and part from /proc/cpuinfo (what the tuning
// table keys arm64 cores by); left empty when the file says neither (qemu-user
// shows the host's).
void read_arm_core(CpuFeatures* f) {
    std::FILE* in = std::fopen("/proc/cpuinfo", "r");
    if (in == nullptr) return;
    char line[256];
    unsigned implementer = 0, part = 0;
    bool have_impl = false, have_part = false;
    while (std::fgets(line, sizeof line, in) != nullptr && !(have_impl && have_part)) {
        if (!have_impl && std::sscanf(line, "CPU implementer : %x", &implementer) == 1) have_impl = true;
        if (!have_part && std::sscanf(line, "CPU part : %x", &part) == 1) have_part = true;
    }
    std::fclose(in);
    if (!have_impl) return;
    char vendor[32];
    std::snprintf(vendor, sizeof vendor, "arm:0x%02x", implementer);
    f->vendor = vendor;
    f->model = have_part ? int(part) : 0;
}
#endif

CpuFeatures detect() {
    CpuFeatures f;
#if SKN_X86
    // cpu_features' flags are signed one-bit fields: a set bit reads as -1, so
    // compare with 0 rather than 1.
    const cpu_features::X86Info info = cpu_features::GetX86Info();
    const auto& x = info.features;
    f.vendor = info.vendor;
    f.family = info.family;
    f.model = info.model;
    f.x86_amd = f.vendor == "AuthenticAMD";
    f.x86_family = info.family;
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
    // The kernel's hwcaps alone. cpu_features 0.7 reads the same bits, but
    // where AT_HWCAP2 is 0 (Armv8.0 cores) it falls back to parsing
    // /proc/self/auxv and prints a line to the host program's stdout.
    const unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    f.neon = (hwcap & kHwcapAsimd) != 0;
    f.neon_dotprod = (hwcap & kHwcapAsimdDp) != 0;
    f.neon_i8mm = (hwcap2 & kHwcap2I8mm) != 0;
    f.neon_bf16 = (hwcap2 & kHwcap2Bf16) != 0;
    f.sve = (hwcap & kHwcapSve) != 0;
    f.sve2 = (hwcap2 & kHwcap2Sve2) != 0;
    f.sve_vector_bits = f.sve ? sve_vector_bits() : 0;
    read_arm_core(&f);
#endif
    return f;
}

}  // namespace

const CpuFeatures& cpu_features() {
    static const CpuFeatures features = detect();
    return features;
}

const char* cpu_features_text() {
    static const std::string text = [] {
        const CpuFeatures& f = cpu_features();
        const struct {
            bool on;
            const char* name;
        } bits[] = {
            {f.sse42, "sse4.2"},           {f.avx2, "avx2"},         {f.fma, "fma"},
            {f.f16c, "f16c"},              {f.avx_vnni, "avxvnni"},  {f.avx512f, "avx512f"},
            {f.avx512bw, "avx512bw"},      {f.avx512vl, "avx512vl"}, {f.avx512dq, "avx512dq"},
            {f.avx512vnni, "avx512vnni"},  {f.avx512bf16, "avx512bf16"}, {f.neon, "neon"},
            {f.neon_dotprod, "dotprod"},   {f.neon_i8mm, "i8mm"},    {f.neon_bf16, "bf16"},
            {f.sve, "sve"},
            {f.sve2, "sve2"},
        };
#if SKN_X86
        std::string t = "x86-64:";
#elif SKN_ARM64
        std::string t = "aarch64:";
#else
        std::string t = "portable build (no SIMD detection):";
#endif
        bool any = false;
        for (const auto& b : bits)
            if (b.on) {
                t += ' ';
                t += b.name;
                any = true;
            }
        if (!any) t += " none";
        if (f.sve_vector_bits > 0) t += " (SVE vector length " + std::to_string(f.sve_vector_bits) + " bits)";
        return t;
    }();
    return text.c_str();
}

}  // namespace skn_core
