// SPDX-License-Identifier: MIT
// Step 3 of a matmul call: a call's activation rows are prepared on the
// context's threads, in (batch position, block range) pieces. The pieces
// must give exactly the bytes of one quantize_row per row, for x's own rows
// (dense) and for the rows a routed batch gathers (each position reads row
// i, activation slot s % x_slots); and a non-finite activation must be
// reported at the same position (the lowest row, then slot, then column)
// whatever the split and the order of the positions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
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

std::vector<float> activations(int64_t rows = kRows) {
    std::vector<float> x(size_t(rows * kStride), -7.0f);  // the gap between rows is never read
    for (int64_t i = 0; i < rows; ++i) sample_weight(x.data() + i * kStride, 1, kIn, uint64_t(100 + i));
    return x;
}

MatmulCall dense_call(const float* x, int64_t n) { return MatmulCall{.x = x, .n = n, .x_row_stride = kStride}; }

// A routed call over x: n rows of x_slots activation slots each (slot j of
// row i at row i * x_slots + j of x), k slots per row.
MatmulCall routed_call(const float* x, int64_t n, int64_t k, int64_t x_slots) {
    return MatmulCall{.routed = true,
                      .x = x,
                      .n = n,
                      .x_row_stride = x_slots * kStride,
                      .x_slots = x_slots,
                      .x_slot_stride = kStride,
                      .k = k};
}

// The codec's bytes (and decoded floats) of whole rows.
struct WholeRows {
    std::vector<uint8_t> bytes;
    std::vector<float> decoded;
    size_t row_bytes;
};

WholeRows whole_rows(const FormatTraits& act, const std::vector<const float*>& rows) {
    WholeRows w;
    w.row_bytes = size_t(kIn / act.block_elems) * size_t(act.block_bytes);
    w.bytes.resize(w.row_bytes * rows.size());
    w.decoded.resize(size_t(kIn) * rows.size());
    for (size_t p = 0; p < rows.size(); ++p) {
        act.quantize_row(rows[p], kIn, w.bytes.data() + p * w.row_bytes);
        act.decode(w.bytes.data() + p * w.row_bytes, kIn / act.block_elems, 1.0f, w.decoded.data() + p * kIn);
    }
    return w;
}

std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
        return e.what();
    }
    return "(no error)";
}

TEST(ActivationRows, PiecesOnThreadsGiveTheBytesOfWholeRows) {
    const std::vector<float> x = activations();
    std::vector<const float*> rows;
    for (int64_t i = 0; i < kRows; ++i) rows.push_back(x.data() + i * kStride);
    const MatmulCall call = dense_call(x.data(), kRows);
    for (FormatId id : {FormatId::Q8_0, FormatId::Q8_1, FormatId::Q8_K}) {
        const FormatTraits& act = *find_format(id);
        const WholeRows whole = whole_rows(act, rows);
        for (int threads : {1, 2, 3}) {
            Context ctx;
            ctx.set_threads(threads);
            const PreparedActivations q = prepare_activations(ctx, id, BatchRows{&call, nullptr, kRows}, kIn, true);
            ASSERT_EQ(q.xq_stride, whole.row_bytes);
            ASSERT_EQ(q.xf_stride, kIn);
            EXPECT_EQ(std::memcmp(q.xq, whole.bytes.data(), whole.bytes.size()), 0) << act.name << ", " << threads << " threads";
            EXPECT_EQ(std::memcmp(q.xf, whole.decoded.data(), whole.decoded.size() * 4), 0)
                << act.name << ", " << threads << " threads";
        }
    }
}

