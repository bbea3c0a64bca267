// SPDX-License-Identifier: MIT
// fp16 / bf16 conversions: IEEE round-to-nearest-even, specials, subnormals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "formats/half.hpp"

namespace skn_core {
namespace {

TEST(Fp16, KnownEncodings) {
    EXPECT_EQ(f32_to_fp16(0.0f), 0x0000);
    EXPECT_EQ(f32_to_fp16(-0.0f), 0x8000);
    EXPECT_EQ(f32_to_fp16(1.0f), 0x3c00);
    EXPECT_EQ(f32_to_fp16(-2.0f), 0xc000);
    EXPECT_EQ(f32_to_fp16(65504.0f), 0x7bff);                     // largest finite
    EXPECT_EQ(f32_to_fp16(0x1p-14f), 0x0400);                     // smallest normal
    EXPECT_EQ(f32_to_fp16(0x1p-24f), 0x0001);                     // smallest subnormal
    EXPECT_EQ(f32_to_fp16(0x1.8p-24f), 0x0002);                   // 1.5 ulp: tie -> even (2)
    EXPECT_EQ(f32_to_fp16(0x1p-25f), 0x0000);                     // exactly half the smallest: tie -> even (0)
    EXPECT_EQ(f32_to_fp16(0x1.000002p-25f), 0x0001);              // just above half: rounds up
    EXPECT_EQ(f32_to_fp16(1.0f + 0x1p-11f), 0x3c00);              // tie between 1 and 1+2^-10 -> even
    EXPECT_EQ(f32_to_fp16(1.0f + 0x1.8p-10f), 0x3c02);            // tie between odd/even -> even (up)
    EXPECT_EQ(f32_to_fp16(65520.0f), 0x7c00);                     // halfway to 2^16 rounds to inf
    EXPECT_EQ(f32_to_fp16(65519.99f), 0x7bff);
    EXPECT_EQ(f32_to_fp16(std::numeric_limits<float>::infinity()), 0x7c00);
    EXPECT_EQ(f32_to_fp16(-std::numeric_limits<float>::infinity()), 0xfc00);
    EXPECT_EQ(f32_to_fp16(1e-45f), 0x0000);                       // float32 subnormal -> 0
    const uint16_t nan = f32_to_fp16(std::numeric_limits<float>::quiet_NaN());
    EXPECT_EQ(nan & 0x7c00, 0x7c00);
    EXPECT_NE(nan & 0x03ff, 0);
    const uint16_t snan = f32_to_fp16(f32_from_bits(0x7f800001u));  // payload only in low bits
    EXPECT_EQ(snan & 0x7c00, 0x7c00);
    EXPECT_NE(snan & 0x03ff, 0) << "a NaN must not turn into infinity";
}

TEST(Fp16, DecodeEveryValueRoundTrips) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const float f = fp16_to_f32(uint16_t(h));
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) {
            EXPECT_TRUE(std::isnan(f)) << h;
            continue;
        }
        ASSERT_EQ(f32_to_fp16(f), h) << "fp16 0x" << std::hex << h;
    }
    EXPECT_EQ(fp16_to_f32(0x0001), 0x1p-24f);
    EXPECT_EQ(fp16_to_f32(0x03ff), 0x1.ff8p-15f);
    EXPECT_EQ(fp16_to_f32(0x7bff), 65504.0f);
    EXPECT_TRUE(std::isinf(fp16_to_f32(0xfc00)));
    // A signalling NaN comes out quiet with its payload, as F16C's vcvtph2ps does.
    EXPECT_EQ(f32_bits(fp16_to_f32(0x7c01)), 0x7fc02000u);
    EXPECT_EQ(f32_bits(fp16_to_f32(0xfe00)), 0xffc00000u);
}

TEST(Fp16, RoundingMatchesDoubleReferenceOnManyValues) {
    // Compare with a rounding computed in double: the nearest fp16. Values at
    // or above 65520 overflow to infinity by IEEE's rule (checked above), so
    // the sweep stays below the largest finite fp16.
    uint32_t s = 12345;
    for (int i = 0; i < 200000; ++i) {
        s = s * 1664525u + 1013904223u;
        const float f = f32_from_bits((s & 0x80000000u) | (0x30000000u + (s % 0x177fe000u)));  // 2^-31 .. 65504
        const uint16_t h = f32_to_fp16(f);
        const double got = fp16_to_f32(h);
        const uint16_t other = uint16_t(h + 1);
        if ((other & 0x7c00) != 0x7c00) {
            const double err = std::fabs(got - double(f));
            const double err_next = std::fabs(double(fp16_to_f32(other)) - double(f));
            ASSERT_LE(err, err_next) << f;
        }
        if ((h & 0x7fff) != 0) {
            const double err = std::fabs(got - double(f));
            const double err_prev = std::fabs(double(fp16_to_f32(uint16_t(h - 1))) - double(f));
            ASSERT_LE(err, err_prev) << f;
        }
    }
}

TEST(Bf16, RoundToNearestEvenAndSpecials) {
    EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
    EXPECT_EQ(f32_to_bf16(f32_from_bits(0x3f808000u)), 0x3f80);  // tie, even stays
    EXPECT_EQ(f32_to_bf16(f32_from_bits(0x3f818000u)), 0x3f82);  // tie, odd rounds up
    EXPECT_EQ(f32_to_bf16(f32_from_bits(0x3f808001u)), 0x3f81);
    EXPECT_EQ(f32_to_bf16(std::numeric_limits<float>::infinity()), 0x7f80);
    EXPECT_EQ(f32_to_bf16(f32_from_bits(0x7f7fffffu)), 0x7f80);  // max float rounds to inf
    EXPECT_EQ(f32_to_bf16(f32_from_bits(0x00010000u)), 0x0001);  // subnormal kept, not flushed
    EXPECT_EQ(f32_to_bf16(f32_from_bits(0x7f800001u)) & 0x7fc0, 0x7fc0) << "NaN becomes a quiet NaN";
    EXPECT_EQ(bf16_to_f32(0xbf80), -1.0f);
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const float f = bf16_to_f32(uint16_t(h));
        if (std::isnan(f)) continue;
        ASSERT_EQ(f32_to_bf16(f), h);
    }
}

}  // namespace
}  // namespace skn_core
