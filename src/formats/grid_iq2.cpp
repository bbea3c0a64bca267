// SPDX-License-Identifier: MIT
// IQ2_XXS IQ2_XS IQ2_S: groups of eight weights that are one point of a
// lattice of magnitudes ({8, 25, 43} per element) times a sign pattern.
// Layouts and algorithms: docs/formats/grid.md.
//
// The quantizers reproduce ggml's quantize_iq2_xxs / quantize_iq2_xs /
// quantize_iq2_s operation for operation (the scales and codes they compute
// are what ends up in the bytes). Float expressions keep the reference's
// evaluation order; do not reassociate them.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "formats/codecs.hpp"
#include "formats/grid_bytes.hpp"
#include "formats/grid_points.hpp"
#include "formats/grid_search.hpp"
#include "formats/grid_signs.hpp"
#include "formats/half.hpp"
#include "formats/k_quants_search.hpp"

namespace skn_core::codec {

namespace {

using grid::level_of;
using grid::SearchTables;
using kquant::round_to_int;

constexpr int kBlock = 256;
constexpr int kMaxLevel = 2;  // codes 0..2 stand for the odd magnitudes 1, 3, 5
constexpr float kAllZeroBelow = 1e-15f;
constexpr float kAllZeroBelowIq2s = 1e-8f;

// The decoded magnitude of each lattice level (ggml-common.h's iq2*_grid
// bytes are these values at each point's levels).
constexpr uint8_t kIq2Magnitudes[3] = {8, 25, 43};

template <size_t N>
constexpr std::array<GridMagnitudes, N> magnitudes_of(const uint16_t (&points)[N]) {
    std::array<GridMagnitudes, N> out{};
    for (size_t i = 0; i < N; ++i)
        for (int j = 0; j < 8; ++j) out[i][size_t(j)] = kIq2Magnitudes[(points[i] >> (2 * j)) & 3];
    return out;
}

}  // namespace

// Declared in grid_bytes.hpp: the exact kernels' decoders read them too.
constinit const std::array<GridMagnitudes, 256> kIq2xxsGrid = magnitudes_of(grid::kIq2xxsPoints);
constinit const std::array<GridMagnitudes, 512> kIq2xsGrid = magnitudes_of(grid::kIq2xsPoints);
constinit const std::array<GridMagnitudes, 1024> kIq2sGrid = magnitudes_of(grid::kIq2sPoints);

namespace {

// Eight outputs of one group: magnitude times scale, negated where `signs` has a bit.
void decode_group(const GridMagnitudes& magnitudes, uint8_t signs, float scale, float* y) {
    for (int j = 0; j < 8; ++j) y[j] = scale * float(magnitudes[size_t(j)]) * ((signs >> j) & 1 ? -1.f : 1.f);
}

// ggml's make_qp_quants: codes 0..nmax for non-negative x (the first guess
// is not clamped, as in the reference), a scale sweep, then up to five
// passes moving single codes. Returns the scale.
float fit_non_negative(int n, int nmax, const float* x, uint8_t* L, const float* w) {
    float max = 0;
    for (int i = 0; i < n; ++i) max = std::max(max, x[i]);
    if (max < kAllZeroBelow) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    float iscale = float(nmax) / max;
    for (int i = 0; i < n; ++i) L[i] = uint8_t(round_to_int(iscale * x[i]));
    const float scale = 1 / iscale;
    float best_mse = 0;
    for (int i = 0; i < n; ++i) {
        const float diff = x[i] - scale * float(L[i]);
        best_mse += w[i] * diff * diff;
    }
    for (int is = -4; is <= 4; ++is) {
        if (is == 0) continue;
        const float iscale_is = (0.1f * float(is) + float(nmax)) / max;
        const float scale_is = 1 / iscale_is;
        float mse = 0;
        for (int i = 0; i < n; ++i) {
            const int l = std::min(nmax, round_to_int(iscale_is * x[i]));
            const float diff = x[i] - scale_is * float(l);
            mse += w[i] * diff * diff;
        }
        if (mse < best_mse) {
            best_mse = mse;
            iscale = iscale_is;
        }
    }
    float sumlx = 0;
    float suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::min(nmax, round_to_int(iscale * x[i]));
        L[i] = uint8_t(l);
        sumlx += w[i] * x[i] * float(l);
        suml2 += w[i] * float(l) * float(l);
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            float slx = sumlx - w[i] * x[i] * float(L[i]);
            float sl2 = suml2 - w[i] * float(L[i]) * float(L[i]);
            if (slx > 0 && sl2 > 0) {
                const int new_l = std::min(nmax, round_to_int(x[i] * sl2 / slx));
                if (new_l != L[i]) {
                    slx += w[i] * x[i] * float(new_l);
                    sl2 += w[i] * float(new_l) * float(new_l);
                    if (slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = uint8_t(new_l);
                        sumlx = slx;
                        suml2 = sl2;
                        ++n_changed;
                    }
                }
            }
        }
        if (!n_changed) break;
    }
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

// Codes 0..2 of eight magnitudes at inverse scale `id`.
void codes_at(float id, const float* xval, int8_t* L) {
    for (int i = 0; i < 8; ++i) {
        const int l = round_to_int(0.5f * (id * xval[i] - 1));
        L[i] = int8_t(std::max(0, std::min(kMaxLevel, l)));
    }
}

// The candidate nearest (weighted squared error at `scale`) to xval among
// the neighbours of an off-lattice code; the first best wins. Writes its
// codes to L and returns its index. The reference aborts when every
// distance is NaN or infinite (inputs near FLT_MAX); this keeps the first.
int nearest_neighbour(const SearchTables& t, uint16_t u, const float* xval, const float* w, float scale, int8_t* L) {
    const auto candidates = t.neighbours_of(u);
    float best_d2 = FLT_MAX;
    int best = -1;
    for (const uint16_t c : candidates) {
        const uint16_t p = t.points()[c];
        float d2 = 0;
        for (int i = 0; i < 8; ++i) {
            const float q = float(2 * level_of(p, i) + 1);
            const float diff = scale * q - xval[i];
            d2 += w[i] * diff * diff;
        }
        if (d2 < best_d2) {
            best_d2 = d2;
            best = c;
        }
    }
    if (best < 0) best = candidates[0];
    for (int i = 0; i < 8; ++i) L[i] = int8_t(level_of(t.points()[size_t(best)], i));
    return best;
}

// Snap eight codes onto the lattice: their index when on it, else the
// nearest neighbour's (whose codes replace L's).
int snap(const SearchTables& t, const float* xval, const float* w, float scale, int8_t* L, bool* was_on_lattice) {
    const uint16_t u = grid::pack_levels(L);
    const int index = t.index_of(u);
    if (was_on_lattice) *was_on_lattice = index >= 0;
    return index >= 0 ? index : nearest_neighbour(t, u, xval, w, scale, L);
}

// The lattice index of codes that must already be on it. The reference
// aborts otherwise ("found point not on grid"), which the searches below
// never let happen for finite input; 0 keeps the block well-formed.
int index_on_lattice(const SearchTables& t, const int8_t* L) {
    const int index = t.index_of(grid::pack_levels(L));
    return index >= 0 ? index : 0;
}

// Magnitudes of one group of eight with its sign bits. `even_flips` makes
// the number of negated elements even, as IQ2_XXS and IQ2_XS store only
// seven sign bits: when odd, the element with the least weighted square
// keeps its sign (its magnitude is stored negated).
uint8_t fold_signs(const float* xb, const float* weight, bool even_flips, float* xval) {
    int nflip = 0;
    uint8_t s = 0;
    for (int i = 0; i < 8; ++i) {
        if (xb[i] >= 0) {
            xval[i] = xb[i];
        } else {
            xval[i] = -xb[i];
            ++nflip;
            s = uint8_t(s | (1 << i));
        }
    }
    if (even_flips && nflip % 2) {
        int imin = 0;
        float min = weight[imin] * xb[imin] * xb[imin];
        for (int i = 1; i < 8; ++i) {
            const float ax = weight[i] * xb[i] * xb[i];
            if (ax < min) {
                min = ax;
                imin = i;
            }
        }
        xval[imin] = -xval[imin];
        s = uint8_t(s ^ (1 << imin));
    }
    return even_flips ? uint8_t(s & 127) : s;
}

// sum(w x q) and sum(w q^2) for odd magnitudes q = 2 L + 1.
struct Fit {
    float sumqx = 0;
    float sumq2 = 0;
};
Fit fit_codes(int n, const float* weight, const float* xval, const int8_t* L) {
    Fit f;
    for (int i = 0; i < n; ++i) {
        const float w = weight[i];
        const float q = float(2 * L[i] + 1);
        f.sumqx += w * xval[i] * q;
        f.sumq2 += w * q * q;
    }
    return f;
}

// The 4-bit sub-block scale code for a sub-block scale, given the block's
// inverse scale: the odd multiple (2 l + 1) of d / 2 nearest to it.
int scale_code(float id, float scale) { return std::max(0, std::min(15, round_to_int(0.5f * (id * scale - 1)))); }

float sum_of_squares(const float* x, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += x[i] * x[i];
    return s;
}

// ---------------------------------------------------------------- IQ2_XXS

// One 32-element sub-block of IQ2_XXS: scale and lattice codes (into q2's
// two words), or 0 for a negligible sub-block.
float quantize_xxs_sub(const SearchTables& t, const float* xb, const float* qw, float sigma2, uint32_t* q2) {
    float weight[32];
    float waux[32];
    float xval[32];
    int8_t L[32];
    int8_t Laux[32];
    uint8_t block_signs[4];
    for (int i = 0; i < 32; ++i) weight[i] = qw[i] * std::sqrt(sigma2 + xb[i] * xb[i]);
    for (int i = 0; i < 32; ++i) waux[i] = std::sqrt(weight[i]);
    for (int k = 0; k < 4; ++k) block_signs[k] = fold_signs(xb + 8 * k, weight + 8 * k, true, xval + 8 * k);
    float max = xval[0];
    for (int i = 1; i < 32; ++i) max = std::max(max, xval[i]);
    if (max < kAllZeroBelow) return 0;

    // The first guess fits codes 0..4 to the magnitudes (its codes are discarded).
    float scale = fit_non_negative(32, 4, xval, reinterpret_cast<uint8_t*>(L), weight);
    const float eff_max = scale * 3;
    if (eff_max <= 0) return 0;
    float best = 0;
    for (int is = -6; is <= 6; ++is) {
        const float id = (5 + float(is) * 0.1f) / eff_max;
        const float this_scale = 1 / id;
        for (int k = 0; k < 4; ++k) {
            codes_at(id, xval + 8 * k, Laux + 8 * k);
            snap(t, xval + 8 * k, waux + 8 * k, this_scale, Laux + 8 * k, nullptr);
        }
        const Fit f = fit_codes(32, weight, xval, Laux);
        if (f.sumq2 > 0 && f.sumqx * f.sumqx > best * f.sumq2) {
            scale = f.sumqx / f.sumq2;
            best = scale * f.sumqx;
            std::memcpy(L, Laux, 32);
        }
    }
    if (scale > 0) {
        const float id = 1 / scale;
        for (int k = 0; k < 4; ++k) {
            codes_at(id, xval + 8 * k, L + 8 * k);
            snap(t, xval + 8 * k, waux + 8 * k, scale, L + 8 * k, nullptr);
        }
        const Fit f = fit_codes(32, weight, xval, L);
        if (f.sumq2 > 0) scale = f.sumqx / f.sumq2;
    }
    if (scale < 0) {
        // The reference guards this (it cannot happen for finite input):
        // a negative scale is stored positive with every sign flipped.
        scale = -scale;
        for (auto& s : block_signs) s = uint8_t(~s & 127);
    }
    for (int k = 0; k < 4; ++k) {
        q2[0] |= uint32_t(index_on_lattice(t, L + 8 * k)) << (8 * k);
        q2[1] |= uint32_t(block_signs[k]) << (7 * k);
    }
    return scale;
}

void quantize_block_iq2_xxs(const float* xbl, const float* qw, uint8_t* y) {
    const SearchTables& t = grid::search_tables(grid::Lattice::Iq2xxs);
    std::memset(y, 0, 66);
    uint32_t q2[16] = {};
    float scales[8];
    float max_scale = 0;
    const float sigma2 = sum_of_squares(xbl, kBlock) / kBlock;
    for (int ib = 0; ib < 8; ++ib) {
        scales[ib] = quantize_xxs_sub(t, xbl + 32 * ib, qw + 32 * ib, sigma2, q2 + 2 * ib);
        max_scale = std::max(max_scale, scales[ib]);
    }
    if (!max_scale) return;
    const float d = max_scale / 31;
    store_fp16(y, d);
    const float id = 1 / d;
    for (int ib = 0; ib < 8; ++ib) q2[2 * ib + 1] |= uint32_t(scale_code(id, scales[ib])) << 28;
    for (int i = 0; i < 16; ++i)
        for (int b = 0; b < 4; ++b) y[2 + 4 * i + b] = uint8_t(q2[i] >> (8 * b));
}

// ---------------------------------------------------------------- IQ2_XS and IQ2_S

// The two 16-element-sub-block formats share their search; they differ in
// the weights without importance, the sign folding, the all-zero threshold
// and the lattice.
struct Sub16Rules {
    grid::Lattice lattice;
    bool even_flips;
    float all_zero_below;
};

struct Sub16 {
    float scale = 0;
    int index[2] = {0, 0};
    uint8_t signs[2] = {0, 0};
};

Sub16 quantize_sub16(const SearchTables& t, const Sub16Rules& rules, const float* xb, const float* weight) {
    Sub16 out;
    float waux[16];
    float xval[16];
    int8_t L[16] = {};
    int8_t Laux[16];
    for (int i = 0; i < 16; ++i) waux[i] = std::sqrt(weight[i]);
    for (int k = 0; k < 2; ++k) out.signs[k] = fold_signs(xb + 8 * k, weight + 8 * k, rules.even_flips, xval + 8 * k);
    float max = xval[0];
    for (int i = 1; i < 16; ++i) max = std::max(max, xval[i]);
    if (max < rules.all_zero_below) return Sub16{};

    float best = 0;
    float scale = max / 5;
    bool on_lattice[2] = {true, true};
    for (int is = -9; is <= 9; ++is) {
        const float id = (5 + float(is) * 0.1f) / max;
        const float this_scale = 1 / id;
        bool on_lattice_aux[2];
        for (int k = 0; k < 2; ++k) {
            codes_at(id, xval + 8 * k, Laux + 8 * k);
            snap(t, xval + 8 * k, waux + 8 * k, this_scale, Laux + 8 * k, &on_lattice_aux[k]);
        }
        const Fit f = fit_codes(16, weight, xval, Laux);
        if (f.sumq2 > 0 && f.sumqx * f.sumqx > best * f.sumq2) {
            scale = f.sumqx / f.sumq2;
            best = scale * f.sumqx;
            std::memcpy(L, Laux, 16);
            on_lattice[0] = on_lattice_aux[0];
            on_lattice[1] = on_lattice_aux[1];
        }
    }
    // Groups that were snapped during the sweep are redone at the final scale.
    if ((!on_lattice[0] || !on_lattice[1]) && scale > 0) {
        const float id = 1 / scale;
        for (int k = 0; k < 2; ++k) {
            if (on_lattice[k]) continue;
            codes_at(id, xval + 8 * k, L + 8 * k);
            snap(t, xval + 8 * k, waux + 8 * k, scale, L + 8 * k, nullptr);
        }
        const Fit f = fit_codes(16, weight, xval, L);
        if (f.sumq2 > 0) scale = f.sumqx / f.sumq2;
    }
    if (scale < 0) {
        scale = -scale;
        for (auto& s : out.signs) s = uint8_t(rules.even_flips ? ~s & 127 : ~s);
    }
    for (int k = 0; k < 2; ++k) out.index[k] = index_on_lattice(t, L + 8 * k);
    out.scale = scale;
    return out;
}

// Quantize one 256-element block into 16 sub-blocks; `weights_of` fills
// the 16 weights of sub-block ib. Returns max_scale; scales[] per sub-block.
template <class Weights, class Store>
float quantize_sub16_block(const Sub16Rules& rules, const float* xbl, Weights weights_of, Store store, float* scales) {
    const SearchTables& t = grid::search_tables(rules.lattice);
    float max_scale = 0;
    for (int ib = 0; ib < 16; ++ib) {
        float weight[16];
        weights_of(ib, weight);
        const Sub16 s = quantize_sub16(t, rules, xbl + 16 * ib, weight);
        scales[ib] = s.scale;
        store(ib, s);
        max_scale = std::max(max_scale, s.scale);
    }
    return max_scale;
}

void store_scale_nibbles(float max_scale, const float* scales, uint8_t* dst) {
    const float d = max_scale / 31;
    const float id = 1 / d;
    for (int ib = 0; ib < 16; ++ib) {
        const int l = scale_code(id, scales[ib]);
        if (ib % 2 == 0)
            dst[ib / 2] = uint8_t(l);
        else
            dst[ib / 2] = uint8_t(dst[ib / 2] | (l << 4));
    }
}

constexpr Sub16Rules kIq2xsRules{grid::Lattice::Iq2xs, true, kAllZeroBelow};
constexpr Sub16Rules kIq2sRules{grid::Lattice::Iq2s, false, kAllZeroBelowIq2s};

void quantize_block_iq2_xs(const float* xbl, const float* qw, uint8_t* y) {
    std::memset(y, 0, 74);
    const float sigma2 = sum_of_squares(xbl, kBlock) / kBlock;
    uint16_t q2[32] = {};
    float scales[16];
    const float max_scale = quantize_sub16_block(
        kIq2xsRules, xbl,
        [&](int ib, float* weight) {
            const float* xb = xbl + 16 * ib;
            for (int i = 0; i < 16; ++i) weight[i] = qw[16 * ib + i] * std::sqrt(sigma2 + xb[i] * xb[i]);
        },
        [&](int ib, const Sub16& s) {
            for (int k = 0; k < 2; ++k) q2[2 * ib + k] = uint16_t(s.index[k] | (s.signs[k] << 9));
        },
        scales);
    if (!max_scale) return;
    store_fp16(y, max_scale / 31);
    store_scale_nibbles(max_scale, scales, y + 66);
    for (int i = 0; i < 32; ++i) store_u16le(y + 2 + 2 * i, q2[i]);
}

void quantize_block_iq2_s(const float* xbl, const float* qw, uint8_t* y) {
    std::memset(y, 0, 82);
    uint8_t* qs = y + 2;
    uint8_t* signs = y + 2 + 32;
    uint8_t* qh = y + 66;
    const float sigma2 = 2 * sum_of_squares(xbl, kBlock) / kBlock;
    float scales[16];
    const float max_scale = quantize_sub16_block(
        kIq2sRules, xbl,
        [&](int ib, float* weight) {
            const float* xb = xbl + 16 * ib;
            if (qw != nullptr) {
                for (int i = 0; i < 16; ++i) weight[i] = qw[16 * ib + i] * std::sqrt(sigma2 + xb[i] * xb[i]);
            } else {
                for (int i = 0; i < 16; ++i) weight[i] = 0.25f * sigma2 + xb[i] * xb[i];
            }
        },
        [&](int ib, const Sub16& s) {
            for (int k = 0; k < 2; ++k) {
                const int i8 = 2 * ib + k;
                qs[i8] = uint8_t(s.index[k] & 255);
                qh[i8 / 4] = uint8_t(qh[i8 / 4] | ((s.index[k] >> 8) << (2 * (i8 % 4))));
                signs[i8] = s.signs[k];
            }
        },
        scales);
    if (!max_scale) return;
    store_fp16(y, max_scale / 31 * 0.9875f);
    store_scale_nibbles(max_scale, scales, y + 74);
}

template <void (*Block)(const float*, const float*, uint8_t*), int Bytes>
void quantize_blocks(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kBlock; ++b)
        Block(src + b * kBlock, importance ? importance + b * kBlock : nullptr, dst + b * Bytes);
}

}  // namespace

