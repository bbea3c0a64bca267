// SPDX-License-Identifier: MIT
// IQ3_XXS and IQ3_S: each group of 4 elements is one point of a fixed grid
// (256 or 512 points of 4 odd magnitudes), stored as its index, plus sign
// bits and a 4-bit scale per 32 elements. Layouts and the quantizer's search:
// docs/formats/grid_iq3.md. The float operations below follow the reference's
// order one by one (this file is built with -ffp-contract=off): the bytes a
// quantizer writes must be the reference's, so do not reassociate.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "formats/codecs.hpp"
#include "formats/grid_iq3_search.hpp"
#include "formats/grid_iq3_tables.hpp"
#include "formats/grid_signs.hpp"
#include "formats/half.hpp"
#include "formats/le_bytes.hpp"

namespace skn_core::codec {

namespace {

constexpr int kSuperBlock = 256;
constexpr int kSub = 32;                       // elements per scale
constexpr int kSubs = kSuperBlock / kSub;      // 8
constexpr int kGroupsPerSub = kSub / 4;        // grid points per scale
constexpr int kXxsBytes = 98;
constexpr int kSBytes = 110;
// IQ3_S block: d, then these byte offsets.
constexpr int kSQs = 2, kSQh = 66, kSSigns = 74, kSScales = 106;

uint8_t grid_byte(uint32_t point, int j) { return uint8_t(point >> (8 * j)); }

// Round to nearest, ties to even, through the float mantissa: total (NaN and
// infinities give defined values), exactly as the reference computes it.
int round_via_mantissa(float v) {
    const float shifted = v + 12582912.0f;
    return int(std::bit_cast<uint32_t>(shifted) & 0x007FFFFFu) - 0x00400000;
}
int clamp_level(int l, int hi) { return l < 0 ? 0 : (l > hi ? hi : l); }
float max_of(float a, float b) { return a > b ? a : b; }

// How the two formats' searches differ (the reference's choices).
struct Variant {
    int scale_tries;          // candidate inverse scales (15 + t/5) / max for t in [-tries, tries]
    bool assume_on_grid;      // a group's state before any candidate wins
    bool refit_on_grid;       // the final pass re-picks groups already on the grid
};
constexpr Variant kXxsSearch{15, true, false};
constexpr Variant kSSearch{9, false, true};

// Level of x under inverse scale id: the nearest odd integer 2l + 1 to id * x.
int level_of(float id, float x) { return clamp_level(round_via_mantissa(0.5f * (id * x - 1)), 7); }

uint16_t pack_levels(const int8_t* L) {
    uint16_t u = 0;
    for (int i = 0; i < 4; ++i) u = uint16_t(u | (L[i] << (3 * i)));
    return u;
}

// Fit one 32-element sub-block of magnitudes xval (largest `max` > 0) to the
// grid: try each candidate scale, snapping every group of 4 to the grid (its
// nearest grid neighbour under the weights when the rounded point is off the
// grid), keep the candidate with the largest sum(w x q)^2 / sum(w q^2); then
// re-snap off-grid groups at the winning scale and refit the scale. Returns
// the scale; L gets the levels (always a grid point per group).
float fit_sub_block(const Iq3Search& s, const Variant& v, const float* xval, const float* weight, const float* waux,
                    float max, int8_t* L) {
    int8_t Laux[kSub];
    bool on_grid[kGroupsPerSub];
    bool on_grid_aux[kGroupsPerSub];
    float best = 0;
    float scale = max / 15;
    for (bool& g : on_grid) g = v.assume_on_grid;
    for (int is = -v.scale_tries; is <= v.scale_tries; ++is) {
        const float id = (15 + float(is) * 0.2f) / max;
        const float this_scale = 1 / id;
        for (int k = 0; k < kGroupsPerSub; ++k) {
            for (int i = 0; i < 4; ++i) Laux[4 * k + i] = int8_t(level_of(id, xval[4 * k + i]));
            const uint16_t u = pack_levels(Laux + 4 * k);
            on_grid_aux[k] = s.index_of[u] >= 0;
            if (!on_grid_aux[k]) iq3_best_neighbour(s, u, xval + 4 * k, waux + 4 * k, this_scale, Laux + 4 * k);
        }
        float sumqx = 0, sumq2 = 0;
        for (int i = 0; i < kSub; ++i) {
            const float w = weight[i];
            const float q = float(2 * Laux[i] + 1);
            sumqx += w * xval[i] * q;
            sumq2 += w * q * q;
        }
        if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
            scale = sumqx / sumq2;
            best = scale * sumqx;
            std::memcpy(L, Laux, kSub);
            std::memcpy(on_grid, on_grid_aux, sizeof(on_grid));
        }
    }
    int off_grid = 0;
    for (bool g : on_grid) off_grid += g ? 0 : 1;
    if (off_grid > 0 && scale > 0) {
        const float id = 1 / scale;
        for (int k = 0; k < kGroupsPerSub; ++k) {
            if (!v.refit_on_grid && on_grid[k]) continue;
            int8_t l[4];
            for (int i = 0; i < 4; ++i) l[i] = int8_t(level_of(id, xval[4 * k + i]));
            const uint16_t u = pack_levels(l);
            int index = s.index_of[u];
            if (index < 0) index = iq3_best_neighbour(s, u, xval + 4 * k, waux + 4 * k, scale, L + 4 * k);
            for (int i = 0; i < 4; ++i) L[4 * k + i] = int8_t((s.points[size_t(4 * index + i)] - 1) / 2);
        }
        float sumqx = 0, sumq2 = 0;
        for (int i = 0; i < kSub; ++i) {
            const float w = weight[i];
            const float q = float(2 * L[i] + 1);
            sumqx += w * xval[i] * q;
            sumq2 += w * q * q;
        }
        if (sumq2 > 0) scale = sumqx / sumq2;
    }
    return scale;
}

// The grid index of a group's levels. The fit only ever leaves grid points
// (the reference aborts otherwise); should non-finite arithmetic break that,
// take the nearest grid point rather than write an index that means nothing.
int grid_index_of(const Iq3Search& s, const int8_t* L) {
    const uint16_t u = pack_levels(L);
    const int index = s.index_of[u];
    return index >= 0 ? index : s.neighbours[s.first[u]];
}

// Per-element weights of a sub-block: x^2, or with importance weights
// qw * sqrt(sigma2 + x^2), where sigma2 is twice the block's mean square.
void sub_block_weights(const float* xb, const float* qw, float sigma2, float* weight, float* waux) {
    if (qw != nullptr) {
        for (int i = 0; i < kSub; ++i) weight[i] = qw[i] * std::sqrt(sigma2 + xb[i] * xb[i]);
    } else {
        for (int i = 0; i < kSub; ++i) weight[i] = xb[i] * xb[i];
    }
    for (int i = 0; i < kSub; ++i) waux[i] = std::sqrt(weight[i]);
}

float block_sigma2(const float* xbl) {
    float sumx2 = 0;
    for (int i = 0; i < kSuperBlock; ++i) sumx2 += xbl[i] * xbl[i];
    return 2 * sumx2 / kSuperBlock;
}

// ---------------------------------------------------------------- IQ3_XXS

// Below this largest magnitude a sub-block is stored as zeros.
constexpr float kXxsNegligible = 1e-8f;

void quantize_block_iq3_xxs(const Iq3Search& s, const float* xbl, const float* qwbl, uint8_t* out) {
    uint8_t q3[kXxsBytes - 2] = {};  // 64 grid indices, then 8 scale-and-sign words
    uint32_t scales_and_signs[kSubs] = {};
    float scales[kSubs];
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl);
    for (int ib = 0; ib < kSubs; ++ib) {
        const float* xb = xbl + kSub * ib;
        float weight[kSub], waux[kSub], xval[kSub];
        int8_t L[kSub] = {};
        uint8_t block_signs[4];
        sub_block_weights(xb, qwbl ? qwbl + kSub * ib : nullptr, sigma2, weight, waux);
        // Only 7 signs per 8 are stored, the eighth makes their count even:
        // with an odd count, flip the element that matters least.
        for (int k = 0; k < 4; ++k) {
            int nflip = 0;
            uint8_t sg = 0;
            for (int i = 0; i < 8; ++i) {
                if (xb[8 * k + i] >= 0) {
                    xval[8 * k + i] = xb[8 * k + i];
                } else {
                    xval[8 * k + i] = -xb[8 * k + i];
                    ++nflip;
                    sg = uint8_t(sg | (1 << i));
                }
            }
            if (nflip % 2) {
                int imin = 0;
                float min = weight[8 * k] * xb[8 * k] * xb[8 * k];
                for (int i = 1; i < 8; ++i) {
                    const float ax = weight[8 * k + i] * xb[8 * k + i] * xb[8 * k + i];
                    if (ax < min) {
                        min = ax;
                        imin = i;
                    }
                }
                xval[8 * k + imin] = -xval[8 * k + imin];
                sg = uint8_t(sg ^ (1 << imin));
            }
            block_signs[k] = uint8_t(sg & 127);
        }
        float max = xval[0];
        for (int i = 1; i < kSub; ++i) max = max_of(max, xval[i]);
        if (max < kXxsNegligible) {
            scales[ib] = 0;
            continue;
        }
        float scale = fit_sub_block(s, kXxsSearch, xval, weight, waux, max, L);
        if (scale < 0) {  // cannot happen for finite input; the reference guards it so
            scale = -scale;
            for (uint8_t& b : block_signs) b = uint8_t(~b & 127);
        }
        for (int k = 0; k < kGroupsPerSub; ++k) q3[kGroupsPerSub * ib + k] = uint8_t(grid_index_of(s, L + 4 * k));
        scales_and_signs[ib] = uint32_t(block_signs[0]) | uint32_t(block_signs[1]) << 7 |
                               uint32_t(block_signs[2]) << 14 | uint32_t(block_signs[3]) << 21;
        scales[ib] = scale;
        max_scale = max_of(max_scale, scale);
    }
    std::memset(out, 0, kXxsBytes);  // d = +0 and every index 0 when the block is all (near) zero
    if (max_scale == 0) return;
    const float d = max_scale / 31;
    store_fp16(out, d * 1.0125f);  // the reference's fudge factor
    const float id = 1 / d;
    for (int ib = 0; ib < kSubs; ++ib) {
        const int l = clamp_level(round_via_mantissa(0.5f * (id * scales[ib] - 1)), 15);
        scales_and_signs[ib] |= uint32_t(l) << 28;
    }
    for (int ib = 0; ib < kSubs; ++ib) store_u32le(q3 + 64 + 4 * ib, scales_and_signs[ib]);
    std::memcpy(out + 2, q3, sizeof(q3));
}

