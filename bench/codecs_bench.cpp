// SPDX-License-Identifier: MIT
// Quantize and decode throughput per format, next to memcpy of the same bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"

namespace {

constexpr int64_t kRows = 64, kCols = 4096;

const std::vector<float>& sample() {
    static const std::vector<float> w = [] {
        std::vector<float> v(size_t(kRows * kCols));
        skn_core::sample_weight(v.data(), kRows, kCols, 1);
        return v;
    }();
    return w;
}

void BM_Memcpy(benchmark::State& state) {
    std::vector<float> dst(sample().size());
    for (auto _ : state) {
        std::memcpy(dst.data(), sample().data(), dst.size() * sizeof(float));
        benchmark::DoNotOptimize(dst.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(dst.size() * sizeof(float)));
}
BENCHMARK(BM_Memcpy);

void BM_Quantize(benchmark::State& state) {
    const skn_core::FormatTraits& f = *skn_core::find_format(int32_t(state.range(0)));
    state.SetLabel(f.name);
    std::vector<uint8_t> q(skn_core::quantized_size(f, kRows, kCols));
    for (auto _ : state) {
        skn_core::quantize_tensor(f, sample().data(), kRows, kCols, q.data(), q.size());
        benchmark::DoNotOptimize(q.data());
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kRows * kCols);
}

void BM_Dequantize(benchmark::State& state) {
    const skn_core::FormatTraits& f = *skn_core::find_format(int32_t(state.range(0)));
    state.SetLabel(f.name);
    std::vector<uint8_t> q(skn_core::quantized_size(f, kRows, kCols));
    skn_core::quantize_tensor(f, sample().data(), kRows, kCols, q.data(), q.size());
    std::vector<float> out(sample().size());
    for (auto _ : state) {
        skn_core::dequantize_tensor(f, q.data(), q.size(), kRows, kCols, out.data(), out.size());
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kRows * kCols);
}

void all_formats(benchmark::internal::Benchmark* b) {
    for (const auto& f : skn_core::all_formats()) b->Arg(static_cast<int64_t>(f.id));
}
BENCHMARK(BM_Quantize)->Apply(all_formats);
BENCHMARK(BM_Dequantize)->Apply(all_formats);

}  // namespace

BENCHMARK_MAIN();
