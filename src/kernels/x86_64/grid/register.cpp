// SPDX-License-Identifier: MIT
// Registers the grid-format SIMD kernels (grid/<isa>.cpp). Built without ISA
// flags: it reads the weight's layout here and hands the kernels plain byte
// strides (PackedArgs), so the ISA translation units touch no shared inline code.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/grid/kernels.hpp"

namespace skn_core {
namespace {

using kernels::x86_64::GridFn;

template <GridFn F>
void grid_entry(const MatmulArgs& m, int64_t out_begin, int64_t out_end) {
    F(kernels::x86_64::packed_args(m), out_begin, out_end);
}

void add(Registry& r, FormatId f, LayoutClass c, skn_isa isa, MatmulKernelFn fn) {
    // A multiple of the 4-row step and of the 64-row INPUT_BLOCK_MAJOR run
    // (grid/body.inc, kIbmRun).
    r.add(Kernel{.key = KernelKey{Op::MatmulWt, f, c, FormatId::Q8_K, isa},
                 .fn = fn,
                 .needs = kNeedsQuantized,
                 .rows_per_task = 64,
                 .supports = has_fresh_block_strides});
}

struct TierFns {
    skn_isa isa;
    MatmulKernelFn iq2_xxs, iq2_xs, iq2_s, iq3_xxs, iq3_s, iq1_s, iq1_m;
};

#define SKN_GRID_TIER(isa, tier)                                                                              \
    TierFns {                                                                                                 \
        isa, grid_entry<kernels::x86_64::grid_iq2_xxs_##tier>, grid_entry<kernels::x86_64::grid_iq2_xs_##tier>, \
            grid_entry<kernels::x86_64::grid_iq2_s_##tier>, grid_entry<kernels::x86_64::grid_iq3_xxs_##tier>,   \
            grid_entry<kernels::x86_64::grid_iq3_s_##tier>, grid_entry<kernels::x86_64::grid_iq1_s_##tier>,     \
            grid_entry<kernels::x86_64::grid_iq1_m_##tier>                                                      \
    }

}  // namespace

void register_grid_kernels(Registry& r) {
    const TierFns tiers[] = {SKN_GRID_TIER(SKN_ISA_AVX2, avx2), SKN_GRID_TIER(SKN_ISA_AVX512, avx512),
                             SKN_GRID_TIER(SKN_ISA_AVX512_VNNI, avx512vnni)};
    for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor})
        for (const TierFns& t : tiers) {
            add(r, FormatId::IQ2_XXS, c, t.isa, t.iq2_xxs);
            add(r, FormatId::IQ2_XS, c, t.isa, t.iq2_xs);
            add(r, FormatId::IQ2_S, c, t.isa, t.iq2_s);
            add(r, FormatId::IQ3_XXS, c, t.isa, t.iq3_xxs);
            add(r, FormatId::IQ3_S, c, t.isa, t.iq3_s);
            add(r, FormatId::IQ1_S, c, t.isa, t.iq1_s);
            add(r, FormatId::IQ1_M, c, t.isa, t.iq1_m);
        }
}

}  // namespace skn_core
