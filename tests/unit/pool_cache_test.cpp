// SPDX-License-Identifier: MIT
// Thread pools leased for whole-tensor work are reused from call to call,
// never shared by two callers at once, and survive fork(). Then the same
// through quantize_tensor: many small multi-threaded calls, sequential and
// concurrent, write the one-thread bytes and start no pool per call.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "runtime/pool_cache.hpp"
#include "support/emulator.hpp"

namespace skn_core {
namespace {

// Runs 1..count on the pool and returns their sum, so a pool that lost a task
// or ran one twice shows.
int64_t sum_on(ThreadPool& pool, int64_t count) {
    std::atomic<int64_t> sum{0};
    pool.parallel_for(count, [&](int64_t i) { sum += i + 1; });
    return sum.load();
}

TEST(PoolCache, SequentialLeasesOfOneSizeReuseOnePool) {
    PoolCache cache;
    ThreadPool* first = nullptr;
    for (int call = 0; call < 50; ++call) {
        const PoolCache::Lease lease = cache.lease(3);
        ASSERT_NE(lease.get(), nullptr);
        EXPECT_EQ(lease.get()->threads(), 3);
        if (first == nullptr) first = lease.get();
        EXPECT_EQ(lease.get(), first) << "call " << call;
        EXPECT_EQ(sum_on(*lease.get(), 100), 5050);
    }
    EXPECT_EQ(cache.pools_started(), 1u);
}

TEST(PoolCache, OverlappingLeasesGetTheirOwnPoolsThenBothAreReused) {
    PoolCache cache;
    {
        const PoolCache::Lease a = cache.lease(2), b = cache.lease(2);
        EXPECT_NE(a.get(), b.get());
        const PoolCache::Lease c = cache.lease(4);  // another size: its own pool
        EXPECT_EQ(c.get()->threads(), 4);
    }
    EXPECT_EQ(cache.pools_started(), 3u);
    {
        const PoolCache::Lease a = cache.lease(2), b = cache.lease(2), c = cache.lease(4);
        EXPECT_EQ(sum_on(*a.get(), 10) + sum_on(*b.get(), 10) + sum_on(*c.get(), 10), 3 * 55);
    }
    EXPECT_EQ(cache.pools_started(), 3u);
}

TEST(PoolCache, KeepsAtMostMaxIdlePools) {
    PoolCache cache;
    const size_t n = PoolCache::kMaxIdle + 2;
    for (int round = 0; round < 2; ++round) {
        std::vector<PoolCache::Lease> held;
        for (size_t i = 0; i < n; ++i) held.push_back(cache.lease(2));
    }
    // The second round found kMaxIdle idle pools and started the rest.
    EXPECT_EQ(cache.pools_started(), n + (n - PoolCache::kMaxIdle));
}

TEST(PoolCache, AForkedChildStartsItsOwnPools) {
    if (const char* emulator = test::emulator())
        GTEST_SKIP() << "under " << emulator
                     << ": qemu-user aborts (cpu == current_cpu) when a forked child of a threaded process starts threads";
    PoolCache cache;
    { const PoolCache::Lease warm = cache.lease(3); }  // an idle pool whose threads the child will not have
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        alarm(30);  // a pool of the parent's would wait for its absent workers forever
        const PoolCache::Lease lease = cache.lease(3);
        _exit(sum_on(*lease.get(), 100) == 5050 && cache.pools_started() == 2 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << (WIFSIGNALED(status) ? "child killed by signal " + std::to_string(WTERMSIG(status)) : "child failed");
}

// Three rows of three blocks, quantized with three threads, as a converter
// does for many small tensors (norms, biases, small projections).
constexpr int64_t kRows = 3, kCols = 96;

std::vector<float> small_weight(uint64_t seed) {
    std::vector<float> w(size_t(kRows * kCols));
    sample_weight(w.data(), kRows, kCols, seed);
    return w;
}

std::vector<uint8_t> quantize_small(const FormatTraits& f, const std::vector<float>& w, int threads) {
    std::vector<uint8_t> q(quantized_size(f, kRows, kCols));
    quantize_tensor(f, w.data(), kRows, kCols, q.data(), q.size(), nullptr, threads);
    return q;
}

TEST(QuantizePools, ManySmallCallsWriteTheOneThreadBytesAndStartNoPoolPerCall) {
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    const std::vector<float> w = small_weight(11);
    const std::vector<uint8_t> want = quantize_small(f, w, 1);
    const size_t started = PoolCache::shared().pools_started();
    for (int call = 0; call < 200; ++call) ASSERT_EQ(quantize_small(f, w, 3), want) << "call " << call;
    EXPECT_LE(PoolCache::shared().pools_started(), started + 1);
}

TEST(QuantizePools, ConcurrentSmallCallsWriteTheOneThreadBytes) {
    const FormatTraits& f = *find_format(FormatId::Q8_0);
    const std::vector<float> w = small_weight(12);
    const std::vector<uint8_t> want = quantize_small(f, w, 1);
    const size_t started = PoolCache::shared().pools_started();
    constexpr int kCallers = 4;
    std::atomic<int> wrong{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < kCallers; ++t)
        callers.emplace_back([&] {
            for (int call = 0; call < 50; ++call)
                if (quantize_small(f, w, 2) != want) ++wrong;
        });
    for (auto& c : callers) c.join();
    EXPECT_EQ(wrong.load(), 0);
    // At most one pool per caller running at the same time.
    EXPECT_LE(PoolCache::shared().pools_started(), started + kCallers);
}

}  // namespace
}  // namespace skn_core
