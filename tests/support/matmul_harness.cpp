// SPDX-License-Identifier: MIT
#include "support/matmul_harness.hpp"

#include <cmath>
#include <random>
#include <tuple>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"
#include "support/process_memo.hpp"
#include "support/quantize_any.hpp"
#include "support/rows_for.hpp"

namespace skn_core::test {
namespace {

// Finite, and small enough that no float sum of a test row can overflow
// (E8M0 and fp16 scales reach 2^127 and 65504).
// (f is a canonical format: one block decodes to block_elems floats.)
bool decodes_to_sane_values(const FormatTraits& f, const uint8_t* block, float tensor_scale) {
    float v[256];  // the largest canonical block
    f.decode(block, 1, tensor_scale, v);
    for (int64_t j = 0; j < f.block_elems; ++j)
        if (!(std::fabs(v[j]) <= 1e6f)) return false;
    return true;
}

// A weight's ROW_MAJOR bytes and their decoded floats.
struct MadeWeight {
    std::vector<uint8_t> rm;
    std::vector<float> decoded;
};

MadeWeight make_weight(const FormatTraits& fmt, int64_t out, int64_t in, uint64_t seed, bool random_blocks) {
    MadeWeight m;
    std::vector<float> w(size_t(out * in));
    sample_weight(w.data(), out, in, seed);
    if (fmt.tensor_trailer_bytes > 0)  // I2_S, either layout: a sign quantizer: give it ternary weights
        for (float& v : w) v = v > 0.3f ? 0.5f : (v < -0.3f ? -0.5f : 0.0f);
    m.rm.resize(quantized_size(fmt, out, in));
    quantize_any(fmt, w.data(), out, in, m.rm.data(), m.rm.size());
    if (random_blocks && fmt.block_quantized) {
        // A row-interleaved format's random blocks are its canonical twin's
        // (random canonical blocks, each sane, then interleaved): so every
        // block decodes to sane values, and the twin holds the same weight.
        const FormatTraits& canon = canonical_of(fmt);
        std::vector<uint8_t> canonical(m.rm.size());
        if (fmt.interleaved())
            convert_rows(fmt, canon, m.rm.data(), m.rm.size(), canonical.data(), canonical.size(), out, in);
        std::vector<uint8_t>& bytes = fmt.interleaved() ? canonical : m.rm;
        // The per-tensor trailer (I2_S's scale) stays as the quantizer wrote it.
        const int64_t shape[2] = {out, in};
        const float tensor_scale =
            make_view(bytes.data(), bytes.size(), canon, shape, 2, BlockOrder::RowMajor).tensor_scale;
        std::mt19937_64 rng(seed * 7919 + 17);
        // One row's share of a block is `ratio` canonical blocks (BF16_R16: 2 BF16 values).
        const int64_t ratio = fmt.block_elems / canon.block_elems;
        const size_t bb = size_t(canon.block_bytes);
        for (int64_t blk = 0; blk < out * (in / fmt.block_elems) * ratio; ++blk) {
            uint8_t* p = bytes.data() + size_t(blk) * bb;
            do {
                for (size_t i = 0; i < bb; ++i) p[i] = uint8_t(rng());
            } while (!decodes_to_sane_values(canon, p, tensor_scale));
        }
        if (fmt.interleaved())
            convert_rows(canon, fmt, canonical.data(), canonical.size(), m.rm.data(), m.rm.size(), out, in);
    }
    m.decoded.resize(size_t(out * in));
    dequantize_tensor(fmt, m.rm.data(), m.rm.size(), out, in, m.decoded.data(), m.decoded.size());
    return m;
}

// Made once per process for each (format, shape, seed, random blocks): every
// kernel of a format (orders, tiers, precisions: up to 14) is tested on the
// same weights, and quantizing them (a grid format's quantizer searches its
// lattice per block) and decoding them costs far more than the kernel calls,
// above all under ASan and qemu.
const MadeWeight& made_weight(const FormatTraits& fmt, int64_t out, int64_t in, uint64_t seed, bool random_blocks) {
    static ProcessMemo<std::tuple<FormatId, int64_t, int64_t, uint64_t, bool>, MadeWeight> made;
    random_blocks = random_blocks && fmt.block_quantized;
    return made.get({fmt.id, out, in, seed, random_blocks},
                    [&] { return make_weight(fmt, out, in, seed, random_blocks); });
}

}  // namespace

BothOrders::BothOrders(const FormatTraits& fmt, int64_t out, int64_t bpr, uint64_t weight_seed, int64_t max_n,
                       uint64_t x_seed, uint64_t bias_seed)
    : rm(fmt, out, bpr, LayoutClass::BlockedRowMajor, weight_seed),
      ibm(fmt, out, bpr, LayoutClass::BlockedInputMajor, weight_seed),
      in(rm.in),
      x(size_t(max_n * rm.in)),
      bias(size_t(out)) {
    sample_weight(x.data(), max_n, in, x_seed);
    sample_weight(bias.data(), 1, out, bias_seed);
}

TestWeight::TestWeight(const FormatTraits& fmt, int64_t o, int64_t bpr, LayoutClass cls, uint64_t seed,
                       bool random_blocks)
    : f(&fmt),
      out(o),
      in(bpr * (fmt.block_quantized ? fmt.block_elems : 1) * (fmt.block_quantized ? 1 : 32)),
      decoded(made_weight(fmt, o, in, seed, random_blocks).decoded) {
    rm = made_weight(fmt, out, in, seed, random_blocks).rm;
    const int64_t shape[2] = {out, in};
    if (cls == LayoutClass::Strided) {
        // The transpose of a stored [in, out] matrix: dense, strided.
        rm.assign(rm.size(), 0);
        std::vector<float> w(size_t(out * in)), t(w.size());
        sample_weight(w.data(), out, in, seed);
        for (int64_t r = 0; r < out; ++r)
            for (int64_t c = 0; c < in; ++c) t[size_t(c * out + r)] = w[size_t(r * in + c)];
        quantize_any(fmt, t.data(), in, out, rm.data(), rm.size());
        const int64_t tshape[2] = {in, out};
        View stored = make_view(rm.data(), rm.size(), fmt, tshape, 2, BlockOrder::RowMajor);
        view = with_layout(stored, transpose(stored.layout, 0, 1));
        return;
    }
    view = make_view(rm.data(), rm.size(), fmt, shape, 2, BlockOrder::RowMajor);
    if (cls == LayoutClass::BlockedInputMajor) {
        View packed;
        prepack(view, BlockOrder::InputBlockMajor, &scope, TraceSink{}, &packed);
        view = packed;
    }
}

const Kernel* find_kernel(FormatId weight, LayoutClass layout, FormatId activation, skn_isa isa) {
    const KernelKey want{Op::MatmulWt, weight, layout, activation, isa};
    for (const Kernel& k : default_registry().kernels())
        if (k.key == want) return &k;
    return nullptr;
}

std::vector<FormatId> q32_formats() {
    std::vector<FormatId> ids;
    for (const FormatTraits& f : all_formats()) {
        if (!f.block_quantized || f.block_elems != 32 || f.interleaved()) continue;
        for (const Kernel& k : default_registry().kernels())
            if (k.key.weight == f.id && k.key.isa != SKN_ISA_SCALAR && k.key.activation != FormatId::F32) {
                ids.push_back(f.id);
                break;
            }
    }
    return ids;
}

std::vector<const Kernel*> registered_kernels() {
    std::vector<const Kernel*> out;
    for (const Kernel& k : default_registry().kernels()) out.push_back(&k);
    return out;
}

void run_with_kernel(const Kernel& k, const View& w, const float* x, int64_t n, int64_t xs, const float* bias,
                     float* y, int64_t ys, int threads) {
    static thread_local Registry single;
    single = Registry();
    single.add(k);
    Context ctx;
    ctx.set_registry(&single);
    ctx.set_isa_cap(k.key.isa);
    ctx.set_threads(threads);
    MatmulOptions o;
    o.precision = k.key.activation == FormatId::F32 && w.layout.format->activation != FormatId::F32 ? Precision::Exact
                                                                                                    : Precision::Fast;
    matmul_wt(ctx, x, n, xs, w, bias, y, ys, o);
}

std::string case_name(FormatId f, std::initializer_list<std::pair<const char*, int64_t>> fields) {
    std::string name = find_format(f)->name;
    for (const auto& [label, value] : fields) name += std::string("_") + label + std::to_string(value);
    return name;
}

}  // namespace skn_core::test
