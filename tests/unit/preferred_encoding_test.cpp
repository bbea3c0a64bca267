// SPDX-License-Identifier: MIT
// preferred_encoding (dispatch/matmul.hpp): the format and order
// skn_prepack_for_matmul gives a weight. A tuning "prefer" row may name the
// format's row-interleaved twin (or the canonical format, in an order); it
// is taken only where the weight can hold it (out a multiple of the twin's
// R) and a kernel of the same tier reads it.
//
// The registry is a test one: the reference kernels, plus the reference
// kernel registered again under this CPU's best tier for Q4_0 (both orders)
// and Q4_0_R8 (ROW_MAJOR only), so that "a SIMD kernel at the same tier"
// exists for both without depending on which real kernels are built.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "dispatch/context.hpp"
#include "dispatch/matmul.hpp"
#include "dispatch/registry.hpp"
#include "dispatch/tuning.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "runtime/cpu.hpp"
#include "runtime/isa.hpp"
#include "support/matmul_harness.hpp"

namespace skn_core {
namespace {

using test::TestWeight;

void add_pretend_simd(Registry* r, FormatId f, LayoutClass cls, skn_isa tier) {
    Kernel k = *r->best(f, cls, FormatId::Q8_0, SKN_ISA_SCALAR, nullptr);
    k.key.isa = tier;
    k.name = kernel_name(k.key);
    r->add(k);
}

class PreferredEncoding : public ::testing::Test {
protected:
    void SetUp() override {
        tier_ = detected_isa();
        if (tier_ == SKN_ISA_SCALAR) GTEST_SKIP() << "this CPU runs no SIMD tier for the pretend kernels";
        register_reference_kernels(reg_);
        add_pretend_simd(&reg_, FormatId::Q4_0, LayoutClass::BlockedRowMajor, tier_);
        add_pretend_simd(&reg_, FormatId::Q4_0, LayoutClass::BlockedInputMajor, tier_);
        add_pretend_simd(&reg_, FormatId::Q4_0_R8, LayoutClass::BlockedRowMajor, tier_);
        ctx_.set_registry(&reg_);
        ctx_.set_isa_cap(tier_);
    }

    // What skn_prepack_for_matmul does (capi/api_matmul.cpp): the encoding
    // one expert's slice gets, then the whole weight converted to it.
    View prepack_for_matmul(const View& w) {
        const Layout& l = w.layout;
        const View one = l.rank == 3 ? with_layout(w, select(l, 0, 0)) : w;
        const Encoding to = preferred_encoding(ctx_, one);
        View packed;
        return convert(w, *to.format, to.order, &scope_, TraceSink{}, &packed) ? packed : w;
    }