// ---------------------------------------------------------------- decoders

void decode_iq2_xxs(const uint8_t* src, int64_t nblocks, float /*tensor_scale*/, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 66) {
        const float d = load_fp16(src);
        for (int ib = 0; ib < 8; ++ib) {
            const uint8_t* q = src + 2 + 8 * ib;
            const uint32_t signs_and_scale = uint32_t(q[4]) | uint32_t(q[5]) << 8 | uint32_t(q[6]) << 16 |
                                             uint32_t(q[7]) << 24;
            const float db = d * (0.5f + float(signs_and_scale >> 28)) * 0.25f;
            for (int l = 0; l < 4; ++l, dst += 8)
                decode_group(kIq2xxsGrid[q[l]], grid::kSignPatterns[(signs_and_scale >> (7 * l)) & 127], db, dst);
        }
    }
}

void decode_iq2_xs(const uint8_t* src, int64_t nblocks, float /*tensor_scale*/, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 74) {
        const float d = load_fp16(src);
        const uint8_t* scales = src + 66;
        for (int ib = 0; ib < 8; ++ib) {
            const float db[2] = {d * (0.5f + float(scales[ib] & 0xf)) * 0.25f,
                                 d * (0.5f + float(scales[ib] >> 4)) * 0.25f};
            for (int l = 0; l < 4; ++l, dst += 8) {
                const uint16_t q = load_u16le(src + 2 + 2 * (4 * ib + l));
                decode_group(kIq2xsGrid[q & 511], grid::kSignPatterns[q >> 9], db[l / 2], dst);
            }
        }
    }
}

