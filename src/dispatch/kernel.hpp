// SPDX-License-Identifier: MIT
// What a matmul_wt kernel is: a function over a range of output rows, and the
// key it is registered under (op, weight format, weight layout class,
// activation format, ISA). The key's words are the kernel's name:
//   matmul_wt_<format>_<order>_<activation>_<isa>, e.g. matmul_wt_q4_k_ibm_q8_k_avx512vnni
// order: rm = BLOCKED_ROW_MAJOR, ibm = BLOCKED_INPUT_MAJOR, dense = CONTIGUOUS,
// strided = STRIDED.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/format.hpp"
#include "layout/block_order.hpp"
#include "layout/view.hpp"
#include "skn/skn.h"

namespace skn_core {

enum class Op : int32_t { MatmulWt = 0 };

struct KernelKey {
    Op op = Op::MatmulWt;
    FormatId weight;
    LayoutClass layout;
    FormatId activation;  // F32 for exact precision; the format's activation type for fast
    skn_isa isa;

    friend bool operator==(const KernelKey&, const KernelKey&) = default;
};

// Arguments of y[n, out] = x[n, in] * W[out, in]^T (+ bias). The dispatcher
// prepares the activations each kernel asks for, once per call:
//   xf: float activations [n, in], row stride xf_stride (exact: x itself;
//       fast: x quantized to the activation format and decoded back)
//   xq: activation rows quantized to the key's activation format, xq_stride
//       bytes apart (fast precision only; null otherwise)
struct MatmulArgs {
    const View* w = nullptr;
    int64_t out = 0, in = 0, n = 0;
    const float* xf = nullptr;
    int64_t xf_stride = 0;
    const uint8_t* xq = nullptr;
    size_t xq_stride = 0;
    const float* bias = nullptr;  // [out] or null
    float* y = nullptr;
    int64_t y_stride = 0;
};

// Computes y[i, o] for every i < n and out_begin <= o < out_end. Must give
// bit-identical results for any split of [0, out) into ranges.
using MatmulKernelFn = void (*)(const MatmulArgs& args, int64_t out_begin, int64_t out_end);

enum ActivationNeeds : uint32_t { kNeedsFloat = 1, kNeedsQuantized = 2 };

struct Kernel {
    KernelKey key;
    std::string name;  // kernel_name(key), then "_<variant>" for a variant
    // Variants of one key differ only in a choice that never changes a
    // result (a prefetch distance, a gather or not, a task size): they are
    // bit-identical by contract, register under the same key with distinct
    // names, and the tuning table (dispatch/tuning.hpp) picks one per core.
    // Empty for the plain kernel.
    std::string variant;
    MatmulKernelFn fn = nullptr;
    uint32_t needs = kNeedsFloat;
    // Output rows per task the kernel prefers (a multiple of its row tile).
    int64_t rows_per_task = 16;
    // Calls with at most few_rows_max_n activation rows use tasks of up to
    // few_rows_per_task rows instead (0: rows_per_task always). A GEMV-like
    // call streams its weight once; longer row ranges give longer runs of
    // adjacent bytes per task (INPUT_BLOCK_MAJOR: one run per input block)
    // and fewer task starts. See task_rows.
    int64_t few_rows_per_task = 0;
    int64_t few_rows_max_n = 0;
    // Optional: refuse layouts this kernel cannot read (e.g. a narrowed view
    // with unusual strides). Null means every layout of its class.
    bool (*supports)(const Layout& w) = nullptr;
};

// How a call's output rows are cut into tasks: tasks of `big` rows up to
// row `split`, then tasks of `small` rows to the end. Any split gives the
// same bits (MatmulKernelFn's contract).
struct TaskRows {
    int64_t big = 1, small = 1;
    int64_t split = 0;  // a multiple of big
    int64_t count = 0;  // tasks
    int64_t begin(int64_t t) const {
        const int64_t nbig = split / big;
        return t < nbig ? t * big : split + (t - nbig) * small;
    }
    int64_t end(int64_t t, int64_t out) const {
        const int64_t e = begin(t) + (t < split / big ? big : small);
        return e < out ? e : out;
    }
};

// The split of `out` rows for a call of n activation rows: tasks of
// rows_per_task; for n <= few_rows_max_n tasks of few_rows_per_task, but
// no bigger than an eighth of the rows (two or three threads still share
// the work evenly), and the last big task's rows cut into rows_per_task
// tasks so that the threads finish close together.
TaskRows task_rows(const Kernel& k, int64_t n, int64_t out);

// A `supports` for kernels that step through a 2-D block grid by fixed byte
// strides: true when `w` has the strides a fresh [out, in] view of its order
// has (BlockedRowMajor or BlockedInputMajor; any offset), false for narrowed,
// selected or other strided views, which then run on another kernel.
bool has_fresh_block_strides(const Layout& w);

// A vectorized activation quantizer: writes exactly the bytes the codec's
// quantize_row writes for `format` (formats/), faster. Inputs are finite.
struct ActivationQuantizer {
    FormatId format;
    skn_isa isa;
    QuantizeRowFn fn = nullptr;
    std::string name;  // quantize_row_<format>_<isa>; filled in by the registry when empty
};

// "quantize_row_q8_0_avx2".
std::string quantizer_name(FormatId format, skn_isa isa);

const char* isa_tag(skn_isa isa);          // "scalar", "avx2", "avx512vnni" ... (runtime/isa_table.def)
const char* layout_tag(LayoutClass c);     // "rm", "ibm", "dense", "strided"
std::string kernel_name(const KernelKey& k);
// The inverse of kernel_name: the key a name spells, or false when it spells
// none (a test checks every registered kernel round-trips). A kernel function
// serving both orders through strides is named without the order
// (<format>_<activation>_<isa>, e.g. q4_k_q8_k_avx512vnni); one per order
// carries it (<format>_<order>_<activation>_<isa>).
// A variant's name (a kernel name with a trailing "_<variant>") parses to
// its key too, with the variant in *variant when given.
bool parse_kernel_name(const std::string& name, KernelKey* out, std::string* variant = nullptr);

}  // namespace skn_core
