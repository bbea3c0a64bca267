// SPDX-License-Identifier: MIT
#include "dispatch/matmul.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dispatch/activation_rows.hpp"
#include "dispatch/matmul_tasks.hpp"
#include "dispatch/order_preference.hpp"
#include "layout/prepack.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

LayoutClass other_order_class(LayoutClass c) {
    return c == LayoutClass::BlockedRowMajor ? LayoutClass::BlockedInputMajor : LayoutClass::BlockedRowMajor;
}

}  // namespace

KernelChoice choose_kernel(const Context& ctx, const View& w, FormatId act, const MatmulOptions& opts) {
    const Layout& l = w.layout;
    const FormatTraits& f = *l.format;
    const LayoutClass cls = l.layout_class();
    const Registry& reg = ctx.registry();
    const skn_isa cap = ctx.isa_cap();
    KernelChoice c;
    c.kernel = reg.best(f.id, cls, act, cap, &l, &ctx.tuning());
    if (c.kernel == nullptr)
        fail(SKN_E_INTERNAL, "no kernel, not even the reference, for {} (a registry without reference kernels?)",
             kernel_name(KernelKey{Op::MatmulWt, f.id, cls, act, SKN_ISA_SCALAR}));
    if (c.kernel->key.isa != SKN_ISA_SCALAR || cap == SKN_ISA_SCALAR) return c;

    // Only the reference kernel reads this weight as it is. Could the other
    // order do better?
    const std::string wanted = kernel_name(KernelKey{Op::MatmulWt, f.id, cls, act, cap});
    // A SIMD kernel for this very key exists but refused this view (its
    // `supports` check: a narrowed or offset view whose strides it cannot
    // walk). Say that, rather than claim no kernel reads the order.
    if (const Kernel* refused = reg.best(f.id, cls, act, cap, nullptr, &ctx.tuning());
        refused != nullptr && refused->key.isa != SKN_ISA_SCALAR) {
        c.fallback_reason = fmt::format(
            "wanted {}, ran {}: {} reads {} {} weights but rejected this view ({}), whose strides or offset it "
            "cannot walk (a narrowed view keeps the parent's strides); narrow the ROW_MAJOR weight and prepack "
            "the narrowed view instead, which gives a contiguous {} copy",
            wanted, c.kernel->name, refused->name, f.name, order_name(l.order), l.describe(), order_name(l.order));
        return c;
    }
    if (l.packed()) {
        const LayoutClass other = other_order_class(cls);
        const Kernel* alt = reg.best(f.id, other, act, cap, nullptr, &ctx.tuning());
        if (alt != nullptr && alt->key.isa != SKN_ISA_SCALAR) {
            if (opts.prepack_weights) {
                c.kernel = alt;
                c.relayout = true;
                return c;
            }
            c.fallback_reason = fmt::format(
                "wanted {}, ran {}: no SIMD kernel reads {} {} weights, but {} does; prepack the weight once with "
                "skn_prepack_for_matmul, or set prepack_weights (copies it on every call)",
                wanted, c.kernel->name, f.name, order_name(l.order), alt->name);
            return c;
        }
    }
    c.fallback_reason = fmt::format("wanted {}, ran {}: no SIMD kernel for {} weights in layout {} up to ISA {}",
                                    wanted, c.kernel->name, f.name, layout_class_name(cls), isa_tag(cap));
    return c;
}

void emit_kernel_event(const Context& ctx, skn_trace_kind kind, const Kernel& k, const std::string& detail,
                       const View& w, int64_t n, int64_t ns) {
    if (!ctx.trace().enabled()) return;
    skn_trace_event e{};
    e.struct_size = sizeof e;
    e.kind = kind;
    e.name = k.name.c_str();
    e.detail = detail.c_str();
    e.format = static_cast<skn_format>(w.layout.format->id);
    e.from_order = e.to_order = static_cast<skn_block_order>(w.layout.order);
    e.nanoseconds = ns;
    e.isa = k.key.isa;
    e.layout_class = static_cast<int32_t>(w.layout.layout_class());
    e.n = n;
    e.out = w.layout.shape[0];
    e.in = w.layout.shape[1];
    ctx.trace().emit(e);
}

FormatId activation_for(const FormatTraits& f, Precision p) {
    return p == Precision::Exact ? FormatId::F32 : f.activation;
}

BlockOrder preferred_order(const Context& ctx, const View& w) {
    const Layout& l = w.layout;
    if (!l.packed()) return l.order;
    const FormatId act = activation_for(*l.format, Precision::Fast);
    const Kernel* own = ctx.registry().best(l.format->id, l.layout_class(), act, ctx.isa_cap(), &l, &ctx.tuning());
    const Kernel* alt = ctx.registry().best(l.format->id, other_order_class(l.layout_class()), act, ctx.isa_cap(),
                                            nullptr, &ctx.tuning());
    const BlockOrder other = l.order == BlockOrder::RowMajor ? BlockOrder::InputBlockMajor : BlockOrder::RowMajor;
    if (alt != nullptr && (own == nullptr || alt->key.isa > own->key.isa)) return other;
    // Both orders have a kernel of the same tier: which is faster is a
    // measured fact per format and tier (order_table.inc), not a tier rule.
    if (own != nullptr && alt != nullptr && own->key.isa == alt->key.isa && own->key.isa != SKN_ISA_SCALAR)
        if (const auto faster = measured_faster_order(order_table(), *l.format, isa_tag(own->key.isa))) return *faster;
    return l.order;
}

