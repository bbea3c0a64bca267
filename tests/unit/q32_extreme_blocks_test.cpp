// SPDX-License-Identifier: MIT
// The 32-element block kernels on hand-built extreme blocks: every code at its
// maximum or minimum, Q8_0's -128 (which no quantizer writes but a foreign
// file may), zero and negative scales, activations at +-127. The integer dot
// of every fast tier (avx2: vpmaddubsw with the sign trick; avx512: the same
// at 512 bits; avx512vnni: vpdpbusd on offset codes) must be the same exact
// integer, so every tier and both orders give bit-identical y; a saturating
// vpmaddubsw pair sum would show up here as a wrong value against the
// reference and as a tier disagreement.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "support/block_builder.hpp"
#include "support/matmul_harness.hpp"
#include "support/matmul_reference.hpp"

namespace skn_core {
namespace {

// Bytes of one block of `f`: the scale fields, then the code bytes filled
// with `fill` (so 0xFF is every 4-bit code at 15, 0x80 is Q8_0's -128 or a
// nibble pair 0 / 8, 0x77 is MXFP4's largest value, +6, everywhere).
void write_block(FormatId f, std::vector<uint8_t>& b, size_t at, int kind, uint32_t rnd) {
    static const float kScales[] = {0.5f, 0.0f, -0.25f, 1.0f, 0.0078125f, 3.0f};
    static const uint8_t kFills[] = {0x00, 0xFF, 0x80, 0x7F, 0x88, 0x08, 0x81, 0x77};
    const float d = kScales[kind % 6];
    const float m = (kind & 1) ? 0.5f : -0.75f;
    const uint8_t fill = kFills[kind % 8];
    const bool random_codes = kind % 5 == 4;
    auto codes = [&](size_t from, size_t count) {
        for (size_t k = 0; k < count; ++k) {
            rnd = rnd * 1664525u + 1013904223u;
            b[at + from + k] = random_codes ? uint8_t(rnd >> 24) : fill;
        }
    };
    switch (f) {
        case FormatId::Q4_0:
        case FormatId::IQ4_NL: test::put_fp16(b, at, d); codes(2, 16); break;
        case FormatId::Q8_0: test::put_fp16(b, at, d); codes(2, 32); break;
        case FormatId::Q4_1: test::put_fp16(b, at, d); test::put_fp16(b, at + 2, m); codes(4, 16); break;
        case FormatId::Q5_0: test::put_fp16(b, at, d); codes(2, 20); break;  // qh follows the fill too
        case FormatId::Q5_1:
            test::put_fp16(b, at, d);
            test::put_fp16(b, at + 2, m);
            codes(4, 20);
            break;
        case FormatId::MXFP4: {
            static const uint8_t kExp[] = {127, 0, 130, 118, 1, 140};
            b[at] = kExp[kind % 6];
            codes(1, 16);
            break;
        }
        default: FAIL() << "not a 32-element block format";
    }
}

// Activation rows: all +1 (codes +127), all -1 (-127), alternating, zero,
// random, one large element among small ones.
std::vector<float> activations(int64_t n, int64_t in) {
    std::vector<float> x(size_t(n * in));
    std::vector<float> rnd(static_cast<size_t>(in));
    for (int64_t i = 0; i < n; ++i) {
        sample_weight(rnd.data(), 1, in, 900 + uint64_t(i));
        for (int64_t c = 0; c < in; ++c) {
            float v = 0.0f;
            switch (i % 6) {
                case 0: v = 1.0f; break;
                case 1: v = -1.0f; break;
                case 2: v = (c & 1) ? -1.0f : 1.0f; break;
                case 3: v = 0.0f; break;
                case 4: v = rnd[size_t(c)]; break;
                default: v = c % 32 == 5 ? 100.0f : 0.01f * rnd[size_t(c)]; break;
            }
            x[size_t(i * in + c)] = v;
        }
    }
    return x;
}

std::vector<float> run(const Kernel& k, const View& w, const std::vector<float>& x, int64_t n, int64_t in,
                       int64_t out) {
    Registry single;
    single.add(k);
    Context ctx;
    ctx.set_registry(&single);
    ctx.set_isa_cap(k.key.isa);
    ctx.set_threads(1);
    MatmulOptions o;
    o.precision = Precision::Fast;
    o.strict = true;
    std::vector<float> y(size_t(n * out), -7.0f);
    matmul_wt(ctx, x.data(), n, in, w, nullptr, y.data(), out, o);
    return y;
}

struct Case {
    FormatId f;
    int64_t out, bpr, n;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << find_format(c.f)->name << " out=" << c.out << " bpr=" << c.bpr << " n=" << c.n;
}

class Q32ExtremeBlocks : public ::testing::TestWithParam<Case> {};

TEST_P(Q32ExtremeBlocks, EveryFastTierAndOrderGivesTheSameBits) {
    const Case c = GetParam();
    const FormatTraits& f = *find_format(c.f);
    const int64_t in = c.bpr * 32;
    std::vector<uint8_t> rm(quantized_size(f, c.out, in));
    for (int64_t o = 0; o < c.out; ++o)
        for (int64_t b = 0; b < c.bpr; ++b)
            write_block(c.f, rm, size_t(o * c.bpr + b) * size_t(f.block_bytes), int(o * 5 + b * 3),
                        uint32_t(o * 131 + b));
    std::vector<float> decoded(size_t(c.out * in));
    dequantize_tensor(f, rm.data(), rm.size(), c.out, in, decoded.data(), decoded.size());
    const int64_t shape[2] = {c.out, in};
    const View rmv = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
    Scope scope;
    View ibmv;
    prepack(rmv, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &ibmv);
    const std::vector<float> x = activations(c.n, in);
    const auto ref = test::reference_matmul(decoded, c.out, in, x.data(), c.n, in, nullptr, f.activation);

    std::vector<float> first;
    std::string first_name;
    int ran = 0;
    for (const Kernel& k : default_registry().kernels()) {
        if (k.key.weight != c.f || k.key.activation != f.activation || k.key.isa == SKN_ISA_SCALAR) continue;
        if (!cpu_runs(k.key.isa)) continue;
        const View& w = k.key.layout == LayoutClass::BlockedRowMajor ? rmv : ibmv;
        if (k.key.layout != LayoutClass::BlockedRowMajor && k.key.layout != LayoutClass::BlockedInputMajor) continue;
        const std::vector<float> y = run(k, w, x, c.n, in, c.out);
        ++ran;
        for (int64_t i = 0; i < c.n; ++i)
            for (int64_t o = 0; o < c.out; ++o) {
                const size_t at = size_t(i * c.out + o);
                ASSERT_LE(std::fabs(double(y[at]) - ref.y[at]), ref.bound[at])
                    << k.name << " at [" << i << ", " << o << "]";
            }
        if (first.empty()) {
            first = y;
            first_name = k.name;
        } else {
            ASSERT_EQ(std::memcmp(first.data(), y.data(), y.size() * sizeof(float)), 0)
                << k.name << " differs from " << first_name;
        }
    }
    if (ran < 2) GTEST_SKIP() << "fewer than two SIMD kernels for " << f.name << " on this CPU";
}

std::vector<Case> cases() {
    std::vector<Case> v;
    for (FormatId f : test::q32_formats())
        for (int64_t bpr : {3, 11, 130})
            for (int64_t n : {1, 3, 11, 17}) v.push_back({f, 37, bpr, n});  // 11: an 8-row tile, then 2 and 1
    return v;
}

INSTANTIATE_TEST_SUITE_P(Q32, Q32ExtremeBlocks, ::testing::ValuesIn(cases()), [](const auto& p) {
    return test::case_name(p.param.f, {{"bpr", p.param.bpr}, {"n", p.param.n}});
});
// A provider without SIMD kernels (portable) has no q32 format.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Q32ExtremeBlocks);

}  // namespace
}  // namespace skn_core
