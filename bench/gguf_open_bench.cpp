// SPDX-License-Identifier: MIT
// Opening a GGUF file costs the header, not the tensor data: two sparse files
// with the same header structure (8 Q8_0 tensors, a 1000-token vocabulary,
// a few scalars), one holding ~1 MiB of tensor data, the other ~1 GiB.
// Opening maps the file and parses the header; no tensor byte is read.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "gguf/reader.hpp"

namespace {

constexpr int kTensors = 8;
constexpr uint64_t kRowElems = 4096;
constexpr uint64_t kRowBytes = kRowElems / 32 * 34;  // Q8_0

struct Encoder {
    std::vector<uint8_t> b;
    void put(const void* p, size_t n) { b.insert(b.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n); }
    void u32(uint32_t v) { put(&v, 4); }
    void u64(uint64_t v) { put(&v, 8); }
    void str(const std::string& s) {
        u64(s.size());
        put(s.data(), s.size());
    }
};

// Write a sparse GGUF file whose tensors have `rows` rows each; returns its path.
std::string make_file(uint64_t rows, const char* tag) {
    Encoder e;
    e.put("GGUF", 4);
    e.u32(3);
    e.u64(kTensors);
    e.u64(4);
    e.str("general.architecture");
    e.u32(8);
    e.str("llama");
    e.str("llama.context_length");
    e.u32(4);
    e.u32(4096);
    e.str("llama.rope.freq_base");
    e.u32(6);
    const float base = 10000.0f;
    e.put(&base, 4);
    e.str("tokenizer.ggml.tokens");
    e.u32(9);
    e.u32(8);
    e.u64(1000);
    for (int i = 0; i < 1000; ++i) e.str("token" + std::to_string(i));
    const uint64_t tensor_bytes = rows * kRowBytes;  // a multiple of 32
    for (int t = 0; t < kTensors; ++t) {
        e.str("blk." + std::to_string(t) + ".ffn_up.weight");
        e.u32(2);
        e.u64(kRowElems);
        e.u64(rows);
        e.u32(8);  // Q8_0
        e.u64(uint64_t(t) * tensor_bytes);
    }
    while (e.b.size() % 32 != 0) e.b.push_back(0);
    const uint64_t total = e.b.size() + kTensors * tensor_bytes;

    const std::string path =
        (std::filesystem::temp_directory_path() / ("skn_bench_gguf_" + std::to_string(::getpid()) + tag)).string();
    const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    if (fd < 0 || ::write(fd, e.b.data(), e.b.size()) != ssize_t(e.b.size()) || ::ftruncate(fd, off_t(total)) != 0) {
        std::perror("skn_bench_gguf: cannot write the sparse file");
        std::exit(1);
    }
    ::close(fd);
    return path;
}

struct Files {
    std::string small = make_file(30, "_1MiB.gguf");       // 8 x 30 rows x 4352 B = 1.0 MiB
    std::string large = make_file(30720, "_1GiB.gguf");    // 8 x 30720 rows x 4352 B = 1.0 GiB
    ~Files() {
        std::remove(small.c_str());
        std::remove(large.c_str());
    }
};

const Files& files() {
    static const Files f;
    return f;
}

void open_bench(benchmark::State& state, const std::string& path) {
    uint64_t data_bytes = 0;
    for (auto _ : state) {
        const auto f = skn_core::gguf::File::open(path);
        data_bytes = f->size() - f->data_offset();
        benchmark::DoNotOptimize(f->tensors().data());
    }
    state.counters["tensor_MiB"] = double(data_bytes) / (1024.0 * 1024.0);
}

void BM_GgufOpen_1MiB(benchmark::State& state) { open_bench(state, files().small); }
void BM_GgufOpen_1GiB(benchmark::State& state) { open_bench(state, files().large); }
BENCHMARK(BM_GgufOpen_1MiB)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GgufOpen_1GiB)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
