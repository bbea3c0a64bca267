// SPDX-License-Identifier: MIT
// Q2_K Q3_K Q4_K Q5_K Q6_K Q8_K: 256-element super-blocks split into 16 or
// 32 sub-blocks whose scales (and mins) are themselves quantized against one
// or two fp16 super-block scales. Byte layouts and algorithms are described in
// docs/formats/k_quants.md; the quantizers are the reference encoders without
// an importance matrix and must stay byte-identical to them.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "formats/codecs.hpp"
#include "formats/half.hpp"
#include "formats/k_quants_layout.hpp"
#include "formats/k_quants_search.hpp"

namespace skn_core::codec {

namespace {

using kquant::round_to_int;

using namespace kblock;

// ---------------------------------------------------------------------------
// Q4_K / Q5_K quantization: both fit eight 32-element sub-blocks with an
// affine model, then quantize the sub-block scales and mins to 6 bits.

struct AffineFormat {
    int nmax;                    // largest code: 15 (Q4_K) or 31 (Q5_K)
    kquant::AffineSweep sweep;  // how hard the per-sub-block search tries
};

// Fills header bytes d, dmin and the 12 packed scale bytes at `block`, and
// the 256 final codes.
void quantize_affine_32(const float* x, const AffineFormat& fmt, uint8_t* block, uint8_t* codes) {
    float scales[8];
    float mins[8];
    float max_scale = 0.0f;
    float max_min = 0.0f;
    for (int j = 0; j < 8; ++j) {
        const float* xs = x + 32 * j;
        // Weight each element by its magnitude plus the sub-block's RMS, so
        // small values still count.
        float sum_x2 = 0.0f;
        for (int l = 0; l < 32; ++l) sum_x2 += xs[l] * xs[l];
        const float rms = std::sqrt(sum_x2 / 32.0f);
        float weights[32];
        for (int l = 0; l < 32; ++l) weights[l] = rms + std::fabs(xs[l]);
        scales[j] = kquant::fit_affine(32, fmt.nmax, xs, weights, fmt.sweep, codes + 32 * j, &mins[j]);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }

    const float inv_scale = max_scale > 0.0f ? 63.0f / max_scale : 0.0f;
    const float inv_min = max_min > 0.0f ? 63.0f / max_min : 0.0f;
    uint8_t q_scales[8];
    uint8_t q_mins[8];
    for (int j = 0; j < 8; ++j) {
        // The truncation to 8 bits before the clamp is the reference's.
        q_scales[j] = std::min<uint8_t>(63, uint8_t(round_to_int(inv_scale * scales[j])));
        q_mins[j] = std::min<uint8_t>(63, uint8_t(round_to_int(inv_min * mins[j])));
    }
    pack_scale_mins(q_scales, q_mins, block + q4k::kScales);
    store_fp16(block + q4k::kD, max_scale / 63.0f);
    store_fp16(block + q4k::kDmin, max_min / 63.0f);

    // Re-derive the codes against the scales as actually stored; a sub-block
    // whose stored scale is zero keeps the codes its search produced.
    const float d = load_fp16(block + q4k::kD);
    const float dmin = load_fp16(block + q4k::kDmin);
    for (int j = 0; j < 8; ++j) {
        const ScaleMin sm = unpack_scale_min(block + q4k::kScales, j);
        const float step = d * float(sm.scale);
        if (step == 0.0f) continue;
        const float offset = dmin * float(sm.min);
        for (int l = 0; l < 32; ++l)
            codes[32 * j + l] = uint8_t(clamp_int(round_to_int((x[32 * j + l] + offset) / step), 0, fmt.nmax));
    }
}

// Decode eight 32-element affine sub-blocks: x = d*scale*q - dmin*min.
template <typename CodeAt>
void decode_affine_32(const uint8_t* block, float* dst, CodeAt code_at) {
    const float d = load_fp16(block + q4k::kD);
    const float dmin = load_fp16(block + q4k::kDmin);
    for (int j = 0; j < 8; ++j) {
        const ScaleMin sm = unpack_scale_min(block + q4k::kScales, j);
        const float step = d * float(sm.scale);
        const float offset = dmin * float(sm.min);
        for (int l = 0; l < 32; ++l) {
            const int e = 32 * j + l;
            dst[e] = step * float(code_at(e)) - offset;
        }
    }
}

}  // namespace

// ===========================================================================
// Q2_K: { u8 scales[16]; u8 qs[64]; fp16 d; fp16 dmin; }
// x = d * (scales[j] & 15) * q - dmin * (scales[j] >> 4), j = e / 16

void decode_q2_k(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += q2k::kBytes, dst += kSuper) {
        const float d = load_fp16(src + q2k::kD);
        const float dmin = load_fp16(src + q2k::kDmin);
        for (int j = 0; j < 16; ++j) {
            const uint8_t sc = src[q2k::kScales + j];
            const float step = d * float(sc & 0xF);
            const float offset = dmin * float(sc >> 4);
            for (int l = 0; l < 16; ++l) {
                const int e = 16 * j + l;
                dst[e] = step * float(two_bit_field(src + q2k::kQs, e)) - offset;
            }
        }
    }
}

