// SPDX-License-Identifier: MIT
// prepack / to_kernel_order throughput next to memcpy of the same bytes: the
// relayout must run at memory speed (docs/packed-weight-layout.md).
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "formats/format.hpp"
#include "layout/relayout.hpp"

namespace {

// Weights larger than the last-level cache, as in a real model load.
constexpr int64_t kOut = 14336, kIn = 4096;

struct Buffers {
    std::vector<uint8_t> src, dst;
    int64_t bpr = 0;
    size_t bpb = 0;
    explicit Buffers(skn_core::FormatId id) {
        const skn_core::FormatTraits& f = *skn_core::find_format(id);
        bpr = kIn / f.block_elems;
        bpb = size_t(f.block_bytes);
        src.assign(size_t(kOut * bpr) * bpb, 0x5a);
        dst.assign(src.size(), 0);
    }
};

void BM_Memcpy(benchmark::State& state) {
    Buffers b(static_cast<skn_core::FormatId>(state.range(0)));
    state.SetLabel(skn_core::find_format(static_cast<skn_core::FormatId>(state.range(0)))->name);
    for (auto _ : state) {
        std::memcpy(b.dst.data(), b.src.data(), b.src.size());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(b.src.size()));
}

void BM_ToKernelOrder(benchmark::State& state) {
    Buffers b(static_cast<skn_core::FormatId>(state.range(0)));
    state.SetLabel(skn_core::find_format(static_cast<skn_core::FormatId>(state.range(0)))->name);
    for (auto _ : state) {
        skn_core::to_kernel_order(b.src.data(), b.src.size(), b.dst.data(), b.dst.size(), kOut, b.bpr, b.bpb);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(b.src.size()));
}

void BM_ToCanonicalOrder(benchmark::State& state) {
    Buffers b(static_cast<skn_core::FormatId>(state.range(0)));
    state.SetLabel(skn_core::find_format(static_cast<skn_core::FormatId>(state.range(0)))->name);
    for (auto _ : state) {
        skn_core::to_canonical_order(b.src.data(), b.src.size(), b.dst.data(), b.dst.size(), kOut, b.bpr, b.bpb);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(b.src.size()));
}

void formats(benchmark::internal::Benchmark* b) {
    for (auto id : {skn_core::FormatId::Q4_0, skn_core::FormatId::Q8_0, skn_core::FormatId::Q4_K, skn_core::FormatId::Q6_K,
                    skn_core::FormatId::MXFP4})
        b->Arg(static_cast<int64_t>(id));
    b->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}
BENCHMARK(BM_Memcpy)->Apply(formats);
BENCHMARK(BM_ToKernelOrder)->Apply(formats);
BENCHMARK(BM_ToCanonicalOrder)->Apply(formats);

}  // namespace

BENCHMARK_MAIN();
