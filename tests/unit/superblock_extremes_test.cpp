// SPDX-License-Identifier: MIT
// K-quant fast kernels (Q8_K activations) on extreme blocks the quantizers
// never produce: every code at its maximum or minimum, zero and negative
// super-block scales, activation codes of -128 and 127. Every fast tier of
// the build (x86: avx2, avx512, avx512vnni; arm64: neon, neondotprod) must
// give the same bits (their integer sums are exact, so a vpmaddubsw or any
// other saturation would show as a difference), stay within the float bound of an
// f64 sum over the decoded values, and not depend on the output row split.
// Kernels are called directly so the activation bytes are exactly ours.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "layout/view.hpp"
#include "support/q8k_direct.hpp"

namespace skn_core {
namespace {

constexpr int kSuper = test::kQ8kElems;
using test::kQ8kBytes;
using test::same_bits;

struct FormatCase {
    FormatId id;
    int bytes;
    int d_at, dmin_at;  // fp16 offsets; dmin_at < 0 for symmetric formats
};

const FormatCase kFormats[] = {
    {FormatId::Q2_K, 84, 80, 82},  {FormatId::Q3_K, 110, 108, -1}, {FormatId::Q4_K, 144, 0, 2},
    {FormatId::Q5_K, 176, 0, 2},   {FormatId::Q6_K, 210, 208, -1}, {FormatId::IQ4_XS, 136, 0, -1},
};

void put_u16(uint8_t* p, uint16_t v) { std::memcpy(p, &v, 2); }

// Weight blocks: pattern 0 every byte 0xff (all codes, scales and mins at
// their maximum; Q6_K int8 scales -1), 1 every byte 0 (Q3_K/Q6_K codes at
// their most negative value), 2 random; fp16 scales from a list that holds
// zero and negative values.
// A pattern in 0..2 (worst_case) fixes it for every block.
std::vector<uint8_t> extreme_weight(const FormatCase& fc, int64_t out, int64_t bpr, std::mt19937& rng, int worst_case = -1) {
    static const uint16_t kHalves[] = {0x3c00 /*1*/, 0xb800 /*-0.5*/, 0x0000, 0x8000 /*-0*/, 0x4400 /*4*/, 0x2e66 /*~0.1*/};
    const FormatTraits& f = *find_format(fc.id);
    std::vector<uint8_t> w(quantized_size(f, out, bpr * kSuper), 0);
    for (int64_t k = 0; k < out * bpr; ++k) {
        uint8_t* blk = w.data() + k * fc.bytes;
        const int pattern = worst_case >= 0 ? worst_case : int(rng() % 3);
        for (int e = 0; e < fc.bytes; ++e) blk[e] = pattern == 0 ? 0xff : pattern == 1 ? 0 : uint8_t(rng());
        put_u16(blk + fc.d_at, kHalves[rng() % 6]);
        if (fc.dmin_at >= 0) put_u16(blk + fc.dmin_at, kHalves[rng() % 6]);
    }
    return w;
}

const Kernel* find_kernel(FormatId f, LayoutClass c, skn_isa isa) {
    for (const Kernel& k : default_registry().kernels())
        if (k.key.weight == f && k.key.layout == c && k.key.activation == FormatId::Q8_K && k.key.isa == isa) return &k;
    return nullptr;
}

// Q8_K activations with every code at -128 (bsums -2048).
std::vector<uint8_t> most_negative_q8k_activations(int64_t n, int64_t bpr) {
    std::vector<uint8_t> x(size_t(n * bpr * kQ8kBytes));
    for (int64_t k = 0; k < n * bpr; ++k) {
        uint8_t* blk = x.data() + k * kQ8kBytes;
        const float d = float(1 + k % 7) / 256.0f;
        std::memcpy(blk, &d, 4);
        std::memset(blk + 4, 0x80, kSuper);
        for (int j = 0; j < 16; ++j) put_u16(blk + 4 + kSuper + 2 * j, uint16_t(int16_t(-2048)));
    }
    return x;
}

// Every fast tier the CPU runs and order on one weight shape and these activation
// row counts (with per_row_calls, also each activation row in a call of its
// own); returns how many kernels ran. worst_case: every weight byte 0xff (codes,
// scales and mins at their maximum) against activation codes all -128.
int check_all_tiers(int64_t out, int64_t bpr, std::initializer_list<int64_t> ns, bool per_row_calls = false,
                    bool worst_case = false) {
    const skn_isa tiers[] = {SKN_ISA_AVX2, SKN_ISA_AVX512, SKN_ISA_AVX512_VNNI, SKN_ISA_NEON, SKN_ISA_NEON_DOTPROD,
                             SKN_ISA_NEON_I8MM};
    const int64_t in = bpr * kSuper;
    int checked_tiers = 0;
    for (const FormatCase& fc : kFormats) {
        const FormatTraits& f = *find_format(fc.id);
        std::mt19937 rng(1234 + int(fc.id));
        std::vector<uint8_t> wrm = extreme_weight(fc, out, bpr, rng, worst_case ? 0 : -1);
        std::vector<float> wdec(size_t(out * in));
        dequantize_tensor(f, wrm.data(), wrm.size(), out, in, wdec.data(), wdec.size());
        const int64_t shape[2] = {out, in};
        const View rm = make_view(wrm.data(), wrm.size(), f, shape, 2, BlockOrder::RowMajor);
        Scope scope;
        View ibm;
        if (!prepack(rm, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &ibm)) {
            ADD_FAILURE() << "prepack to INPUT_BLOCK_MAJOR failed";
            return checked_tiers;
        }
        for (int64_t n : ns) {
            const std::vector<uint8_t> xq =
                worst_case ? most_negative_q8k_activations(n, bpr) : test::extreme_q8k_activations(n, bpr, rng);
            std::vector<float> first;
            std::string first_name;
            for (skn_isa isa : tiers) {
                if (!cpu_runs(isa)) continue;
                for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
                    const Kernel* k = find_kernel(fc.id, c, isa);
                    if (k == nullptr) continue;
                    SCOPED_TRACE(k->name + " n=" + std::to_string(n));
                    const View& w = c == LayoutClass::BlockedRowMajor ? rm : ibm;
                    const std::vector<float> y = test::run_q8k_kernel_direct(*k, w, out, in, xq, n, out);
                    ++checked_tiers;
                    if (first.empty()) {
                        first = y;
                        first_name = k->name;
                        // Against the f64 sum over decoded weights and activations.
                        for (int64_t i = 0; i < n; ++i)
                            for (int64_t o = 0; o < out; ++o) {
                                double ref = 0, mag = 0;
                                for (int64_t e = 0; e < in; ++e) {
                                    const uint8_t* xb = xq.data() + (i * bpr + e / kSuper) * kQ8kBytes;
                                    float dx;
                                    std::memcpy(&dx, xb, 4);
                                    const double xv = double(dx) * double(int8_t(xb[4 + e % kSuper]));
                                    ref += double(wdec[size_t(o * in + e)]) * xv;
                                    mag += std::fabs(double(wdec[size_t(o * in + e)]) * xv);
                                }
                                EXPECT_NEAR(y[size_t(i * out + o)], ref, 1e-5 * mag + 1e-30)
                                    << "i=" << i << " o=" << o;
                            }
                    } else {
                        EXPECT_TRUE(same_bits(y, first)) << "differs from " << first_name;
                    }
                    // Any split of the output rows gives the same bits.
                    EXPECT_TRUE(same_bits(test::run_q8k_kernel_direct(*k, w, out, in, xq, n, 1), y)) << "1-row calls";
                    EXPECT_TRUE(same_bits(test::run_q8k_kernel_direct(*k, w, out, in, xq, n, 5), y)) << "5-row calls";
                    // So does each activation row alone (n = 1 takes the plain GEMV path; a
                    // row's y does not depend on how many rows share the call).
                    if (n > 1 && per_row_calls)
                        for (int64_t i = 0; i < n; ++i) {
                            const auto row_bytes = std::ptrdiff_t(bpr * kQ8kBytes);
                            const std::vector<uint8_t> xi(xq.begin() + i * row_bytes, xq.begin() + (i + 1) * row_bytes);
                            const std::vector<float> yi(y.begin() + i * out, y.begin() + (i + 1) * out);
                            EXPECT_TRUE(same_bits(test::run_q8k_kernel_direct(*k, w, out, in, xi, 1, out), yi))
                                << "row " << i << " alone";
                        }
                }
            }
        }
    }
    return checked_tiers;
}

TEST(KquantExtremes, FastTiersAgreeBitForBitAndWithTheF64Sum) {
    if (check_all_tiers(37, 3, {1, 3, 4, 17}) == 0) GTEST_SKIP() << "no fast K-quant tier runs on this CPU";
}

// More output rows than one INPUT_BLOCK_MAJOR GEMV chunk (256) in one call,
// a GEMM tail of 12 rows, and activation row counts past the GEMV (3) and
// GEMM (8) row tiles.
TEST(KquantExtremes, LongCallsAndRowTailsAgreeToo) {
    if (check_all_tiers(300, 2, {2, 33}) == 0) GTEST_SKIP() << "no fast K-quant tier runs on this CPU";
}

// The few-row paths (x86 512-bit: the row-lane GEMV step from 4 rows, 6 for
// Q2_K/Q3_K/Q6_K, in passes of 8 with the rest padded to its 4- or 8-row
// form, the wide step for fewer, all of these also for the GEMM's ragged
// output tail; the GEMM from n = 13) on odd shapes: one super-block per row,
// output row counts that are no multiple of 16 or 4 (GEMM tiles plus a
// ragged GEMV tail, or a single partial 4-row step). Every call must equal
// each row computed alone.
TEST(KquantExtremes, FewRowCallsMatchEachRowAloneOnOddShapes) {
    int ran = 0;
    ran += check_all_tiers(37, 1, {3, 4, 5, 6, 7, 8, 9, 11, 13, 14, 17}, true);
    ran += check_all_tiers(21, 3, {3, 4, 5, 6, 7, 8, 9, 12, 17}, true);
    ran += check_all_tiers(3, 3, {4, 9}, true);
    if (ran == 0) GTEST_SKIP() << "no fast K-quant tier runs on this CPU";
}

// Every block at the largest integer sums its kernels form: the x86 row-lane
// step's int16 sub-block sums (Q5_K: 8 * 31 * 128 of 32767 with two rows per
// 128-bit lane, 8 activation rows) and every other path's int16 steps are
// exact only below that limit, so saturation would show against the f64 sum
// and across tiers. n = 4 and 8 (the row-lane forms), 6 (8 with rows
// repeated), 3 (wide step), 1.
TEST(KquantExtremes, LargestSumsStayExact) {
    if (check_all_tiers(21, 3, {1, 3, 4, 6, 8}, true, true) == 0)
        GTEST_SKIP() << "no fast K-quant tier runs on this CPU";
}

}  // namespace
}  // namespace skn_core