void quantize_row_q2_k(const float* src, int64_t n, uint8_t* dst) {
    constexpr kquant::AffineSweep kSweep{-0.5f, 0.1f, 15, true};
    constexpr float kLevels = 15.0f;  // sub-block scales and mins are 4-bit
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, dst += q2k::kBytes) {
        uint8_t codes[kSuper];
        float scales[16];
        float mins[16];
        float max_scale = 0.0f;
        float max_min = 0.0f;
        for (int j = 0; j < 16; ++j) {
            const float* xs = src + 16 * j;
            float weights[16];
            for (int l = 0; l < 16; ++l) weights[l] = std::fabs(xs[l]);
            scales[j] = kquant::fit_affine(16, 3, xs, weights, kSweep, codes + 16 * j, &mins[j]);
            if (scales[j] > max_scale) max_scale = scales[j];
            if (mins[j] > max_min) max_min = mins[j];
        }

        uint8_t* packed = dst + q2k::kScales;
        if (max_scale > 0.0f) {
            const float inv = kLevels / max_scale;
            for (int j = 0; j < 16; ++j) packed[j] = uint8_t(round_to_int(inv * scales[j]));
            store_fp16(dst + q2k::kD, max_scale / kLevels);
        } else {
            std::memset(packed, 0, 16);
            store_fp16(dst + q2k::kD, 0.0f);
        }
        if (max_min > 0.0f) {
            const float inv = kLevels / max_min;
            for (int j = 0; j < 16; ++j) packed[j] |= uint8_t(unsigned(round_to_int(inv * mins[j])) << 4);
            store_fp16(dst + q2k::kDmin, max_min / kLevels);
        } else {
            store_fp16(dst + q2k::kDmin, 0.0f);
        }

        // Re-derive codes against the stored scales (zero-scale sub-blocks keep theirs).
        const float d = load_fp16(dst + q2k::kD);
        const float dmin = load_fp16(dst + q2k::kDmin);
        for (int j = 0; j < 16; ++j) {
            const float step = d * float(packed[j] & 0xF);
            if (step == 0.0f) continue;
            const float offset = dmin * float(packed[j] >> 4);
            for (int l = 0; l < 16; ++l)
                codes[16 * j + l] = uint8_t(clamp_int(round_to_int((src[16 * j + l] + offset) / step), 0, 3));
        }
        pack_two_bit_fields(codes, dst + q2k::kQs);
    }
}

// ===========================================================================
// Q3_K: { u8 hmask[32]; u8 qs[64]; u8 scales[12]; fp16 d; }
// x = d * (scale6[j] - 32) * (q2 + 4*hbit - 4), j = e / 16

void decode_q3_k(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += q3k::kBytes, dst += kSuper) {
        const float d = load_fp16(src + q3k::kD);
        for (int j = 0; j < 16; ++j) {
            const float step = d * float(unpack_q3_scale(src + q3k::kScales, j));
            for (int l = 0; l < 16; ++l) {
                const int e = 16 * j + l;
                const int q = int(two_bit_field(src + q3k::kQs, e)) - (mask_bit(src + q3k::kHmask, e) ? 0 : 4);
                dst[e] = step * float(q);
            }
        }
    }
}

