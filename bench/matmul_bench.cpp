// SPDX-License-Identifier: MIT
// matmul_wt per format and order (Google Benchmark; `skn bench` is the full
// roofline harness). Weight bytes per second are reported as bytes_per_second.
#include <benchmark/benchmark.h>

#include <vector>

#include "dispatch/matmul.hpp"
#include "fixtures/sample_weight.hpp"
#include "formats/tensor_codec.hpp"
#include "layout/prepack.hpp"

namespace {

constexpr int64_t kOut = 4096, kIn = 4096;

void BM_MatmulWt(benchmark::State& state) {
    const auto id = static_cast<skn_core::FormatId>(state.range(0));
    const auto order = static_cast<skn_core::BlockOrder>(state.range(1));
    const int64_t n = state.range(2);
    const skn_core::FormatTraits& f = *skn_core::find_format(id);
    std::vector<float> w(size_t(kOut * kIn));
    skn_core::sample_weight(w.data(), kOut, kIn, 3);
    std::vector<uint8_t> q(skn_core::quantized_size(f, kOut, kIn));
    skn_core::quantize_tensor(f, w.data(), kOut, kIn, q.data(), q.size());
    const int64_t shape[2] = {kOut, kIn};
    skn_core::View v = skn_core::make_view(q.data(), q.size(), f, shape, 2, skn_core::BlockOrder::RowMajor);
    skn_core::Scope scope;
    skn_core::View packed;
    if (order != skn_core::BlockOrder::RowMajor && skn_core::prepack(v, order, &scope, skn_core::TraceSink{}, &packed)) v = packed;
    std::vector<float> x(size_t(n * kIn), 0.5f), y(size_t(n * kOut));
    skn_core::Context ctx;
    state.SetLabel(std::string(f.name) + " " + skn_core::order_name(order));
    for (auto _ : state) {
        skn_core::matmul_wt(ctx, x.data(), n, kIn, v, nullptr, y.data(), kOut, skn_core::MatmulOptions{});
        benchmark::DoNotOptimize(y.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(q.size()));
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * double(kOut * kIn * n) * double(state.iterations()), benchmark::Counter::kIsRate);
}

void cases(benchmark::internal::Benchmark* b) {
    for (auto id : {skn_core::FormatId::Q4_0, skn_core::FormatId::Q8_0, skn_core::FormatId::Q4_K, skn_core::FormatId::Q6_K,
                    skn_core::FormatId::IQ4_NL, skn_core::FormatId::MXFP4, skn_core::FormatId::TQ2_0})
        for (int order : {0, 1})
            for (int64_t n : {1, 32}) b->Args({static_cast<int64_t>(id), order, n});
    b->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_MatmulWt)->Apply(cases);

}  // namespace

BENCHMARK_MAIN();
