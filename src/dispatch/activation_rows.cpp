// SPDX-License-Identifier: MIT
#include "dispatch/activation_rows.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "dispatch/activation_quant.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

// Below this many floats per call a second parallel section costs more than
// it saves (a GEMV row of 4096 quantizes in about a microsecond).
constexpr int64_t kParallelFloats = int64_t(1) << 16;
// Floats one task quantizes: large enough to amortise the dispatch, small
// enough that a few rows still split over two threads.
constexpr int64_t kFloatsPerTask = int64_t(1) << 14;

}  // namespace

// Adding one to an all-ones exponent carries into the sign bit, and only
// there: and, add and or vectorize.
bool all_finite(const float* p, int64_t n) {
    uint32_t carry = 0;
    for (int64_t k = 0; k < n; ++k) {
        uint32_t bits;
        std::memcpy(&bits, p + k, sizeof bits);
        carry |= (bits & 0x7f800000u) + 0x00800000u;
    }
    return (carry & 0x80000000u) == 0;
}

void refuse_non_finite_activation(int64_t row, int64_t col, const std::string& slot, float value) {
    fail(SKN_E_INVALID_ARGUMENT,
         "activation [{}, {}]{} is {}: fast precision quantizes activations, which cannot represent "
         "non-finite values; use SKN_PRECISION_EXACT to propagate them",
         row, col, slot, value);
}

QuantizedActivations quantize_activations(Context& ctx, const FormatTraits& act, const float* x, int64_t n,
                                          int64_t x_stride, int64_t in, bool decode_too) {
    const int64_t blocks = in / act.block_elems;
    const size_t row_bytes = size_t(blocks) * size_t(act.block_bytes);
    uint8_t* xq = ctx.byte_scratch(row_bytes * size_t(n));
    float* xf = decode_too ? ctx.float_scratch(size_t(n * in)) : nullptr;
    const QuantizeRowFn quantize = activation_quantizer(act, ctx.isa_cap());

    // Every activation format quantizes block by block (no per-row scale),
    // so a row cut at block boundaries gives the same bytes as a whole row.
    const int64_t blocks_per_task = std::clamp<int64_t>(kFloatsPerTask / act.block_elems, 1, blocks);
    const int64_t chunks = (blocks + blocks_per_task - 1) / blocks_per_task;
    // The first non-finite element as a flat index i * in + k; tasks lower it.
    std::atomic<int64_t> first_bad{std::numeric_limits<int64_t>::max()};

    auto task = [&](int64_t t) {
        const int64_t i = t / chunks;
        const int64_t b0 = (t % chunks) * blocks_per_task, b1 = std::min(blocks, b0 + blocks_per_task);
        const int64_t k0 = b0 * act.block_elems, k1 = b1 * act.block_elems;
        const float* row = x + i * x_stride;
        if (!all_finite(row + k0, k1 - k0)) {
            int64_t k = k0;
            while (std::isfinite(row[k])) ++k;
            const int64_t flat = i * in + k;
            int64_t seen = first_bad.load(std::memory_order_relaxed);
            while (flat < seen && !first_bad.compare_exchange_weak(seen, flat, std::memory_order_relaxed)) {
            }
            return;
        }
        uint8_t* q = xq + size_t(i) * row_bytes + size_t(b0) * size_t(act.block_bytes);
        quantize(row + k0, k1 - k0, q);
        if (xf != nullptr) act.decode(q, b1 - b0, 1.0f, xf + i * in + k0);
    };
    const int64_t tasks = n * chunks;
    if (n * in < kParallelFloats) {
        for (int64_t t = 0; t < tasks; ++t) task(t);
    } else {
        ctx.run(tasks, task);
    }

    if (const int64_t bad = first_bad.load(); bad != std::numeric_limits<int64_t>::max()) {
        const int64_t i = bad / in, k = bad % in;
        refuse_non_finite_activation(i, k, "", x[i * x_stride + k]);
    }
    return QuantizedActivations{xq, row_bytes, xf};
}

}  // namespace skn_core
