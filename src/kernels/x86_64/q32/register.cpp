// SPDX-License-Identifier: MIT
// Registers the 32-element block format kernels (q32/<isa>.cpp). Built
// without ISA flags: it only fills the plain PackedArgs from MatmulArgs and adds
// Kernel entries; the kernel bodies run only when the registry has checked
// the CPU.
#include "dispatch/registry.hpp"
#include "kernels/x86_64/common/registration.hpp"
#include "kernels/x86_64/q32/kernels.hpp"
#include "runtime/stream_tuning.hpp"

namespace skn_core {

namespace {

using kernels::x86_64::Q32Fn;

template <Q32Fn F>
void entry(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    F(kernels::x86_64::packed_args(a), out_begin, out_end);
}

// Q8_0 at the AVX-512 tiers: its ROW_MAJOR few-row walk prefetches the next
// row tile only on the cores that stream it faster so (q8_0_row_major_ahead()).
template <Q32Fn F>
void entry_q8_0(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    kernels::x86_64::PackedArgs p = kernels::x86_64::packed_args(a);
    p.row_tile_ahead = q8_0_row_major_ahead();
    F(p, out_begin, out_end);
}

// The avx2 kernels gather a tile's 16 rows with 32-bit byte offsets from its
// first row and step blocks with positive strides.
bool fits_tile_offsets(const Layout& l) {
    const int64_t so = l.strides[0], sb = l.strides[1];
    if (so <= 0 || sb <= 0) return false;
    return so * int64_t(l.format->block_bytes) * 16 < (int64_t(1) << 31);
}

constexpr int64_t kFarRowsPerTask = 2048;

// far: fn is a far-prefetch kernel (q32/avx512vnni_far.cpp).
void add(Registry& r, FormatId f, LayoutClass c, FormatId act, skn_isa isa, MatmulKernelFn fn, uint32_t needs,
         bool far = false) {
    Kernel k;
    k.key = KernelKey{Op::MatmulWt, f, c, act, isa};
    k.fn = fn;
    k.needs = needs;
    k.rows_per_task = 128;
    // Few activation rows (memory-bound) on the AVX-512 tiers: tasks of up to
    // 512 rows, whose INPUT_BLOCK_MAJOR runs per input block are 512 x block
    // bytes instead of 128 x (2.3 KiB for Q4_0, which the by-columns walk
    // reads eight at a time) and which start a cold walk 31 instead of 112
    // times per [14336, *] call. Measured in docs/kernels/q32.md ("Task
    // size"); Q8_0 (34-byte blocks, runs twice as long) takes 256: the same
    // speed at n = 1, 0.93-0.95x the time at n = 8. The far-prefetch
    // kernels (StreamMode::Far, Zen 4) take up to kFarRowsPerTask, whose
    // runs the prefetch eight tiles ahead keeps fed; ROW_MAJOR
    // and MXFP4 ran 1.1-1.4x the time with such tasks there and keep theirs
    // (docs/kernels/q32.md, "Streaming by core").
    kernels::x86_64::take_few_row_tasks(
        k, far ? kFarRowsPerTask : f == FormatId::Q8_0 ? 256 : kernels::x86_64::kFewRowsPerTask);
    k.supports = fits_tile_offsets;
    r.add(std::move(k));
}

// far_fn: the format's far-prefetch twin, which serves INPUT_BLOCK_MAJOR
// where the stream tuning is far (the only order whose few-row walk it
// changes).
void add_both_orders(Registry& r, FormatId f, FormatId act, skn_isa isa, MatmulKernelFn fn, uint32_t needs,
                     MatmulKernelFn far_fn = nullptr) {
    const bool far = far_fn != nullptr && stream_mode() == StreamMode::Far;
    add(r, f, LayoutClass::BlockedRowMajor, act, isa, fn, needs);
    add(r, f, LayoutClass::BlockedInputMajor, act, isa, far ? far_fn : fn, needs, far);
}

}  // namespace

void register_q32_kernels(Registry& r) {
    namespace kx = kernels::x86_64;
    const FormatId q8 = FormatId::Q8_0;
    add_both_orders(r, FormatId::Q4_0, q8, SKN_ISA_AVX512_VNNI, entry<kx::q32_q4_0_q8_0_avx512vnni>, kNeedsQuantized,
                    entry<kx::q32_q4_0_q8_0_far_avx512vnni>);
    add_both_orders(r, FormatId::Q8_0, q8, SKN_ISA_AVX512_VNNI, entry_q8_0<kx::q32_q8_0_q8_0_avx512vnni>,
                    kNeedsQuantized, entry<kx::q32_q8_0_q8_0_far_avx512vnni>);
    add_both_orders(r, FormatId::IQ4_NL, q8, SKN_ISA_AVX512_VNNI, entry<kx::q32_iq4_nl_q8_0_avx512vnni>,
                    kNeedsQuantized, entry<kx::q32_iq4_nl_q8_0_far_avx512vnni>);
    add_both_orders(r, FormatId::MXFP4, q8, SKN_ISA_AVX512_VNNI, entry<kx::q32_mxfp4_q8_0_avx512vnni>,
                    kNeedsQuantized);
    add_both_orders(r, FormatId::Q5_0, q8, SKN_ISA_AVX512_VNNI, entry<kx::q32_q5_0_q8_0_avx512vnni>, kNeedsQuantized,
                    entry<kx::q32_q5_0_q8_0_far_avx512vnni>);
    add_both_orders(r, FormatId::Q4_1, FormatId::Q8_1, SKN_ISA_AVX512_VNNI, entry<kx::q32_q4_1_q8_1_avx512vnni>,
                    kNeedsQuantized, entry<kx::q32_q4_1_q8_1_far_avx512vnni>);
    add_both_orders(r, FormatId::Q5_1, FormatId::Q8_1, SKN_ISA_AVX512_VNNI, entry<kx::q32_q5_1_q8_1_avx512vnni>,
                    kNeedsQuantized, entry<kx::q32_q5_1_q8_1_far_avx512vnni>);
    add_both_orders(r, FormatId::Q4_0, q8, SKN_ISA_AVX512, entry<kx::q32_q4_0_q8_0_avx512>, kNeedsQuantized);
    add_both_orders(r, FormatId::Q8_0, q8, SKN_ISA_AVX512, entry_q8_0<kx::q32_q8_0_q8_0_avx512>, kNeedsQuantized);
    add_both_orders(r, FormatId::IQ4_NL, q8, SKN_ISA_AVX512, entry<kx::q32_iq4_nl_q8_0_avx512>, kNeedsQuantized);
    add_both_orders(r, FormatId::MXFP4, q8, SKN_ISA_AVX512, entry<kx::q32_mxfp4_q8_0_avx512>, kNeedsQuantized);
    add_both_orders(r, FormatId::Q5_0, q8, SKN_ISA_AVX512, entry<kx::q32_q5_0_q8_0_avx512>, kNeedsQuantized);
    add_both_orders(r, FormatId::Q4_1, FormatId::Q8_1, SKN_ISA_AVX512, entry<kx::q32_q4_1_q8_1_avx512>,
                    kNeedsQuantized);
    add_both_orders(r, FormatId::Q5_1, FormatId::Q8_1, SKN_ISA_AVX512, entry<kx::q32_q5_1_q8_1_avx512>,
                    kNeedsQuantized);
    add_both_orders(r, FormatId::Q4_0, q8, SKN_ISA_AVX2, entry<kx::q32_q4_0_q8_0_avx2>, kNeedsQuantized);
    add_both_orders(r, FormatId::Q8_0, q8, SKN_ISA_AVX2, entry<kx::q32_q8_0_q8_0_avx2>, kNeedsQuantized);
    add_both_orders(r, FormatId::IQ4_NL, q8, SKN_ISA_AVX2, entry<kx::q32_iq4_nl_q8_0_avx2>, kNeedsQuantized);
    add_both_orders(r, FormatId::MXFP4, q8, SKN_ISA_AVX2, entry<kx::q32_mxfp4_q8_0_avx2>, kNeedsQuantized);
    add_both_orders(r, FormatId::Q5_0, q8, SKN_ISA_AVX2, entry<kx::q32_q5_0_q8_0_avx2>, kNeedsQuantized);
    add_both_orders(r, FormatId::Q4_1, FormatId::Q8_1, SKN_ISA_AVX2, entry<kx::q32_q4_1_q8_1_avx2>, kNeedsQuantized);
    add_both_orders(r, FormatId::Q5_1, FormatId::Q8_1, SKN_ISA_AVX2, entry<kx::q32_q5_1_q8_1_avx2>, kNeedsQuantized);

}

}  // namespace skn_core
