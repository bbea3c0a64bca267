// SPDX-License-Identifier: MIT
// The q32 kernels' variants ("far": the INPUT_BLOCK_MAJOR walk prefetching
// into L2; "ahead": Q8_0's ROW_MAJOR walk prefetching the next row tile)
// move prefetches and task sizes only: each gives the plain kernel's bits;
// the built-in tuning table picks them by core family and vendor; SKN_STREAM
// is checked like SKN_ISA.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <string>
#include <vector>

#include "dispatch/context.hpp"
#include "dispatch/kernel.hpp"
#include "dispatch/registry.hpp"
#include "dispatch/tuning.hpp"
#include "kernels/x86_64/q32/kernels.hpp"
#include "runtime/cpu.hpp"
#include "runtime/error.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

template <kernels::PackedKernelFn F>
void entry(const MatmulArgs& a, int64_t b, int64_t e) {
    F(kernels::packed_args(a), b, e);
}

struct Twin {
    FormatId f;
    MatmulKernelFn near, far;
};

namespace kx = kernels::x86_64;
const Twin kTwins[] = {
    {FormatId::Q4_0, entry<kx::q32_q4_0_q8_0_avx512vnni>, entry<kx::q32_q4_0_q8_0_far_avx512vnni>},
    {FormatId::Q8_0, entry<kx::q32_q8_0_q8_0_avx512vnni>, entry<kx::q32_q8_0_q8_0_far_avx512vnni>},
    {FormatId::IQ4_NL, entry<kx::q32_iq4_nl_q8_0_avx512vnni>, entry<kx::q32_iq4_nl_q8_0_far_avx512vnni>},
    {FormatId::Q5_0, entry<kx::q32_q5_0_q8_0_avx512vnni>, entry<kx::q32_q5_0_q8_0_far_avx512vnni>},
    {FormatId::Q4_1, entry<kx::q32_q4_1_q8_1_avx512vnni>, entry<kx::q32_q4_1_q8_1_far_avx512vnni>},
    {FormatId::Q5_1, entry<kx::q32_q5_1_q8_1_avx512vnni>, entry<kx::q32_q5_1_q8_1_far_avx512vnni>},
};

struct Case {
    FormatId f;
    int64_t out, bpr;
};

// A q32 kernel entry as q32/register.cpp makes one at the AVX-512 tiers
// (near task sizes).
Kernel q32_kernel(const char* name, FormatId f, LayoutClass c, skn_isa isa, MatmulKernelFn fn) {
    Kernel k;
    k.key = KernelKey{Op::MatmulWt, f, c, find_format(f)->activation, isa};
    k.name = name;
    k.fn = fn;
    k.needs = kNeedsQuantized;
    k.rows_per_task = 128;
    k.few_rows_per_task = 512;
    k.few_rows_max_n = 8;
    return k;
}

class Q32FarVariant : public ::testing::TestWithParam<Case> {};

// The far kernel gives the near kernel's bits in both orders (it is
// registered for INPUT_BLOCK_MAJOR; ROW_MAJOR runs the same walk either way),
// at the few-row sizes where the walk differs and at a batch size where it
// does not, with far tasks and on two threads.
TEST_P(Q32FarVariant, FarKernelGivesTheNearBits) {
    if (!cpu_runs(SKN_ISA_AVX512_VNNI)) GTEST_SKIP() << "no AVX512-VNNI: " << cpu_features_text();
    const Case c = GetParam();
    const Twin* twin = nullptr;
    for (const Twin& t : kTwins)
        if (t.f == c.f) twin = &t;
    ASSERT_NE(twin, nullptr);
    const FormatTraits& f = *find_format(c.f);
    const test::BothOrders inputs(f, c.out, c.bpr, 11 + uint64_t(c.bpr), 17, 3 + uint64_t(c.out), 9);
    const int64_t in = inputs.in;
    const std::vector<float>& x = inputs.x;
    const std::vector<float>& bias = inputs.bias;
    Kernel near = q32_kernel("near", c.f, LayoutClass::BlockedInputMajor, SKN_ISA_AVX512_VNNI, twin->near);
    Kernel far = q32_kernel("far", c.f, LayoutClass::BlockedInputMajor, SKN_ISA_AVX512_VNNI, twin->far);
    far.few_rows_per_task = 2048;
    for (const test::TestWeight* w : {&inputs.ibm, &inputs.rm})
        for (int64_t n : {1, 2, 4, 7, 8, 17}) {
            near.key.layout = far.key.layout = w->view.layout.layout_class();
            std::vector<float> yn(size_t(n * c.out), -3.0f), yf(size_t(n * c.out), -5.0f);
            test::run_with_kernel(near, w->view, x.data(), n, in, bias.data(), yn.data(), c.out, 2);
            test::run_with_kernel(far, w->view, x.data(), n, in, bias.data(), yf.data(), c.out, 2);
            ASSERT_EQ(std::memcmp(yn.data(), yf.data(), yf.size() * sizeof(float)), 0)
                << f.name << (w == &inputs.rm ? " rm" : " ibm") << " n=" << n;
        }
}

