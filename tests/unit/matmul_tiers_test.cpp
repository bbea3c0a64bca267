// SPDX-License-Identifier: MIT
// Kernel bodies written once for several ISA tiers (src/kernels/x86_64/
// common/int8_dot.hpp) must give the same bits on every tier: the avx512 tier's
// vpmaddubsw + vpmaddwd saturates where vpdpbusd does not, so agreement on
// quantizer output alone proves little. Each pair runs on quantized weights
// and on blocks of random bytes (codes at both ends of their range, -128
// included), against random activations and against constant rows, whose
// quantized codes all sit at the extreme (Q8_K: -128).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

struct TierPair {
    const Kernel* lower;   // e.g. avx512
    const Kernel* higher;  // the same key at avx512vnni
};

// Integer-dot kernels whose avx512 and avx512vnni tiers share a body. Dense
// formats are not paired: fast BF16 uses vdpbf16ps only on the vnni tier.
std::vector<TierPair> shared_body_pairs() {
    std::vector<TierPair> pairs;
    const auto& ks = default_registry().kernels();
    for (const Kernel& lo : ks) {
        if (lo.key.isa != SKN_ISA_AVX512 || !find_format(lo.key.weight)->block_quantized) continue;
        if (lo.key.activation == FormatId::F32) continue;  // exact precision: one 512-bit tier
        for (const Kernel& hi : ks) {
            KernelKey k = hi.key;
            k.isa = SKN_ISA_AVX512;
            if (hi.key.isa == SKN_ISA_AVX512_VNNI && k == lo.key) pairs.push_back({&lo, &hi});
        }
    }
    return pairs;
}

std::vector<float> activations(int64_t n, int64_t in, bool extreme, uint64_t seed) {
    std::vector<float> x(size_t(n * in));
    if (!extreme) {
        sample_weight(x.data(), n, in, seed);
        return x;
    }
    // Row i: every element the same magnitude, sign by row and by element.
    for (int64_t i = 0; i < n; ++i)
        for (int64_t c = 0; c < in; ++c)
            x[size_t(i * in + c)] = float(1 + i % 3) * ((i + c / (i % 4 + 1)) % 2 ? -1.0f : 1.0f);
    return x;
}

TEST(MatmulTiers, SharedBodiesGiveIdenticalBitsOnEveryTier) {
    if (!cpu_runs(SKN_ISA_AVX512_VNNI)) GTEST_SKIP() << "needs a CPU with AVX-512 VNNI to run both tiers";
    const std::vector<TierPair> pairs = shared_body_pairs();
    int compared = 0;
    for (const TierPair& p : pairs) {
        const FormatTraits& f = *find_format(p.lower->key.weight);
        for (bool random_blocks : {false, true})
            for (int64_t n : {1, 5, 17}) {
                test::TestWeight w(f, test::rows_for(f, 37), 3, p.lower->key.layout, 11 + uint64_t(n), random_blocks);
                for (bool extreme : {false, true}) {
                    const std::vector<float> x = activations(n, w.in, extreme, 300 + uint64_t(n));
                    std::vector<float> y_lo(size_t(n * w.out)), y_hi(y_lo.size());
                    test::run_with_kernel(*p.lower, w.view, x.data(), n, w.in, nullptr, y_lo.data(), w.out);
                    test::run_with_kernel(*p.higher, w.view, x.data(), n, w.in, nullptr, y_hi.data(), w.out);
                    ASSERT_EQ(std::memcmp(y_lo.data(), y_hi.data(), y_lo.size() * sizeof(float)), 0)
                        << p.lower->name << " vs " << p.higher->name << " n=" << n
                        << (random_blocks ? " random blocks" : " quantized") << (extreme ? ", extreme x" : "");
                    ++compared;
                }
            }
    }
    // Until a family has its avx512 tier there is nothing to compare; once
    // any has, every one of its formats is compared in both orders.
    if (pairs.empty()) GTEST_SKIP() << "no kernel has both an avx512 and an avx512vnni tier yet";
    EXPECT_EQ(compared, int(pairs.size()) * 12);
}

}  // namespace
}  // namespace skn_core