// Positions in expert order, not (row, slot) order, as group_slots_by_expert
// leaves them; with x_slots 1 (every slot reads the row), k (each its own)
// and a divisor between (ggml's partial broadcast: slot s reads s % x_slots).
TEST(ActivationRows, GatheredPositionsGetTheBytesOfTheRowTheyRead) {
    constexpr int64_t kN = 3, kK = 4;
    const int64_t slot_at[kN * kK] = {5, 0, 11, 2, 7, 9, 1, 4, 10, 3, 8, 6};  // a permutation of i * k + s
    for (int64_t x_slots : {1, 2, 4}) {
        const std::vector<float> x = activations(kN * x_slots);
        const MatmulCall call = routed_call(x.data(), kN, kK, x_slots);
        std::vector<const float*> rows;
        for (int64_t p = 0; p < kN * kK; ++p) {
            const int64_t i = slot_at[p] / kK, s = slot_at[p] % kK;
            rows.push_back(x.data() + (i * x_slots + s % x_slots) * kStride);
        }
        const BatchRows batch{&call, slot_at, kN * kK};
        for (FormatId id : {FormatId::Q8_0, FormatId::Q8_K}) {
            const FormatTraits& act = *find_format(id);
            const WholeRows whole = whole_rows(act, rows);
            for (int threads : {1, 3}) {
                Context ctx;
                ctx.set_threads(threads);
                const PreparedActivations q = prepare_activations(ctx, id, batch, kIn, true);
                EXPECT_EQ(std::memcmp(q.xq, whole.bytes.data(), whole.bytes.size()), 0)
                    << act.name << ", x_slots " << x_slots << ", " << threads << " threads";
                EXPECT_EQ(std::memcmp(q.xf, whole.decoded.data(), whole.decoded.size() * 4), 0)
                    << act.name << ", x_slots " << x_slots << ", " << threads << " threads";
            }
        }
        // Exact precision copies the floats each position reads.
        Context ctx;
        ctx.set_threads(2);
        const PreparedActivations f = prepare_activations(ctx, FormatId::F32, batch, kIn, false);
        ASSERT_EQ(f.xq, nullptr);
        ASSERT_EQ(f.xf_stride, kIn);
        for (int64_t p = 0; p < kN * kK; ++p)
            EXPECT_EQ(std::memcmp(f.xf + p * kIn, rows[size_t(p)], kIn * 4), 0) << "position " << p;
    }
}

TEST(ActivationRows, ADenseExactCallReadsXInPlace) {
    const std::vector<float> x = activations();
    const MatmulCall call = dense_call(x.data(), kRows);
    Context ctx;
    const PreparedActivations f = prepare_activations(ctx, FormatId::F32, BatchRows{&call, nullptr, kRows}, kIn, false);
    EXPECT_EQ(f.xf, x.data());
    EXPECT_EQ(f.xf_stride, kStride);
    EXPECT_EQ(f.xq, nullptr);
}

TEST(ActivationRows, TheFirstNonFiniteIsNamedWhateverTheSplit) {
    std::vector<float> x = activations();
    x[size_t(4 * kStride + 3)] = INFINITY;         // a later row, an early column
    x[size_t(2 * kStride + 16500)] = NAN;          // the first one: row 2, in its second piece
    x[size_t(2 * kStride + 16600)] = -INFINITY;    // later in the same piece
    const MatmulCall call = dense_call(x.data(), kRows);
    for (int threads : {1, 2, 3}) {
        Context ctx;
        ctx.set_threads(threads);
        const std::string what = error_of(
            [&] { prepare_activations(ctx, FormatId::Q8_K, BatchRows{&call, nullptr, kRows}, kIn, false); });
        EXPECT_NE(what.find("activation [2, 16500] is nan"), std::string::npos) << threads << " threads: " << what;
    }
}

// Routed: the lowest (row, activation slot, column), named with its slot
// when each row has several, although positions run in expert order.
TEST(ActivationRows, TheFirstNonFiniteOfARoutedBatchIsNamedByRowSlotAndColumn) {
    constexpr int64_t kN = 3, kK = 4;
    const int64_t slot_at[kN * kK] = {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};  // last slot first
    for (int64_t x_slots : {1, 2, 4}) {
        std::vector<float> x = activations(kN * x_slots);
        x[size_t((2 * x_slots) * kStride + 1)] = NAN;                   // row 2, slot 0
        x[size_t((1 * x_slots + x_slots - 1) * kStride + 16999)] = INFINITY;  // row 1, the last slot: the first
        x[size_t((1 * x_slots + x_slots - 1) * kStride + 17000)] = NAN;
        const MatmulCall call = routed_call(x.data(), kN, kK, x_slots);
        const std::string want = x_slots == 1 ? "activation [1, 16999] is inf"
                                              : "activation [1, 16999] of slot " + std::to_string(x_slots - 1) + " is inf";
        for (int threads : {1, 3}) {
            Context ctx;
            ctx.set_threads(threads);
            const std::string what =
                error_of([&] { prepare_activations(ctx, FormatId::Q8_0, BatchRows{&call, slot_at, kN * kK}, kIn, false); });
            EXPECT_NE(what.find(want), std::string::npos) << "x_slots " << x_slots << ", " << threads << " threads: " << what;
        }
    }
}

}  // namespace
}  // namespace skn_core
