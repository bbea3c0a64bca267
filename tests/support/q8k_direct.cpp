// SPDX-License-Identifier: MIT
#include "support/q8k_direct.hpp"

#include <cmath>
#include <cstring>

namespace skn_core::test {

std::vector<uint8_t> extreme_q8k_activations(int64_t n, int64_t bpr, std::mt19937& rng) {
    std::vector<uint8_t> x(size_t(n * bpr * kQ8kBytes));
    for (int64_t k = 0; k < n * bpr; ++k) {
        uint8_t* blk = x.data() + k * kQ8kBytes;
        const int pattern = int(rng() % 4);
        const float d = (rng() % 2 ? 1.0f : -1.0f) * float(1 + rng() % 100) / 512.0f;
        std::memcpy(blk, &d, 4);
        int8_t q[kQ8kElems];
        for (int e = 0; e < kQ8kElems; ++e)
            q[e] = int8_t(pattern == 0   ? -128
                          : pattern == 1 ? 127
                          : pattern == 2 ? (e % 2 ? 127 : -128)
                                         : int(rng() % 256) - 128);
        std::memcpy(blk + 4, q, kQ8kElems);
        for (int j = 0; j < 16; ++j) {
            int s = 0;
            for (int l = 0; l < 16; ++l) s += q[16 * j + l];
            const int16_t s16 = int16_t(s);
            std::memcpy(blk + 4 + kQ8kElems + 2 * j, &s16, 2);
        }
    }
    return x;
}

std::vector<float> run_q8k_kernel_direct(const Kernel& k, const View& w, int64_t out, int64_t in,
                                         const std::vector<uint8_t>& xq, int64_t n, int64_t rows_per_call) {
    std::vector<float> y(size_t(n * out), std::nanf(""));
    MatmulArgs a;
    a.w = &w;
    a.out = out;
    a.in = in;
    a.n = n;
    a.xq = xq.data();
    a.xq_stride = size_t(in / kQ8kElems * kQ8kBytes);
    a.y = y.data();
    a.y_stride = out;
    for (int64_t o = 0; o < out; o += rows_per_call) k.fn(a, o, o + rows_per_call < out ? o + rows_per_call : out);
    return y;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace skn_core::test
