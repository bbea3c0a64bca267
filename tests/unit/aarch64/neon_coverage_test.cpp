// SPDX-License-Identifier: MIT
// Issue 15's acceptance: no block format falls back to the reference kernel
// on a dotprod CPU. Asserted through trace events for the formats NEON
// families cover so far (kNeonFastFormats); a new family extends the list,
// and the list must name exactly the formats with NEON kernels, so neither
// can drift from the other. When every block format is covered the list
// becomes all_formats().
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dispatch/matmul.hpp"
#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

// Fast precision (the format's activation type), both block orders.
// q32 family (MXFP4 included): src/kernels/aarch64/q32; K-quants:
// src/kernels/aarch64/superblock; NVFP4: src/kernels/aarch64/nvfp4;
// grid: src/kernels/aarch64/grid; ternary and low-bit (Q1_0, Q2_0):
// src/kernels/aarch64/low_bit; the row-interleaved Q4_0_R8, Q8_0_R8, MXFP4_R8, IQ4_NL_R4, Q5_0_R4:
// src/kernels/aarch64/q32 (r8_body.inc), IQ4_XS_R8: superblock (xs_r8_body.inc), Q2_K_R4 .. Q6_K_R4:
// superblock (r4_body.inc), IQ2_XXS_R4 .. IQ3_S_R4: grid (r4_body.inc), BF16_R16 (blocked, BF16 activations): dense (r16_body.inc).
// Not listed: Q8_1 and Q8_K, the activation formats, which have no fast kernels as weights on any ISA.
constexpr FormatId kNeonFastFormats[] = {FormatId::Q4_0, FormatId::Q8_0, FormatId::IQ4_NL, FormatId::Q5_0,
                                         FormatId::Q4_1, FormatId::Q5_1, FormatId::Q4_K, FormatId::Q6_K,
                                         FormatId::Q5_K, FormatId::Q2_K, FormatId::Q3_K, FormatId::IQ4_XS,
                                         FormatId::MXFP4, FormatId::NVFP4,
                                         FormatId::IQ2_XXS, FormatId::IQ3_XXS, FormatId::IQ2_XS,
                                         FormatId::IQ2_S, FormatId::IQ3_S, FormatId::IQ1_S, FormatId::IQ1_M,
                                         FormatId::TQ1_0, FormatId::TQ2_0, FormatId::I2_S,
                                         FormatId::Q1_0, FormatId::Q2_0, FormatId::I2_S_G64,
                                         FormatId::Q4_0_R8, FormatId::Q8_0_R8, FormatId::MXFP4_R8, FormatId::IQ4_NL_R4,
                                         FormatId::Q5_0_R4, FormatId::IQ4_XS_R8, FormatId::BF16_R16,
                                         FormatId::Q4_K_R4, FormatId::Q5_K_R4, FormatId::Q6_K_R4,
                                         FormatId::Q2_K_R4, FormatId::Q3_K_R4,
                                         FormatId::IQ2_XXS_R4, FormatId::IQ3_XXS_R4, FormatId::IQ2_XS_R4,
                                         FormatId::IQ2_S_R4, FormatId::IQ3_S_R4};

bool listed(FormatId f) {
    return std::find(std::begin(kNeonFastFormats), std::end(kNeonFastFormats), f) != std::end(kNeonFastFormats);
}

struct Events {
    std::vector<skn_trace_event> list;
    std::vector<std::string> names;
    static void record(const skn_trace_event* e, void* user) {
        auto* self = static_cast<Events*>(user);
        self->list.push_back(*e);
        self->names.emplace_back(e->name != nullptr ? e->name : "");
    }
};

TEST(NeonCoverage, TheListNamesExactlyTheFormatsWithNeonKernels) {
    for (const FormatTraits& f : all_formats()) {
        if (!f.block_quantized) continue;
        bool has_neon = false;
        for (const Kernel& k : default_registry().kernels())
            has_neon |= k.key.weight == f.id && k.key.activation == f.activation &&
                        (k.key.isa == SKN_ISA_NEON || k.key.isa == SKN_ISA_NEON_DOTPROD);
        EXPECT_EQ(has_neon, listed(f.id)) << f.name << (has_neon ? " has NEON kernels but is not in kNeonFastFormats"
                                                                 : " is listed but has no NEON kernel");
    }
}

TEST(NeonCoverage, ListedFormatsRunANeonKernelWithoutFallbackOnADotprodCpu) {
    Context probe;
    if (!cpu_runs(SKN_ISA_NEON_DOTPROD)) GTEST_SKIP() << "this CPU lacks dotprod";
    if (!isa_allows(probe.isa_cap(), SKN_ISA_NEON_DOTPROD)) GTEST_SKIP() << "the ISA cap is below neondotprod";
    for (FormatId id : kNeonFastFormats) {
        const FormatTraits& f = *find_format(id);
        for (LayoutClass cls : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
            for (int64_t n : {1, 5}) {
                const int64_t out = test::rows_for(f, 9);  // row-interleaved: 9 groups of R
                test::TestWeight w(f, out, 3, cls, 21);
                std::vector<float> x(size_t(n * w.in)), y(size_t(n * out));
                sample_weight(x.data(), n, w.in, 22);
                Context ctx;
                Events ev;
                ctx.set_trace(TraceSink{&Events::record, &ev});
                MatmulOptions strict;
                strict.strict = true;  // a fallback would be an error, not just an event
                matmul_wt(ctx, x.data(), n, w.in, w.view, nullptr, y.data(), out, strict);
                int kernels = 0;
                for (size_t e = 0; e < ev.list.size(); ++e) {
                    EXPECT_NE(ev.list[e].kind, SKN_TRACE_FALLBACK) << f.name << ": " << ev.list[e].detail;
                    EXPECT_NE(ev.list[e].kind, SKN_TRACE_ADAPTER) << f.name << ": relayout instead of a kernel";
                    if (ev.list[e].kind != SKN_TRACE_KERNEL) continue;
                    ++kernels;
                    // neondotprod or a higher Arm tier (i8mm, SVE) once one has kernels;
                    // BF16_R16, whose dense twin's FMLA kernels are Armv8.0, neon.
                    const skn_isa ran = ev.list[e].isa;
                    const skn_isa floor = id == FormatId::BF16_R16 ? SKN_ISA_NEON : SKN_ISA_NEON_DOTPROD;
                    EXPECT_TRUE(ran != SKN_ISA_SCALAR && isa_allows(ran, floor)) << ev.names[e];
                    const std::string want = kernel_name(KernelKey{Op::MatmulWt, id, cls, f.activation, ran});
                    EXPECT_EQ(ev.names[e], want) << f.name << " n=" << n;
                }
                EXPECT_EQ(kernels, 1) << f.name << " " << layout_tag(cls) << " n=" << n;
            }
    }
}

}  // namespace
}  // namespace skn_core
