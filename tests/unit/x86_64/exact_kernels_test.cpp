// SPDX-License-Identifier: MIT
// The exact-precision SIMD kernels (src/kernels/x86_64/exact/): their block
// decoders against the formats' scalar decoders bit for bit, and the
// accumulation contract of docs/kernels/exact.md (block order, row split and
// batch composition change no bit) on shapes larger than every register tile.
#include <gtest/gtest.h>


#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "support/matmul_harness.hpp"
#include "formats/format.hpp"
#include "formats/half.hpp"
#include "formats/tensor_codec.hpp"
#include "kernels/x86_64/exact/kernels.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "runtime/error.hpp"
#include "support/matmul_reference.hpp"
#include "support/quantize_any.hpp"

namespace skn_core {
namespace {

namespace kx = kernels::x86_64;

struct Tier {
    skn_isa isa;
    kx::ExactDecodeFn (*decoder)(FormatId);
};

const Tier kTiers[] = {{SKN_ISA_AVX2, kx::exact_decoder_avx2}, {SKN_ISA_AVX512, kx::exact_decoder_avx512}};

// The formats the exact kernels serve: every block format of the table but
// the row-interleaved ones (see EveryBlockFormatHasADecoderAndKernelsAtEachTier).
std::vector<FormatId> block_formats() {
    std::vector<FormatId> ids;
    for (const FormatTraits& f : all_formats())
        if (f.block_quantized && !f.interleaved()) ids.push_back(f.id);
    return ids;
}

const Kernel* exact_kernel(FormatId f, LayoutClass c, skn_isa isa) {
    return test::find_kernel(f, c, FormatId::F32, isa);
}

// Equal bits, or both NaN: which NaN's payload an operation with two NaN
// operands keeps is up to the compiler's operand order, in either decoder.
bool same_value(float a, float b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    return f32_bits(a) == f32_bits(b);
}

// Blocks that reach every code and scale: random bytes (so every fp16 scale,
// NaN and infinities included), the same with finite scales forced into the
// scale fields, and constant bytes.
std::vector<std::vector<uint8_t>> test_blocks(const FormatTraits& f, std::mt19937& rng) {
    std::vector<std::vector<uint8_t>> blocks;
    const size_t bb = size_t(f.block_bytes);
    for (int r = 0; r < 300; ++r) {
        std::vector<uint8_t> b(bb);
        for (uint8_t& v : b) v = uint8_t(rng());
        blocks.push_back(b);
    }
    for (int c : {0x00, 0xFF, 0x80, 0x7F, 0x55, 0xAA, 0x01, 0x0F, 0xF0, 0x3C, 0x7C, 0xFC})
        blocks.push_back(std::vector<uint8_t>(bb, uint8_t(c)));
    return blocks;
}

// docs/kernels/exact.md: every block format has exact kernels, the grid
// formats included: a decoder at each tier (the tiers find it by the format's
// id in formats/facts.hpp) and a kernel per tier and block order.
// Every row-interleaved twin of a block format (Q4_0_R8 ...) has them too:
// the driver takes a row's canonical block out of the twin's tile
// (InterleavedBits checks the bits against the canonical kernel). BF16_R16,
// the twin of a dense format, has none.
TEST(ExactDecode, EveryBlockFormatHasADecoderAndKernelsAtEachTier) {
    EXPECT_GE(block_formats().size(), size_t(15));
    for (const Tier& t : kTiers) {
        for (FormatId id : block_formats()) {
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
                EXPECT_NE(exact_kernel(id, c, t.isa), nullptr)
                    << find_format(id)->name << " " << isa_tag(t.isa) << " " << layout_class_name(c);
            if (cpu_runs(t.isa)) {
                EXPECT_NE(t.decoder(id), nullptr) << find_format(id)->name;
            }
        }
        if (cpu_runs(t.isa)) {
            EXPECT_EQ(t.decoder(FormatId::F32), nullptr);
        }
    }
    int twins = 0;
    for (const FormatTraits& f : all_formats()) {
        if (!f.interleaved() || !find_format(f.interleaves)->block_quantized) continue;
        ++twins;
        for (const Tier& t : kTiers)
            for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
                EXPECT_NE(exact_kernel(f.id, c, t.isa), nullptr)
                    << f.name << " " << isa_tag(t.isa) << " " << layout_class_name(c);
    }
    EXPECT_GE(twins, 7) << "Q4_0_R8, Q8_0_R8, Q4_K_R4, Q6_K_R4, IQ4_NL_R4, IQ4_XS_R8, MXFP4_R8";
}

TEST(ExactDecode, BitIdenticalToTheScalarDecoderOnRandomAndExtremeBlocks) {
    std::mt19937 rng(20261130);
    const float scales[] = {1.0f, -0.75f, 3.0e38f, 1.0e-45f, 0.0f, -0.0f, INFINITY, NAN};
    for (const Tier& t : kTiers) {
        if (!cpu_runs(t.isa)) {
            std::printf("skipping %s: this CPU lacks it\n", isa_tag(t.isa));
            continue;
        }
        for (FormatId id : block_formats()) {
            const FormatTraits& f = *find_format(id);
            const kx::ExactDecodeFn dec = t.decoder(id);
            ASSERT_NE(dec, nullptr);
            const size_t be = size_t(f.block_elems);
            int case_index = 0;
            for (const auto& block : test_blocks(f, rng)) {
                const float ts = scales[size_t(case_index++) % (sizeof scales / sizeof *scales)];
                std::vector<float> want(be), got(be, 12345.0f);
                f.decode(block.data(), 1, ts, want.data());
                dec(block.data(), f.block_bytes, 1, ts, got.data());
                for (size_t e = 0; e < be; ++e)
                    ASSERT_TRUE(same_value(got[e], want[e]))
                        << f.name << " at " << isa_tag(t.isa) << ", block " << case_index << ", element " << e
                        << ": " << got[e] << " vs " << want[e];
            }
        }
    }
}

TEST(ExactDecode, BitIdenticalOnQuantizedBlocksReadWithAStride) {
    // Random scale bytes make some blocks all NaN or infinite, which would
    // hide a wrong code: these are real encoder output, read as an
    // INPUT_BLOCK_MAJOR kernel reads them (blocks not adjacent).
    for (const Tier& t : kTiers) {
        if (!cpu_runs(t.isa)) continue;
        for (FormatId id : block_formats()) {
            const FormatTraits& f = *find_format(id);
            const int64_t be = f.block_elems;
            std::vector<float> w(size_t(4 * be));
            sample_weight(w.data(), 4, be, uint64_t(id));
            if (f.tensor_trailer_bytes > 0)  // I2_S, either layout: ternary weights
                for (float& v : w) v = v > 0.3f ? 0.5f : (v < -0.3f ? -0.5f : 0.0f);
            std::vector<uint8_t> bytes(quantized_size(f, 4, be));
            test::quantize_any(f, w.data(), 4, be, bytes.data(), bytes.size());
            std::vector<float> want(size_t(4 * be)), got(size_t(4 * be));
            // Decode with a stride: every second block of a doubled buffer.
            std::vector<uint8_t> spaced(size_t(8 * f.block_bytes), 0xEE);
            for (int b = 0; b < 4; ++b)
                std::memcpy(&spaced[size_t(2 * b * f.block_bytes)], &bytes[size_t(b * f.block_bytes)],
                            size_t(f.block_bytes));
            const float ts = f.read_tensor_scale != nullptr ? f.read_tensor_scale(bytes.data() + 4 * f.block_bytes) : 1.0f;
            f.decode(bytes.data(), 4, ts, want.data());
            t.decoder(id)(spaced.data(), 2 * f.block_bytes, 4, ts, got.data());
            for (size_t e = 0; e < want.size(); ++e)
                ASSERT_EQ(f32_bits(got[e]), f32_bits(want[e])) << f.name << " at " << isa_tag(t.isa) << ", element " << e;
        }
    }
}

// ---- Grid formats: blocks at every extreme of their fields.
//
// Each format's blocks are written field by field from a running slot
// counter, so together they hold every grid index and every sign field
// (pattern or byte) at least once; sub-block scales cycle through 0, the
// largest, a middle value and 1, IQ1 deltas through both signs; and the whole
// sweep is repeated for each d below.
const uint16_t kExtremeD[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0xFBFF, 0x7C00, 0x7E00};

struct GridSweep {
    int points;      // grid indices
    int sign_codes;  // distinct sign fields (7-bit: 128, byte: 256; IQ1 has none)
    int slots;       // index slots per block
};

GridSweep grid_sweep(FormatId id) {
    switch (id) {
        case FormatId::IQ2_XXS: return {256, 128, 32};
        case FormatId::IQ2_XS: return {512, 128, 32};
        case FormatId::IQ2_S: return {1024, 256, 32};
        case FormatId::IQ3_XXS: return {256, 128, 64};
        case FormatId::IQ3_S: return {512, 256, 64};
        case FormatId::IQ1_S: return {2048, 0, 32};
        case FormatId::IQ1_M: return {2048, 0, 32};
        default: return {0, 0, 0};
    }
}

int scale_at(int b, int ib, int max) {
    const int cycle[4] = {0, max, max / 2, 1};
    return cycle[(b + ib) % 4];
}

void put16(uint8_t* p, uint32_t v) {
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
}
void put32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

// Block b of the sweep with fp16 scale bits d: index slot k holds
// (97 (b * slots + k)) % points, sign field k of the 32 (one per eight
// elements) (13 (b * 32 + k)) % sign_codes. The odd factors keep the sweep
// a permutation of every index (every count is a power of two) while
// neighbouring groups get different high index bits and sign bits.
std::vector<uint8_t> grid_block(FormatId id, int b, uint16_t d) {
    const FormatTraits& f = *find_format(id);
    const GridSweep g = grid_sweep(id);
    std::vector<uint8_t> blk(size_t(f.block_bytes), 0);
    uint8_t* p = blk.data();
    auto index = [&](int k) { return uint32_t(97 * (b * g.slots + k) % g.points); };
    auto sign = [&](int k) { return uint32_t(g.sign_codes ? 13 * (b * 32 + k) % g.sign_codes : 0); };
    switch (id) {
        case FormatId::IQ2_XXS:
            put16(p, d);
            for (int ib = 0; ib < 8; ++ib) {
                uint32_t aux = uint32_t(scale_at(b, ib, 15)) << 28;
                for (int l = 0; l < 4; ++l) {
                    p[2 + 8 * ib + l] = uint8_t(index(4 * ib + l));
                    aux |= sign(4 * ib + l) << (7 * l);
                }
                put32(p + 2 + 8 * ib + 4, aux);
            }
            break;
        case FormatId::IQ2_XS:
            put16(p, d);
            for (int k = 0; k < 32; ++k) put16(p + 2 + 2 * k, index(k) | sign(k) << 9);
            for (int ib = 0; ib < 8; ++ib) p[66 + ib] = uint8_t(scale_at(b, 2 * ib, 15) | scale_at(b, 2 * ib + 1, 15) << 4);
            break;
        case FormatId::IQ2_S:
            put16(p, d);
            for (int k = 0; k < 32; ++k) {
                p[2 + k] = uint8_t(index(k));
                p[34 + k] = uint8_t(sign(k));
                p[66 + k / 4] = uint8_t(p[66 + k / 4] | (index(k) >> 8) << (2 * (k % 4)));
            }
            for (int ib = 0; ib < 8; ++ib) p[74 + ib] = uint8_t(scale_at(b, 2 * ib, 15) | scale_at(b, 2 * ib + 1, 15) << 4);
            break;
        case FormatId::IQ3_XXS:
            put16(p, d);
            for (int k = 0; k < 64; ++k) p[2 + k] = uint8_t(index(k));
            for (int ib = 0; ib < 8; ++ib) {
                uint32_t aux = uint32_t(scale_at(b, ib, 15)) << 28;
                for (int l = 0; l < 4; ++l) aux |= sign(4 * ib + l) << (7 * l);
                put32(p + 66 + 4 * ib, aux);
            }
            break;
        case FormatId::IQ3_S:
            put16(p, d);
            for (int k = 0; k < 64; ++k) {
                p[2 + k] = uint8_t(index(k));
                p[66 + k / 8] = uint8_t(p[66 + k / 8] | (index(k) >> 8) << (k % 8));
            }
            for (int k = 0; k < 32; ++k) p[74 + k] = uint8_t(sign(k));
            for (int j = 0; j < 4; ++j) p[106 + j] = uint8_t(scale_at(b, 2 * j, 15) | scale_at(b, 2 * j + 1, 15) << 4);
            break;
        case FormatId::IQ1_S:
            put16(p, d);
            for (int ib = 0; ib < 8; ++ib) {
                uint32_t qh = uint32_t(scale_at(b, ib, 7)) << 12 | uint32_t((b + ib) % 2) << 15;
                for (int l = 0; l < 4; ++l) {
                    p[2 + 4 * ib + l] = uint8_t(index(4 * ib + l));
                    qh |= (index(4 * ib + l) >> 8) << (3 * l);
                }
                put16(p + 34 + 2 * ib, qh);
            }
            break;
        case FormatId::IQ1_M: {
            uint32_t sc[4] = {};
            for (int ib = 0; ib < 16; ++ib) {
                const uint32_t i0 = index(2 * ib), i1 = index(2 * ib + 1);
                p[2 * ib] = uint8_t(i0);
                p[2 * ib + 1] = uint8_t(i1);
                p[32 + ib] = uint8_t((i0 >> 8) | ((b + ib) % 2) << 3 | (i1 >> 8) << 4 | ((b + ib / 2) % 2) << 7);
                sc[ib / 4] |= uint32_t(scale_at(b, ib, 7)) << (3 * (ib % 4));
            }
            for (int j = 0; j < 4; ++j) put16(p + 48 + 2 * j, sc[j] | ((uint32_t(d) >> (4 * j)) & 0xF) << 12);
            break;
        }
        default: ADD_FAILURE() << "not a grid format: " << f.name;
    }
    return blk;
}

constexpr FormatId kGridFormats[] = {FormatId::IQ2_XXS, FormatId::IQ2_XS, FormatId::IQ2_S, FormatId::IQ3_XXS,
                                     FormatId::IQ3_S,   FormatId::IQ1_S,  FormatId::IQ1_M};

TEST(ExactDecode, GridFormatsBitIdenticalOnEveryIndexSignScaleAndD) {
    for (const Tier& t : kTiers) {
        if (!cpu_runs(t.isa)) continue;
        for (FormatId id : kGridFormats) {
            const FormatTraits& f = *find_format(id);
            const kx::ExactDecodeFn dec = t.decoder(id);
            ASSERT_NE(dec, nullptr) << f.name;
            const GridSweep g = grid_sweep(id);
            const int blocks = std::max((g.points + g.slots - 1) / g.slots, (g.sign_codes + 31) / 32);
            int nonzero = 0;
            for (uint16_t d : kExtremeD)
                for (int b = 0; b < blocks; ++b) {
                    const std::vector<uint8_t> blk = grid_block(id, b, d);
                    std::vector<float> want(size_t(f.block_elems)), got(size_t(f.block_elems), 12345.0f);
                    f.decode(blk.data(), 1, 1.0f, want.data());
                    dec(blk.data(), f.block_bytes, 1, 1.0f, got.data());
                    for (size_t e = 0; e < want.size(); ++e) {
                        ASSERT_TRUE(same_value(got[e], want[e]))
                            << f.name << " at " << isa_tag(t.isa) << ", d bits 0x" << std::hex << d << std::dec
                            << ", block " << b << ", element " << e << ": " << got[e] << " vs " << want[e];
                        nonzero += want[e] != 0.0f && std::isfinite(want[e]);
                    }
                }
            EXPECT_GT(nonzero, 0) << f.name << ": the sweep decodes to zeros only";
        }
    }
}

// A quantized [out, in] weight in both block orders.
struct Weight {
    const FormatTraits* f;
    int64_t out, in;
    std::vector<uint8_t> rm;
    std::vector<float> decoded;
    Scope scope;
    View row_major, input_major;

