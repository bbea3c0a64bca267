// SPDX-License-Identifier: MIT
// Registers the 32-element block format kernels (q32/<isa>.cpp). Built
// without ISA flags: it only fills the plain PackedArgs from MatmulArgs and adds
// Kernel entries (kernels/common/registration.hpp); the kernel bodies run only
// when the registry has checked the CPU.
#include "kernels/common/registration.hpp"
#include "kernels/x86_64/q32/kernels.hpp"

namespace skn_core {

namespace {

using kernels::packed_entry;

// Q8_0's "ahead" variant at the AVX-512 tiers: its ROW_MAJOR few-row walk
// prefetches the next row tile in software (34-byte blocks: ~8.5 cache lines
// per block step), which the plain kernel leaves to the hardware prefetcher.
// The tuning table picks it where it measured faster (AMD).
template <kernels::PackedKernelFn F, bool kAhead>
void entry_row_tile(const MatmulArgs& a, int64_t out_begin, int64_t out_end) {
    kernels::PackedArgs p = kernels::packed_args(a);
    p.row_tile_ahead = kAhead;
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

// The format's kernel at one tier in both orders, and its variants (bit-
// identical; dispatch/tuning_table.inc picks one per core): far_fn, the
// far-prefetch body (q32/avx512vnni_far.cpp) as variant "far" of the
// INPUT_BLOCK_MAJOR kernel (the only order whose few-row walk it changes);
// ahead_fn, variant "ahead" of the ROW_MAJOR kernel.
void add(Registry& r, FormatId f, FormatId act, skn_isa isa, MatmulKernelFn fn, MatmulKernelFn far_fn = nullptr,
         MatmulKernelFn ahead_fn = nullptr) {
    Kernel k = kernels::blocked_kernel(f, act, isa, fn, 128);
    k.supports = fits_tile_offsets;
    // Few activation rows (memory-bound) on the AVX-512 tiers: tasks of up to
    // 512 rows, whose INPUT_BLOCK_MAJOR runs per input block are 512 x block
    // bytes instead of 128 x (2.3 KiB for Q4_0, which the by-columns walk
    // reads eight at a time) and which start a cold walk 31 instead of 112
    // times per [14336, *] call. Measured in docs/kernels/q32.md ("Task
    // size"); Q8_0 (34-byte blocks, runs twice as long) takes 256: the same
    // speed at n = 1, 0.93-0.95x the time at n = 8. The far variants take
    // up to kFarRowsPerTask, whose runs the prefetch eight tiles ahead keeps
    // fed; ROW_MAJOR and MXFP4 ran 1.1-1.4x the time with such tasks on Zen 4
    // and keep theirs (docs/kernels/q32.md, "Streaming by core").
    kernels::take_few_row_tasks(k, SKN_ISA_AVX512, f == FormatId::Q8_0 ? 256 : kernels::kFewRowsPerTask);
    kernels::add_both_orders(r, k);
    if (far_fn != nullptr) {
        Kernel far = k;
        far.key.layout = LayoutClass::BlockedInputMajor;
        far.fn = far_fn;
        far.variant = "far";
        kernels::take_few_row_tasks(far, SKN_ISA_AVX512, kFarRowsPerTask);
        r.add(std::move(far));
    }
    if (ahead_fn != nullptr) {
        Kernel ahead = k;
        ahead.key.layout = LayoutClass::BlockedRowMajor;
        ahead.fn = ahead_fn;
        ahead.variant = "ahead";
        r.add(std::move(ahead));
    }
}

// A row-interleaved twin (Q4_0_R8, Q8_0_R8, MXFP4_R8, IQ4_NL_R4, Q5_0_R4) at one tier
// in both orders: the canonical format's task sizes (multiples of the 16-row
// tile, so every task starts and ends on a block row), any strides (64-bit
// offsets).
void add_r8(Registry& r, FormatId f, skn_isa isa, MatmulKernelFn fn) {
    Kernel k = kernels::blocked_kernel(f, FormatId::Q8_0, isa, fn, 128);
    kernels::take_few_row_tasks(k, SKN_ISA_AVX512, f == FormatId::Q8_0_R8 ? 256 : kernels::kFewRowsPerTask);
    kernels::add_both_orders(r, k);
}

}  // namespace

void register_q32_kernels(Registry& r) {
    namespace kx = kernels::x86_64;
    const FormatId q8 = FormatId::Q8_0, q81 = FormatId::Q8_1;
    const skn_isa vnni = SKN_ISA_AVX512_VNNI;
    add(r, FormatId::Q4_0, q8, vnni, packed_entry<kx::q32_q4_0_q8_0_avx512vnni>,
        packed_entry<kx::q32_q4_0_q8_0_far_avx512vnni>);
    add(r, FormatId::Q8_0, q8, vnni, entry_row_tile<kx::q32_q8_0_q8_0_avx512vnni, false>,
        entry_row_tile<kx::q32_q8_0_q8_0_far_avx512vnni, false>,
        entry_row_tile<kx::q32_q8_0_q8_0_avx512vnni, true>);
    add(r, FormatId::IQ4_NL, q8, vnni, packed_entry<kx::q32_iq4_nl_q8_0_avx512vnni>,
        packed_entry<kx::q32_iq4_nl_q8_0_far_avx512vnni>);
    add(r, FormatId::MXFP4, q8, vnni, packed_entry<kx::q32_mxfp4_q8_0_avx512vnni>);
    add(r, FormatId::Q5_0, q8, vnni, packed_entry<kx::q32_q5_0_q8_0_avx512vnni>,
        packed_entry<kx::q32_q5_0_q8_0_far_avx512vnni>);
    add(r, FormatId::Q4_1, q81, vnni, packed_entry<kx::q32_q4_1_q8_1_avx512vnni>,
        packed_entry<kx::q32_q4_1_q8_1_far_avx512vnni>);
    add(r, FormatId::Q5_1, q81, vnni, packed_entry<kx::q32_q5_1_q8_1_avx512vnni>,
        packed_entry<kx::q32_q5_1_q8_1_far_avx512vnni>);
    add(r, FormatId::Q4_0, q8, SKN_ISA_AVX512, packed_entry<kx::q32_q4_0_q8_0_avx512>);
    add(r, FormatId::Q8_0, q8, SKN_ISA_AVX512, entry_row_tile<kx::q32_q8_0_q8_0_avx512, false>, nullptr,
        entry_row_tile<kx::q32_q8_0_q8_0_avx512, true>);
    add(r, FormatId::IQ4_NL, q8, SKN_ISA_AVX512, packed_entry<kx::q32_iq4_nl_q8_0_avx512>);
    add(r, FormatId::MXFP4, q8, SKN_ISA_AVX512, packed_entry<kx::q32_mxfp4_q8_0_avx512>);
    add(r, FormatId::Q5_0, q8, SKN_ISA_AVX512, packed_entry<kx::q32_q5_0_q8_0_avx512>);
    add(r, FormatId::Q4_1, q81, SKN_ISA_AVX512, packed_entry<kx::q32_q4_1_q8_1_avx512>);
    add(r, FormatId::Q5_1, q81, SKN_ISA_AVX512, packed_entry<kx::q32_q5_1_q8_1_avx512>);
    add(r, FormatId::Q4_0, q8, SKN_ISA_AVX2, packed_entry<kx::q32_q4_0_q8_0_avx2>);
    add(r, FormatId::Q8_0, q8, SKN_ISA_AVX2, packed_entry<kx::q32_q8_0_q8_0_avx2>);
    add(r, FormatId::IQ4_NL, q8, SKN_ISA_AVX2, packed_entry<kx::q32_iq4_nl_q8_0_avx2>);
    add(r, FormatId::MXFP4, q8, SKN_ISA_AVX2, packed_entry<kx::q32_mxfp4_q8_0_avx2>);
    add(r, FormatId::Q5_0, q8, SKN_ISA_AVX2, packed_entry<kx::q32_q5_0_q8_0_avx2>);
    add(r, FormatId::Q4_1, q81, SKN_ISA_AVX2, packed_entry<kx::q32_q4_1_q8_1_avx2>);
    add(r, FormatId::Q5_1, q81, SKN_ISA_AVX2, packed_entry<kx::q32_q5_1_q8_1_avx2>);
    add_r8(r, FormatId::Q4_0_R8, vnni, packed_entry<kx::q32_q4_0_r8_q8_0_avx512vnni>);
    add_r8(r, FormatId::Q8_0_R8, vnni, packed_entry<kx::q32_q8_0_r8_q8_0_avx512vnni>);
    add_r8(r, FormatId::Q4_0_R8, SKN_ISA_AVX512, packed_entry<kx::q32_q4_0_r8_q8_0_avx512>);
    add_r8(r, FormatId::Q8_0_R8, SKN_ISA_AVX512, packed_entry<kx::q32_q8_0_r8_q8_0_avx512>);
    add_r8(r, FormatId::Q4_0_R8, SKN_ISA_AVX2, packed_entry<kx::q32_q4_0_r8_q8_0_avx2>);
    add_r8(r, FormatId::Q8_0_R8, SKN_ISA_AVX2, packed_entry<kx::q32_q8_0_r8_q8_0_avx2>);
    add_r8(r, FormatId::MXFP4_R8, vnni, packed_entry<kx::q32_mxfp4_r8_q8_0_avx512vnni>);
    add_r8(r, FormatId::MXFP4_R8, SKN_ISA_AVX512, packed_entry<kx::q32_mxfp4_r8_q8_0_avx512>);
    add_r8(r, FormatId::MXFP4_R8, SKN_ISA_AVX2, packed_entry<kx::q32_mxfp4_r8_q8_0_avx2>);
    add_r8(r, FormatId::IQ4_NL_R4, vnni, packed_entry<kx::q32_iq4_nl_r4_q8_0_avx512vnni>);
    add_r8(r, FormatId::IQ4_NL_R4, SKN_ISA_AVX512, packed_entry<kx::q32_iq4_nl_r4_q8_0_avx512>);
    add_r8(r, FormatId::IQ4_NL_R4, SKN_ISA_AVX2, packed_entry<kx::q32_iq4_nl_r4_q8_0_avx2>);
    add_r8(r, FormatId::Q5_0_R4, vnni, packed_entry<kx::q32_q5_0_r4_q8_0_avx512vnni>);
    add_r8(r, FormatId::Q5_0_R4, SKN_ISA_AVX512, packed_entry<kx::q32_q5_0_r4_q8_0_avx512>);
    add_r8(r, FormatId::Q5_0_R4, SKN_ISA_AVX2, packed_entry<kx::q32_q5_0_r4_q8_0_avx2>);
}

}  // namespace skn_core
