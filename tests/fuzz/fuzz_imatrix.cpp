// SPDX-License-Identifier: MIT
// libFuzzer target for the imatrix reader (both forms). The properties:
//  - reading never crashes, reads out of bounds or trips UBSan;
//  - a refusal is an skn_core::Error with a non-empty message and a file
//    status (SKN_E_FORMAT, or SKN_E_UNSUPPORTED for a GGUF version skn does
//    not read); any other exception is a bug;
//  - a file that reads is whole: every entry has values_per_row * matrices
//    finite, non-negative values and one count per matrix, is found by its
//    name, and names are unique.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "imatrix/imatrix.hpp"
#include "runtime/error.hpp"

namespace {

[[noreturn]] void bug(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_imatrix: %s: %s\n", what, detail.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using skn_core::imatrix::Imatrix;
    std::unique_ptr<Imatrix> m;
    try {
        m = Imatrix::read(data, size, "fuzz input");
    } catch (const skn_core::Error& e) {
        if (e.what()[0] == 0) bug("error without a message", skn_core::status_name(e.status()));
        if (e.status() != SKN_E_FORMAT && e.status() != SKN_E_UNSUPPORTED)
            bug("unexpected status", std::string(skn_core::status_name(e.status())) + ": " + e.what());
        return 0;
    }
    if (m->entries().empty()) bug("an imatrix without entries was accepted", "");
    for (size_t i = 0; i < m->entries().size(); ++i) {
        const auto& e = m->entries()[i];
        if (e.values_per_row < 1 || e.matrices < 1 ||
            e.values.size() != size_t(e.values_per_row) * size_t(e.matrices) ||
            e.matrix_counts.size() != size_t(e.matrices))
            bug("entry geometry disagrees", e.name);
        for (float v : e.values)
            if (!std::isfinite(v) || v < 0.0f) bug("a value is not finite or negative", e.name);
        const auto found = m->find(e.name);
        if (!found || *found != i) bug("an entry is not found by its name (or the name repeats)", e.name);
    }
    return 0;
}
