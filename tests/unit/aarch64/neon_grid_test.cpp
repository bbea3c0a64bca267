// SPDX-License-Identifier: MIT
// The NEON fast grid-format kernels (src/kernels/aarch64/grid) against the
// accumulation contract they share with x86's grid kernels
// (docs/kernels/grid.md, docs/kernels/neon.md): y is computed here from the
// codec's decoder (a block decoded with d = 1 gives dd/d * m * w, so a
// power of two times it is the exact integer m * w of each element) and the
// contract's float steps written out (dd * dx one rounded product,
// std::fma), and every NEON grid kernel — both tiers, both block orders, one
// and three threads — must give those bits exactly. Since x86's avx2 /
// avx512 / avx512vnni grid kernels follow the same contract, arm64 and
// x86-64 agree bit for bit. Blocks are quantizer output (with importance
// weights where the format needs them) and random bytes (every index, sign
// and scale, negative d).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/half.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/quantize_any.hpp"

namespace skn_core {
namespace {

constexpr int64_t kSuper = 256;
constexpr int64_t kQ8kBytes = 292;

bool is_grid(FormatId f) {
    switch (f) {
        case FormatId::IQ2_XXS:
        case FormatId::IQ2_XS:
        case FormatId::IQ2_S:
        case FormatId::IQ3_XXS:
        case FormatId::IQ3_S:
        case FormatId::IQ1_S:
        case FormatId::IQ1_M: return true;
        default: return false;
    }
}

std::vector<const Kernel*> neon_grid_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels())
        if ((k.key.isa == SKN_ISA_NEON || k.key.isa == SKN_ISA_NEON_DOTPROD) && is_grid(k.key.weight) &&
            k.key.activation == FormatId::Q8_K)  // fast precision (exact: neon_exact_test.cpp)
            out.push_back(&k);
    return out;
}

// dd / d: the power of two the contract folds into the block's factor.
float scale_of(FormatId f) {
    switch (f) {
        case FormatId::IQ3_XXS: return 0.25f;
        case FormatId::IQ3_S: return 1.0f;
        default: return 0.125f;
    }
}

// IQ1_M keeps d in the top nibbles of its four scale words at 48; the others at 0.
constexpr int kIq1mScales = 48;

uint16_t d_bits(FormatId f, const uint8_t* blk) {
    if (f != FormatId::IQ1_M) return load_u16le(blk);
    uint16_t d = 0;
    for (int k = 0; k < 4; ++k) d = uint16_t(d | ((load_u16le(blk + kIq1mScales + 2 * k) >> 12) << (4 * k)));
    return d;
}

void set_d_bits(FormatId f, uint8_t* blk, uint16_t d) {
    if (f != FormatId::IQ1_M) return store_u16le(blk, d);
    for (int k = 0; k < 4; ++k) {
        uint8_t* word = blk + kIq1mScales + 2 * k;
        store_u16le(word, uint16_t((load_u16le(word) & 0x0fff) | (((d >> (4 * k)) & 15) << 12)));
    }
}

// m * w of every element of ROW_MAJOR weight bytes: the decoder's values
// with d = 1, over dd / d.
std::vector<int32_t> integer_weights(const FormatTraits& f, const std::vector<uint8_t>& rm) {
    const size_t blocks = rm.size() / size_t(f.block_bytes);
    std::vector<int32_t> mw(blocks * kSuper);
    std::vector<uint8_t> b(size_t(f.block_bytes));
    float v[kSuper];
    for (size_t blk = 0; blk < blocks; ++blk) {
        std::memcpy(b.data(), rm.data() + blk * b.size(), b.size());
        set_d_bits(f.id, b.data(), f32_to_fp16(1.0f));
        f.decode(b.data(), 1, 1.0f, v);
        for (int e = 0; e < kSuper; ++e) {
            const float whole = v[e] / scale_of(f.id);
            mw[blk * kSuper + size_t(e)] = int32_t(whole);
            EXPECT_EQ(float(int32_t(whole)), whole) << f.name << ": element " << e << " is not a multiple of dd";
        }
    }
    return mw;
}

