// SPDX-License-Identifier: MIT
// The u8 x s8 -> s32 dot-product step of the fast (integer) kernels, spelled
// once for every tier a translation unit can be compiled for, so one kernel
// body serves the VNNI tier and the tier below it.
//
// dot_u8s8(acc, u, s) adds to each 32-bit lane of acc the sum of the four
// products u[4k+j] * s[4k+j] (u unsigned, s signed bytes). With VNNI this is
// one vpdpbusd; without it, vpmaddubsw + vpmaddwd + vpaddd. vpmaddubsw
// saturates each pair sum u0*s0 + u1*s1 to int16, so callers must keep it
// within [-32768, 32767] — true whenever u <= 127 (4- to 6-bit unsigned
// codes against any int8), or u <= 128 and s >= -127 (the sign trick on int8
// weight codes against Q8_0 activations, which stop at -127: u = |w|,
// s = sign(w) * a). Activations that may be -128 (Q8_K) with signed weight
// levels go in the other way round: u = |a| <= 128, s = sign(a) * level with
// |level| <= 127. Under that contract both spellings give the same exact
// sums, so the tiers give bit-identical results.
//
// SKN_X86_TIER(name) appends the tier of the current flags to a kernel name:
// a body written once in a .inc file is included by one .cpp per tier, and
// each defines its own symbols.
//
// Include only from kernel translation units (<family>/<isa>.cpp): the
// functions live in an anonymous namespace, one private copy per TU, so the
// linker can never hand a wider ISA's copy to code that runs everywhere.
#pragma once

#include <immintrin.h>

#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
#define SKN_X86_TIER(name) name##_avx512vnni
#elif defined(__AVX512BW__)
#define SKN_X86_TIER(name) name##_avx512
#elif defined(__AVXVNNI__)
#define SKN_X86_TIER(name) name##_avxvnni
#elif defined(__AVX2__)
#define SKN_X86_TIER(name) name##_avx2
#else
#error "common/int8_dot.hpp is for x86 kernel translation units built with at least AVX2"
#endif

namespace skn_core::kernels::x86_64 {
namespace {

inline __m256i dot_u8s8(__m256i acc, __m256i u, __m256i s) {
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
    return _mm256_dpbusd_epi32(acc, u, s);
#elif defined(__AVXVNNI__)
    return _mm256_dpbusd_avx_epi32(acc, u, s);
#else
    const __m256i pairs = _mm256_maddubs_epi16(u, s);
    return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
#endif
}

#if defined(__AVX512BW__)
inline __m512i dot_u8s8(__m512i acc, __m512i u, __m512i s) {
#if defined(__AVX512VNNI__)
    return _mm512_dpbusd_epi32(acc, u, s);
#else
    const __m512i pairs = _mm512_maddubs_epi16(u, s);
    return _mm512_add_epi32(acc, _mm512_madd_epi16(pairs, _mm512_set1_epi16(1)));
#endif
}
#endif

}  // namespace
}  // namespace skn_core::kernels::x86_64