Encoding preferred_encoding(const Context& ctx, const View& w) {
    const Layout& l = w.layout;
    Encoding mine{l.format, preferred_order(ctx, w)};
    // A tuning row may name another encoding of the same values for the
    // one-token regime (an engine streams every weight once per token): the
    // format's row-interleaved twin (a dense BF16 weight's too: BF16_R16),
    // or the canonical format. Taken only when
    // the weight can hold it (out a multiple of the twin's block_rows) and
    // a SIMD kernel of the same tier reads it.
    const FormatId act = activation_for(*l.format, Precision::Fast);
    const Kernel* own = ctx.registry().best(l.format->id, l.layout_class(), act, ctx.isa_cap(), &l, &ctx.tuning());
    if (own == nullptr || own->key.isa == SKN_ISA_SCALAR) return mine;
    const FormatTraits& canon = *find_format(canonical_format(l.format->id));
    const std::string* want = ctx.tuning().prefer(canon.name, "gemv", isa_tag(own->key.isa));
    if (want == nullptr) return mine;
    const size_t slash = want->find('/');
    const FormatTraits* to = find_format_by_name(want->substr(0, slash).c_str());
    const BlockOrder order = want->substr(slash + 1) == "rm" ? BlockOrder::RowMajor : BlockOrder::InputBlockMajor;
    if (to == nullptr || l.rank < 2 || l.shape[size_t(l.rank - 2)] % to->block_rows != 0) return mine;
    const LayoutClass cls = order == BlockOrder::RowMajor ? LayoutClass::BlockedRowMajor : LayoutClass::BlockedInputMajor;
    const Kernel* theirs = ctx.registry().best(to->id, cls, act, ctx.isa_cap(), nullptr, &ctx.tuning());
    if (theirs == nullptr || theirs->key.isa != own->key.isa) return mine;
    return Encoding{to, order};
}

ChosenWeight choose_weight(const Context& ctx, const View& w, FormatId act, const MatmulOptions& opts,
                           int64_t expert) {
    KernelChoice choice = choose_kernel(ctx, w, act, opts);
    if (!choice.fallback_reason.empty() && opts.strict) {
        if (expert < 0) fail(SKN_E_UNSUPPORTED, "strict: {}", choice.fallback_reason);
        fail(SKN_E_UNSUPPORTED, "strict: expert {}: {}", expert, choice.fallback_reason);
    }
    ChosenWeight chosen{w, choice.kernel, std::move(choice.fallback_reason)};
    if (choice.relayout) {
        if (opts.scope == nullptr)
            fail(SKN_E_INVALID_ARGUMENT, "prepack_weights needs a scope to allocate the relayout in (options.scope)");
        const BlockOrder to = w.layout.order == BlockOrder::RowMajor ? BlockOrder::InputBlockMajor : BlockOrder::RowMajor;
        prepack(w, to, opts.scope, ctx.trace(), &chosen.w);
    }
    return chosen;
}

void matmul_wt(Context& ctx, const float* x, int64_t n, int64_t x_stride, const View& w, const float* bias, float* y,
               int64_t y_stride, const MatmulOptions& opts) {
    const MatmulCall call{.x = x, .n = n, .x_row_stride = x_stride, .bias = bias, .y = y, .y_row_stride = y_stride};
    validate_call(call, w);
    const FormatId act = activation_for(*w.layout.format, opts.precision);
    ChosenWeight chosen = choose_weight(ctx, w, act, opts);

    // Timed for the KERNEL event only: an untraced call reads no clock.
    std::optional<Stopwatch> clock;
    if (ctx.trace().enabled()) clock.emplace();
    const int64_t out = w.layout.shape[0], in = w.layout.shape[1];
    ExpertBatch batch{.w = std::move(chosen.w), .kernel = chosen.kernel, .bias = bias, .rows = n};
    const int64_t tasks = plan_tasks({&batch, 1}, out);
    const BatchRows rows{&call, nullptr, n};
    const PreparedActivations xa = prepare_activations(ctx, act, rows, in, (batch.kernel->needs & kNeedsFloat) != 0);
    run_batches(ctx, {&batch, 1}, tasks, xa, rows, out, in, nullptr);

    // The detail text is built only for a sink: formatting it costs more
    // than a small GEMV.
    if (!ctx.trace().enabled()) return;
    const int64_t ns = clock ? clock->nanoseconds() : 0;
    const Kernel& k = *batch.kernel;
    if (!chosen.fallback_reason.empty())
        emit_kernel_event(ctx, SKN_TRACE_FALLBACK, k, chosen.fallback_reason, batch.w, n, ns);
    emit_kernel_event(ctx, SKN_TRACE_KERNEL, k,
                      fmt::format("{} on {} [{}, {}] x {} rows", k.name, batch.w.layout.describe(), out, in, n),
                      batch.w, n, ns);
}

}  // namespace skn_core
