// SPDX-License-Identifier: MIT
// Scale searches for the K-quants. The order of every float operation below is
// part of the format's reference encoding (see k_quants_search.hpp): do not
// "simplify" a*b*c into a*(b*c), hoist a product, or merge loops that
// accumulate in a different order. This file is built with -ffp-contract=off.
#include "formats/k_quants_search.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace skn_core::codec::kquant {

namespace {

constexpr int kMaxSubBlock = 32;

int clamp_code(int l, int lo, int hi) { return std::max(lo, std::min(hi, l)); }

// The element of largest magnitude (the first one on ties), with its sign.
float signed_absmax(int n, const float* x, float* magnitude) {
    float max = 0.0f;
    float amax = 0.0f;
    for (int i = 0; i < n; ++i) {
        const float ax = std::fabs(x[i]);
        if (ax > amax) {
            amax = ax;
            max = x[i];
        }
    }
    *magnitude = amax;
    return max;
}

// Weighted error of x ~ scale * code + offset, summed in index order.
float affine_error(int n, const float* x, const float* weights, const uint8_t* codes, float scale, float offset,
                   bool absolute_error) {
    float error = 0.0f;
    for (int i = 0; i < n; ++i) {
        float diff = scale * float(codes[i]) + offset - x[i];
        diff = absolute_error ? std::fabs(diff) : diff * diff;
        error += weights[i] * diff;
    }
    return error;
}

}  // namespace

float fit_affine(int n, int nmax, const float* x, const float* weights, const AffineSweep& sweep, uint8_t* codes,
                 float* min_offset) {
    // `offset` is the additive term of the model (<= 0); the caller stores its negation.
    float offset = x[0];
    float max = x[0];
    float sum_w = weights[0];
    float sum_x = sum_w * x[0];
    for (int i = 1; i < n; ++i) {
        if (x[i] < offset) offset = x[i];
        if (x[i] > max) max = x[i];
        const float w = weights[i];
        sum_w += w;
        sum_x += w * x[i];
    }
    if (offset > 0.0f) offset = 0.0f;  // the offset only ever pulls values down
    if (max == offset) {
        std::fill(codes, codes + n, uint8_t(0));
        *min_offset = -offset;
        return 0.0f;
    }

    // Starting point: spread [offset, max] evenly over the nmax + 1 codes.
    float inv_scale = float(nmax) / (max - offset);
    float scale = 1.0f / inv_scale;
    for (int i = 0; i < n; ++i)
        codes[i] = uint8_t(clamp_code(round_to_int(inv_scale * (x[i] - offset)), 0, nmax));
    float best_error = affine_error(n, x, weights, codes, scale, offset, sweep.absolute_error);

    // Sweep slightly different code spreads; for each, solve the weighted least
    // squares for (scale, offset) given the codes and keep the best fit.
    std::array<uint8_t, kMaxSubBlock> trial{};
    for (int step = 0; step <= sweep.steps; ++step) {
        inv_scale = (sweep.first_offset + sweep.offset_step * float(step) + float(nmax)) / (max - offset);
        float sum_l = 0.0f, sum_l2 = 0.0f, sum_xl = 0.0f;
        for (int i = 0; i < n; ++i) {
            const int l = clamp_code(round_to_int(inv_scale * (x[i] - offset)), 0, nmax);
            trial[size_t(i)] = uint8_t(l);
            const float w = weights[i];
            sum_l += w * float(l);
            sum_l2 += w * float(l) * float(l);
            sum_xl += w * float(l) * x[i];
        }
        const float det = sum_w * sum_l2 - sum_l * sum_l;
        if (!(det > 0.0f)) continue;
        float trial_scale = (sum_w * sum_xl - sum_x * sum_l) / det;
        float trial_offset = (sum_l2 * sum_x - sum_l * sum_xl) / det;
        if (trial_offset > 0.0f) {  // a positive offset is not representable: refit the scale alone
            trial_offset = 0.0f;
            trial_scale = sum_xl / sum_l2;
        }
        const float error = affine_error(n, x, weights, trial.data(), trial_scale, trial_offset, sweep.absolute_error);
        if (error < best_error) {
            std::copy(trial.begin(), trial.begin() + n, codes);
            best_error = error;
            scale = trial_scale;
            offset = trial_offset;
        }
    }
    *min_offset = -offset;
    return scale;
}

float fit_symmetric_sweep(int n, int nmax, const float* x, int8_t* codes, const float* weights) {
    float amax = 0.0f;
    const float max = signed_absmax(n, x, &amax);
    if (amax < kAllZeroBelow) {
        std::fill(codes, codes + n, int8_t(0));
        return 0.0f;
    }

    // Weighted least-squares scale for the codes that `inv_scale` produces,
    // as the pair (sum w*x*l, sum w*l*l) with w = x^2.
    struct Sums {
        float lx = 0.0f;
        float l2 = 0.0f;
    };
    auto sums_for = [&](float inv_scale, bool store_codes) {
        Sums s;
        for (int i = 0; i < n; ++i) {
            const int l = clamp_code(round_to_int(inv_scale * x[i]), -nmax, nmax - 1);
            if (store_codes) codes[i] = int8_t(l + nmax);
            const float w = weights != nullptr ? weights[i] : x[i] * x[i];
            s.lx += w * x[i] * float(l);
            s.l2 += w * float(l) * float(l);
        }
        return s;
    };

    Sums s = sums_for(float(-nmax) / max, true);
    float scale = s.l2 != 0.0f ? s.lx / s.l2 : 0.0f;
    float best = scale * s.lx;
    for (int k = -9; k <= 9; ++k) {
        if (k == 0) continue;
        const float inv_scale = -(float(nmax) + 0.1f * float(k)) / max;
        s = sums_for(inv_scale, false);
        if (s.l2 > 0.0f && s.lx * s.lx > best * s.l2) {
            for (int i = 0; i < n; ++i)
                codes[i] = int8_t(nmax + clamp_code(round_to_int(inv_scale * x[i]), -nmax, nmax - 1));
            scale = s.lx / s.l2;
            best = scale * s.lx;
        }
    }
    return scale;
}

