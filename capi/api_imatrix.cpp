// SPDX-License-Identifier: MIT
// Importance matrices: reading llama.cpp's imatrix files (skn_imatrix).
#include <cstddef>
#include <cstdint>
#include <memory>

#include "capi/guard.hpp"
#include "imatrix/imatrix.hpp"

using skn_core::capi::guarded;
using skn_core::capi::require_non_null;
namespace imatrix = skn_core::imatrix;

struct skn_imatrix {
    std::unique_ptr<imatrix::Imatrix> m;
};

namespace {

constexpr size_t kPropsV1Size = offsetof(skn_imatrix_props, chunk_size) + sizeof(int64_t);
constexpr size_t kEntryV1Size = offsetof(skn_imatrix_entry_props, unused_matrices) + sizeof(int64_t);

const imatrix::Imatrix& of(const skn_imatrix* im) {
    require_non_null(im, "imatrix");
    return *im->m;
}

void check_struct_size(size_t given, size_t needed, const char* arg, const char* type) {
    if (given < needed)
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "{}->struct_size is {} but must be at least {}: set it to sizeof({})",
                       arg, given, needed, type);
}

const imatrix::Entry& entry_of(const imatrix::Imatrix& m, int64_t index) {
    if (index < 0 || uint64_t(index) >= m.entries().size())
        skn_core::fail(SKN_E_INVALID_ARGUMENT, "entry index {} is out of range: the imatrix has {} entries", index,
                       m.entries().size());
    return m.entries()[size_t(index)];
}

void check_matrix(const imatrix::Entry& e, int64_t matrix, bool allow_all) {
    if ((allow_all && matrix == SKN_IMATRIX_ALL_MATRICES) || (matrix >= 0 && matrix < e.matrices)) return;
    skn_core::fail(SKN_E_INVALID_ARGUMENT, "matrix {} is out of range: entry \"{}\" has {} matrices (0..{}){}",
                   matrix, e.name, e.matrices, e.matrices - 1,
                   allow_all ? ", or pass SKN_IMATRIX_ALL_MATRICES (-1) for all" : "");
}

}  // namespace

extern "C" {

SKN_API skn_status skn_imatrix_open(const char* path, skn_imatrix** out) {
    return guarded([&] {
        require_non_null(path, "path");
        require_non_null(out, "out");
        auto h = std::make_unique<skn_imatrix>();
        h->m = imatrix::Imatrix::open(path);
        *out = h.release();
    });
}

SKN_API skn_status skn_imatrix_open_memory(const void* data, size_t size, skn_imatrix** out) {
    return guarded([&] {
        require_non_null(data, "data");
        require_non_null(out, "out");
        auto h = std::make_unique<skn_imatrix>();
        h->m = imatrix::Imatrix::read(static_cast<const uint8_t*>(data), size, "imatrix buffer");
        *out = h.release();
    });
}

SKN_API void skn_imatrix_close(skn_imatrix* imatrix) { delete imatrix; }

SKN_API skn_status skn_imatrix_info(const skn_imatrix* im, skn_imatrix_props* props) {
    return guarded([&] {
        const imatrix::Imatrix& m = of(im);
        require_non_null(props, "props");
        check_struct_size(props->struct_size, kPropsV1Size, "props", "skn_imatrix_props");
        props->form = m.form() == imatrix::Form::Gguf ? SKN_IMATRIX_GGUF : SKN_IMATRIX_LEGACY;
        props->entry_count = int64_t(m.entries().size());
        props->dataset_count = int64_t(m.datasets().size());
        props->chunk_count = m.chunk_count();
        props->chunk_size = m.chunk_size();
    });
}

SKN_API int64_t skn_imatrix_count(const skn_imatrix* im) {
    return im == nullptr ? -1 : int64_t(im->m->entries().size());
}

SKN_API skn_status skn_imatrix_entry_info(const skn_imatrix* im, int64_t index, skn_imatrix_entry_props* entry) {
    return guarded([&] {
        const imatrix::Imatrix& m = of(im);
        require_non_null(entry, "entry");
        check_struct_size(entry->struct_size, kEntryV1Size, "entry", "skn_imatrix_entry_props");
        const imatrix::Entry& e = entry_of(m, index);
        entry->name = e.name.c_str();
        entry->name_len = e.name.size();
        entry->values_per_row = e.values_per_row;
        entry->matrices = e.matrices;
        entry->count = e.count;
        entry->unused_matrices = e.unused_matrices;
    });
}

SKN_API skn_status skn_imatrix_find(const skn_imatrix* im, const char* name, int64_t* index) {
    return guarded([&] {
        const imatrix::Imatrix& m = of(im);
        require_non_null(name, "name");
        require_non_null(index, "index");
        const auto i = m.find(name);
        *index = i ? int64_t(*i) : -1;
    });
}

SKN_API skn_status skn_imatrix_values(const skn_imatrix* im, int64_t index, int64_t matrix, const float** values,
                                      size_t* count) {
    return guarded([&] {
        const imatrix::Imatrix& m = of(im);
        require_non_null(values, "values");
        require_non_null(count, "count");
        const imatrix::Entry& e = entry_of(m, index);
        check_matrix(e, matrix, true);
        if (matrix == SKN_IMATRIX_ALL_MATRICES) {
            *values = e.values.data();
            *count = e.values.size();
        } else {
            *values = e.values.data() + size_t(matrix * e.values_per_row);
            *count = size_t(e.values_per_row);
        }
    });
}

SKN_API skn_status skn_imatrix_matrix_count(const skn_imatrix* im, int64_t index, int64_t matrix, int64_t* count) {
    return guarded([&] {
        const imatrix::Imatrix& m = of(im);
        require_non_null(count, "count");
        const imatrix::Entry& e = entry_of(m, index);
        check_matrix(e, matrix, false);
        *count = e.matrix_counts[size_t(matrix)];
    });
}

SKN_API skn_status skn_imatrix_dataset(const skn_imatrix* im, int64_t i, const char** name, size_t* len) {
    return guarded([&] {
        const imatrix::Imatrix& m = of(im);
        require_non_null(name, "name");
        if (i < 0 || uint64_t(i) >= m.datasets().size())
            skn_core::fail(SKN_E_INVALID_ARGUMENT, "dataset index {} is out of range: the imatrix names {} datasets",
                           i, m.datasets().size());
        *name = m.datasets()[size_t(i)].c_str();
        if (len != nullptr) *len = m.datasets()[size_t(i)].size();
    });
}

}  // extern "C"
