// SPDX-License-Identifier: MIT
// The one format table. A row's id is its GGUF type id (or an skn-only id,
// 1000 and up); rows are sorted by id.
#include <algorithm>
#include <array>
#include <cctype>

#include "formats/codecs.hpp"
#include "formats/format.hpp"
#include "formats/interleaved.hpp"

namespace skn_core {
namespace {

using F = FormatId;

// A row's constant facts (name, block size and bytes, activation format)
// come from formats/facts.hpp; this table adds the codec functions.
#define SKN_ROW(ID, C)                                                                                            \
    FormatTraits {                                                                                                \
        F::ID, facts_of(F::ID).name, facts_of(F::ID).block_elems, facts_of(F::ID).block_bytes,                      \
            facts_of(F::ID).tensor_trailer_bytes, facts_of(F::ID).block_quantized, facts_of(F::ID).activation,      \
            ::skn_core::codec::decode_##C, ::skn_core::codec::quantize_row_##C, nullptr, nullptr                    \
    }

// A format whose reference quantizer also reads importance weights.
#define SKN_ROW_WEIGHTED(ID, C)                                                                                   \
    FormatTraits {                                                                                                \
        F::ID, facts_of(F::ID).name, facts_of(F::ID).block_elems, facts_of(F::ID).block_bytes,                      \
            facts_of(F::ID).tensor_trailer_bytes, facts_of(F::ID).block_quantized, facts_of(F::ID).activation,      \
            ::skn_core::codec::decode_##C, ::skn_core::codec::quantize_row_##C, nullptr, nullptr,                   \
            ::skn_core::codec::quantize_row_weighted_##C                                                           \
    }

// A format whose reference quantizer cannot work without importance weights.
#define SKN_ROW_IMPORTANCE_REQUIRED(ID, C)                                                                        \
    FormatTraits {                                                                                                \
        F::ID, facts_of(F::ID).name, facts_of(F::ID).block_elems, facts_of(F::ID).block_bytes,                      \
            facts_of(F::ID).tensor_trailer_bytes, facts_of(F::ID).block_quantized, facts_of(F::ID).activation,      \
            ::skn_core::codec::decode_##C, nullptr, nullptr, nullptr, ::skn_core::codec::quantize_row_weighted_##C \
    }

// A row-interleaved format: the canonical format's bytes, R rows to a
// block (formats/interleaved.cpp); decoded through the canonical decoder,
// quantized by formats/tensor_codec through the canonical quantizer.
#define SKN_ROW_INTERLEAVED(ID, C)                                                                                \
    FormatTraits {                                                                                                \
        F::ID, facts_of(F::ID).name, facts_of(F::ID).block_elems, facts_of(F::ID).block_bytes,                      \
            facts_of(F::ID).tensor_trailer_bytes, facts_of(F::ID).block_quantized, facts_of(F::ID).activation,      \
            ::skn_core::codec::decode_##C, nullptr, nullptr, nullptr, nullptr,                          \
            facts_of(F::ID).block_rows, facts_of(F::ID).interleaves, &::skn_core::codec::kInterleaved_##C            \
    }

constexpr std::array kFormats = {
    SKN_ROW(F32, f32),
    SKN_ROW(F16, f16),
    SKN_ROW_WEIGHTED(Q4_0, q4_0),
    SKN_ROW_WEIGHTED(Q4_1, q4_1),
    SKN_ROW_WEIGHTED(Q5_0, q5_0),
    SKN_ROW_WEIGHTED(Q5_1, q5_1),
    SKN_ROW(Q8_0, q8_0),
    SKN_ROW(Q8_1, q8_1),
    SKN_ROW_WEIGHTED(Q2_K, q2_k),
    SKN_ROW_WEIGHTED(Q3_K, q3_k),
    SKN_ROW_WEIGHTED(Q4_K, q4_k),
    SKN_ROW_WEIGHTED(Q5_K, q5_k),
    SKN_ROW_WEIGHTED(Q6_K, q6_k),
    SKN_ROW(Q8_K, q8_k),
    SKN_ROW_IMPORTANCE_REQUIRED(IQ2_XXS, iq2_xxs),
    SKN_ROW_IMPORTANCE_REQUIRED(IQ2_XS, iq2_xs),
    SKN_ROW_WEIGHTED(IQ3_XXS, iq3_xxs),
    SKN_ROW_IMPORTANCE_REQUIRED(IQ1_S, iq1_s),
    SKN_ROW_WEIGHTED(IQ4_NL, iq4_nl),
    SKN_ROW_WEIGHTED(IQ3_S, iq3_s),
    SKN_ROW_WEIGHTED(IQ2_S, iq2_s),
    SKN_ROW_WEIGHTED(IQ4_XS, iq4_xs),
    SKN_ROW_WEIGHTED(IQ1_M, iq1_m),
    SKN_ROW(BF16, bf16),
    SKN_ROW(TQ1_0, tq1_0),
    SKN_ROW(TQ2_0, tq2_0),
    // I2_S's encoding depends on the whole tensor (one scale in a trailer).
    FormatTraits{F::I2_S, facts_of(F::I2_S).name, facts_of(F::I2_S).block_elems, facts_of(F::I2_S).block_bytes,
                 facts_of(F::I2_S).tensor_trailer_bytes, facts_of(F::I2_S).block_quantized,
                 facts_of(F::I2_S).activation, ::skn_core::codec::decode_i2_s, nullptr,
                 ::skn_core::codec::quantize_tensor_i2_s, ::skn_core::codec::read_tensor_scale_i2_s},
    SKN_ROW(MXFP4, mxfp4),
    SKN_ROW(NVFP4, nvfp4),
    SKN_ROW(Q1_0, q1_0),
    SKN_ROW(Q2_0, q2_0),
    SKN_ROW_INTERLEAVED(Q4_0_R8, q4_0_r8),
    SKN_ROW_INTERLEAVED(Q5_0_R4, q5_0_r4),
    SKN_ROW_INTERLEAVED(Q8_0_R8, q8_0_r8),
    SKN_ROW_INTERLEAVED(Q2_K_R4, q2_k_r4),
    SKN_ROW_INTERLEAVED(Q3_K_R4, q3_k_r4),
    SKN_ROW_INTERLEAVED(Q4_K_R4, q4_k_r4),
    SKN_ROW_INTERLEAVED(Q5_K_R4, q5_k_r4),
    SKN_ROW_INTERLEAVED(Q6_K_R4, q6_k_r4),
    SKN_ROW_INTERLEAVED(IQ2_XXS_R4, iq2_xxs_r4),
    SKN_ROW_INTERLEAVED(IQ2_XS_R4, iq2_xs_r4),
    SKN_ROW_INTERLEAVED(IQ3_XXS_R4, iq3_xxs_r4),
    SKN_ROW_INTERLEAVED(IQ4_NL_R4, iq4_nl_r4),
    SKN_ROW_INTERLEAVED(IQ3_S_R4, iq3_s_r4),
    SKN_ROW_INTERLEAVED(IQ2_S_R4, iq2_s_r4),
    SKN_ROW_INTERLEAVED(IQ4_XS_R8, iq4_xs_r8),
    SKN_ROW_INTERLEAVED(BF16_R16, bf16_r16),
    SKN_ROW_INTERLEAVED(MXFP4_R8, mxfp4_r8),
    // I2_S's codes in bitnet.cpp's arm64 layout; the trailer is I2_S's.
    FormatTraits{F::I2_S_G64, facts_of(F::I2_S_G64).name, facts_of(F::I2_S_G64).block_elems,
                 facts_of(F::I2_S_G64).block_bytes, facts_of(F::I2_S_G64).tensor_trailer_bytes,
                 facts_of(F::I2_S_G64).block_quantized, facts_of(F::I2_S_G64).activation,
                 ::skn_core::codec::decode_i2_s_g64, nullptr, ::skn_core::codec::quantize_tensor_i2_s_g64,
                 ::skn_core::codec::read_tensor_scale_i2_s},
};

#undef SKN_ROW
#undef SKN_ROW_WEIGHTED
#undef SKN_ROW_IMPORTANCE_REQUIRED
#undef SKN_ROW_INTERLEAVED

constexpr bool sorted_by_id() {
    for (size_t i = 1; i < kFormats.size(); ++i)
        if (static_cast<int32_t>(kFormats[i - 1].id) >= static_cast<int32_t>(kFormats[i].id)) return false;
    return true;
}
static_assert(sorted_by_id(), "format rows must be sorted by GGUF id");
static_assert(kFormats.size() == std::size(kFormatFacts), "every format with facts has a codec row, and no other");

}  // namespace

std::span<const FormatTraits> all_formats() { return kFormats; }

const FormatTraits* find_format(int32_t id) {
    auto it = std::lower_bound(kFormats.begin(), kFormats.end(), id,
                               [](const FormatTraits& f, int32_t v) { return static_cast<int32_t>(f.id) < v; });
    return (it != kFormats.end() && static_cast<int32_t>(it->id) == id) ? &*it : nullptr;
}

bool FormatTraits::requires_importance() const {
    if (interleaved()) return find_format(static_cast<int32_t>(interleaves))->requires_importance();
    return quantize_row == nullptr && quantize_tensor == nullptr && quantize_row_weighted != nullptr;
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