void quantize_row_q3_k(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, dst += q3k::kBytes) {
        int8_t codes[kSuper];  // 0..7 once final
        float scales[16];
        float max_scale = 0.0f;  // the signed scale of largest magnitude
        float max_abs = 0.0f;
        for (int j = 0; j < 16; ++j) {
            scales[j] = kquant::fit_symmetric_refine(16, 4, src + 16 * j, codes + 16 * j);
            const float a = std::fabs(scales[j]);
            if (a > max_abs) {
                max_abs = a;
                max_scale = scales[j];
            }
        }

        uint8_t* packed = dst + q3k::kScales;
        std::memset(packed, 0, 12);
        if (max_scale != 0.0f) {
            // Map the largest scale to -32 so its sign folds into the super-block scale.
            const float inv = -32.0f / max_scale;
            for (int j = 0; j < 16; ++j) {
                const int8_t l = int8_t(round_to_int(inv * scales[j]));  // 8-bit truncation as in the reference
                pack_q3_scale(packed, j, uint8_t(clamp_int(l, -32, 31) + 32));
            }
            store_fp16(dst + q3k::kD, 1.0f / inv);
        } else {
            store_fp16(dst + q3k::kD, 0.0f);
        }

        const float d = load_fp16(dst + q3k::kD);
        for (int j = 0; j < 16; ++j) {
            const float step = d * float(unpack_q3_scale(packed, j));
            if (step == 0.0f) continue;
            for (int l = 0; l < 16; ++l)
                codes[16 * j + l] = int8_t(clamp_int(round_to_int(src[16 * j + l] / step), -4, 3) + 4);
        }

        pack_q3_k_codes(codes, dst + q3k::kHmask, dst + q3k::kQs);
    }
}

// ===========================================================================
// Q4_K: { fp16 d; fp16 dmin; u8 scales[12]; u8 qs[128]; }
// x = d * scale6[j] * q4 - dmin * min6[j], j = e / 32

void decode_q4_k(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += q4k::kBytes, dst += kSuper) {
        const uint8_t* qs = src + q4k::kQs;
        decode_affine_32(src, dst, [qs](int e) { return nibble_field(qs, e); });
    }
}

void quantize_row_q4_k(const float* src, int64_t n, uint8_t* dst) {
    constexpr AffineFormat kFormat{15, {-1.0f, 0.1f, 20, false}};
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, dst += q4k::kBytes) {
        uint8_t codes[kSuper];
        quantize_affine_32(src, kFormat, dst, codes);
        pack_q4_k_codes(codes, dst + q4k::kQs);
    }
}

// ===========================================================================
// Q5_K: { fp16 d; fp16 dmin; u8 scales[12]; u8 qh[32]; u8 qs[128]; }
// x = d * scale6[j] * (q4 + 16*hbit) - dmin * min6[j], j = e / 32

void decode_q5_k(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += q5k::kBytes, dst += kSuper) {
        const uint8_t* qs = src + q5k::kQs;
        const uint8_t* qh = src + q5k::kQh;
        decode_affine_32(src, dst, [qs, qh](int e) { return nibble_field(qs, e) + (mask_bit(qh, e) ? 16 : 0); });
    }
}

void quantize_row_q5_k(const float* src, int64_t n, uint8_t* dst) {
    constexpr AffineFormat kFormat{31, {-0.5f, 0.1f, 15, false}};
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, dst += q5k::kBytes) {
        uint8_t codes[kSuper];
        quantize_affine_32(src, kFormat, dst, codes);
        pack_q5_k_codes(codes, dst + q5k::kQh, dst + q5k::kQs);
    }
}

// ===========================================================================
// Q6_K: { u8 ql[128]; u8 qh[64]; i8 scales[16]; fp16 d; }
// x = d * scales[j] * (q6 - 32), j = e / 16. Within each 128-element half,
// element 32*k + l has its low nibble in ql[64*half + l + 32*(k & 1)]
// (low nibble for k < 2, high for k >= 2) and its top two bits in the
// 2-bit plane qh (same arrangement as Q2_K's qs).

namespace {

uint8_t q6_code(const uint8_t* block, int e) {
    const int half = e / 128, k = (e % 128) / 32, l = e % 32;
    const uint8_t byte = block[q6k::kQl + 64 * half + 32 * (k & 1) + l];
    const uint8_t low = k < 2 ? uint8_t(byte & 0xF) : uint8_t(byte >> 4);
    return uint8_t(low | (two_bit_field(block + q6k::kQh, e) << 4));
}

}  // namespace

void decode_q6_k(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += q6k::kBytes, dst += kSuper) {
        const float d = load_fp16(src + q6k::kD);
        for (int e = 0; e < kSuper; ++e) {
            const int8_t sc = int8_t(src[q6k::kScales + e / 16]);
            dst[e] = d * float(sc) * float(int(q6_code(src, e)) - 32);
        }
    }
}

