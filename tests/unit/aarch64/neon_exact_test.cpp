// SPDX-License-Identifier: MIT
// The NEON exact-precision kernels (src/kernels/aarch64/exact) against their
// contract (exact/kernels.hpp, docs/kernels/exact.md "arm64"): every NEON
// block decoder gives the scalar decoder's bits (random blocks, NaN and
// infinite scales included, read with a stride); and for every block format
// y equals the documented float order computed here from the scalar
// decoder's weights, bit for bit, in both block orders and for one and three
// threads. Weights are random bytes (codes anywhere in their range, scales no
// quantizer would pick), so no quantizer runs; shapes are odd (out 1 / 7 /
// 33, 1 / 3 / 5 blocks per row, n 1..5; a row-interleaved format: R times
// each out) and small, for qemu.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <random>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/half.hpp"
#include "formats/tensor_codec.hpp"
#include "kernels/aarch64/exact/kernels.hpp"
#include "layout/prepack.hpp"
#include "layout/scope.hpp"
#include "layout/view.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

namespace ka = kernels::aarch64;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

// Random blocks whose decoded values are finite and at most 1e6 in
// magnitude (so no test sum overflows); I2_S's trailer holds scale 0.75. A
// row-interleaved format's are its canonical twin's random blocks,
// interleaved.
std::vector<uint8_t> random_weight(const FormatTraits& f, int64_t out, int64_t bpr, uint64_t seed) {
    const FormatTraits& c = test::canonical_of(f);
    const int64_t in = bpr * f.block_elems, blocks = out * (in / c.block_elems);
    std::vector<uint8_t> bytes(quantized_size(c, out, in), 0);
    const size_t bb = size_t(c.block_bytes);
    if (c.tensor_trailer_bytes > 0) store_f32le(bytes.data() + size_t(blocks) * bb, 0.75f);
    std::mt19937_64 rng(seed);
    std::vector<float> v(size_t(c.block_elems));
    for (int64_t blk = 0; blk < blocks; ++blk) {
        uint8_t* p = bytes.data() + size_t(blk) * bb;
        for (bool sane = false; !sane;) {
            for (size_t i = 0; i < bb; ++i) p[i] = uint8_t(rng());
            c.decode(p, 1, 0.75f, v.data());
            sane = true;
            for (float e : v) sane = sane && std::fabs(e) <= 1e6f;
        }
    }
    if (!f.interleaved()) return bytes;
    std::vector<uint8_t> interleaved(bytes.size());
    convert_rows(c, f, bytes.data(), bytes.size(), interleaved.data(), interleaved.size(), out, in);
    return interleaved;
}

// y by the documented order: input k goes into lane k % 16 of the four
// 4-lane accumulators (A[(k / 4) % 4], lane k % 4).
std::vector<float> contract_y(const std::vector<float>& w, int64_t out, int64_t in, const std::vector<float>& x,
                              int64_t n, const float* bias) {
    std::vector<float> y(size_t(n * out));
    for (int64_t o = 0; o < out; ++o)
        for (int64_t i = 0; i < n; ++i) {
            float acc[16] = {};
            for (int64_t k = 0; k < in; ++k) acc[k % 16] = std::fma(w[size_t(o * in + k)], x[size_t(i * in + k)], acc[k % 16]);
            float s[4];
            for (int j = 0; j < 4; ++j) s[j] = (acc[j] + acc[4 + j]) + (acc[8 + j] + acc[12 + j]);
            const float v = (s[0] + s[1]) + (s[2] + s[3]);
            y[size_t(i * out + o)] = bias != nullptr ? v + bias[o] : v;
        }
    return y;
}

TEST(NeonExactContract, NeonDecodersGiveTheScalarDecodersBits) {
    int with_decoder = 0;
    for (const FormatTraits& f : all_formats()) {
        const FormatId id = f.id;
        const ka::ExactDecodeFn dec = ka::exact_decoder_neon(id);
        if (dec == nullptr) continue;
        ++with_decoder;
        const size_t bb = size_t(f.block_bytes), be = size_t(f.block_elems);
        constexpr int64_t kBlocks = 200;
        const int64_t stride = int64_t(bb) + 3;  // blocks read with a stride, unaligned
        std::vector<uint8_t> src(size_t(kBlocks * stride));
        std::mt19937_64 rng(uint64_t(id) * 31 + 5);
        for (uint8_t& b : src) b = uint8_t(rng());
        // Scales: every fp16 class (the random bytes reach NaN and infinity
        // rarely), forced into a few blocks at the d / dmin positions.
        const uint16_t specials[] = {0x7C00, 0xFC00, 0x7E00, 0x7D00, 0x0001, 0x8000, 0x7BFF};
        for (size_t s = 0; s < std::size(specials); ++s) {
            uint8_t* blk = src.data() + s * size_t(stride);
            const size_t at = id == FormatId::Q6_K ? 208 : 0;
            store_u16le(blk + at, specials[s]);
            const bool second_scale = id == FormatId::Q4_1 || id == FormatId::Q5_1 || id == FormatId::Q4_K ||
                                      id == FormatId::Q5_K;  // m / dmin after d
            if (second_scale) store_u16le(blk + 2, specials[(s + 3) % std::size(specials)]);
        }
        std::vector<float> got(size_t(kBlocks) * be), want(size_t(kBlocks) * be);
        dec(src.data(), stride, kBlocks, 1.0f, got.data());
        for (int64_t b = 0; b < kBlocks; ++b) f.decode(src.data() + b * stride, 1, 1.0f, want.data() + b * int64_t(be));
        for (size_t e = 0; e < got.size(); ++e)
            ASSERT_TRUE(same_bits(got[e], want[e]))
                << f.name << " block " << e / be << " element " << e % be << ": " << got[e] << " vs " << want[e];
    }
    EXPECT_EQ(with_decoder, 9) << "NEON decoders: Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, IQ4_NL, Q4_K, Q5_K, Q6_K";
}