void decode_iq2_s(const uint8_t* src, int64_t nblocks, float /*tensor_scale*/, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 82) {
        const float d = load_fp16(src);
        const uint8_t* qs = src + 2;
        const uint8_t* signs = src + 2 + 32;
        const uint8_t* qh = src + 66;
        const uint8_t* scales = src + 74;
        for (int ib = 0; ib < 8; ++ib) {
            const float db[2] = {d * (0.5f + float(scales[ib] & 0xf)) * 0.25f,
                                 d * (0.5f + float(scales[ib] >> 4)) * 0.25f};
            for (int l = 0; l < 4; ++l, dst += 8) {
                const int index = qs[4 * ib + l] | ((qh[ib] << (8 - 2 * l)) & 0x300);
                decode_group(kIq2sGrid[size_t(index)], signs[4 * ib + l], db[l / 2], dst);
            }
        }
    }
}

// ---------------------------------------------------------------- quantizers

void quantize_row_weighted_iq2_xxs(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_blocks<quantize_block_iq2_xxs, 66>(src, n, dst, importance);
}

void quantize_row_weighted_iq2_xs(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_blocks<quantize_block_iq2_xs, 74>(src, n, dst, importance);
}

void quantize_row_iq2_s(const float* src, int64_t n, uint8_t* dst) {
    quantize_blocks<quantize_block_iq2_s, 82>(src, n, dst, nullptr);
}

void quantize_row_weighted_iq2_s(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_blocks<quantize_block_iq2_s, 82>(src, n, dst, importance);
}

}  // namespace skn_core::codec
