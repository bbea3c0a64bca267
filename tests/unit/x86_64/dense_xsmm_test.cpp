// SPDX-License-Identifier: MIT
// The libxsmm path of the AVX-512 F32 dense kernel: each y element is the
// plain in-order fma chain over `in` (what makes it split-independent), the
// short last tile and refused shapes fall back to our kernel bit for bit, and
// the packer transposes. Also: the dense kernels sit at the tier their flags
// need. (The differential suite covers n <= 16; these tests use n >= 128.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "kernels/x86_64/dense/kernels.hpp"
#include "kernels/x86_64/dense/libxsmm_backend.hpp"

namespace skn_core {
namespace {

using kernels::PackedArgs;

struct F32Case {
    int64_t out, in, n;
    std::vector<float> w, x, bias;
    View view;
    F32Case(int64_t o, int64_t i, int64_t rows, uint64_t seed) : out(o), in(i), n(rows) {
        w.resize(size_t(out * in));
        x.resize(size_t(n * in));
        bias.resize(size_t(out));
        sample_weight(w.data(), out, in, seed);
        sample_weight(x.data(), n, in, seed + 1);
        sample_weight(bias.data(), 1, out, seed + 2);
        const int64_t shape[2] = {out, in};
        view = make_view(w.data(), w.size() * 4, *find_format(FormatId::F32), shape, 2, BlockOrder::RowMajor);
    }
    // The registered AVX-512 F32 kernel over the given row ranges.
    std::vector<float> run(const std::vector<int64_t>& cuts) const {
        const Kernel* k = default_registry().best(FormatId::F32, LayoutClass::Contiguous, FormatId::F32, SKN_ISA_AVX512,
                                                  &view.layout);
        EXPECT_EQ(k->name, "matmul_wt_f32_dense_f32_avx512");
        std::vector<float> y(size_t(n * out), -1.0f);
        MatmulArgs a;
        a.w = &view;
        a.out = out;
        a.in = in;
        a.n = n;
        a.xf = x.data();
        a.xf_stride = in;
        a.bias = bias.data();
        a.y = y.data();
        a.y_stride = out;
        for (size_t c = 0; c + 1 < cuts.size(); ++c) k->fn(a, cuts[c], cuts[c + 1]);
        return y;
    }
    // Our AVX-512 kernel alone.
    std::vector<float> own() const {
        std::vector<float> y(size_t(n * out), -1.0f);
        PackedArgs d;
        d.w = reinterpret_cast<const uint8_t*>(w.data());
        d.so = in * 4;
        d.sb = 4;
        d.bpr = in;
        d.out = out;
        d.in = in;
        d.n = n;
        d.xf = x.data();
        d.xf_stride = in;
        d.bias = bias.data();
        d.y = y.data();
        d.y_stride = out;
        kernels::x86_64::f32_f32_avx512(d, 0, out);
        return y;
    }
    float chain(int64_t i, int64_t o) const {
        float c = 0.0f;
        for (int64_t k = 0; k < in; ++k) c = std::fma(w[size_t(o * in + k)], x[size_t(i * in + k)], c);
        return c + bias[size_t(o)];
    }
};

bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

class DenseXsmm : public ::testing::Test {
protected:
    void SetUp() override {
        if (!cpu_runs(SKN_ISA_AVX512)) GTEST_SKIP() << "needs AVX-512";
    }
};

// Rows in tiles of 17..32 come from libxsmm when it serves the shape (an
// in-order fma chain per element); rows of a last tile of 16 or fewer, and
// every row when it does not, from our kernel.
TEST_F(DenseXsmm, LibxsmmRowsAreTheInOrderChainOthersOurKernel) {
    struct Shape {
        int64_t out, in, n;
    };
    // out 69: tiles 32, 32, 5 (ours); out 50: tiles 32, 18; in 4136: four k blocks + 40.
    for (const Shape s : {Shape{69, 300, 128}, Shape{50, 4136, 129}, Shape{40, 64, 257}}) {
        F32Case c(s.out, s.in, s.n, 11);
        const std::vector<float> y = c.run({0, s.out});
        const std::vector<float> own = c.own();
        const bool served = xsmm_sgemm(32, s.n, s.in % 1024 != 0 ? s.in % 1024 : 1024, s.in) != nullptr;
        int64_t chain_rows = 0;
        for (int64_t o = 0; o < s.out; ++o) {
            const bool short_tile = s.out - o / 32 * 32 < 17;
            for (int64_t i = 0; i < s.n; ++i) {
                const float v = y[size_t(i * s.out + o)];
                if (served && !short_tile)
                    ASSERT_TRUE(same_bits(v, c.chain(i, o))) << "out " << s.out << " in " << s.in << " n " << s.n
                                                              << " row " << o << " act " << i;
                else
                    ASSERT_TRUE(same_bits(v, own[size_t(i * s.out + o)])) << "row " << o << " act " << i;
            }
            chain_rows += served && !short_tile;
        }
        if (served) {
            EXPECT_GT(chain_rows, 0);
        }
    }
}

TEST_F(DenseXsmm, AnySplitOfTheRowsGivesTheSameBits) {
    F32Case c(101, 520, 130, 21);  // tiles 32, 32, 32, 5
    const std::vector<float> whole = c.run({0, 101});
    for (const std::vector<int64_t>& cuts :
         {std::vector<int64_t>{0, 1, 2, 40, 101}, {0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 101},
          {0, 32, 64, 96, 97, 101}, {0, 50, 100, 101}}) {
        const std::vector<float> y = c.run(cuts);
        EXPECT_EQ(std::memcmp(whole.data(), y.data(), y.size() * 4), 0) << "cuts starting " << cuts[1];
    }
    // Through matmul_wt with 1, 2 and 3 threads, twice each.
    for (int threads : {1, 2, 3})
        for (int rep = 0; rep < 2; ++rep) {
            Context ctx;
            ctx.set_threads(threads);
            ctx.set_isa_cap(SKN_ISA_AVX512);
            std::vector<float> y(whole.size());
            matmul_wt(ctx, c.x.data(), c.n, c.in, c.view, c.bias.data(), y.data(), c.out, MatmulOptions{});
            EXPECT_EQ(std::memcmp(whole.data(), y.data(), y.size() * 4), 0) << threads << " threads";
        }
}

// Below kXsmmMinRows, and for a shape libxsmm refused, the kernel is ours.
TEST_F(DenseXsmm, FallbackIsOurKernel) {
    {
        F32Case c(70, 200, kernels::x86_64::kXsmmMinRows - 1, 31);
        EXPECT_EQ(c.run({0, 70}), c.own());
    }
    F32Case c(70, 200, 131, 32);  // a shape no other test asks libxsmm for
    xsmm_refuse_new_shapes_for_testing(true);
    const std::vector<float> refused = c.run({0, 70});
    xsmm_refuse_new_shapes_for_testing(false);
    EXPECT_EQ(refused, c.own());
    // Refusal is not remembered: the same shape now takes libxsmm if it can,
    // and then keeps taking it.
    const std::vector<float> again = c.run({0, 70});
    EXPECT_EQ(again, c.run({0, 35, 70}));
}

TEST_F(DenseXsmm, TransposePacksColumnMajor) {
    for (int64_t rows : {1, 15, 16, 17, 32})
        for (int64_t cols : {1, 3, 16, 33}) {
            const int64_t stride = cols + 5;
            std::vector<uint32_t> src(size_t(rows * stride));
            for (size_t k = 0; k < src.size(); ++k) src[k] = uint32_t(k * 2654435761u);
            std::vector<uint32_t> dst(size_t(rows * cols) + 16, 0xDEADBEEF);
            kernels::x86_64::transpose32_avx512(reinterpret_cast<const uint8_t*>(src.data()), stride * 4, rows, cols,
                                             dst.data());
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t k = 0; k < cols; ++k)
                    ASSERT_EQ(dst[size_t(k * rows + r)], src[size_t(r * stride + k)]) << rows << "x" << cols;
            for (size_t k = size_t(rows * cols); k < dst.size(); ++k) ASSERT_EQ(dst[k], 0xDEADBEEF) << "wrote past the end";
        }
}

// F32, F16 and BF16 x F32 kernels need no VNNI: they live at the avx512 tier
// (so an AVX-512 CPU without VNNI gets them), not at avx512vnni.
TEST(DenseTiers, NoVnniKernelsSitAtTheAvx512Tier) {
    const Registry& r = default_registry();
    for (auto [w, act] : {std::pair{FormatId::F32, FormatId::F32}, std::pair{FormatId::F16, FormatId::F32},
                          std::pair{FormatId::BF16, FormatId::F32}, std::pair{FormatId::F16, FormatId::F16}}) {
        int at512 = 0, at_vnni = 0;
        for (const Kernel& k : r.kernels()) {
            if (k.key.weight != w || k.key.activation != act || k.key.layout != LayoutClass::Contiguous) continue;
            at512 += k.key.isa == SKN_ISA_AVX512;
            at_vnni += k.key.isa == SKN_ISA_AVX512_VNNI;
        }
        EXPECT_EQ(at512, 1) << int(w) << " x " << int(act);
        EXPECT_EQ(at_vnni, 0) << int(w) << " x " << int(act);
    }
}

TEST(DenseBackend, LibxsmmIsLinked) {
    const std::string d = dense_backend_description();
    EXPECT_NE(d.find("libxsmm 1."), std::string::npos) << d;
    EXPECT_EQ(d.find("unknown"), std::string::npos) << d;
}

}  // namespace
}  // namespace skn_core
