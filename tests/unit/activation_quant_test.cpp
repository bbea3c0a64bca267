// SPDX-License-Identifier: MIT
// The vectorized activation quantizers must write exactly the codec's bytes:
// kernels, tiers and the documented error bounds all assume one activation
// encoding. Rows mix ordinary values, exact rounding ties, zero blocks,
// tiny (subnormal-scale) and huge blocks, one outlier, values near the float
// maximum, and repeated maxima of both signs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "dispatch/activation_quant.hpp"
#include "dispatch/registry.hpp"
#include "formats/format.hpp"

namespace skn_core {
namespace {

// Each span of `span` elements (a Q8_0 block or a Q8_K super-block) gets
// one of the patterns, so each format meets every pattern whole.
std::vector<float> awkward_row(int64_t n, int64_t span, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[size_t(i)] = normal(rng);
    for (int64_t b = 0; b * span < n; ++b) {
        float* blk = x.data() + b * span;
        switch (b % 8) {
            case 0: std::fill(blk, blk + span, 0.0f); break;                 // zero block
            case 1: for (int i = 0; i < span; ++i) blk[i] *= 1e-41f; break;  // subnormal values
            case 2: for (int i = 0; i < span; ++i) blk[i] *= 1e30f; break;   // huge values
            case 3:  // exact ties after scaling: amax 127 gives inverse scale 1
                for (int i = 0; i < span; ++i) blk[i] = float(i % 2 ? -1 : 1) * (float(i % 126) + 0.5f);
                blk[span - 1] = 127.0f;
                break;
            case 4:  // the largest magnitude twice, negative first
                blk[3] = -9.0f;
                blk[20] = 9.0f;
                break;
            case 5:  // one outlier: every other code rounds to 0 or +-1
                blk[span / 2 + 1] = -4096.0f;
                break;
            case 6:  // near the float maximum, both signs: the inverse scale is tiny
                for (int i = 0; i < span; ++i) blk[i] = float(i % 2 ? -1 : 1) * 3.0e38f * float(i % 5 + 1) / 5.0f;
                break;
            default: break;
        }
    }
    return x;
}

void expect_same_bytes(const ActivationQuantizer& q) {
    if (!cpu_runs(q.isa)) GTEST_SKIP() << q.name << ": this CPU lacks " << isa_tag(q.isa);
    const FormatTraits& f = *find_format(q.format);
    for (int64_t n : {256, 768, 4096}) {
        for (uint64_t seed = 1; seed <= 20; ++seed) {
            const std::vector<float> x = awkward_row(n, f.block_elems, seed * 31 + uint64_t(n));
            const size_t bytes = size_t(n / f.block_elems) * size_t(f.block_bytes);
            std::vector<uint8_t> want(bytes, 0xAA), got(bytes, 0x55);
            f.quantize_row(x.data(), n, want.data());
            q.fn(x.data(), n, got.data());
            for (size_t i = 0; i < bytes; ++i)
                ASSERT_EQ(got[i], want[i]) << q.name << " n=" << n << " seed=" << seed << ": byte " << i
                                           << " of block " << i / size_t(f.block_bytes);
        }
    }
}

// Every registered quantizer, found in the registry: a new one is tested by
// being registered.
TEST(ActivationQuantizer, EveryRegisteredQuantizerWritesTheCodecsBytes) {
    const auto& all = default_registry().quantizers();
    if (all.empty()) GTEST_SKIP() << "this build registers no vectorized activation quantizer";
    for (const ActivationQuantizer& q : all) {
        SCOPED_TRACE(q.name);
        EXPECT_EQ(q.name, quantizer_name(q.format, q.isa));
        expect_same_bytes(q);
    }
}

TEST(ActivationQuantizer, TheScalarCapKeepsTheCodecsQuantizer) {
    for (FormatId id : {FormatId::Q8_0, FormatId::Q8_1, FormatId::Q8_K}) {
        const FormatTraits& f = *find_format(id);
        EXPECT_EQ(activation_quantizer(f, SKN_ISA_SCALAR), f.quantize_row) << f.name;
    }
}

TEST(ActivationQuantizer, TheBestRegisteredQuantizerIsChosen) {
    for (const ActivationQuantizer& q : default_registry().quantizers()) {
        if (!cpu_runs(q.isa)) continue;
        const FormatTraits& f = *find_format(q.format);
        EXPECT_NE(activation_quantizer(f, q.isa), f.quantize_row) << q.name << " was not chosen at its own cap";
    }
}

}  // namespace
}  // namespace skn_core
