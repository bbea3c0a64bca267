// SPDX-License-Identifier: MIT
// The one format table. A row's id is its GGUF type id; rows are sorted by id.
#include <algorithm>
#include <array>
#include <cctype>

#include "formats/codecs.hpp"
#include "formats/format.hpp"

namespace skn_core {
namespace {

using F = FormatId;

#define SKN_ROW(ID, NAME, ELEMS, BYTES, QUANTIZED, ACT, C)                                                   \
    FormatTraits {                                                                                            \
        F::ID, NAME, ELEMS, BYTES, 0, QUANTIZED, F::ACT, ::skn_core::codec::decode_##C, ::skn_core::codec::quantize_row_##C, \
            nullptr, nullptr                                                                                  \
    }

// The activation column says which format integer kernels quantize the
// activations to (the pairing the GGUF ecosystem uses), so a kernel and its
// activation quantizer agree on block size and scale layout.
constexpr std::array kFormats = {
    SKN_ROW(F32, "F32", 1, 4, false, F32, f32),
    SKN_ROW(F16, "F16", 1, 2, false, F16, f16),
    SKN_ROW(Q4_0, "Q4_0", 32, 18, true, Q8_0, q4_0),
    SKN_ROW(Q4_1, "Q4_1", 32, 20, true, Q8_1, q4_1),
    SKN_ROW(Q5_0, "Q5_0", 32, 22, true, Q8_0, q5_0),
    SKN_ROW(Q5_1, "Q5_1", 32, 24, true, Q8_1, q5_1),
    SKN_ROW(Q8_0, "Q8_0", 32, 34, true, Q8_0, q8_0),
    SKN_ROW(Q8_1, "Q8_1", 32, 36, true, Q8_1, q8_1),
    SKN_ROW(Q2_K, "Q2_K", 256, 84, true, Q8_K, q2_k),
    SKN_ROW(Q3_K, "Q3_K", 256, 110, true, Q8_K, q3_k),
    SKN_ROW(Q4_K, "Q4_K", 256, 144, true, Q8_K, q4_k),
    SKN_ROW(Q5_K, "Q5_K", 256, 176, true, Q8_K, q5_k),
    SKN_ROW(Q6_K, "Q6_K", 256, 210, true, Q8_K, q6_k),
    SKN_ROW(Q8_K, "Q8_K", 256, 292, true, Q8_K, q8_k),
    SKN_ROW(IQ4_NL, "IQ4_NL", 32, 18, true, Q8_0, iq4_nl),
    SKN_ROW(IQ4_XS, "IQ4_XS", 256, 136, true, Q8_K, iq4_xs),
    SKN_ROW(BF16, "BF16", 1, 2, false, BF16, bf16),
    SKN_ROW(TQ1_0, "TQ1_0", 256, 54, true, Q8_K, tq1_0),
    SKN_ROW(TQ2_0, "TQ2_0", 256, 66, true, Q8_K, tq2_0),
    // I2_S: 128 2-bit codes in 32 bytes; one float32 scale per tensor follows
    // the codes, padded to 32 bytes as bitnet.cpp writes it.
    FormatTraits{F::I2_S, "I2_S", 128, 32, 32, true, F::Q8_0, ::skn_core::codec::decode_i2_s, nullptr,
                 ::skn_core::codec::quantize_tensor_i2_s, ::skn_core::codec::read_tensor_scale_i2_s},
    SKN_ROW(MXFP4, "MXFP4", 32, 17, true, Q8_0, mxfp4),
    SKN_ROW(NVFP4, "NVFP4", 64, 36, true, Q8_0, nvfp4),
    SKN_ROW(Q1_0, "Q1_0", 128, 18, true, Q8_0, q1_0),
    SKN_ROW(Q2_0, "Q2_0", 64, 18, true, Q8_0, q2_0),
};

#undef SKN_ROW

constexpr bool sorted_by_id() {
    for (size_t i = 1; i < kFormats.size(); ++i)
        if (static_cast<int32_t>(kFormats[i - 1].id) >= static_cast<int32_t>(kFormats[i].id)) return false;
    return true;
}
static_assert(sorted_by_id(), "format rows must be sorted by GGUF id");

}  // namespace

std::span<const FormatTraits> all_formats() { return kFormats; }

const FormatTraits* find_format(int32_t id) {
    auto it = std::lower_bound(kFormats.begin(), kFormats.end(), id,
                               [](const FormatTraits& f, int32_t v) { return static_cast<int32_t>(f.id) < v; });
    return (it != kFormats.end() && static_cast<int32_t>(it->id) == id) ? &*it : nullptr;
}

const FormatTraits* find_format_by_name(const char* name) {
    if (name == nullptr) return nullptr;
    for (const auto& f : kFormats) {
        const char* a = f.name;
        const char* b = name;
        while (*a && *b && std::toupper(static_cast<unsigned char>(*a)) == std::toupper(static_cast<unsigned char>(*b))) {
            ++a;
            ++b;
        }
        if (*a == 0 && *b == 0) return &f;
    }
    return nullptr;
}

}  // namespace skn_core
