// SPDX-License-Identifier: MIT
// Fast precision quantizes a call's activations on the context's threads, in
// (row, block range) pieces. The pieces must give exactly the bytes of one
// quantize_row per row, and a non-finite activation must be reported at the
// same position (the lowest row, then column) whatever the split.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/activation_quant.hpp"
#include "dispatch/activation_rows.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

// Rows long enough to be cut into several pieces (a piece holds 16384
// floats), with a ragged last piece, and a batch large enough to go parallel.
constexpr int64_t kIn = 16384 + 3 * 256;
constexpr int64_t kRows = 6;
constexpr int64_t kStride = kIn + 40;

std::vector<float> activations() {
    std::vector<float> x(size_t(kRows * kStride), -7.0f);  // the gap between rows is never read
    for (int64_t i = 0; i < kRows; ++i) sample_weight(x.data() + i * kStride, 1, kIn, uint64_t(100 + i));
    return x;
}

TEST(ActivationRows, PiecesOnThreadsGiveTheBytesOfWholeRows) {
    const std::vector<float> x = activations();
    for (FormatId id : {FormatId::Q8_0, FormatId::Q8_1, FormatId::Q8_K}) {
        const FormatTraits& act = *find_format(id);
        const size_t row_bytes = size_t(kIn / act.block_elems) * size_t(act.block_bytes);
        std::vector<uint8_t> whole(row_bytes * kRows);
        for (int64_t i = 0; i < kRows; ++i) act.quantize_row(x.data() + i * kStride, kIn, whole.data() + i * row_bytes);
        std::vector<float> decoded(size_t(kRows * kIn));
        for (int64_t i = 0; i < kRows; ++i)
            act.decode(whole.data() + i * row_bytes, kIn / act.block_elems, 1.0f, decoded.data() + i * kIn);
        for (int threads : {1, 2, 3}) {
            Context ctx;
            ctx.set_threads(threads);
            const QuantizedActivations q = quantize_activations(ctx, act, x.data(), kRows, kStride, kIn, true);
            ASSERT_EQ(q.row_bytes, row_bytes);
            EXPECT_EQ(std::memcmp(q.xq, whole.data(), whole.size()), 0) << act.name << ", " << threads << " threads";
            EXPECT_EQ(std::memcmp(q.xf, decoded.data(), decoded.size() * 4), 0) << act.name << ", " << threads << " threads";
        }
    }
}

TEST(ActivationRows, TheFirstNonFiniteIsNamedWhateverTheSplit) {
    std::vector<float> x = activations();
    x[size_t(4 * kStride + 3)] = INFINITY;         // a later row, an early column
    x[size_t(2 * kStride + 16500)] = NAN;          // the first one: row 2, in its second piece
    x[size_t(2 * kStride + 16600)] = -INFINITY;    // later in the same piece
    for (int threads : {1, 2, 3}) {
        Context ctx;
        ctx.set_threads(threads);
        try {
            quantize_activations(ctx, *find_format(FormatId::Q8_K), x.data(), kRows, kStride, kIn, false);
            FAIL() << "a NaN activation was accepted with " << threads << " threads";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
            EXPECT_NE(std::string(e.what()).find("activation [2, 16500] is nan"), std::string::npos) << e.what();
        }
    }
}

}  // namespace
}  // namespace skn_core