void quantize_rows_iq3_xxs(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    const Iq3Search& s = iq3xxs_search();
    for (int64_t b = 0; b < n / kSuperBlock; ++b)
        quantize_block_iq3_xxs(s, src + b * kSuperBlock, importance ? importance + b * kSuperBlock : nullptr,
                               dst + b * kXxsBytes);
}

// ---------------------------------------------------------------- IQ3_S

void quantize_block_iq3_s(const Iq3Search& s, const float* xbl, const float* qwbl, uint8_t* out) {
    std::memset(out, 0, kSBytes);
    // The reference advances its index and sign cursors only past sub-blocks
    // it stores, so after an all-zero sub-block the following ones sit one
    // sub-block early (their high index bits stay in place). Kept: those are
    // the bytes the GGUF ecosystem writes.
    uint8_t* qs = out + kSQs;
    uint8_t* qh = out + kSQh;
    uint8_t* signs = out + kSSigns;
    float scales[kSubs];
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl);
    for (int ib = 0; ib < kSubs; ++ib) {
        const float* xb = xbl + kSub * ib;
        float weight[kSub], waux[kSub], xval[kSub];
        int8_t L[kSub] = {};
        uint8_t block_signs[4];
        sub_block_weights(xb, qwbl ? qwbl + kSub * ib : nullptr, sigma2, weight, waux);
        for (int k = 0; k < 4; ++k) {
            uint8_t sg = 0;
            for (int i = 0; i < 8; ++i) {
                if (xb[8 * k + i] >= 0) {
                    xval[8 * k + i] = xb[8 * k + i];
                } else {
                    xval[8 * k + i] = -xb[8 * k + i];
                    sg = uint8_t(sg | (1 << i));
                }
            }
            block_signs[k] = sg;
        }
        float max = xval[0];
        for (int i = 1; i < kSub; ++i) max = max_of(max, xval[i]);
        if (max == 0) {
            scales[ib] = 0;
            continue;
        }
        float scale = fit_sub_block(s, kSSearch, xval, weight, waux, max, L);
        if (scale < 0) {  // cannot happen for finite input; the reference guards it so
            scale = -scale;
            for (uint8_t& b : block_signs) b = uint8_t(~b);
        }
        for (int k = 0; k < kGroupsPerSub; ++k) {
            const int index = grid_index_of(s, L + 4 * k);
            qs[k] = uint8_t(index & 255);
            qh[ib] = uint8_t(qh[ib] | ((index >> 8) << k));
        }
        qs += kGroupsPerSub;
        std::memcpy(signs, block_signs, 4);
        signs += 4;
        scales[ib] = scale;
        max_scale = max_of(max_scale, scale);
    }
    if (max_scale == 0) return;
    const float d = max_scale / 31;
    store_fp16(out, d * 1.033f);  // the reference's fudge factor
    const float id = 1 / d;
    for (int ib = 0; ib < kSubs; ib += 2) {
        const int l1 = clamp_level(round_via_mantissa(0.5f * (id * scales[ib] - 1)), 15);
        const int l2 = clamp_level(round_via_mantissa(0.5f * (id * scales[ib + 1] - 1)), 15);
        out[kSScales + ib / 2] = uint8_t(l1 | (l2 << 4));
    }
}

