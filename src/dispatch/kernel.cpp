// SPDX-License-Identifier: MIT
#include "dispatch/kernel.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

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

// Consumes `word` and the '_' after it from the front of `rest`, if there.
bool take_word(std::string_view& rest, std::string_view word) {
    if (rest.size() <= word.size() || rest.substr(0, word.size()) != word || rest[word.size()] != '_') return false;
    rest.remove_prefix(word.size() + 1);
    return true;
}

bool parse_base_name(const std::string& name, KernelKey* out) {
    // Format names contain '_' themselves, so match whole words against the
    // tables instead of splitting: each coordinate in turn, in the order
    // kernel_name writes them, so the first key whose name is `name` wins
    // (as comparing with kernel_name of every key would, without building
    // its 100 000-odd names: that took minutes per registry under qemu).
    std::string_view all(name);
    const std::string_view prefix = "matmul_wt_";
    if (all.substr(0, prefix.size()) != prefix) return false;
    all.remove_prefix(prefix.size());
    for (const FormatTraits& w : all_formats()) {
        std::string_view after_w = all;
        if (!take_word(after_w, lower(w.name))) continue;
        for (LayoutClass c : {LayoutClass::BlockedRowMajor, LayoutClass::BlockedInputMajor, LayoutClass::Contiguous,
                              LayoutClass::Strided}) {
            std::string_view after_c = after_w;
            if (!take_word(after_c, layout_tag(c))) continue;
            for (const FormatTraits& a : all_formats()) {
                std::string_view after_a = after_c;
                if (!take_word(after_a, lower(a.name))) continue;
                for (const IsaInfo& i : isa_table())
                    if (after_a == isa_tag(i.isa)) {
                        *out = KernelKey{Op::MatmulWt, w.id, c, a.id, i.isa};
                        return true;
                    }
            }
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
