// SPDX-License-Identifier: MIT
#include "support/low_bit_contract.hpp"

#include <cmath>
#include <cstring>

#include "formats/half.hpp"
#include "layout/prepack.hpp"

namespace skn_core::test {
namespace {

constexpr int64_t kQ8kBytes = 292, kQ80Bytes = 34;

// I2_S in either layout (I2_S, I2_S_G64): one scale per tensor, in the trailer.
bool per_tensor_scale(const FormatTraits& f) { return f.tensor_trailer_bytes > 0; }

// The block's values as exact small integers: TQ, Q1_0 and Q2_0 with d = 1,
// I2_S (either layout) with tensor scale 1 (code - 1; TQ2_0's and Q2_0's code 3 is +2,
// I2_S's 0; Q1_0's bits +-1).
void block_values(const FormatTraits& f, const uint8_t* blk, int* values) {
    std::vector<uint8_t> b(blk, blk + f.block_bytes);
    if (!per_tensor_scale(f)) store_fp16(b.data() + ternary_d_at(f.id), 1.0f);
    float v[256];
    f.decode(b.data(), 1, 1.0f, v);
    for (int64_t e = 0; e < f.block_elems; ++e) values[e] = int(v[e]);
}

// Contract lane of element e of a unit: positions 4j .. 4j + 3 of every 32
// are lane j; Q2_0 (x86 avx2's k-major order) puts element 16h + 4j + k of
// every 32 into lane 4h + k.
int lane_of(FormatId f, int64_t e) {
    if (f == FormatId::Q2_0) return int(4 * ((e % 32) / 16) + e % 4);
    return int((e % 32) / 4);
}

}  // namespace

int ternary_d_at(FormatId f) {
    switch (f) {
        case FormatId::TQ2_0: return 64;
        case FormatId::TQ1_0: return 52;
        default: return 0;  // Q1_0, Q2_0 (I2_S has no per-block scale)
    }
}

std::vector<float> low_bit_contract_y(const FormatTraits& f, const uint8_t* rm, int64_t out, int64_t in,
                                      const std::vector<float>& x, int64_t n, const float* bias, float tensor_scale) {
    const FormatTraits& act = *find_format(f.activation);
    const bool q8k = f.activation == FormatId::Q8_K;
    const int64_t unit = q8k ? 256 : 32;  // elements per float step
    const int64_t unit_bytes = q8k ? kQ8kBytes : kQ80Bytes;
    const int64_t units = in / unit;
    std::vector<uint8_t> xq(size_t(n * units * unit_bytes));
    for (int64_t i = 0; i < n; ++i) act.quantize_row(x.data() + i * in, in, xq.data() + i * units * unit_bytes);
    std::vector<float> y(size_t(n * out));
    std::vector<int> values(static_cast<size_t>(in));
    for (int64_t o = 0; o < out; ++o) {
        const uint8_t* row = rm + o * (in / f.block_elems) * f.block_bytes;
        for (int64_t b = 0; b < in / f.block_elems; ++b)
            block_values(f, row + b * f.block_bytes, values.data() + b * f.block_elems);
        for (int64_t i = 0; i < n; ++i) {
            float acc[8] = {};
            for (int64_t u = 0; u < units; ++u) {
                const uint8_t* xb = xq.data() + (i * units + u) * unit_bytes;
                const uint8_t* q = xb + (q8k ? 4 : 2);
                int64_t lane[8] = {};
                for (int64_t e = 0; e < unit; ++e)
                    lane[lane_of(f.id, e)] += int64_t(values[size_t(u * unit + e)]) * int8_t(q[e]);
                float scale;
                if (q8k) {
                    float dx;
                    std::memcpy(&dx, xb, 4);
                    scale = load_fp16(row + u * f.block_bytes + ternary_d_at(f.id)) * dx;
                } else if (per_tensor_scale(f)) {
                    scale = load_fp16(xb);
                } else {  // Q1_0, Q2_0: the unit's weight block holds d_w
                    scale = load_fp16(xb) * load_fp16(row + (u * unit / f.block_elems) * f.block_bytes);
                }
                for (int j = 0; j < 8; ++j) acc[j] = std::fma(float(lane[j]), scale, acc[j]);
            }
            float s[4];
            for (int k = 0; k < 4; ++k) s[k] = acc[k] + acc[k + 4];
            float sum = (s[0] + s[2]) + (s[1] + s[3]);
            if (per_tensor_scale(f)) sum = sum * tensor_scale;
            y[size_t(i * out + o)] = bias != nullptr ? sum + bias[o] : sum;
        }
    }
    return y;
}

bool ternary_view(const FormatTraits& f, std::vector<uint8_t>& rm, int64_t out, int64_t in, LayoutClass cls,
                  float tensor_scale, Scope* scope, View* v) {
    if (per_tensor_scale(f)) std::memcpy(rm.data() + size_t(out * in / 4), &tensor_scale, 4);
    const int64_t shape[2] = {out, in};
    *v = make_view(rm.data(), rm.size(), f, shape, 2, BlockOrder::RowMajor);
    if (cls == LayoutClass::BlockedInputMajor) {
        View packed;
        if (!prepack(*v, BlockOrder::InputBlockMajor, scope, TraceSink{}, &packed)) return false;
        *v = packed;
    }
    return v->layout.layout_class() == cls;
}

}  // namespace skn_core::test