std::vector<Case> cases() {
    std::vector<Case> v;
    // out 4100: a ragged last tile and more than eight tiles ahead of the
    // first (the far walk's distance); 40: fewer tiles than the distance, so
    // the prefetch wraps to the next pass; bpr 9 and 20: one and three
    // eight-block passes with a tail.
    for (const Twin& t : kTwins)
        for (int64_t out : {40, 4100})
            for (int64_t bpr : {9, 20}) v.push_back({t.f, out, bpr});
    return v;
}

INSTANTIATE_TEST_SUITE_P(Q32, Q32FarVariant, ::testing::ValuesIn(cases()), [](const auto& p) {
    return test::case_name(p.param.f, {{"out", p.param.out}, {"bpr", p.param.bpr}});
});

// The kernel a context runs for `f` in order `c` at avx512vnni (no view, so
// any variant that would refuse one is not in the way).
const Kernel* chosen(FormatId f, LayoutClass c, skn_isa isa) {
    const Context ctx;
    return default_registry().best(f, c, find_format(f)->activation, isa, nullptr, &ctx.tuning());
}

// Zen 4 runs the far variant of every INPUT_BLOCK_MAJOR kernel that has
// one, Zen 5 of Q4_0's and IQ4_NL's, the other cores none; what the CPU is
// decides (the built-in table), unless SKN_STREAM or a tuning file says
// otherwise.
TEST(Q32Variants, FarChosenByCoreFamily) {
    if (!cpu_runs(SKN_ISA_AVX512_VNNI)) GTEST_SKIP() << "no AVX512-VNNI: " << cpu_features_text();
    const CpuFeatures& f = cpu_features();
    const char* env = std::getenv("SKN_STREAM");
    if (env != nullptr && *env != 0 && std::strcmp(env, "auto") != 0) GTEST_SKIP() << "SKN_STREAM=" << env;
    if (!Tuning::process().file().empty()) GTEST_SKIP() << "a tuning file is in force: " << Tuning::process().file();
    const bool zen4 = f.x86_amd && f.x86_family == 0x19 && f.avx512f;
    const bool zen5 = f.x86_amd && f.x86_family == 0x1a && f.avx512f;
    for (FormatId id : {FormatId::Q4_0, FormatId::Q8_0, FormatId::IQ4_NL, FormatId::Q5_0, FormatId::Q4_1,
                        FormatId::Q5_1}) {
        const Kernel* k = chosen(id, LayoutClass::BlockedInputMajor, SKN_ISA_AVX512_VNNI);
        ASSERT_NE(k, nullptr) << find_format(id)->name;
        const bool far = zen4 || (zen5 && (id == FormatId::Q4_0 || id == FormatId::IQ4_NL));
        EXPECT_EQ(k->variant, far ? "far" : "") << k->name << " on " << cpu_features_text();
        EXPECT_EQ(k->few_rows_per_task, far ? 2048 : id == FormatId::Q8_0 ? 256 : 512) << k->name;
    }
    // MXFP4 has no far variant; ROW_MAJOR never takes one.
    EXPECT_EQ(chosen(FormatId::MXFP4, LayoutClass::BlockedInputMajor, SKN_ISA_AVX512_VNNI)->variant, "");
    EXPECT_NE(chosen(FormatId::Q4_0, LayoutClass::BlockedRowMajor, SKN_ISA_AVX512_VNNI)->variant, "far");
}

// Q8_0's ROW_MAJOR few-row walk prefetches the next row tile on AMD cores
// only (the "ahead" variant), whatever SKN_STREAM says (it moves the
// INPUT_BLOCK_MAJOR walk).
TEST(Q32Variants, Q8RowMajorAheadChosenByVendor) {
    if (!Tuning::process().file().empty()) GTEST_SKIP() << "a tuning file is in force: " << Tuning::process().file();
    const CpuFeatures& f = cpu_features();
    int checked = 0;
    for (skn_isa isa : {SKN_ISA_AVX512, SKN_ISA_AVX512_VNNI}) {
        if (!cpu_runs(isa)) continue;
        const Kernel* k = chosen(FormatId::Q8_0, LayoutClass::BlockedRowMajor, isa);
        ASSERT_NE(k, nullptr);
        EXPECT_EQ(k->variant, f.x86_amd ? "ahead" : "") << k->name << " on " << cpu_features_text();
        ++checked;
    }
    if (checked == 0) GTEST_SKIP() << "no AVX-512: " << cpu_features_text();
}

