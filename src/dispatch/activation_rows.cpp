// SPDX-License-Identifier: MIT
#include "dispatch/activation_rows.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "dispatch/activation_quant.hpp"
#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

// Below this many floats per call a second parallel section costs more than
// it saves (a GEMV row of 4096 quantizes in about a microsecond).
constexpr int64_t kParallelFloats = int64_t(1) << 16;
// Floats one task prepares: large enough to amortise the dispatch, small
// enough that a few rows still split over two threads.
constexpr int64_t kFloatsPerTask = int64_t(1) << 14;

// Calls piece(p, b0, b1) for blocks [b0, b1) of every position p < count,
// each row of `in` floats cut into pieces of whole blocks: on this thread for
// a small batch (no std::function, no parallel section), else on the
// context's threads.
template <typename Piece>
void for_each_piece(Context& ctx, int64_t count, int64_t in, int64_t block_elems, const Piece& piece) {
    const int64_t blocks = in / block_elems;
    const int64_t blocks_per_task = std::clamp<int64_t>(kFloatsPerTask / block_elems, 1, blocks);
    const int64_t chunks = (blocks + blocks_per_task - 1) / blocks_per_task;
    auto task = [&](int64_t t) {
        const int64_t p = t / chunks;
        const int64_t b0 = (t % chunks) * blocks_per_task;
        piece(p, b0, std::min(blocks, b0 + blocks_per_task));
    };
    const int64_t tasks = count * chunks;
    if (count * in < kParallelFloats) {
        for (int64_t t = 0; t < tasks; ++t) task(t);
    } else {
        ctx.run(tasks, task);
    }
}

// Exact precision over a routed batch: the rows copied to their positions.
PreparedActivations gather_rows(Context& ctx, const BatchRows& rows, int64_t in) {
    float* g = ctx.float_scratch(size_t(checked_mul(rows.count, in, "x_rows * k * in")));
    for_each_piece(ctx, rows.count, in, 1, [&](int64_t p, int64_t c0, int64_t c1) {
        std::memcpy(g + p * in + c0, rows.x_row(rows.source(p)) + c0, size_t(c1 - c0) * sizeof(float));
    });
    return PreparedActivations{g, in, nullptr, 0};
}

}  // namespace

// Adding one to an all-ones exponent carries into the sign bit, and only
// there: and, add and or vectorize. Sixteen independent carries, so that the
// or-chain does not bound the loop (this runs on every activation of every
// fast-precision call).
bool all_finite(const float* p, int64_t n) {
    constexpr int kLanes = 16;
    uint32_t carry[kLanes] = {};
    int64_t k = 0;
    for (; k + kLanes <= n; k += kLanes)
        for (int j = 0; j < kLanes; ++j) {
            uint32_t bits;
            std::memcpy(&bits, p + k + j, sizeof bits);
            carry[j] |= (bits & 0x7f800000u) + 0x00800000u;
        }
    for (; k < n; ++k) {
        uint32_t bits;
        std::memcpy(&bits, p + k, sizeof bits);
        carry[0] |= (bits & 0x7f800000u) + 0x00800000u;
    }
    uint32_t all = 0;
    for (int j = 0; j < kLanes; ++j) all |= carry[j];
    return (all & 0x80000000u) == 0;
}

void refuse_non_finite_activation(int64_t row, int64_t col, const std::string& slot, float value) {
    fail(SKN_E_INVALID_ARGUMENT,
         "activation [{}, {}]{} is {}: fast precision quantizes activations, which cannot represent "
         "non-finite values; use SKN_PRECISION_EXACT to propagate them",
         row, col, slot, value);
}

PreparedActivations prepare_activations(Context& ctx, FormatId act_id, const BatchRows& rows, int64_t in,
                                        bool decode_too) {
    if (act_id == FormatId::F32) {
        if (rows.slot_at != nullptr) return gather_rows(ctx, rows, in);
        return PreparedActivations{rows.call->x, rows.call->x_row_stride, nullptr, 0};
    }
    const FormatTraits& act = *find_format(act_id);
    const int64_t blocks = in / act.block_elems;
    const size_t row_bytes = size_t(blocks) * size_t(act.block_bytes);
    uint8_t* xq = ctx.byte_scratch(size_t(checked_mul<int64_t>(rows.count, int64_t(row_bytes), "the quantized batch")));
    float* xf = decode_too ? ctx.float_scratch(size_t(checked_mul(rows.count, in, "x_rows * k * in"))) : nullptr;
    const QuantizeRowFn quantize = activation_quantizer(act, ctx.isa_cap());

    // Every activation format quantizes block by block (no per-row scale),
    // so a row cut at block boundaries gives the same bytes as a whole row.
    // The first non-finite element as source * in + column; pieces lower it.
    std::atomic<int64_t> first_bad{std::numeric_limits<int64_t>::max()};
    for_each_piece(ctx, rows.count, in, act.block_elems, [&](int64_t p, int64_t b0, int64_t b1) {
        const int64_t k0 = b0 * act.block_elems, k1 = b1 * act.block_elems;
        const int64_t source = rows.source(p);
        const float* row = rows.x_row(source);
        if (!all_finite(row + k0, k1 - k0)) {
            int64_t k = k0;
            while (std::isfinite(row[k])) ++k;
            const int64_t flat = source * in + k;
            int64_t seen = first_bad.load(std::memory_order_relaxed);
            while (flat < seen && !first_bad.compare_exchange_weak(seen, flat, std::memory_order_relaxed)) {
            }
            return;
        }
        uint8_t* q = xq + size_t(p) * row_bytes + size_t(b0) * size_t(act.block_bytes);
        quantize(row + k0, k1 - k0, q);
        if (xf != nullptr) act.decode(q, b1 - b0, 1.0f, xf + p * in + k0);
    });

    if (const int64_t bad = first_bad.load(); bad != std::numeric_limits<int64_t>::max()) {
        const int64_t source = bad / in, col = bad % in;
        const int64_t slots = rows.call->x_slots;
        refuse_non_finite_activation(source / slots, col,
                                     slots > 1 ? fmt::format(" of slot {}", source % slots) : std::string(),
                                     rows.x_row(source)[col]);
    }
    return PreparedActivations{xf, in, xq, row_bytes};
}

}  // namespace skn_core