// Every block format and every row-interleaved twin of one (Q4_0_R8 ...:
// the driver decodes the twin's tile and takes the row's floats) has the
// NEON exact kernel in both orders; BF16_R16, a twin of the dense BF16, has
// its own F32 kernel (dense/r16_body.inc), not the exact driver. The
// differential suite and the contract below check whatever is registered.
TEST(NeonExactContract, EveryBlockFormatHasANeonKernelInBothOrders) {
    for (const FormatTraits& f : all_formats()) {
        if (!f.block_quantized || !find_format(canonical_format(f.id))->block_quantized) continue;
        EXPECT_TRUE(ka::exact_driver_serves(f.block_quantized, f.decode != nullptr, f.block_elems)) << f.name;
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
            EXPECT_NE(test::find_kernel(f.id, c, FormatId::F32, SKN_ISA_NEON), nullptr)
                << f.name << " " << layout_tag(c) << ": no neon exact kernel";
    }
}

TEST(NeonExactContract, GivesTheDocumentedOrdersBitsInBothOrdersAndThreadCounts) {
    if (!cpu_runs(SKN_ISA_NEON)) GTEST_SKIP() << "not an arm64 CPU";
    struct Shape {
        int64_t out, bpr;
    };
    const Shape shapes[] = {{1, 3}, {7, 5}, {33, 1}};
    int case_index = 0;
    for (const FormatTraits& f : all_formats()) {
        // Block formats and their twins (BF16_R16's canonical is dense: no exact kernel).
        if (!f.block_quantized || !find_format(canonical_format(f.id))->block_quantized) continue;
        for (const Shape& sh : shapes) {
            ++case_index;
            const int64_t out = test::rows_for(f, sh.out), in = sh.bpr * f.block_elems;
            const std::vector<uint8_t> bytes = random_weight(f, out, sh.bpr, 50 + uint64_t(case_index));
            const int64_t shape[2] = {out, in};
            const View rm = make_view(bytes.data(), bytes.size(), f, shape, 2, BlockOrder::RowMajor);
            Scope scope;
            View ibm;
            ASSERT_TRUE(prepack(rm, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &ibm)) << f.name;
            std::vector<float> w(size_t(out * in));
            if (f.interleaved())  // a block decodes to its R rows: read the matrix row by row
                dequantize_tensor(f, bytes.data(), bytes.size(), out, in, w.data(), w.size());
            else
                f.decode(bytes.data(), out * sh.bpr, rm.tensor_scale, w.data());
            std::vector<float> bias(static_cast<size_t>(out));
            for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.125f * float(o % 7) - 0.375f;
            for (int64_t n = 1; n <= 5; ++n) {
                std::vector<float> x(size_t(n * in));
                sample_weight(x.data(), n, in, 300 + uint64_t(case_index * 8 + n));
                const float* b = n % 2 ? bias.data() : nullptr;
                const std::vector<float> want = contract_y(w, out, in, x, n, b);
                for (const View* v : std::initializer_list<const View*>{&rm, &ibm}) {
                    const LayoutClass cls = v->layout.layout_class();
                    const Kernel* k = test::find_kernel(f.id, cls, FormatId::F32, SKN_ISA_NEON);
                    ASSERT_NE(k, nullptr) << f.name << " " << layout_tag(cls);
                    for (int threads : {1, 3}) {
                        std::vector<float> y(want.size(), -7.0f);
                        test::run_with_kernel(*k, *v, x.data(), n, in, b, y.data(), out, threads);
                        for (size_t e = 0; e < y.size(); ++e)
                            ASSERT_TRUE(same_bits(y[e], want[e]))
                                << k->name << " out=" << out << " bpr=" << sh.bpr << " n=" << n
                                << " threads=" << threads << " at [" << e / size_t(out) << ", " << e % size_t(out)
                                << "]: " << y[e] << " vs " << want[e];
                    }
                }
            }
        }
    }
}

}  // namespace
}  // namespace skn_core
