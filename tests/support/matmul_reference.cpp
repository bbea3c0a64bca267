// SPDX-License-Identifier: MIT
#include "support/matmul_reference.hpp"

#include <algorithm>
#include <cmath>

namespace skn_core::test {

namespace {
std::vector<float> effective_activations(const float* x, int64_t n, int64_t x_stride, int64_t in, FormatId act) {
    std::vector<float> xe(size_t(n * in));
    const FormatTraits& af = *find_format(act);
    if (act == FormatId::F32) {
        for (int64_t i = 0; i < n; ++i) std::copy(x + i * x_stride, x + i * x_stride + in, xe.begin() + i * in);
        return xe;
    }
    std::vector<uint8_t> q(size_t(in / af.block_elems) * size_t(af.block_bytes));
    for (int64_t i = 0; i < n; ++i) {
        af.quantize_row(x + i * x_stride, in, q.data());
        af.decode(q.data(), in / af.block_elems, 1.0f, xe.data() + i * in);
    }
    return xe;
}
}  // namespace

Reference reference_matmul(const std::vector<float>& wd, int64_t out, int64_t in, const float* x, int64_t n,
                           int64_t x_stride, const float* bias, FormatId activation) {
    const std::vector<float> xe = effective_activations(x, n, x_stride, in, activation);
    Reference r;
    r.y.resize(size_t(n * out));
    r.bound.resize(size_t(n * out));
    const double u = std::ldexp(1.0, -23);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t o = 0; o < out; ++o) {
            double acc = 0, mag = 0;
            for (int64_t k = 0; k < in; ++k) {
                const double p = double(wd[size_t(o * in + k)]) * double(xe[size_t(i * in + k)]);
                acc += p;
                mag += std::fabs(p);
            }
            if (bias != nullptr) {
                acc += bias[o];
                mag += std::fabs(double(bias[o]));
            }
            r.y[size_t(i * out + o)] = acc;
            r.bound[size_t(i * out + o)] = double(in + 2) * u * mag + 1e-30;
        }
    return r;
}

std::vector<double> activation_error_bound(const std::vector<float>& wd, int64_t out, int64_t in, const float* x,
                                           int64_t n, int64_t x_stride, FormatId act) {
    std::vector<double> b(size_t(n * out), 0.0);
    if (act == FormatId::F32) return b;
    const FormatTraits& af = *find_format(act);
    std::vector<double> e(static_cast<size_t>(in));
    for (int64_t i = 0; i < n; ++i) {
        const float* xr = x + i * x_stride;
        for (int64_t b0 = 0; b0 < in; b0 += af.block_elems) {
            double amax = 0;
            for (int64_t k = b0; k < b0 + af.block_elems; ++k) amax = std::max(amax, std::fabs(double(xr[k])));
            // int8 codes: half a step of amax/127, and the scale's own rounding
            // (fp16 for Q8_0/Q8_1, a relative 2^-11) moves each code by <= 127 * 2^-11 steps.
            double step = amax / 127.0;
            double err = af.block_bytes == af.block_elems * 2 ? std::fabs(amax) * std::ldexp(1.0, -8)  // F16/BF16
                                                               : step * (0.5 + 127.0 * std::ldexp(1.0, -11));
            for (int64_t k = b0; k < b0 + af.block_elems; ++k) e[size_t(k)] = err;
        }
        for (int64_t o = 0; o < out; ++o) {
            double s = 0;
            for (int64_t k = 0; k < in; ++k) s += std::fabs(double(wd[size_t(o * in + k)])) * e[size_t(k)];
            b[size_t(i * out + o)] = s;
        }
    }
    return b;
}

}  // namespace skn_core::test
