// SPDX-License-Identifier: MIT
// K-quant quantizers on edge inputs. Expected bytes are those ggml's reference
// quantizers (quantize_row_q*_K_ref) write for the same input, cross-checked
// by hand where noted; decoded values are worked out from the format rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "formats/format.hpp"
#include "formats/half.hpp"

namespace skn_core {
namespace {

constexpr FormatId kKQuants[] = {FormatId::Q2_K, FormatId::Q3_K, FormatId::Q4_K,
                                 FormatId::Q5_K, FormatId::Q6_K, FormatId::Q8_K};

std::vector<uint8_t> quantize(FormatId id, const std::vector<float>& x) {
    const FormatTraits* f = find_format(id);
    std::vector<uint8_t> out(x.size() / size_t(f->block_elems) * size_t(f->block_bytes), 0xAB);
    f->quantize_row(x.data(), int64_t(x.size()), out.data());
    return out;
}

std::vector<float> decode(FormatId id, const std::vector<uint8_t>& bytes) {
    const FormatTraits* f = find_format(id);
    const int64_t n = int64_t(bytes.size()) / f->block_bytes;
    std::vector<float> out(size_t(n * f->block_elems));
    f->decode(bytes.data(), n, 1.0f, out.data());
    return out;
}

// A run of equal bytes in an expected block; everything not covered is zero.
struct Run {
    int offset;
    int count;
    uint8_t value;
};

std::vector<uint8_t> expected_block(FormatId id, std::initializer_list<Run> runs) {
    std::vector<uint8_t> b(size_t(find_format(id)->block_bytes), 0);
    for (const Run& r : runs)
        for (int i = 0; i < r.count; ++i) b[size_t(r.offset + i)] = r.value;
    return b;
}

void expect_bytes(const std::vector<uint8_t>& got, size_t at, const std::vector<uint8_t>& want, const char* what) {
    for (size_t i = 0; i < want.size(); ++i)
        EXPECT_EQ(int(got[at + i]), int(want[i])) << what << ": byte " << i << " of the block";
}

TEST(QuantizeKQuants, AllZeroSuperBlocksAreAllZeroBytes) {
    // +0 and -0 super-blocks: every scale search reports "constant/zero" and
    // every format writes d = 0 and all-zero codes (the 0xAB fill must be gone,
    // including Q8_K's bsums, which the reference leaves unwritten).
    std::vector<float> x(512, 0.0f);
    for (size_t i = 256; i < 512; ++i) x[i] = -0.0f;
    for (FormatId id : kKQuants) {
        const auto q = quantize(id, x);
        for (size_t i = 0; i < q.size(); ++i) ASSERT_EQ(q[i], 0) << find_format(id)->name << " byte " << i;
        for (float v : decode(id, q)) ASSERT_EQ(v, 0.0f) << find_format(id)->name;
    }
}

TEST(QuantizeKQuants, DenormalSuperBlockIsAllZeroBytes) {
    // Magnitudes around 1e-40: Q3_K/Q6_K see every sub-block below the 1e-15
    // all-zero threshold; the others overflow their inverse scale to +inf and
    // the round-to-int trick maps inf and NaN products to codes 0, scales 0.
    std::vector<float> x(256);
    for (int i = 0; i < 256; ++i) x[size_t(i)] = float(i % 16 - 8) * 1e-40f;
    for (FormatId id : kKQuants) {
        const auto q = quantize(id, x);
        for (size_t i = 0; i < q.size(); ++i) ASSERT_EQ(q[i], 0) << find_format(id)->name << " byte " << i;
    }
}

// One super-block holding only x[37] = 1000, a second holding only x[200] = -1000.
std::vector<float> single_huge_values() {
    std::vector<float> x(512, 0.0f);
    x[37] = 1000.0f;
    x[256 + 200] = -1000.0f;
    return x;
}

TEST(QuantizeKQuants, Q2_KSingleHugeValue) {
    const auto q = quantize(FormatId::Q2_K, single_huge_values());
    // Block 0: sub-block 2 gets scale 1000/3, so d = fp16(1000/45) = 22.21875
    // (0x4d8e), sub-block scale 15 (byte 2), code 3 for element 37 (bits 2-3
    // of qs[5]); dmin = 0. Block 1: sub-block 12 has min -1000 and the other
    // fifteen elements at code 3 (bits 4-5 of qs[32..47] minus qs[40]).
    expect_bytes(q, 0, expected_block(FormatId::Q2_K, {{2, 1, 0x0f}, {21, 1, 0x0c}, {80, 1, 0x8e}, {81, 1, 0x4d}}),
                 "block 0");
    expect_bytes(q, 84,
                 expected_block(FormatId::Q2_K, {{12, 1, 0xff}, {48, 8, 0x30}, {57, 7, 0x30}, {80, 1, 0x8e},
                                                 {81, 1, 0x4d}, {82, 1, 0x2b}, {83, 1, 0x54}}),
                 "block 1");
    const auto v = decode(FormatId::Q2_K, q);
    EXPECT_EQ(v[37], 999.84375f);          // 22.21875 * 15 * 3
    EXPECT_EQ(v[256 + 200], -1000.3125f);  // -66.6875 * 15
    EXPECT_EQ(v[256 + 201], -0.46875f);    // 999.84375 - 1000.3125
    EXPECT_EQ(v[0], 0.0f);
}

TEST(QuantizeKQuants, Q3_KSingleHugeValue) {
    const auto q = quantize(FormatId::Q3_K, single_huge_values());
    // Sub-block scale -250 (+250) maps to the -32 end: d = -250/-32 = 7.8125
    // (0x47d0, negative in block 1), every other sub-block's biased scale is
    // 32 (top bits 2 -> 0xaa bytes). Element 37 (200) gets code 0 = -4, its
    // neighbours code 4 = high bit set, low bits 0.
    expect_bytes(q, 0,
                 expected_block(FormatId::Q3_K, {{0, 5, 0x02}, {6, 10, 0x02}, {104, 2, 0xaa}, {106, 1, 0xa8},
                                                 {107, 1, 0xaa}, {108, 1, 0xd0}, {109, 1, 0x47}}),
                 "block 0");
    expect_bytes(q, 110,
                 expected_block(FormatId::Q3_K, {{0, 8, 0x40}, {9, 7, 0x40}, {104, 1, 0x2a}, {105, 3, 0xaa},
                                                 {108, 1, 0xd0}, {109, 1, 0xc7}}),
                 "block 1");
    const auto v = decode(FormatId::Q3_K, q);
    EXPECT_EQ(v[37], 1000.0f);  // 7.8125 * -32 * -4, exact
    EXPECT_EQ(v[256 + 200], -1000.0f);
    EXPECT_EQ(v[36], 0.0f);
}

TEST(QuantizeKQuants, Q4_KAndQ5_KSingleHugeValue) {
    const auto x = single_huge_values();
    const auto q4 = quantize(FormatId::Q4_K, x);
    // d = fp16(1000/15/63) = 1.05859375 (0x3c3c); block 0: scale 63 for
    // sub-block 1 (byte 5), element 37 = high nibble of qs[5] = 15. Block 1:
    // dmin = fp16(1000/63) = 15.875 (0x4bf0), sub-block 6 has scale and min
    // 63 (top bits in bytes 2 and 6, low nibbles in byte 10), codes 15
    // except element 200.
    expect_bytes(q4, 0, expected_block(FormatId::Q4_K, {{0, 2, 0x3c}, {5, 1, 0x3f}, {21, 1, 0xf0}}), "Q4_K block 0");
    expect_bytes(q4, 144,
                 expected_block(FormatId::Q4_K, {{0, 2, 0x3c}, {2, 1, 0xf0}, {3, 1, 0x4b}, {6, 1, 0xc0}, {10, 1, 0xc0},
                                                 {14, 1, 0xff}, {112, 8, 0x0f}, {121, 23, 0x0f}}),
                 "Q4_K block 1");
    const auto v4 = decode(FormatId::Q4_K, q4);
    EXPECT_EQ(v4[37], 1000.37109375f);          // 1.05859375 * 63 * 15
    EXPECT_EQ(v4[256 + 200], -1000.125f);       // -15.875 * 63
    EXPECT_EQ(v4[256 + 201], 0.24609375f);      // 1000.37109375 - 1000.125

    const auto q5 = quantize(FormatId::Q5_K, x);
    // Same shape with 31 levels: d = fp16(1000/31/63) = 0x3819; element 37 is
    // code 31 = high bit (qh[5] bit 1) + nibble 15.
    expect_bytes(q5, 0,
                 expected_block(FormatId::Q5_K, {{0, 1, 0x19}, {1, 1, 0x38}, {5, 1, 0x3f}, {21, 1, 0x02}, {53, 1, 0xf0}}),
                 "Q5_K block 0");
    expect_bytes(q5, 176,
                 expected_block(FormatId::Q5_K, {{0, 1, 0x19}, {1, 1, 0x38}, {2, 1, 0xf0}, {3, 1, 0x4b}, {6, 1, 0xc0},
                                                 {10, 1, 0xc0}, {14, 1, 0xff}, {16, 8, 0x40}, {25, 23, 0x40},
                                                 {144, 8, 0x0f}, {153, 23, 0x0f}}),
                 "Q5_K block 1");
    const auto v5 = decode(FormatId::Q5_K, q5);
    EXPECT_EQ(v5[37], 1000.34033203125f);  // 0.51220703125 * 63 * 31
    EXPECT_EQ(v5[256 + 200], -1000.125f);
}

TEST(QuantizeKQuants, Q6_KSingleHugeValue) {
    const auto q = quantize(FormatId::Q6_K, single_huge_values());
    // The scale sweep settles on code -31 for the big value (scale 1000/-31),
    // so d = fp16(32.258/128) = 0.251953125 (0x3408) and that sub-block's
    // int8 scale is -128; element 37 -> code 1 (nibble in ql[37]), its zero
    // neighbours -> code 32 (top bits 2 in qh).
    expect_bytes(q, 0,
                 expected_block(FormatId::Q6_K, {{37, 1, 0x01}, {128, 5, 0x08}, {134, 10, 0x08}, {194, 1, 0x80},
                                                 {208, 1, 0x08}, {209, 1, 0x34}}),
                 "block 0");
    expect_bytes(q, 210,
                 expected_block(FormatId::Q6_K, {{72, 1, 0x10}, {160, 8, 0x20}, {169, 7, 0x20}, {204, 1, 0x80},
                                                 {208, 1, 0x08}, {209, 1, 0xb4}}),
                 "block 1");
    const auto v = decode(FormatId::Q6_K, q);
    EXPECT_EQ(v[37], 999.75f);  // 0.251953125 * -128 * (1 - 32)
    EXPECT_EQ(v[256 + 200], -999.75f);
}

TEST(QuantizeKQuants, Q8_KSingleHugeValue) {
    const auto q = quantize(FormatId::Q8_K, single_huge_values());
    // d = 1 / (-127 / 1000) as float32 (0xc0fbf7ef), code -127, bsums[2] = -127.
    expect_bytes(q, 0,
                 expected_block(FormatId::Q8_K, {{0, 1, 0xef}, {1, 1, 0xf7}, {2, 1, 0xfb}, {3, 1, 0xc0}, {41, 1, 0x81},
                                                 {264, 1, 0x81}, {265, 1, 0xff}}),
                 "block 0");
    expect_bytes(q, 292,
                 expected_block(FormatId::Q8_K, {{0, 1, 0xef}, {1, 1, 0xf7}, {2, 1, 0xfb}, {3, 1, 0x40}, {204, 1, 0x81},
                                                 {284, 1, 0x81}, {285, 1, 0xff}}),
                 "block 1");
    EXPECT_EQ(load_f32le(q.data()), 1.0f / (-127.0f / 1000.0f));
}

TEST(QuantizeKQuants, Q8_KRoundsHalvesToEvenAndSumsGroups) {
    // x = 0.25 * (e % 16 - 8): the first -2 sets the scale, inverse 63.5, so
    // codes are round(63.5 * x): -127 -111 -95 -79 -64 -48 -32 -16 0 16 32 48
    // 64 79 95 111 (+-63.5 rounds to the even +-64); each group sums to -127.
    std::vector<float> x(256);
    for (int e = 0; e < 256; ++e) x[size_t(e)] = 0.25f * float(e % 16 - 8);
    const auto q = quantize(FormatId::Q8_K, x);
    const int8_t codes[16] = {-127, -111, -95, -79, -64, -48, -32, -16, 0, 16, 32, 48, 64, 79, 95, 111};
    EXPECT_EQ(load_f32le(q.data()), 1.0f / 63.5f);
    for (int e = 0; e < 256; ++e) ASSERT_EQ(int8_t(q[4 + size_t(e)]), codes[e % 16]) << "element " << e;
    for (int j = 0; j < 16; ++j) EXPECT_EQ(int16_t(load_u16le(q.data() + 260 + 2 * j)), -127) << "bsums " << j;
}

}  // namespace
}  // namespace skn_core
