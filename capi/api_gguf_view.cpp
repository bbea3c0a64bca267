// SPDX-License-Identifier: MIT
// skn_gguf_tensor_view: a GGUF tensor as a zero-copy ROW_MAJOR view.
#include "capi/gguf_handle.hpp"
#include "capi/guard.hpp"
#include "capi/handles.hpp"

using skn_core::capi::guarded;
using skn_core::capi::require_non_null;


extern "C" SKN_API skn_status skn_gguf_tensor_view(const skn_gguf* g, int64_t index, skn_view** out) {
    return guarded([&] {
        require_non_null(g, "gguf");
        require_non_null(out, "out");
        const skn_core::gguf::File& f = *g->file;
        const skn_core::gguf::Tensor& t = f.tensor(index);
        f.require_known_layout(t);
        if (!t.supported || t.type.format == nullptr)
            skn_core::fail(SKN_E_UNSUPPORTED, "tensor \"{}\" has type {}, which skn does not implement: it has no view",
                      t.name, t.type.id);
        const skn_core::FormatTraits& fmt = *t.type.format;
        const auto bytes = f.tensor_data(index);
        // The bytes in their natural labelling: [ne_{r-1}, ..., ne0], block axis last.
        int64_t natural[skn_core::kMaxRank];
        for (int d = 0; d < t.rank; ++d) natural[d] = t.ne[size_t(t.rank - 1 - d)];
        skn_core::View v = skn_core::make_view(bytes.data(), bytes.size(), fmt, natural, t.rank, skn_core::BlockOrder::RowMajor);
        v.keep_alive = g->file;
        v.name = std::make_shared<const std::string>(t.name);
        if (f.options().orientation == skn_core::gguf::Orientation::AsStored && t.rank >= 2) {
            if (fmt.block_quantized)
                skn_core::fail(SKN_E_INVALID_ARGUMENT,
                          "tensor \"{}\" labelled AS_STORED is [{}, {}, ...] = [in, out] with its {} blocks along the "
                          "first dimension: it looks like [in, out], and a packed view keeps its blocks along its "
                          "last dimension. Open the file with SKN_GGUF_OUT_IN (the default) to get [out, in]",
                          t.name, t.ne[0], t.ne[1], fmt.name);
            // Dense: reverse the dimensions (metadata only), as the file's ne order labels them.
            skn_core::Layout l = v.layout;
            for (int d = 0; d < t.rank / 2; ++d) l = skn_core::transpose(l, d, t.rank - 1 - d);
            v = skn_core::with_layout(v, l);
        }
        *out = skn_core::capi::new_view_handle(v);
    });
}
