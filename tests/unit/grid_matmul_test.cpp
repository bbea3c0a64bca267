// SPDX-License-Identifier: MIT
// The grid formats' reference kernel through matmul_wt (what skn_matmul_wt
// calls, here capped at scalar so that the reference runs), in either order
// and precision: its result is the decoded weight times x (fast precision:
// x as its Q8_K blocks decode) in the reference kernel's documented order
// (float partial sum per block, in index order, added in block order). The
// registry-driven suites (AllKernels/..., BlockFormatKernels/...) cover every
// kernel on odd shapes; grid_kernels_test.cpp the fast SIMD kernels' tiers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/block_order.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

// y[i, o] in the reference kernel's accumulation order.
std::vector<float> decode_then_dot(const std::vector<float>& w, int64_t out, int64_t in, int64_t block,
                                   const std::vector<float>& x, int64_t n) {
    std::vector<float> y(size_t(n * out));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t o = 0; o < out; ++o) {
            float acc = 0.0f;
            for (int64_t b = 0; b < in / block; ++b) {
                float partial = 0.0f;
                for (int64_t j = b * block; j < (b + 1) * block; ++j)
                    partial += w[size_t(o * in + j)] * x[size_t(i * in + j)];
                acc += partial;
            }
            y[size_t(i * out + o)] = acc;
        }
    return y;
}

class GridMatmul : public ::testing::TestWithParam<FormatId> {};

TEST_P(GridMatmul, SevenBy768AgreesWithDecodeAndFloatDot) {
    const FormatTraits& f = *find_format(GetParam());
    const int64_t out = 7, n = 3;
    for (LayoutClass cls : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
        test::TestWeight w(f, out, 3, cls, 11);
        ASSERT_EQ(w.in, 768);
        std::vector<float> x(size_t(n * w.in));
        sample_weight(x.data(), n, w.in, 5);
        // Fast precision multiplies by the activations as their Q8_K blocks
        // hold them (the pairing integer kernels use); exact by x itself.
        const FormatTraits& act = *find_format(f.activation);
        ASSERT_EQ(act.id, FormatId::Q8_K);
        std::vector<uint8_t> xq(quantized_size(act, n, w.in));
        quantize_tensor(act, x.data(), n, w.in, xq.data(), xq.size());
        std::vector<float> x_fast(x.size());
        dequantize_tensor(act, xq.data(), xq.size(), n, w.in, x_fast.data(), x_fast.size());
        for (Precision p : {Precision::Fast, Precision::Exact}) {
            const auto want = decode_then_dot(w.decoded, out, w.in, f.block_elems, p == Precision::Fast ? x_fast : x, n);
            double scale = 0;
            for (float v : want) scale = std::max(scale, double(std::fabs(v)));
            ASSERT_GT(scale, 0.0) << f.name << ": a zero product would not test anything";
            Context ctx;
            ctx.set_isa_cap(SKN_ISA_SCALAR);
            MatmulOptions o;
            o.precision = p;
            std::vector<float> y(size_t(n * out), -1.0f);
            matmul_wt(ctx, x.data(), n, w.in, w.view, nullptr, y.data(), out, o);
            EXPECT_EQ(std::memcmp(y.data(), want.data(), y.size() * sizeof(float)), 0)
                << f.name << " " << layout_class_name(cls) << " precision " << int(p);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Grid, GridMatmul,
                         ::testing::Values(FormatId::IQ2_XXS, FormatId::IQ2_XS, FormatId::IQ2_S, FormatId::IQ1_S,
                                           FormatId::IQ1_M),
                         [](const auto& param_info) { return std::string(find_format(param_info.param)->name); });

}  // namespace
}  // namespace skn_core