// y[n, out] by the contract, from ROW_MAJOR weight bytes and their m * w.
std::vector<float> contract_y(const FormatTraits& f, const std::vector<uint8_t>& rm, const std::vector<int32_t>& mw,
                              int64_t out, int64_t in, const std::vector<float>& x, int64_t n, const float* bias) {
    const FormatTraits& act = *find_format(FormatId::Q8_K);
    const int64_t bpr = in / kSuper;
    std::vector<uint8_t> xq(size_t(n * bpr * kQ8kBytes));
    for (int64_t i = 0; i < n; ++i) act.quantize_row(x.data() + i * in, in, xq.data() + i * bpr * kQ8kBytes);
    std::vector<float> y(size_t(n * out));
    for (int64_t o = 0; o < out; ++o)
        for (int64_t i = 0; i < n; ++i) {
            float acc = 0.0f;
            for (int64_t b = 0; b < bpr; ++b) {
                const uint8_t* wb = rm.data() + (o * bpr + b) * f.block_bytes;
                const int32_t* wi = mw.data() + (o * bpr + b) * kSuper;
                const uint8_t* xb = xq.data() + (i * bpr + b) * kQ8kBytes;
                int64_t s = 0;
                for (int e = 0; e < kSuper; ++e) s += int64_t(wi[e]) * int8_t(xb[4 + e]);
                float dx;
                std::memcpy(&dx, xb, 4);
                // The contract's float steps: dd = d * 2^-k (exact), dd * dx rounded, one FMA.
                const float dd = fp16_to_f32(d_bits(f.id, wb)) * scale_of(f.id);
                acc = std::fma(float(s), dd * dx, acc);
            }
            y[size_t(i * out + o)] = bias != nullptr ? acc + bias[o] : acc;
        }
    return y;
}

// The grid quantizers are slow under qemu (tens of ms a block), so each
// format quantizes one row of kPool super-blocks once (importance weights
// where the format needs them), and every test weight is assembled from
// that pool, each block a pool block picked at random: quantizer output,
// in new arrangements. Random blocks are random bytes, redrawn until the
// block decodes to finite values of magnitude <= 1e6.
constexpr int64_t kPool = 8;

std::vector<uint8_t> quantized_pool(const FormatTraits& f) {
    std::vector<float> src(size_t(kPool * kSuper));
    sample_weight(src.data(), 1, kPool * kSuper, 41);
    std::vector<uint8_t> pool(quantized_size(f, 1, kPool * kSuper));
    test::quantize_any(f, src.data(), 1, kPool * kSuper, pool.data(), pool.size());
    return pool;
}

bool sane(const FormatTraits& f, const uint8_t* blk) {
    float v[kSuper];
    f.decode(blk, 1, 1.0f, v);
    for (float e : v)
        if (!(std::fabs(e) <= 1e6f)) return false;
    return true;
}

// ROW_MAJOR bytes of [out, bpr super-blocks].
std::vector<uint8_t> weight_bytes(const FormatTraits& f, const std::vector<uint8_t>& pool, int64_t out, int64_t bpr,
                                  bool random_blocks, std::mt19937_64& rng) {
    const size_t bb = size_t(f.block_bytes);
    std::vector<uint8_t> rm(size_t(out * bpr) * bb);
    for (int64_t blk = 0; blk < out * bpr; ++blk) {
        uint8_t* p = rm.data() + size_t(blk) * bb;
        if (!random_blocks) {
            std::memcpy(p, pool.data() + size_t(rng() % kPool) * bb, bb);
            continue;
        }
        do {
            for (size_t i = 0; i < bb; ++i) p[i] = uint8_t(rng());
        } while (!sane(f, p));
    }
    return rm;
}

