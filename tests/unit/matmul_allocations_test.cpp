// SPDX-License-Identifier: MIT
// A decode step calls matmul_wt hundreds of times per token with n = 1 ... 8:
// once a context's scratch has grown to a call's size, the dense path
// allocates nothing (no std::function spilling its captures to the heap, no
// string for a trace nobody reads, no per-call tables). This file replaces
// the global operator new of the unit-test program with one that counts
// while a test asks it to, on every thread (the pool's included).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "dispatch/matmul.hpp"
#include "fixtures/sample_weight.hpp"
#include "support/matmul_harness.hpp"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<int64_t> g_allocations{0};

}  // namespace

void* operator new(std::size_t size) {
    if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
// The nothrow form too (std::stable_sort's temporary buffer uses it, and a
// plain delete frees it): left to the runtime, it would come from
// AddressSanitizer's allocator and go back through free() above, which ASan
// reports as an alloc-dealloc mismatch.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace skn_core {
namespace {

TEST(MatmulAllocations, AWarmDenseCallAllocatesNothing) {
    int measured = 0;
    for (FormatId id : {FormatId::Q4_0, FormatId::Q4_K, FormatId::F16}) {
        const FormatTraits& f = *find_format(id);
        const int64_t bpr = f.block_quantized ? 4096 / f.block_elems : 4096 / 32;
        test::TestWeight w(f, 64, bpr, f.block_quantized ? LayoutClass::BlockedRowMajor : LayoutClass::Contiguous, 5);
        for (int threads : {1, 2})
            for (int64_t n : {1, 8})
                for (Precision p : {Precision::Fast, Precision::Exact}) {
                    std::vector<float> x(size_t(n * w.in)), y(size_t(n * 64));
                    sample_weight(x.data(), n, w.in, 9);
                    Context ctx;
                    ctx.set_threads(threads);
                    MatmulOptions o;
                    o.precision = p;
                    // A fallback formats its reason on every call (strict
                    // mode may need it): not the path measured here. The
                    // reference kernel grows a thread_local row once per
                    // thread, on the first task a pool thread happens to
                    // take: with it, one thread only (the warm-up call warms it).
                    const KernelChoice choice = choose_kernel(ctx, w.view, activation_for(f, p), o);
                    if (!choice.fallback_reason.empty() || (threads > 1 && choice.kernel->key.isa == SKN_ISA_SCALAR))
                        continue;
                    ++measured;
                    matmul_wt(ctx, x.data(), n, w.in, w.view, nullptr, y.data(), 64, o);  // grows the scratch
                    g_allocations = 0;
                    g_counting = true;
                    for (int call = 0; call < 3; ++call) matmul_wt(ctx, x.data(), n, w.in, w.view, nullptr, y.data(), 64, o);
                    g_counting = false;
                    EXPECT_EQ(g_allocations.load(), 0)
                        << f.name << " n = " << n << ", " << threads << " threads, "
                        << (p == Precision::Fast ? "fast" : "exact");
                }
    }
    if (measured == 0) GTEST_SKIP() << "every call fell back under this ISA cap";
}

// The counter is live: a call with a trace sink formats its event's detail
// text (which is why that text is built only for a sink).
TEST(MatmulAllocations, ATracedCallFormatsItsDetail) {
    const FormatTraits& f = *find_format(FormatId::Q4_0);
    test::TestWeight w(f, 64, 8, LayoutClass::BlockedRowMajor, 5);
    std::vector<float> x(size_t(w.in)), y(64);
    sample_weight(x.data(), 1, w.in, 9);
    Context ctx;
    int events = 0;
    ctx.set_trace(TraceSink{[](const skn_trace_event*, void* user) { ++*static_cast<int*>(user); }, &events});
    matmul_wt(ctx, x.data(), 1, w.in, w.view, nullptr, y.data(), 64, MatmulOptions{});
    g_allocations = 0;
    g_counting = true;
    matmul_wt(ctx, x.data(), 1, w.in, w.view, nullptr, y.data(), 64, MatmulOptions{});
    g_counting = false;
    EXPECT_GT(g_allocations.load(), 0);
    EXPECT_GE(events, 2);
}

}  // namespace
}  // namespace skn_core
