// SPDX-License-Identifier: MIT
// Step 1 of a matmul call, alone: validate_call accepts the dense and routed
// calls the C API documents (both nestings of a routed y, broadcast, per-slot
// and partially broadcast activations) and refuses every bad operand with a
// message naming the argument, in the caller's units (floats, or bytes for
// skn_matmul_wt_id_ex), before anything is computed.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dispatch/matmul_call.hpp"
#include "formats/format.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

constexpr int64_t kE = 3, kOut = 4, kIn = 96;  // Q8_0: three blocks per row

struct Weights {
    std::vector<uint8_t> bytes = std::vector<uint8_t>(size_t(kE * kOut * 3 * 34));
    View dense, stacked;
    Weights() {
        const FormatTraits& f = *find_format(FormatId::Q8_0);
        const int64_t s2[2] = {kOut, kIn}, s3[3] = {kE, kOut, kIn};
        dense = make_view(bytes.data(), bytes.size(), f, s2, 2, BlockOrder::RowMajor);
        stacked = make_view(bytes.data(), bytes.size(), f, s3, 3, BlockOrder::RowMajor);
    }
};

// Buffers large enough for every valid call below.
struct Buffers {
    std::vector<float> x = std::vector<float>(4096), y = std::vector<float>(4096), gates = std::vector<float>(64);
    std::vector<float> bias = std::vector<float>(size_t(kE * kOut));
    std::vector<int32_t> ids = std::vector<int32_t>(64);
};

MatmulCall dense(Buffers& b) {
    MatmulCall c;
    c.x = b.x.data();
    c.n = 3;
    c.x_row_stride = kIn;
    c.y = b.y.data();
    c.y_row_stride = kOut;
    c.bias = b.bias.data();
    return c;
}

// [n = 3, k = 4] slots, x [3, x_slots = 2, in], y [3, 4, out], gates and bias.
MatmulCall routed(Buffers& b) {
    MatmulCall c;
    c.routed = true;
    c.x = b.x.data();
    c.n = 3;
    c.x_slots = 2;
    c.x_slot_stride = kIn;
    c.x_row_stride = 2 * kIn;
    c.ids = b.ids.data();
    c.k = 4;
    c.ids_row_stride = 4;
    c.gates = b.gates.data();
    c.gates_row_stride = 5;
    c.bias = b.bias.data();
    c.y = b.y.data();
    c.y_slot_stride = kOut;
    c.y_row_stride = 4 * kOut;
    return c;
}

// The message validate_call refuses `c` with ("" when it accepts it).
std::string refusal(const MatmulCall& c, const View& w) {
    try {
        validate_call(c, w);
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT) << e.what();
        return e.what();
    }
    return "";
}

// A call made bad one way, and the words its refusal must hold.
struct BadCall {
    bool routed;  // starts from routed(b) over the stack, else dense(b) over [out, in]
    std::function<void(MatmulCall&, Buffers&)> change;
    std::string needle;
};

void expect_refused(const std::vector<BadCall>& cases) {
    Weights w;
    for (size_t i = 0; i < cases.size(); ++i) {
        Buffers b;
        MatmulCall c = cases[i].routed ? routed(b) : dense(b);
        cases[i].change(c, b);
        const std::string what = refusal(c, cases[i].routed ? w.stacked : w.dense);
        EXPECT_NE(what.find(cases[i].needle), std::string::npos)
            << "case " << i << ": want \"" << cases[i].needle << "\", got \"" << what << "\"";
    }
}

TEST(MatmulCall, TheDocumentedCallsAreAccepted) {
    Weights w;
    Buffers b;
    EXPECT_EQ(refusal(dense(b), w.dense), "");
    MatmulCall c = routed(b);
    EXPECT_EQ(refusal(c, w.stacked), "");
    c.x_slots = 1;  // every slot reads the row; the slot stride is not read
    EXPECT_EQ(refusal(c, w.stacked), "");
    c.x_slot_stride = 0;
    EXPECT_EQ(refusal(c, w.stacked), "");
    c.x_slots = 4;
    c.x_slot_stride = kIn;
    c.x_row_stride = 4 * kIn;
    EXPECT_EQ(refusal(c, w.stacked), "");
    // Slot-major outputs [k, n, out].
    c.y_row_stride = kOut;
    c.y_slot_stride = 3 * kOut;
    EXPECT_EQ(refusal(c, w.stacked), "");
    // One row, or one slot: the nesting does not matter.
    MatmulCall one = routed(b);
    one.n = 1;
    one.y_row_stride = kOut;
    one.y_slot_stride = kOut;
    EXPECT_EQ(refusal(one, w.stacked), "");
}

TEST(MatmulCall, OperandsAndCountsAreNamed) {
    std::vector<BadCall> cases = {
        {false, [](MatmulCall& c, Buffers&) { c.x = nullptr; }, "x must not be NULL"},
        {false, [](MatmulCall& c, Buffers&) { c.y = nullptr; }, "y must not be NULL"},
        {false, [](MatmulCall& c, Buffers&) { c.n = 0; }, "x_rows is 0"},
        {true, [](MatmulCall& c, Buffers&) { c.ids = nullptr; }, "ids must not be NULL"},
        {true, [](MatmulCall& c, Buffers&) { c.k = 0; }, "k is 0"},
    };
    for (int64_t slots : {0, 3, 5, -2})
        cases.push_back({true, [slots](MatmulCall& c, Buffers&) { c.x_slots = slots; },
                         "x_slots " + std::to_string(slots) + " does not divide k = 4"});
    expect_refused(cases);
    // The weight's rank says which call it is for.
    Weights w;
    Buffers b;
    EXPECT_NE(refusal(dense(b), w.stacked).find("rank-2"), std::string::npos);
    EXPECT_NE(refusal(routed(b), w.dense).find("skn_view_unsqueeze"), std::string::npos);
}