void quantize_rows_iq3_s(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    const Iq3Search& s = iq3s_search();
    for (int64_t b = 0; b < n / kSuperBlock; ++b)
        quantize_block_iq3_s(s, src + b * kSuperBlock, importance ? importance + b * kSuperBlock : nullptr,
                             dst + b * kSBytes);
}

}  // namespace

// ---------------------------------------------------------------- decoders

void decode_iq3_xxs(const uint8_t* src, int64_t nblocks, float /*tensor_scale*/, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += kXxsBytes) {
        const float d = load_fp16(src);
        const uint8_t* qs = src + 2;
        const uint8_t* scales_and_signs = src + 2 + 64;
        for (int ib = 0; ib < kSubs; ++ib, qs += 8) {
            const uint32_t aux = load_u32le(scales_and_signs + 4 * ib);
            const float db = d * (0.5f + float(aux >> 28)) * 0.5f;
            for (int l = 0; l < 4; ++l, dst += 8) {
                const uint8_t sg = grid::kSignPatterns[(aux >> (7 * l)) & 127];
                const uint32_t g1 = kIq3xxsGrid[qs[2 * l]];
                const uint32_t g2 = kIq3xxsGrid[qs[2 * l + 1]];
                for (int j = 0; j < 4; ++j) {
                    dst[j] = db * float(grid_byte(g1, j)) * ((sg >> j) & 1 ? -1.f : 1.f);
                    dst[j + 4] = db * float(grid_byte(g2, j)) * ((sg >> (j + 4)) & 1 ? -1.f : 1.f);
                }
            }
        }
    }
}