template <kernels::PackedKernelFn F, bool kAhead>
void entry_ahead(const MatmulArgs& a, int64_t b, int64_t e) {
    kernels::PackedArgs p = kernels::packed_args(a);
    p.row_tile_ahead = kAhead;
    F(p, b, e);
}

struct AheadPair {
    FormatId f;
    skn_isa isa;
    MatmulKernelFn with, without;
};

// The ROW_MAJOR next-tile prefetch, taken or not (PackedArgs::row_tile_ahead,
// and rows longer than one 128-block chunk, which never take it), leaves
// the bits as they are: rows of one chunk and of two, a ragged last tile,
// activation tiles of 1 ... 8 rows and a batch past them, two threads.
TEST(Q32RowTileAhead, TakenOrNotTheBitsAreTheSame) {
    const AheadPair pairs[] = {
        {FormatId::Q8_0, SKN_ISA_AVX512_VNNI, entry_ahead<kx::q32_q8_0_q8_0_avx512vnni, true>,
         entry_ahead<kx::q32_q8_0_q8_0_avx512vnni, false>},
        {FormatId::Q4_0, SKN_ISA_AVX512_VNNI, entry_ahead<kx::q32_q4_0_q8_0_avx512vnni, true>,
         entry_ahead<kx::q32_q4_0_q8_0_avx512vnni, false>},
        {FormatId::Q8_0, SKN_ISA_AVX512, entry_ahead<kx::q32_q8_0_q8_0_avx512, true>,
         entry_ahead<kx::q32_q8_0_q8_0_avx512, false>},
    };
    int ran = 0;
    for (const AheadPair& pr : pairs) {
        if (!cpu_runs(pr.isa)) continue;
        const FormatTraits& f = *find_format(pr.f);
        for (int64_t bpr : {9, 130}) {
            const test::BothOrders inputs(f, 100, bpr, 5 + uint64_t(bpr), 17, 13, 3);
            const Kernel with = q32_kernel("with", pr.f, LayoutClass::BlockedRowMajor, pr.isa, pr.with);
            const Kernel without = q32_kernel("without", pr.f, LayoutClass::BlockedRowMajor, pr.isa, pr.without);
            for (int64_t n : {1, 2, 5, 8, 17}) {
                std::vector<float> yw(size_t(n * 100), -3.0f), yo(size_t(n * 100), -5.0f);
                test::run_with_kernel(with, inputs.rm.view, inputs.x.data(), n, inputs.in, inputs.bias.data(),
                                      yw.data(), 100, 2);
                test::run_with_kernel(without, inputs.rm.view, inputs.x.data(), n, inputs.in, inputs.bias.data(),
                                      yo.data(), 100, 2);
                ASSERT_EQ(std::memcmp(yw.data(), yo.data(), yw.size() * sizeof(float)), 0)
                    << f.name << " " << isa_tag(pr.isa) << " bpr=" << bpr << " n=" << n;
                ++ran;
            }
        }
    }
    if (ran == 0) GTEST_SKIP() << "no AVX-512: " << cpu_features_text();
}

TEST(Q32Variants, BadStreamEnvironmentValueIsRefusedByContexts) {
    const char* old = std::getenv("SKN_STREAM");
    const std::string saved = old != nullptr ? old : "";
    ASSERT_EQ(setenv("SKN_STREAM", "fast", 1), 0);
    const char* bad = nullptr;
    EXPECT_FALSE(stream_env_valid(&bad));
    EXPECT_STREQ(bad, "fast");
    try {
        Context ctx;
        ADD_FAILURE() << "a context was created with SKN_STREAM=fast";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
        EXPECT_NE(std::string(e.what()).find("auto, near, far"), std::string::npos) << e.what();
    }
    for (const char* ok : {"auto", "near", "far"}) {
        ASSERT_EQ(setenv("SKN_STREAM", ok, 1), 0);
        EXPECT_TRUE(stream_env_valid(&bad)) << ok;
        EXPECT_NO_THROW(Context ctx) << ok;
    }
    if (old != nullptr) setenv("SKN_STREAM", saved.c_str(), 1);
    else unsetenv("SKN_STREAM");
}

}  // namespace
}  // namespace skn_core
