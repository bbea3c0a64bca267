// SPDX-License-Identifier: MIT
// IQ1_S IQ1_M: groups of eight weights that are one point of a lattice of
// ternary values {-1, 0, +1} shifted by +-1/8 (the "delta"), times a
// sub-block scale. Layouts and algorithms: docs/formats/grid.md.
//
// The quantizers reproduce ggml's quantize_iq1_s / quantize_iq1_m operation
// for operation. Float expressions keep the reference's evaluation order; do
// not reassociate them. Elements are sorted with the C library's qsort and
// the reference's comparator (value only), so equal values are ordered as
// the reference orders them on the same C library.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "formats/codecs.hpp"
#include "formats/grid_bytes.hpp"
#include "formats/grid_points.hpp"
#include "formats/grid_search.hpp"
#include "formats/half.hpp"
#include "formats/k_quants_search.hpp"

namespace skn_core::codec {

namespace {

using grid::level_of;
using grid::SearchTables;
using kquant::round_to_int;

constexpr int kBlock = 256;
constexpr float kDelta = 0.125f;  // ggml's IQ1S_DELTA and IQ1M_DELTA
constexpr float kAllZeroBelowIq1s = 1e-12f;
constexpr float kAllZeroBelowIq1m = 1e-7f;

}  // namespace

// ggml-common.h's iq1s_grid bytes: each point's levels 0, 1, 2 as -1, 0, +1
// (declared in grid_bytes.hpp: the exact kernels' decoders read them too).
constinit const std::array<GridTernary, 2048> kIq1Grid = [] {
    std::array<GridTernary, 2048> out{};
    for (size_t i = 0; i < 2048; ++i)
        for (int j = 0; j < 8; ++j) out[i][size_t(j)] = int8_t(((grid::kIq1sPoints[i] >> (2 * j)) & 3) - 1);
    return out;
}();

namespace {

void decode_group(int index, float scale, float delta, float* y) {
    const auto& g = kIq1Grid[size_t(index)];
    for (int j = 0; j < 8; ++j) y[j] = scale * (float(g[size_t(j)]) + delta);
}

// The three values a code 0, 1, 2 stands for, with the delta added (+) or subtracted (-).
constexpr float kShiftedUp[3] = {-1 + kDelta, kDelta, 1 + kDelta};
constexpr float kShiftedDown[3] = {-1 - kDelta, -kDelta, 1 - kDelta};

// An element and its position, laid out as the reference's float pairs so
// that qsort sees the same bytes.
struct Ranked {
    float value;
    int32_t index;
};
static_assert(sizeof(Ranked) == 2 * sizeof(float));

int by_value(const void* left, const void* right) {
    const float l = static_cast<const Ranked*>(left)->value;
    const float r = static_cast<const Ranked*>(right)->value;
    return l < r ? -1 : l > r ? 1 : 0;
}

// The neighbour of an off-lattice code nearest to xval (weighted squared
// error of scale * xx[code]); the first best wins. Writes its codes to L.
// The reference falls back to a search of the whole lattice (reading out of
// bounds) and then aborts when every distance is NaN or infinite; that needs
// inputs near FLT_MAX, for which this keeps the first neighbour.
int nearest_neighbour(const SearchTables& t, uint16_t u, const float* xval, const float* w, float scale,
                      const float* xx, int8_t* L) {
    const auto candidates = t.neighbours_of(u);
    float best_d2 = FLT_MAX;
    int best = -1;
    for (const uint16_t c : candidates) {
        const uint16_t p = t.points()[c];
        float d2 = 0;
        for (int i = 0; i < 8; ++i) {
            const float q = xx[level_of(p, i)];
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

// Lattice index of group k's codes, snapping off-lattice ones.
int snap(const SearchTables& t, const float* xb, const float* weight, float scale, const float* xx, int8_t* L,
         bool* all_on_lattice) {
    const uint16_t u = grid::pack_levels(L);
    const int index = t.index_of(u);
    if (index >= 0) return index;
    *all_on_lattice = false;
    return nearest_neighbour(t, u, xb, weight, scale, xx, L);
}

// Split the sorted elements into codes 0 | 1 | 2 at i1 and i2.
void codes_from_split(const Ranked* ranked, int n, int i1, int i2, int8_t* L) {
    for (int j = 0; j < i1; ++j) L[ranked[j].index] = 0;
    for (int j = i1; j < i2; ++j) L[ranked[j].index] = 1;
    for (int j = i2; j < n; ++j) L[ranked[j].index] = 2;
}

// ---------------------------------------------------------------- IQ1_S

void quantize_block_iq1_s(const float* xbl, const float* qw, uint8_t* y) {
    const SearchTables& t = grid::search_tables(grid::Lattice::Iq1s);
    std::memset(y, 0, 50);
    uint8_t* qs = y + 2;
    uint16_t qh[8] = {};
    float scales[8];
    int8_t shifts[8];
    float max_scale = 0;

    float sumx2 = 0;
    for (int i = 0; i < kBlock; ++i) sumx2 += xbl[i] * xbl[i];
    const float sigma2 = 2 * sumx2 / kBlock;

    for (int ib = 0; ib < 8; ++ib) {
        const float* xb = xbl + 32 * ib;
        float weight[32];
        for (int i = 0; i < 32; ++i) weight[i] = qw[32 * ib + i] * std::sqrt(sigma2 + xb[i] * xb[i]);
        float max = std::fabs(xb[0]);
        for (int i = 1; i < 32; ++i) max = std::max(max, std::fabs(xb[i]));
        scales[ib] = 0;
        shifts[ib] = 1;
        if (max < kAllZeroBelowIq1s) continue;

        // With three codes, the best weighted least-squares split of the
        // sorted elements is found exhaustively from prefix sums.
        Ranked ranked[32];
        for (int j = 0; j < 32; ++j) ranked[j] = {xb[j], j};
        std::qsort(ranked, 32, sizeof(Ranked), by_value);
        float sumx[33];
        float sumw[33];
        sumx[0] = sumw[0] = 0;
        for (int j = 0; j < 32; ++j) {
            const int i = ranked[j].index;
            sumx[j + 1] = sumx[j] + weight[i] * xb[i];
            sumw[j + 1] = sumw[j] + weight[i];
        }
        float best_score = -FLT_MAX;
        float scale = max;
        int besti1 = -1;
        int besti2 = -1;
        int best_shift = 0;
        for (int i1 = 0; i1 <= 32; ++i1) {
            for (int i2 = i1; i2 <= 32; ++i2) {
                for (const int shift : {1, -1}) {
                    const float* v = shift == 1 ? kShiftedUp : kShiftedDown;
                    const float sumqx =
                        (sumx[i1] - sumx[0]) * v[0] + (sumx[i2] - sumx[i1]) * v[1] + (sumx[32] - sumx[i2]) * v[2];
                    const float sumq2 = (sumw[i1] - sumw[0]) * v[0] * v[0] + (sumw[i2] - sumw[i1]) * v[1] * v[1] +
                                        (sumw[32] - sumw[i2]) * v[2] * v[2];
                    if (sumq2 > 0 && sumqx * sumqx > best_score * sumq2) {
                        scale = sumqx / sumq2;
                        best_score = scale * sumqx;
                        besti1 = i1;
                        besti2 = i2;
                        best_shift = shift;
                    }
                }
            }
        }
        if (besti1 < 0 || besti2 < 0 || best_shift == 0) continue;
        int8_t L[32];
        codes_from_split(ranked, 32, besti1, besti2, L);
        if (scale < 0) {
            for (auto& l : L) l = int8_t(2 - l);
            scale = -scale;
            best_shift = -best_shift;
        }
        const float* xx = best_shift == 1 ? kShiftedUp : kShiftedDown;
        bool all_on_lattice = true;
        uint16_t index[4];
        for (int k = 0; k < 4; ++k)
            index[k] = uint16_t(snap(t, xb + 8 * k, weight + 8 * k, scale, xx, L + 8 * k, &all_on_lattice));
        if (!all_on_lattice) {
            float sumqx = 0;
            float sumq2 = 0;
            for (int k = 0; k < 4; ++k) {
                const uint16_t p = t.points()[index[k]];
                for (int j = 0; j < 8; ++j) {
                    const float w = weight[8 * k + j];
                    const float q = xx[level_of(p, j)];
                    sumqx += w * q * xb[8 * k + j];
                    sumq2 += w * q * q;
                }
            }
            if (sumqx > 0 && sumq2 > 0) scale = sumqx / sumq2;
        }
        uint16_t h = 0;
        for (int k = 0; k < 4; ++k) {
            qs[4 * ib + k] = uint8_t(index[k] & 255);
            h = uint16_t(h | ((index[k] >> 8) << (3 * k)));
        }
        qh[ib] = h;
        scales[ib] = scale;
        shifts[ib] = int8_t(best_shift);
        max_scale = std::max(max_scale, scale);
    }
    // With every sub-block scale 0 (e.g. the only non-zero values have zero
    // importance) the block keeps scale 0, but the index bits found are
    // still stored, as the reference stores them.
    if (max_scale) {
        const float d = max_scale / 15;
        store_fp16(y, d * 1.125f);  // the reference's fudge factor
        const float id = 1 / d;
        for (int ib = 0; ib < 8; ++ib) {
            int l = std::max(0, std::min(7, round_to_int(0.5f * (id * scales[ib] - 1))));
            if (shifts[ib] == -1) l |= 8;
            qh[ib] = uint16_t(qh[ib] | (l << 12));
        }
    }
    for (int ib = 0; ib < 8; ++ib) store_u16le(y + 34 + 2 * ib, qh[ib]);
}

// ---------------------------------------------------------------- IQ1_M

// Per 16-element sub-block, each half (8 elements) picks its own delta sign:
// shift k = 0 (+, +), 1 (+, -), 2 (-, +), 3 (-, -).
const float* shifted_values(int shift, int half) {
    if (half == 0) return shift < 2 ? kShiftedUp : kShiftedDown;
    return shift % 2 == 0 ? kShiftedUp : kShiftedDown;
}

void iq1m_weights(const float* xb, const float* qw, float sigma2, float* weight) {
    if (qw != nullptr) {
        for (int i = 0; i < 16; ++i) weight[i] = qw[i] * std::sqrt(sigma2 + xb[i] * xb[i]);
    } else {
        for (int i = 0; i < 16; ++i) weight[i] = xb[i] * xb[i];
    }
}

// The split search of one 16-element sub-block, as the reference evaluates
// it: per half (elements 0-7 and 8-15, which may take opposite delta signs),
// prefix sums over the sorted elements: S[j] of w*x and P[j] of w over the
// first j sorted elements that lie in the half. Since consecutive code values
// differ by exactly 1 for either sign, a split (i1, i2) of a half gives
// sum(w*q*x) = T*v[2] - (S[i1] + S[i2]) and sum(w*q*q) =
// W*v[2]*v[2] + P[i1]*(v[0]^2 - v[1]^2) + P[i2]*(v[1]^2 - v[2]^2), with T and W
// the half's totals. These round differently from adding the elements one by
// one (what ggml did before llama.cpp v0.5.0), so the float expressions below
// keep the reference's order: one block in several hundred picks another
// grid point otherwise.
class Iq1mSplitSums {
public:
    Iq1mSplitSums(const Ranked* ranked, const float* xb, const float* weight) {
        wx_[0][0] = wx_[1][0] = 0;
        w_[0][0] = w_[1][0] = 0;
        for (int j = 0; j < 16; ++j) {
            const int i = ranked[j].index;
            const int h = i < 8 ? 0 : 1;
            wx_[h][j + 1] = wx_[h][j] + weight[i] * xb[i];
            wx_[1 - h][j + 1] = wx_[1 - h][j];
            w_[h][j + 1] = w_[h][j] + weight[i];
            w_[1 - h][j + 1] = w_[1 - h][j];
        }
    }

    // sumqx[k], sumq2[k] of the split (i1, i2) for the four shifts k.
    void at(int i1, int i2, float* sumqx, float* sumq2) const {
        // v[0]^2 - v[1]^2 and v[1]^2 - v[2]^2 of each sign: exact in float.
        constexpr float kUp01 = kShiftedUp[0] * kShiftedUp[0] - kShiftedUp[1] * kShiftedUp[1];
        constexpr float kUp12 = kShiftedUp[1] * kShiftedUp[1] - kShiftedUp[2] * kShiftedUp[2];
        constexpr float kDown01 = kShiftedDown[0] * kShiftedDown[0] - kShiftedDown[1] * kShiftedDown[1];
        constexpr float kDown12 = kShiftedDown[1] * kShiftedDown[1] - kShiftedDown[2] * kShiftedDown[2];
        constexpr float up = kShiftedUp[2];
        constexpr float down = kShiftedDown[2];
        float qx_up[2], qx_down[2], q2_up[2], q2_down[2];
        for (int h = 0; h < 2; ++h) {
            const float s = wx_[h][i1] + wx_[h][i2];
            qx_up[h] = wx_[h][16] * up - s;
            qx_down[h] = wx_[h][16] * down - s;
            q2_up[h] = w_[h][16] * up * up + w_[h][i1] * kUp01 + w_[h][i2] * kUp12;
            q2_down[h] = w_[h][16] * down * down + w_[h][i1] * kDown01 + w_[h][i2] * kDown12;
        }
        // shift k: first half + for k < 2, second half + for even k.
        sumqx[0] = qx_up[0] + qx_up[1];
        sumqx[1] = qx_up[0] + qx_down[1];
        sumqx[2] = qx_down[0] + qx_up[1];
        sumqx[3] = qx_down[0] + qx_down[1];
        sumq2[0] = q2_up[0] + q2_up[1];
        sumq2[1] = q2_up[0] + q2_down[1];
        sumq2[2] = q2_down[0] + q2_up[1];
        sumq2[3] = q2_down[0] + q2_down[1];
    }

private:
    float wx_[2][17];  // [half][j]: sum of w*x over the first j sorted elements in that half
    float w_[2][17];   // the same for w
};

void quantize_block_iq1_m(const float* xbl, const float* qw, uint8_t* y) {
    const SearchTables& t = grid::search_tables(grid::Lattice::Iq1s);
    std::memset(y, 0, 56);
    uint8_t* qs = y;
    uint8_t* qh = y + 32;
    uint16_t sc[4] = {};
    float scales[16];
    int8_t shifts[16];
    float max_scale = 0;

    float sumx2 = 0;
    for (int i = 0; i < kBlock; ++i) sumx2 += xbl[i] * xbl[i];
    const float sigma2 = 2 * sumx2 / kBlock;

    for (int ib = 0; ib < 16; ++ib) {
        const float* xb = xbl + 16 * ib;
        float weight[16];
        iq1m_weights(xb, qw ? qw + 16 * ib : nullptr, sigma2, weight);
        float max = std::fabs(xb[0]);
        for (int i = 1; i < 16; ++i) max = std::max(max, std::fabs(xb[i]));
        scales[ib] = 0;
        shifts[ib] = 0;
        if (max < kAllZeroBelowIq1m) continue;

        Ranked ranked[16];
        for (int j = 0; j < 16; ++j) ranked[j] = {xb[j], j};
        std::qsort(ranked, 16, sizeof(Ranked), by_value);
        float best_score = -FLT_MAX;
        float scale = max;
        int besti1 = -1;
        int besti2 = -1;
        int best_k = -1;
        const Iq1mSplitSums sums(ranked, xb, weight);
        for (int i1 = 0; i1 <= 16; ++i1) {
            for (int i2 = i1; i2 <= 16; ++i2) {
                float sumqx[4];
                float sumq2[4];
                sums.at(i1, i2, sumqx, sumq2);
                for (int k = 0; k < 4; ++k) {
                    if (sumq2[k] > 0 && sumqx[k] * sumqx[k] > best_score * sumq2[k]) {
                        scale = sumqx[k] / sumq2[k];
                        best_score = scale * sumqx[k];
                        besti1 = i1;
                        besti2 = i2;
                        best_k = k;
                    }
                }
            }
        }
        if (besti1 < 0 || besti2 < 0 || best_k < 0) continue;
        int8_t L[16];
        codes_from_split(ranked, 16, besti1, besti2, L);
        if (scale < 0) {
            for (auto& l : L) l = int8_t(2 - l);
            scale = -scale;
            best_k = 3 - best_k;  // both halves' delta signs flip
        }
        bool all_on_lattice = true;
        uint16_t index[2];
        for (int k = 0; k < 2; ++k)
            index[k] = uint16_t(
                snap(t, xb + 8 * k, weight + 8 * k, scale, shifted_values(best_k, k), L + 8 * k, &all_on_lattice));
        if (!all_on_lattice) {
            float sumqx = 0;
            float sumq2 = 0;
            for (int k = 0; k < 2; ++k) {
                const float* xx = shifted_values(best_k, k);
                const uint16_t p = t.points()[index[k]];
                for (int j = 0; j < 8; ++j) {
                    const float w = weight[8 * k + j];
                    const float q = xx[level_of(p, j)];
                    sumqx += w * q * xb[8 * k + j];
                    sumq2 += w * q * q;
                }
            }
            if (sumqx > 0 && sumq2 > 0) scale = sumqx / sumq2;
        }
        qs[2 * ib + 0] = uint8_t(index[0] & 255);
        qs[2 * ib + 1] = uint8_t(index[1] & 255);
        qh[ib] = uint8_t((index[0] >> 8) | ((index[1] >> 8) << 4));
        scales[ib] = scale;
        shifts[ib] = int8_t(best_k);
        max_scale = std::max(max_scale, scale);
    }
    if (!max_scale) return;

    // The block scale is refit to the 3-bit sub-block scales actually stored.
    static constexpr uint8_t kShiftBits[4] = {0x00, 0x80, 0x08, 0x88};
    float d = max_scale / 15;
    const float id = 1 / d;
    float sumqx = 0;
    float sumq2 = 0;
    for (int ib = 0; ib < 16; ++ib) {
        const int l = std::max(0, std::min(7, round_to_int(0.5f * (id * scales[ib] - 1))));
        sc[ib / 4] = uint16_t(sc[ib / 4] | (l << (3 * (ib % 4))));
        qh[ib] = uint8_t(qh[ib] | kShiftBits[shifts[ib]]);
        const float* xb = xbl + 16 * ib;
        float weight[16];
        iq1m_weights(xb, qw ? qw + 16 * ib : nullptr, sigma2, weight);
        for (int k = 0; k < 2; ++k) {
            const float* xx = shifted_values(shifts[ib], k);
            const int index = qs[2 * ib + k] + ((qh[ib] << (8 - 4 * k)) & 0x700);
            const uint16_t p = t.points()[size_t(index)];
            for (int j = 0; j < 8; ++j) {
                const float w = weight[8 * k + j];
                const float q = xx[level_of(p, j)] * float(2 * l + 1);
                sumqx += w * q * xb[8 * k + j];
                sumq2 += w * q * q;
            }
        }
    }
    if (sumq2 > 0) d = sumqx / sumq2;
    const uint16_t s = f32_to_fp16(d * 1.1125f);  // the reference's fudge factor
    // The fp16 block scale is spread over the top nibbles of the four scale words.
    sc[0] = uint16_t(sc[0] | ((s & 0x000f) << 12));
    sc[1] = uint16_t(sc[1] | ((s & 0x00f0) << 8));
    sc[2] = uint16_t(sc[2] | ((s & 0x0f00) << 4));
    sc[3] = uint16_t(sc[3] | (s & 0xf000));
    for (int i = 0; i < 4; ++i) store_u16le(y + 48 + 2 * i, sc[i]);
}

template <void (*Block)(const float*, const float*, uint8_t*), int Bytes>
void quantize_blocks(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    for (int64_t b = 0; b < n / kBlock; ++b)
        Block(src + b * kBlock, importance ? importance + b * kBlock : nullptr, dst + b * Bytes);
}

}  // namespace

// ---------------------------------------------------------------- decoders

void decode_iq1_s(const uint8_t* src, int64_t nblocks, float /*tensor_scale*/, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 50) {
        const float d = load_fp16(src);
        const uint8_t* qs = src + 2;
        for (int ib = 0; ib < 8; ++ib) {
            const uint16_t qh = load_u16le(src + 34 + 2 * ib);
            const float dl = d * float(2 * ((qh >> 12) & 7) + 1);
            const float delta = qh & 0x8000 ? -kDelta : kDelta;
            for (int l = 0; l < 4; ++l, dst += 8) decode_group(qs[4 * ib + l] | (((qh >> (3 * l)) & 7) << 8), dl, delta, dst);
        }
    }
}

void decode_iq1_m(const uint8_t* src, int64_t nblocks, float /*tensor_scale*/, float* dst) {
    for (int64_t b = 0; b < nblocks; ++b, src += 56) {
        const uint8_t* qs = src;
        const uint8_t* qh = src + 32;
        uint16_t sc[4];
        for (int i = 0; i < 4; ++i) sc[i] = load_u16le(src + 48 + 2 * i);
        const uint16_t scale_bits =
            uint16_t((sc[0] >> 12) | ((sc[1] >> 8) & 0x00f0) | ((sc[2] >> 4) & 0x0f00) | (sc[3] & 0xf000));
        const float d = fp16_to_f32(scale_bits);
        for (int ib = 0; ib < 16; ++ib) {
            const float dl = d * float(2 * ((sc[ib / 4] >> (3 * (ib % 4))) & 0x7) + 1);
            for (int k = 0; k < 2; ++k, dst += 8) {
                const int index = qs[2 * ib + k] | ((qh[ib] << (8 - 4 * k)) & 0x700);
                const float delta = qh[ib] & (k == 0 ? 0x08 : 0x80) ? -kDelta : kDelta;
                decode_group(index, dl, delta, dst);
            }
        }
    }
}

// ---------------------------------------------------------------- quantizers

void quantize_row_weighted_iq1_s(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_blocks<quantize_block_iq1_s, 50>(src, n, dst, importance);
}

void quantize_row_iq1_m(const float* src, int64_t n, uint8_t* dst) {
    quantize_blocks<quantize_block_iq1_m, 56>(src, n, dst, nullptr);
}

void quantize_row_weighted_iq1_m(const float* src, int64_t n, uint8_t* dst, const float* importance) {
    quantize_blocks<quantize_block_iq1_m, 56>(src, n, dst, importance);
}

}  // namespace skn_core::codec