    skn_isa tier_ = SKN_ISA_SCALAR;
    Registry reg_;
    Context ctx_;
    Scope scope_;
};

const FormatTraits& q4_0() { return *find_format(FormatId::Q4_0); }
const FormatTraits& q4_0_r8() { return *find_format(FormatId::Q4_0_R8); }

TEST_F(PreferredEncoding, WithoutAPreferRowTheFormatStays) {
    // No rows at all: this CPU's built-in table or a tuning file may prefer
    // Q4_0's twin (the Zen 5 row does).
    ctx_.set_tuning_table(Tuning({}, cpu_features()));
    ASSERT_EQ(ctx_.tuning().prefer("Q4_0", "gemv", isa_tag(tier_)), nullptr);
    const TestWeight w(q4_0(), 16, 3, LayoutClass::BlockedRowMajor, 1);
    ctx_.set_tuning("prefer", "Q8_0:gemv", "Q8_0_R8/rm");  // another format's row
    EXPECT_EQ(preferred_encoding(ctx_, w.view).format, &q4_0());
}

TEST_F(PreferredEncoding, APreferRowNamingTheTwinIsTakenFromEitherOrder) {
    ctx_.set_tuning("prefer", "Q4_0:gemv", "Q4_0_R8/rm");
    for (const LayoutClass cls : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor}) {
        const TestWeight w(q4_0(), 16, 3, cls, 2);
        const Encoding e = preferred_encoding(ctx_, w.view);
        EXPECT_EQ(e.format, &q4_0_r8()) << layout_class_name(cls);
        EXPECT_EQ(e.order, BlockOrder::RowMajor) << layout_class_name(cls);
        // Converted as skn_prepack_for_matmul does: the same floats, and the
        // product through the context gives the canonical weight's bits.
        const View packed = prepack_for_matmul(w.view);
        ASSERT_EQ(packed.layout.format, &q4_0_r8());
        std::vector<float> a(size_t(16 * w.in)), b(a.size());
        view_to_float(w.view, a.data(), a.size());
        view_to_float(packed, b.data(), b.size());
        EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
        std::vector<float> x(size_t(3 * w.in)), y1(48), y2(48, 1.0f);
        sample_weight(x.data(), 3, w.in, 5);
        matmul_wt(ctx_, x.data(), 3, w.in, w.view, nullptr, y1.data(), 16, MatmulOptions{});
        matmul_wt(ctx_, x.data(), 3, w.in, packed, nullptr, y2.data(), 16, MatmulOptions{});
        EXPECT_EQ(std::memcmp(y1.data(), y2.data(), y1.size() * sizeof(float)), 0);
    }
}

TEST_F(PreferredEncoding, OutNotAMultipleOfTheTwinsRowsKeepsTheCanonicalFormat) {
    ctx_.set_tuning("prefer", "Q4_0:gemv", "Q4_0_R8/rm");
    for (const int64_t out : {4, 12, 17}) {
        const TestWeight w(q4_0(), out, 3, LayoutClass::BlockedRowMajor, 3);
        EXPECT_EQ(preferred_encoding(ctx_, w.view).format, &q4_0()) << out;
        EXPECT_EQ(prepack_for_matmul(w.view).layout.format, &q4_0()) << out;
    }
    const TestWeight w(q4_0(), 24, 3, LayoutClass::BlockedRowMajor, 3);
    EXPECT_EQ(preferred_encoding(ctx_, w.view).format, &q4_0_r8());
}

TEST_F(PreferredEncoding, TheTwinNeedsAKernelOfTheSameTier) {
    // Q4_0_R8 has only the reference kernel in INPUT_BLOCK_MAJOR here.
    ctx_.set_tuning("prefer", "Q4_0:gemv", "Q4_0_R8/ibm");
    const TestWeight w(q4_0(), 16, 3, LayoutClass::BlockedRowMajor, 4);
    EXPECT_EQ(preferred_encoding(ctx_, w.view).format, &q4_0());
    // Nor is a twin taken when the weight's own format runs the reference.
    ctx_.set_tuning("prefer", "Q4_0:gemv", "Q4_0_R8/rm");
    ctx_.set_isa_cap(SKN_ISA_SCALAR);
    EXPECT_EQ(preferred_encoding(ctx_, w.view).format, &q4_0());
}

TEST_F(PreferredEncoding, ARowNamingTheCanonicalFormatTakesATwinBackAndSetsTheOrder) {
    ctx_.set_tuning("prefer", "Q4_0:gemv", "Q4_0/ibm");
    const TestWeight twin(q4_0_r8(), 16, 3, LayoutClass::BlockedRowMajor, 6);
    Encoding e = preferred_encoding(ctx_, twin.view);
    EXPECT_EQ(e.format, &q4_0());
    EXPECT_EQ(e.order, BlockOrder::InputBlockMajor);
    const TestWeight canonical(q4_0(), 16, 3, LayoutClass::BlockedRowMajor, 6);
    e = preferred_encoding(ctx_, canonical.view);
    EXPECT_EQ(e.format, &q4_0());
    EXPECT_EQ(e.order, BlockOrder::InputBlockMajor) << "the row decides the order over the order table";
    ctx_.set_tuning("prefer", "Q4_0:gemv", "Q4_0/rm");
    EXPECT_EQ(preferred_encoding(ctx_, canonical.view).order, BlockOrder::RowMajor);
}

// A dense BF16 weight's twin is BF16_R16: a prefer row naming it is taken
// as for a block format (skn tune times BF16/rm against BF16_R16/rm), the
// values kept bit for bit; 17 rows cannot hold 16-row blocks.
TEST_F(PreferredEncoding, ADenseBf16WeightTakesBf16R16) {
    const FormatTraits& bf16 = *find_format(FormatId::BF16);
    const FormatTraits& r16 = *find_format(FormatId::BF16_R16);
    for (const auto& [f, cls] : {std::pair{FormatId::BF16, LayoutClass::Contiguous},
                                 std::pair{FormatId::BF16_R16, LayoutClass::BlockedRowMajor}}) {
        Kernel k = *reg_.best(f, cls, FormatId::BF16, SKN_ISA_SCALAR, nullptr);
        k.key.isa = tier_;
        k.name = kernel_name(k.key);
        reg_.add(k);
    }
    ctx_.set_tuning("prefer", "BF16:gemv", "BF16_R16/rm");
    const int64_t in = 6;
    for (const int64_t out : {32, 17}) {
        std::vector<float> src(size_t(out * in));
        sample_weight(src.data(), out, in, 9);
        std::vector<uint8_t> bytes(quantized_size(bf16, out, in));
        quantize_tensor(bf16, src.data(), out, in, bytes.data(), bytes.size());
        const int64_t shape[2] = {out, in};
        const View w = make_view(bytes.data(), bytes.size(), bf16, shape, 2, BlockOrder::RowMajor);
        const Encoding e = preferred_encoding(ctx_, w);
        if (out % 16 != 0) {
            EXPECT_EQ(e.format, &bf16) << out << " rows";
            continue;
        }
        EXPECT_EQ(e.format, &r16);
        EXPECT_EQ(e.order, BlockOrder::RowMajor);
        const View packed = prepack_for_matmul(w);
        ASSERT_EQ(packed.layout.format, &r16);
        std::vector<float> a(src.size()), b(src.size());
        view_to_float(w, a.data(), a.size());
        view_to_float(packed, b.data(), b.size());
        EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
    }
}

// A stack of experts [E, out, in]: the encoding one expert's slice gets, and
// each expert interleaved on its own (its R-row groups never mix with the
// next expert's rows).
TEST_F(PreferredEncoding, AnExpertStackInterleavesEachExpert) {
    ctx_.set_tuning("prefer", "Q4_0:gemv", "Q4_0_R8/rm");
    const int64_t experts = 3, out = 16, in = 3 * 32;
    const int64_t shape[3] = {experts, out, in};
    const size_t expert_bytes = quantized_size(q4_0(), out, in);
    std::vector<float> src(size_t(experts * out * in));
    sample_weight(src.data(), experts * out, in, 11);
    std::vector<uint8_t> bytes(expert_bytes * size_t(experts));
    quantize_tensor(q4_0(), src.data(), experts * out, in, bytes.data(), bytes.size());
    const View stack = make_view(bytes.data(), bytes.size(), q4_0(), shape, 3, BlockOrder::RowMajor);
    const View packed = prepack_for_matmul(stack);
    ASSERT_EQ(packed.layout.format, &q4_0_r8());
    ASSERT_EQ(packed.layout.rank, 3);
    for (int64_t e = 0; e < experts; ++e) {
        std::vector<uint8_t> want(expert_bytes);
        convert_rows(q4_0(), q4_0_r8(), bytes.data() + size_t(e) * expert_bytes, expert_bytes, want.data(), want.size(),
                     out, in);
        EXPECT_EQ(std::memcmp(packed.data + size_t(e) * expert_bytes, want.data(), expert_bytes), 0) << "expert " << e;
        const View a = with_layout(stack, select(stack.layout, 0, e));
        const View b = with_layout(packed, select(packed.layout, 0, e));
        std::vector<float> fa(size_t(out * in)), fb(fa.size());
        view_to_float(a, fa.data(), fa.size());
        view_to_float(b, fb.data(), fb.size());
        EXPECT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(float)), 0) << "expert " << e;
    }
    // An expert too short for the interleave keeps the whole stack canonical.
    const int64_t short_shape[3] = {experts, 4, in};
    const View short_stack = make_view(bytes.data(), bytes.size(), q4_0(), short_shape, 3, BlockOrder::RowMajor);
    EXPECT_EQ(prepack_for_matmul(short_stack).layout.format, &q4_0());
}

}  // namespace
}  // namespace skn_core
