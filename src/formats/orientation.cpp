// SPDX-License-Identifier: MIT
#include "formats/orientation.hpp"

#include "runtime/error.hpp"

namespace skn_core {

void require_out_in(int64_t rows, int64_t in, const FormatTraits& f) {
    if (rows <= 0 || in <= 0)
        fail(SKN_E_INVALID_ARGUMENT, "weight shape [{}, {}] has a non-positive dimension", rows, in);
    if (!f.block_quantized) return;  // dense weights have no block axis to check
    const int64_t be = f.block_elems;
    if (in % be == 0) return;  // both aligned: cannot tell, stay quiet
    if (rows % be == 0)
        fail(SKN_E_INVALID_ARGUMENT,
             "a {} weight of shape [{}, {}] looks like [in, out]: its first dimension is a multiple of the block size "
             "{} and its second is not. Label it [out, in] = [{}, {}] (GGUF files list ne as [in, out]: open them "
             "with SKN_GGUF_OUT_IN, or reverse the two dimensions)",
             f.name, rows, in, be, in, rows);
    fail(SKN_E_INVALID_ARGUMENT,
         "a {} weight of shape [{}, {}] has an input dimension {} that is not a multiple of the block size {}; "
         "neither orientation can hold {} blocks",
         f.name, rows, in, in, be, f.name);
}

}  // namespace skn_core