void decode_iq3_s(const uint8_t* src, int64_t nblocks, float /*tensor_scale*/, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += kSBytes) {
        const float d = load_fp16(src);
        for (int ib = 0; ib < kSubs; ++ib) {
            const uint8_t nibble = uint8_t(ib % 2 ? src[kSScales + ib / 2] >> 4 : src[kSScales + ib / 2] & 0xf);
            const float db = d * float(1 + 2 * nibble);
            const uint8_t* qs = src + kSQs + 8 * ib;
            const uint8_t qh = src[kSQh + ib];
            const uint8_t* signs = src + kSSigns + 4 * ib;
            for (int l = 0; l < 4; ++l, dst += 8) {
                // Bit k of qh is the ninth index bit of group k of this sub-block.
                const uint32_t g1 = kIq3sGrid[qs[2 * l] | (((qh >> (2 * l)) & 1) << 8)];
                const uint32_t g2 = kIq3sGrid[qs[2 * l + 1] | (((qh >> (2 * l + 1)) & 1) << 8)];
                for (int j = 0; j < 4; ++j) {
                    dst[j] = db * float(grid_byte(g1, j)) * ((signs[l] >> j) & 1 ? -1.f : 1.f);
                    dst[j + 4] = db * float(grid_byte(g2, j)) * ((signs[l] >> (j + 4)) & 1 ? -1.f : 1.f);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- quantizers

void quantize_row_iq3_xxs(const float* src, int64_t n, uint8_t* dst) { quantize_rows_iq3_xxs(src, n, dst, nullptr); }
void quantize_row_weighted_iq3_xxs(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_rows_iq3_xxs(src, n, dst, importance);
}
void quantize_row_iq3_s(const float* src, int64_t n, uint8_t* dst) { quantize_rows_iq3_s(src, n, dst, nullptr); }
void quantize_row_weighted_iq3_s(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_rows_iq3_s(src, n, dst, importance);
}

}  // namespace skn_core::codec