namespace {
// With importance weights the reference weighs each sub-block's scale search
// by the importance itself (x^2 without), and nothing else changes.
void quantize_q6_k(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, dst += q6k::kBytes) {
        int8_t codes[kSuper];  // 0..63
        float scales[16];
        float max_scale = 0.0f;
        float max_abs = 0.0f;
        for (int j = 0; j < 16; ++j) {
            const float* weights = importance != nullptr ? importance + b * kSuper + 16 * j : nullptr;
            scales[j] = kquant::fit_symmetric_sweep(16, 32, src + 16 * j, codes + 16 * j, weights);
            const float a = std::fabs(scales[j]);
            if (a > max_abs) {
                max_abs = a;
                max_scale = scales[j];
            }
        }
        if (max_abs < kquant::kAllZeroBelow) {
            std::memset(dst, 0, q6k::kBytes);
            continue;
        }

        const float inv = -128.0f / max_scale;
        store_fp16(dst + q6k::kD, 1.0f / inv);
        for (int j = 0; j < 16; ++j)
            dst[q6k::kScales + j] = uint8_t(int8_t(std::min(127, round_to_int(inv * scales[j]))));

        const float d = load_fp16(dst + q6k::kD);
        for (int j = 0; j < 16; ++j) {
            const float step = d * float(int8_t(dst[q6k::kScales + j]));
            if (step == 0.0f) continue;
            for (int l = 0; l < 16; ++l)
                codes[16 * j + l] = int8_t(clamp_int(round_to_int(src[16 * j + l] / step), -32, 31) + 32);
        }

        uint8_t high[kSuper];
        for (int half = 0; half < 2; ++half) {
            const int8_t* c = codes + 128 * half;
            uint8_t* ql = dst + q6k::kQl + 64 * half;
            for (int l = 0; l < 32; ++l) {
                ql[l] = uint8_t((c[l] & 0xF) | ((c[l + 64] & 0xF) << 4));
                ql[l + 32] = uint8_t((c[l + 32] & 0xF) | ((c[l + 96] & 0xF) << 4));
            }
        }
        for (int e = 0; e < kSuper; ++e) high[e] = uint8_t(codes[e] >> 4);
        pack_two_bit_fields(high, dst + q6k::kQh);
    }
}
}  // namespace

void quantize_row_q6_k(const float* src, int64_t n, uint8_t* dst) { quantize_q6_k(src, n, dst, nullptr); }

void quantize_row_weighted_q6_k(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_q6_k(src, n, dst, importance);
}

// ===========================================================================
// Q8_K: { f32 d; i8 qs[256]; i16 bsums[16]; }   x = d * q
// bsums[j] is the sum of codes 16j .. 16j+15 (used by integer dot products).

void decode_q8_k(const uint8_t* src, int64_t nblocks, float, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += q8k::kBytes, dst += kSuper) {
        const float d = load_f32le(src + q8k::kD);
        for (int e = 0; e < kSuper; ++e) dst[e] = d * float(int8_t(src[q8k::kQs + e]));
    }
}

void quantize_row_q8_k(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t b = 0; b < n / kSuper; ++b, src += kSuper, dst += q8k::kBytes) {
        float max = 0.0f;
        float amax = 0.0f;
        for (int e = 0; e < kSuper; ++e) {
            const float a = std::fabs(src[e]);
            if (a > amax) {
                amax = a;
                max = src[e];
            }
        }
        if (amax == 0.0f) {
            // The reference leaves bsums unwritten here; zero is their true value.
            std::memset(dst, 0, q8k::kBytes);
            continue;
        }
        // -127 rather than -128: codes stay in [-127, 127] so integer kernels
        // can negate them freely.
        const float inv = -127.0f / max;
        int8_t* qs = reinterpret_cast<int8_t*>(dst + q8k::kQs);
        for (int e = 0; e < kSuper; ++e) qs[e] = int8_t(std::min(127, round_to_int(inv * src[e])));
        for (int j = 0; j < 16; ++j) {
            int sum = 0;
            for (int l = 0; l < 16; ++l) sum += qs[16 * j + l];
            store_u16le(dst + q8k::kBsums + 2 * j, uint16_t(int16_t(sum)));
        }
        store_f32le(dst + q8k::kD, 1.0f / inv);
    }
}

}  // namespace skn_core::codec
