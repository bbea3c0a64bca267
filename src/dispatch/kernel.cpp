// SPDX-License-Identifier: MIT
#include "dispatch/kernel.hpp"

#include <algorithm>
#include <cctype>

#include "runtime/isa.hpp"

namespace skn_core {

TaskRows task_rows(const Kernel& k, int64_t n, int64_t out) {
    TaskRows r;
    r.small = std::max<int64_t>(1, k.rows_per_task);
    r.big = r.small;
    if (k.few_rows_per_task > r.small && n <= k.few_rows_max_n)
        // Whole multiples of rows_per_task (a multiple of the row tile).
        r.big = std::max(r.small, std::min(k.few_rows_per_task, out / 8) / r.small * r.small);
    r.split = r.big > r.small ? (out / r.big - 1) * r.big : 0;
    r.count = r.split / r.big + (out - r.split + r.small - 1) / r.small;
    return r;
}

bool has_fresh_block_strides(const Layout& w) {
    if (w.rank != 2) return false;
    switch (w.layout_class()) {
        case LayoutClass::BlockedRowMajor: return w.strides[1] == 1 && w.strides[0] == w.grid[1];
        case LayoutClass::BlockedInputMajor: return w.strides[0] == 1 && w.strides[1] == w.grid[0];
        default: return false;
    }
}

const char* isa_tag(skn_isa isa) { return isa_name(isa); }

const char* layout_tag(LayoutClass c) {
    switch (c) {
        case LayoutClass::BlockedRowMajor: return "rm";
        case LayoutClass::BlockedInputMajor: return "ibm";
        case LayoutClass::Contiguous: return "dense";
        case LayoutClass::Strided: return "strided";
    }
    return "?";
}

namespace {
std::string lower(const char* s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
}  // namespace

std::string kernel_name(const KernelKey& k) {
    return "matmul_wt_" + lower(find_format(k.weight)->name) + "_" + layout_tag(k.layout) + "_" +
           lower(find_format(k.activation)->name) + "_" + isa_tag(k.isa);
}

namespace {

bool parse_base_name(const std::string& name, KernelKey* out) {
    // Format names contain '_' themselves, so match whole words against the
    // tables instead of splitting.
    for (const FormatTraits& w : all_formats())
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor, LayoutClass::Contiguous,
                              LayoutClass::Strided})
            for (const FormatTraits& a : all_formats())
                for (const IsaInfo& i : isa_table()) {
                    const KernelKey k{Op::MatmulWt, w.id, c, a.id, i.isa};
                    if (kernel_name(k) == name) {
                        *out = k;
                        return true;
                    }
                }
    return false;
}

}  // namespace

bool parse_kernel_name(const std::string& name, KernelKey* out, std::string* variant) {
    if (name.rfind("matmul_wt_", 0) != 0) return false;
    if (parse_base_name(name, out)) {
        if (variant != nullptr) variant->clear();
        return true;
    }
    // A variant: the base name, '_', one more word.
    const size_t cut = name.rfind('_');
    if (cut == std::string::npos || cut + 1 == name.size() || !parse_base_name(name.substr(0, cut), out)) return false;
    if (variant != nullptr) *variant = name.substr(cut + 1);
    return true;
}

std::string quantizer_name(FormatId format, skn_isa isa) {
    return "quantize_row_" + lower(find_format(format)->name) + "_" + isa_tag(isa);
}

}  // namespace skn_core