TEST(MatmulCall, StridesAreNamedInTheCallersUnits) {
    expect_refused({
        {false, [](MatmulCall& c, Buffers&) { c.x_row_stride = kIn - 1; },
         "x_row_stride 95 is smaller than a row of 96 inputs"},
        {false, [](MatmulCall& c, Buffers&) { c.x_row_stride = kIn - 1, c.byte_strides = true; },
         "x_row_stride 380 bytes is smaller than a row of 96 inputs (384 bytes)"},
        {false, [](MatmulCall& c, Buffers&) { c.y_row_stride = -2; }, "y_row_stride -2 is negative"},
        {false, [](MatmulCall& c, Buffers&) { c.y_row_stride = -2, c.byte_strides = true; },
         "y_row_stride -8 bytes is negative"},
        {false, [](MatmulCall& c, Buffers&) { c.y_row_stride = kOut - 1; },
         "y_row_stride 3 is smaller than a row of 4 outputs"},
        {true, [](MatmulCall& c, Buffers&) { c.x_slot_stride = kIn - 1; },
         "x_slot_stride 95 is smaller than a slot of 96 inputs"},
        // Not read with one activation slot, but neither 0 nor a row: a mistake.
        {true, [](MatmulCall& c, Buffers&) { c.x_slot_stride = kIn - 1, c.x_slots = 1; },
         "x_slot_stride 95 is neither 0"},
        {true, [](MatmulCall& c, Buffers&) { c.x_slot_stride = -kIn; }, "x_slot_stride -96 is negative"},
        {true, [](MatmulCall& c, Buffers&) { c.ids_row_stride = 3; },
         "ids_row_stride 3 is smaller than a row of k = 4 ids"},
        {true, [](MatmulCall& c, Buffers&) { c.ids_row_stride = 3, c.byte_strides = true; },
         "ids_row_stride 12 bytes is smaller than a row of k = 4 ids (16 bytes)"},
        {true, [](MatmulCall& c, Buffers&) { c.gates_row_stride = 3; }, "gates_row_stride 3"},
        {true, [](MatmulCall& c, Buffers&) { c.y_slot_stride = kOut - 1; },
         "y_slot_stride 3 is smaller than a slot's 4 outputs"},
    });
    // Without gates their stride is not read.
    Weights w;
    Buffers b;
    MatmulCall c = routed(b);
    c.gates = nullptr;
    c.gates_row_stride = -3;
    EXPECT_EQ(refusal(c, w.stacked), "");
}

TEST(MatmulCall, ReachesThatOverflowAreNamedTermByTerm) {
    expect_refused({
        {false, [](MatmulCall& c, Buffers&) { c.n = int64_t(1) << 62; }, "(x_rows - 1) * x_row_stride overflows"},
        {false, [](MatmulCall& c, Buffers&) { c.n = 2, c.x_row_stride = INT64_MAX; },
         "(x_rows - 1) * x_row_stride + in overflows"},
        {true, [](MatmulCall& c, Buffers&) { c.x_slot_stride = INT64_MAX / 2; }, "(x_slots - 1) * x_slot_stride"},
        {true, [](MatmulCall& c, Buffers&) { c.y_slot_stride = INT64_MAX / 2; },
         "(k - 1) * y_slot_stride overflows"},
        {true, [](MatmulCall& c, Buffers&) { c.ids_row_stride = INT64_MAX / 2; },
         "(x_rows - 1) * ids_row_stride + k overflows"},
        // In bytes, the terms are the caller's bytes.
        {true, [](MatmulCall& c, Buffers&) { c.gates_row_stride = INT64_MAX / 4, c.byte_strides = true; },
         "(x_rows - 1) * gates_row_stride overflows (2 * " + std::to_string(INT64_MAX / 4 * 4)},
    });
}

TEST(MatmulCall, OverlappingOutputsAndAliasesAreRefused) {
    expect_refused({
        // Rows of k slots need y_row_stride >= (k - 1) * y_slot_stride + out.
        {true, [](MatmulCall& c, Buffers&) { c.y_row_stride = kOut; },
         "make the outputs of different (row, slot) pairs overlap"},
        {true, [](MatmulCall& c, Buffers& b) { c.y = b.x.data() + 10; }, "y overlaps x"},
        {true, [](MatmulCall& c, Buffers& b) { c.gates = b.y.data() + 3; }, "y overlaps gates"},
        {true, [](MatmulCall& c, Buffers& b) { c.bias = b.y.data() + 40; }, "y overlaps bias"},
        {false, [](MatmulCall& c, Buffers& b) { c.bias = b.y.data() + 2; }, "y overlaps bias"},
        {false, [](MatmulCall& c, Buffers& b) { c.x = b.y.data() + 2 * kOut; }, "y overlaps x"},
    });
}

}  // namespace
}  // namespace skn_core
