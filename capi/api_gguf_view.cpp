// skn_gguf_tensor_view: a GGUF tensor as a zero-copy ROW_MAJOR view.
#include "capi/gguf_handle.hpp"
#include "capi/guard.hpp"
#include "capi/handles.hpp"

using skn::capi::guarded;
using skn::capi::require_non_null;


extern "C" SKN_API skn_status skn_gguf_tensor_view(const skn_gguf* g, int64_t index, skn_view** out) {
    return guarded([&] {
        require_non_null(g, "gguf");
        require_non_null(out, "out");
        const skn::gguf::File& f = *g->file;
        const skn::gguf::Tensor& t = f.tensor(index);
        if (!t.supported || t.type.format == nullptr)
            skn::fail(SKN_E_UNSUPPORTED, "tensor \"{}\" has type {}, which skn does not implement: it has no view",
                      t.name, t.type.id);
        const skn::FormatTraits& fmt = *t.type.format;
        const auto bytes = f.tensor_data(index);
        // The bytes in their natural labelling: [ne_{r-1}, ..., ne0], block axis last.
        int64_t natural[skn::kMaxRank];
        for (int d = 0; d < t.rank; ++d) natural[d] = t.ne[size_t(t.rank - 1 - d)];
        skn::View v = skn::make_view(bytes.data(), bytes.size(), fmt, natural, t.rank, skn::BlockOrder::RowMajor);
        v.keep_alive = g->file;
        if (f.options().orientation == skn::gguf::Orientation::AsStored && t.rank >= 2) {
            if (fmt.block_quantized)
                skn::fail(SKN_E_INVALID_ARGUMENT,
                          "tensor \"{}\" labelled AS_STORED is [{}, {}, ...] = [in, out] with its {} blocks along the "
                          "first dimension: it looks like [in, out], and a packed view keeps its blocks along its "
                          "last dimension. Open the file with SKN_GGUF_OUT_IN (the default) to get [out, in]",
                          t.name, t.ne[0], t.ne[1], fmt.name);
            // Dense: reverse the dimensions (metadata only), as the file's ne order labels them.
            skn::Layout l = v.layout;
            for (int d = 0; d < t.rank / 2; ++d) l = skn::transpose(l, d, t.rank - 1 - d);
            v = skn::with_layout(v, l);
        }
        *out = skn::capi::new_view_handle(v);
    });
}