// Every NEON grid kernel of format `id` this CPU runs (both tiers, both
// orders), one and three threads, against the contract: each shape is built
// and prepacked once, its contract y computed once per n for all kernels.
void check_format(FormatId id) {
    const FormatTraits& f = *find_format(id);
    std::vector<const Kernel*> ks;
    for (const Kernel* k : neon_grid_kernels())
        if (k->key.weight == id && cpu_runs(k->key.isa)) ks.push_back(k);
    if (ks.empty()) GTEST_SKIP() << f.name << ": no NEON grid kernel this CPU runs";
    const std::vector<uint8_t> pool = quantized_pool(f);
    std::mt19937_64 rng(1234 + uint64_t(id));
    std::vector<int> checked(ks.size(), 0);
    int case_index = 0;
    for (bool random_blocks : {false, true})
        for (int64_t out : {1, 7, 33})
            for (int64_t bpr : {1, 3, 5}) {
                const int64_t in = bpr * kSuper, shape[2] = {out, in};
                const std::vector<uint8_t> rm = weight_bytes(f, pool, out, bpr, random_blocks, rng);
                const View view = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
                Scope scope;
                View ibm;
                prepack(view, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &ibm);
                const std::vector<int32_t> mw = integer_weights(f, rm);
                for (int64_t n = 1; n <= 5; ++n) {
                    ++case_index;
                    std::vector<float> x(size_t(n * in)), bias(static_cast<size_t>(out));
                    sample_weight(x.data(), n, in, 500 + uint64_t(case_index));
                    for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.125f * float(o % 7) - 0.375f;
                    const float* b = case_index % 2 ? bias.data() : nullptr;
                    const std::vector<float> want = contract_y(f, rm, mw, out, in, x, n, b);
                    for (size_t ki = 0; ki < ks.size(); ++ki) {
                        const Kernel& k = *ks[ki];
                        const View& w = k.key.layout == LayoutClass::BlockedRowMajor ? view : ibm;
                        if (w.layout.layout_class() != k.key.layout) continue;  // one row or block: contiguous
                        for (int threads : {1, 3}) {
                            std::vector<float> y(want.size(), -7.0f);
                            test::run_with_kernel(k, w, x.data(), n, in, b, y.data(), out, threads);
                            ++checked[ki];
                            for (size_t e = 0; e < y.size(); ++e)
                                ASSERT_EQ(std::memcmp(&y[e], &want[e], sizeof(float)), 0)
                                    << k.name << (random_blocks ? " random blocks" : " quantized") << " out=" << out
                                    << " bpr=" << bpr << " n=" << n << " threads=" << threads << " at ["
                                    << e / size_t(out) << ", " << e % size_t(out) << "]: " << y[e] << " vs "
                                    << want[e];
                        }
                    }
                }
            }
    for (size_t ki = 0; ki < ks.size(); ++ki)
        EXPECT_GT(checked[ki], 60) << ks[ki]->name << ": too few shapes had this kernel's layout class";
}

TEST(NeonGridContract, Iq2xxsKernelsGiveTheContractsBits) { check_format(FormatId::IQ2_XXS); }
TEST(NeonGridContract, Iq2xsKernelsGiveTheContractsBits) { check_format(FormatId::IQ2_XS); }
TEST(NeonGridContract, Iq2sKernelsGiveTheContractsBits) { check_format(FormatId::IQ2_S); }
TEST(NeonGridContract, Iq3xxsKernelsGiveTheContractsBits) { check_format(FormatId::IQ3_XXS); }
TEST(NeonGridContract, Iq3sKernelsGiveTheContractsBits) { check_format(FormatId::IQ3_S); }
TEST(NeonGridContract, Iq1sKernelsGiveTheContractsBits) { check_format(FormatId::IQ1_S); }
TEST(NeonGridContract, Iq1mKernelsGiveTheContractsBits) { check_format(FormatId::IQ1_M); }

TEST(NeonGridContract, EveryGridFormatHasBothTiersInBothOrders) {
    for (FormatId id : {FormatId::IQ2_XXS, FormatId::IQ2_XS, FormatId::IQ2_S, FormatId::IQ3_XXS, FormatId::IQ3_S,
                        FormatId::IQ1_S, FormatId::IQ1_M})
        for (skn_isa isa : {SKN_ISA_NEON, SKN_ISA_NEON_DOTPROD})
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
                EXPECT_NE(test::find_kernel(id, c, FormatId::Q8_K, isa), nullptr)
                    << find_format(id)->name << ": no kernel at " << isa_tag(isa) << " " << layout_tag(c);
}

}  // namespace
}  // namespace skn_core