float fit_symmetric_refine(int n, int nmax, const float* x, int8_t* codes) {
    float amax = 0.0f;
    const float max = signed_absmax(n, x, &amax);
    if (amax < kAllZeroBelow) {
        std::fill(codes, codes + n, int8_t(0));
        return 0.0f;
    }

    // Codes are kept signed (-nmax .. nmax-1) while refining.
    const float inv_scale = float(-nmax) / max;
    float sum_lx = 0.0f;
    float sum_l2 = 0.0f;
    for (int i = 0; i < n; ++i) {
        const int l = clamp_code(round_to_int(inv_scale * x[i]), -nmax, nmax - 1);
        codes[i] = int8_t(l);
        const float w = x[i] * x[i];
        sum_lx += w * x[i] * float(l);
        sum_l2 += w * float(l) * float(l);
    }

    // Re-pick each code as the best one for the scale the other codes imply,
    // accepting it when it raises sum_lx^2 / sum_l2 (i.e. lowers the error).
    for (int pass = 0; pass < 5; ++pass) {
        int changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = x[i] * x[i];
            const float old_l = float(codes[i]);
            float lx = sum_lx - w * x[i] * old_l;
            if (!(lx > 0.0f)) continue;
            float l2 = sum_l2 - w * old_l * old_l;
            const int new_l = clamp_code(round_to_int(x[i] * l2 / lx), -nmax, nmax - 1);
            if (new_l == codes[i]) continue;
            lx += w * x[i] * float(new_l);
            l2 += w * float(new_l) * float(new_l);
            if (l2 > 0.0f && lx * lx * sum_l2 > sum_lx * sum_lx * l2) {
                codes[i] = int8_t(new_l);
                sum_lx = lx;
                sum_l2 = l2;
                ++changed;
            }
        }
        if (changed == 0) break;
    }
    for (int i = 0; i < n; ++i) codes[i] = int8_t(codes[i] + nmax);
    return sum_l2 > 0.0f ? sum_lx / sum_l2 : 0.0f;
}

float fit_positive(int n, int nmax, const float* x, const float* weights, uint8_t* codes) {
    float max = 0.0f;
    for (int i = 0; i < n; ++i) max = std::max(max, x[i]);
    if (max < kAllZeroBelow) {
        std::fill(codes, codes + n, uint8_t(0));
        return 0.0f;
    }
    // Codes are stored as bytes between steps, so a negative input's code
    // wraps (e.g. -1 -> 255) and later steps read it back wrapped: the
    // reference does the same, and the bytes must agree.
    float inv_scale = float(nmax) / max;
    for (int i = 0; i < n; ++i) codes[i] = uint8_t(round_to_int(inv_scale * x[i]));
    const float first_scale = 1.0f / inv_scale;
    float best_error = 0.0f;
    for (int i = 0; i < n; ++i) {
        const float diff = x[i] - first_scale * float(codes[i]);
        best_error += weights[i] * diff * diff;
    }
    // Coarse sweep: which inverse scale (nmax + 0.1 k) / max fits best, capping
    // codes at nmax but not at 0.
    for (int k = -4; k <= 4; ++k) {
        if (k == 0) continue;
        const float trial_inv = (0.1f * float(k) + float(nmax)) / max;
        const float trial_scale = 1.0f / trial_inv;
        float error = 0.0f;
        for (int i = 0; i < n; ++i) {
            const int l = std::min(nmax, round_to_int(trial_inv * x[i]));
            const float diff = x[i] - trial_scale * float(l);
            error += weights[i] * diff * diff;
        }
        if (error < best_error) {
            best_error = error;
            inv_scale = trial_inv;
        }
    }
    float sum_lx = 0.0f;
    float sum_l2 = 0.0f;
    for (int i = 0; i < n; ++i) {
        const int l = std::min(nmax, round_to_int(inv_scale * x[i]));
        codes[i] = uint8_t(l);
        const float w = weights[i];
        sum_lx += w * x[i] * float(l);
        sum_l2 += w * float(l) * float(l);
    }
    // Then refine one code at a time, as fit_symmetric_refine does, reading
    // each current code back as the byte it was stored as.
    for (int pass = 0; pass < 5; ++pass) {
        int changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = weights[i];
            const float old_l = float(codes[i]);
            float lx = sum_lx - w * x[i] * old_l;
            float l2 = sum_l2 - w * old_l * old_l;
            if (!(lx > 0.0f && l2 > 0.0f)) continue;
            const int new_l = std::min(nmax, round_to_int(x[i] * l2 / lx));
            if (new_l == int(codes[i])) continue;
            lx += w * x[i] * float(new_l);
            l2 += w * float(new_l) * float(new_l);
            if (lx * lx * sum_l2 > sum_lx * sum_lx * l2) {
                codes[i] = uint8_t(new_l);
                sum_lx = lx;
                sum_l2 = l2;
                ++changed;
            }
        }
        if (changed == 0) break;
    }
    return sum_l2 > 0.0f ? sum_lx / sum_l2 : 0.0f;
}

}  // namespace skn_core::codec::kquant