    Weight(const FormatTraits& fmt, int64_t o, int64_t bpr, uint64_t seed) : f(&fmt), out(o), in(bpr * fmt.block_elems) {
        std::vector<float> w(size_t(out * in));
        sample_weight(w.data(), out, in, seed);
        if (fmt.tensor_trailer_bytes > 0)  // I2_S, either layout: ternary weights
            for (float& v : w) v = v > 0.3f ? 0.5f : (v < -0.3f ? -0.5f : 0.0f);
        rm.resize(quantized_size(fmt, out, in));
        test::quantize_any(fmt, w.data(), out, in, rm.data(), rm.size());
        decoded.resize(w.size());
        dequantize_tensor(fmt, rm.data(), rm.size(), out, in, decoded.data(), decoded.size());
        const int64_t shape[2] = {out, in};
        row_major = make_view(rm.data(), rm.size(), fmt, shape, 2, BlockOrder::RowMajor);
        prepack(row_major, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &input_major);
    }
};

std::vector<float> run(const Kernel& k, const View& w, const std::vector<float>& x, int64_t n, int64_t in,
                       int64_t out, int threads) {
    std::vector<float> y(size_t(n * out), -7.0f);
    test::run_with_kernel(k, w, x.data(), n, in, nullptr, y.data(), out, threads);
    return y;
}

// The rows of a batch give the same bits whatever batch they are in, as long
// as it takes the same path (docs/kernels/exact.md: n < kExactBatchedMinN and
// n >= kExactBatchedMinN each have their own fixed order).
void expect_rows_independent_of_batch(const Kernel& k, const Weight& w, const std::vector<float>& x, int64_t n,
                                      const std::vector<float>& y, int64_t sub_n) {
    for (int64_t i0 = 0; i0 + sub_n <= n; ++i0) {
        const std::vector<float> xs(x.begin() + i0 * w.in, x.begin() + (i0 + sub_n) * w.in);
        const auto ys = run(k, w.row_major, xs, sub_n, w.in, w.out, 1);
        for (size_t at = 0; at < ys.size(); ++at)
            ASSERT_EQ(f32_bits(ys[at]), f32_bits(y[size_t(i0 * w.out) + at]))
                << k.name << ": rows " << i0 << ".. of a batch of " << n << " computed as a batch of " << sub_n;
    }
}

// n larger than every activation tile (8) with remainders, out not a
// multiple of any row tile: within the float bound of the f64 reference, rm
// and ibm bit-identical, two threads bit-identical to one, and each row the
// same bits in a smaller batch on the same path.
TEST(ExactMatmul, AgreesAcrossOrdersThreadsAndBatches) {
    for (const Tier& t : kTiers) {
        if (!cpu_runs(t.isa)) continue;
        for (FormatId id : block_formats()) {
            const FormatTraits& f = *find_format(id);
            const Kernel* krm = exact_kernel(f.id, LayoutClass::BlockedRowMajor, t.isa);
            const Kernel* kibm = exact_kernel(f.id, LayoutClass::BlockedInputMajor, t.isa);
            ASSERT_NE(krm, nullptr) << f.name;
            ASSERT_NE(kibm, nullptr) << f.name;
            const int64_t bpr = f.block_elems >= 256 ? 2 : 9;  // several decode chunks for 32-element blocks
            Weight w(f, 37, bpr, uint64_t(id));
            for (int64_t n : {3, 7, 17, 33}) {
                std::vector<float> x(size_t(n * w.in));
                sample_weight(x.data(), n, w.in, 99 + uint64_t(n));
                const auto y = run(*krm, w.row_major, x, n, w.in, w.out, 1);
                EXPECT_EQ(run(*kibm, w.input_major, x, n, w.in, w.out, 1), y) << kibm->name << " n=" << n;
                EXPECT_EQ(run(*krm, w.row_major, x, n, w.in, w.out, 2), y) << krm->name << " 2 threads, n=" << n;
                const bool small = n < kx::kExactBatchedMinN;
                expect_rows_independent_of_batch(*krm, w, x, n, y, small ? 1 : kx::kExactBatchedMinN + 1);
                const auto ref = test::reference_matmul(w.decoded, w.out, w.in, x.data(), n, w.in, nullptr, FormatId::F32);
                for (size_t at = 0; at < y.size(); ++at)
                    ASSERT_LE(std::fabs(double(y[at]) - ref.y[at]), ref.bound[at]) << krm->name << " n=" << n << " at " << at;
            }
        }
    }
}

// The batched path's order is the plain serial one at both tiers: avx2 and
// avx512 give the same bits.
TEST(ExactMatmul, BatchedPathIsBitIdenticalAcrossTiers) {
    if (!cpu_runs(SKN_ISA_AVX512)) GTEST_SKIP() << "needs an AVX-512 CPU to compare with";
    for (FormatId id : block_formats()) {
        const FormatTraits& f = *find_format(id);
        const Kernel* k2 = exact_kernel(f.id, LayoutClass::BlockedInputMajor, SKN_ISA_AVX2);
        const Kernel* k5 = exact_kernel(f.id, LayoutClass::BlockedInputMajor, SKN_ISA_AVX512);
        ASSERT_NE(k2, nullptr);
        ASSERT_NE(k5, nullptr);
        Weight w(f, 21, f.block_elems >= 256 ? 3 : 11, 40 + uint64_t(id));
        const int64_t n = 6;
        std::vector<float> x(size_t(n * w.in));
        sample_weight(x.data(), n, w.in, 41);
        EXPECT_EQ(run(*k2, w.input_major, x, n, w.in, w.out, 1), run(*k5, w.input_major, x, n, w.in, w.out, 1))
            << f.name;
    }
}

// The accumulation orders docs/kernels/exact.md documents, replayed in
// scalar code on the scalar decoder's weights, give the kernels' bits.
float small_n_order(const float* w, const float* x, int64_t in, int lanes) {
    std::vector<float> acc(size_t(4 * lanes), 0.0f);
    for (int64_t p = 0; p < in / lanes; ++p)
        for (int j = 0; j < lanes; ++j) {
            float& a = acc[size_t((p % 4) * lanes + j)];
            a = std::fma(w[p * lanes + j], x[p * lanes + j], a);
        }
    std::vector<float> s(static_cast<size_t>(lanes));
    for (int j = 0; j < lanes; ++j)
        s[size_t(j)] = (acc[size_t(j)] + acc[size_t(lanes + j)]) + (acc[size_t(2 * lanes + j)] + acc[size_t(3 * lanes + j)]);
    for (int width = lanes / 2; width >= 1; width /= 2)
        for (int j = 0; j < width; ++j) s[size_t(j)] = s[size_t(j)] + s[size_t(j + width)];
    return s[0];
}

float batched_order(const float* w, const float* x, int64_t in) {
    float acc = 0.0f;
    for (int64_t k = 0; k < in; ++k) acc = std::fma(w[k], x[k], acc);
    return acc;
}

TEST(ExactMatmul, MatchesTheDocumentedOrdersBitForBit) {
    for (const Tier& t : kTiers) {
        if (!cpu_runs(t.isa)) continue;
        const int lanes = t.isa == SKN_ISA_AVX512 ? 16 : 8;
        for (FormatId id : block_formats()) {
            const FormatTraits& f = *find_format(id);
            const Kernel* k = exact_kernel(f.id, LayoutClass::BlockedRowMajor, t.isa);
            ASSERT_NE(k, nullptr);
            Weight w(f, 5, f.block_elems >= 256 ? 2 : 10, 70 + uint64_t(id));
            for (int64_t n : {int64_t(2), int64_t(kx::kExactBatchedMinN) + 1}) {
                std::vector<float> x(size_t(n * w.in));
                sample_weight(x.data(), n, w.in, 71);
                const auto y = run(*k, w.row_major, x, n, w.in, w.out, 1);
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t o = 0; o < w.out; ++o) {
                        const float* wo = &w.decoded[size_t(o * w.in)];
                        const float* xi = &x[size_t(i * w.in)];
                        const float want = n < kx::kExactBatchedMinN ? small_n_order(wo, xi, w.in, lanes)
                                                                     : batched_order(wo, xi, w.in);
                        ASSERT_EQ(f32_bits(y[size_t(i * w.out + o)]), f32_bits(want))
                            << k->name << " n=" << n << " [" << i << ", " << o << "]";
                    }
            }
        }
    }
}

// The grid formats on odd shapes (one output row, one block, out not a
// multiple of any tile), on both paths: rm and ibm bit-identical, two threads
// bit-identical to one, the documented order bit for bit (so within the
// float bound of docs/kernels.md), and the batched path the same bits at
// both tiers.
TEST(ExactMatmul, GridFormatsOnOddShapes) {
    for (FormatId id : kGridFormats) {
        const FormatTraits& f = *find_format(id);
        for (int64_t out : {1, 7, 33})
            for (int64_t bpr : {1, 3, 5}) {
                Weight w(f, out, bpr, 500 + uint64_t(id) * 16 + uint64_t(out + bpr));
                std::vector<float> y_batched_avx2;
                for (const Tier& t : kTiers) {
                    if (!cpu_runs(t.isa)) continue;
                    const int lanes = t.isa == SKN_ISA_AVX512 ? 16 : 8;
                    const Kernel* krm = exact_kernel(f.id, LayoutClass::BlockedRowMajor, t.isa);
                    const Kernel* kibm = exact_kernel(f.id, LayoutClass::BlockedInputMajor, t.isa);
                    ASSERT_NE(krm, nullptr) << f.name;
                    ASSERT_NE(kibm, nullptr) << f.name;
                    for (int64_t n : {int64_t(1), int64_t(3), int64_t(kx::kExactBatchedMinN) + 1}) {
                        std::vector<float> x(size_t(n * w.in));
                        sample_weight(x.data(), n, w.in, 900 + uint64_t(n));
                        const auto y = run(*krm, w.row_major, x, n, w.in, w.out, 1);
                        const std::string shape =
                            " out " + std::to_string(out) + " bpr " + std::to_string(bpr) + " n=" + std::to_string(n);
                        ASSERT_EQ(run(*kibm, w.input_major, x, n, w.in, w.out, 1), y) << kibm->name << shape;
                        ASSERT_EQ(run(*kibm, w.input_major, x, n, w.in, w.out, 2), y) << kibm->name << shape << ", 2 threads";
                        const auto ref =
                            test::reference_matmul(w.decoded, w.out, w.in, x.data(), n, w.in, nullptr, FormatId::F32);
                        double scale = 0;
                        for (int64_t i = 0; i < n; ++i)
                            for (int64_t o = 0; o < w.out; ++o) {
                                const size_t at = size_t(i * w.out + o);
                                const float* wo = &w.decoded[size_t(o * w.in)];
                                const float* xi = &x[size_t(i * w.in)];
                                const float want = n < kx::kExactBatchedMinN ? small_n_order(wo, xi, w.in, lanes)
                                                                             : batched_order(wo, xi, w.in);
                                ASSERT_EQ(f32_bits(y[at]), f32_bits(want)) << krm->name << shape << " [" << i << ", " << o << "]";
                                ASSERT_LE(std::fabs(double(y[at]) - ref.y[at]), ref.bound[at]) << krm->name << shape;
                                scale = std::max(scale, std::fabs(ref.y[at]));
                            }
                        ASSERT_GT(scale, 0.0) << krm->name << shape << ": a zero product would not test anything";
                        if (n >= kx::kExactBatchedMinN && t.isa == SKN_ISA_AVX2) y_batched_avx2 = y;
                        if (n >= kx::kExactBatchedMinN && t.isa == SKN_ISA_AVX512 && !y_batched_avx2.empty()) {
                            ASSERT_EQ(y, y_batched_avx2) << krm->name << shape << " vs avx2";
                        }
                    }
                }
            }
    }
}

// A NaN activation poisons exactly its own output row; an infinite one gives
// infinities or NaN there and nothing elsewhere changes.
TEST(ExactMatmul, NonFiniteActivationsStayInTheirRow) {
    for (const Tier& t : kTiers) {
        if (!cpu_runs(t.isa)) continue;
        const FormatTraits& f = *find_format(FormatId::Q4_K);
        const Kernel* k = exact_kernel(f.id, LayoutClass::BlockedRowMajor, t.isa);
        ASSERT_NE(k, nullptr);
        Weight w(f, 9, 2, 5);
        const int64_t n = 11;
        std::vector<float> x(size_t(n * w.in));
        sample_weight(x.data(), n, w.in, 6);
        const auto clean = run(*k, w.row_major, x, n, w.in, w.out, 1);
        x[size_t(3 * w.in + 100)] = NAN;
        const auto y = run(*k, w.row_major, x, n, w.in, w.out, 1);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t o = 0; o < w.out; ++o) {
                const size_t at = size_t(i * w.out + o);
                if (i == 3)
                    EXPECT_TRUE(std::isnan(y[at])) << k->name << " [" << i << ", " << o << "]";
                else
                    EXPECT_EQ(f32_bits(y[at]), f32_bits(clean[at])) << k->name << " [" << i << ", " << o << "]";
            }
    }
}

// A format without a decoder is a loud failure on both paths (small n and
// batched), never a silent return that leaves y unwritten.
TEST(ExactMatmul, AFormatWithoutADecoderIsAnErrorNotASilentNoWrite) {
    for (const Tier& t : kTiers) {
        if (!cpu_runs(t.isa)) continue;
        const kernels::PackedKernelFn fn = t.isa == SKN_ISA_AVX2 ? kx::exact_matmul_avx2 : kx::exact_matmul_avx512;
        for (int64_t n : {int64_t(1), int64_t(kx::kExactBatchedMinN)}) {
            std::vector<float> x(size_t(n) * 32, 1.0f), y(size_t(n) * 2, 0.0f);
            std::vector<uint8_t> w(2 * 32 * 4, 0);
            kernels::PackedArgs a;
            a.format = FormatId::F32;
            a.w = w.data();
            a.so = 32 * 4;
            a.sb = 4;
            a.bpr = 32;
            a.n = n;
            a.xf = x.data();
            a.xf_stride = 32;
            a.y = y.data();
            a.y_stride = 2;
            EXPECT_THROW(fn(a, 0, 2), Error) << isa_tag(t.isa) << " n=" << n;
        }
    }
}

}  // namespace
}  // namespace skn_core
