// SPDX-License-Identifier: MIT
// No kernel reads a byte outside its weight, activations or bias, nor writes
// outside y: every registered kernel runs with each buffer placed flush
// against an inaccessible page, once ending at it and once starting after it,
// so a wide load past the last block (or before the first) faults here in
// every build, not only under AddressSanitizer. A weight from a memory-mapped
// file can end at the end of a page.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "dispatch/registry.hpp"
#include "fixtures/sample_weight.hpp"
#include "runtime/cpu.hpp"
#include "support/matmul_harness.hpp"
#include "support/rows_for.hpp"

namespace skn_core {
namespace {

using test::registered_kernels;
using test::run_with_kernel;
using test::TestWeight;

// `bytes` of usable memory with an inaccessible page right after them
// (at_end) or right before them.
class GuardedBuffer {
public:
    GuardedBuffer(size_t bytes, bool at_end) {
        const size_t page = size_t(sysconf(_SC_PAGESIZE));
        const size_t span = (bytes + page - 1) / page * page;
        total_ = span + page;
        void* m = mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return;
        base_ = static_cast<uint8_t*>(m);
        if (at_end) {
            mprotect(base_ + span, page, PROT_NONE);
            data_ = base_ + span - bytes;
        } else {
            mprotect(base_, page, PROT_NONE);
            data_ = base_ + page;
        }
    }
    ~GuardedBuffer() {
        if (base_ != nullptr) munmap(base_, total_);
    }
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;
    uint8_t* data() const { return data_; }
    float* floats() const { return reinterpret_cast<float*>(data_); }

private:
    uint8_t* base_ = nullptr;
    uint8_t* data_ = nullptr;
    size_t total_ = 0;
};

// The weight's bytes copied into a guarded buffer, with the same layout.
View guarded_copy(const View& v, const GuardedBuffer& g) {
    std::memcpy(g.data(), v.data, v.nbytes);
    View c = v;
    c.data = g.data();
    c.keep_alive = nullptr;
    if (v.trailer != nullptr) c.trailer = g.data() + (v.trailer - v.data);
    return c;
}

class KernelBounds : public ::testing::TestWithParam<const Kernel*> {};

TEST_P(KernelBounds, NoAccessOutsideTheBuffersAtEitherEnd) {
    const Kernel& k = *GetParam();
    if (!cpu_runs(k.key.isa)) GTEST_SKIP() << k.name << ": this CPU lacks " << isa_tag(k.key.isa);
    const FormatTraits& f = *find_format(k.key.weight);
    // 37 rows (row-interleaved: 37 groups of R): full and ragged tiles of
    // every width; 3 blocks per row.
    const TestWeight w(f, test::rows_for(f, 37), 3, k.key.layout, 77, /*random_blocks=*/f.block_quantized);
    if (w.view.layout.layout_class() != k.key.layout) GTEST_SKIP() << "no such layout at this shape";
    int runs = 0;
    for (int64_t n : {1, 2, 5, 11, 17}) {
        // y from unguarded copies of the same inputs, once for both placements.
        std::vector<float> x(size_t(n * w.in)), bias(size_t(w.out)), want(size_t(n * w.out));
        sample_weight(x.data(), n, w.in, 300 + uint64_t(n));
        for (int64_t o = 0; o < w.out; ++o) bias[size_t(o)] = 0.125f * float(o % 7);
        run_with_kernel(k, w.view, x.data(), n, w.in, bias.data(), want.data(), w.out);
        for (const bool at_end : {true, false}) {
            GuardedBuffer wb(w.view.nbytes, at_end), xb(sizeof(float) * x.size(), at_end),
                yb(sizeof(float) * want.size(), at_end), bb(sizeof(float) * bias.size(), at_end);
            ASSERT_NE(wb.data(), nullptr);
            ASSERT_NE(xb.data(), nullptr);
            ASSERT_NE(yb.data(), nullptr);
            ASSERT_NE(bb.data(), nullptr);
            const View gw = guarded_copy(w.view, wb);
            std::memcpy(xb.data(), x.data(), sizeof(float) * x.size());
            std::memcpy(bb.data(), bias.data(), sizeof(float) * bias.size());
            run_with_kernel(k, gw, xb.floats(), n, w.in, bb.floats(), yb.floats(), w.out);
            ASSERT_EQ(std::memcmp(want.data(), yb.floats(), want.size() * sizeof(float)), 0)
                << k.name << " n=" << n << (at_end ? " (buffers ending at a guard page)" : " (after a guard page)");
            ++runs;
        }
    }
    EXPECT_EQ(runs, 10);
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelBounds, ::testing::ValuesIn(registered_kernels()),
                         [](const auto& param_info) { return param_info.param->name; });

}  // namespace
}  // namespace skn_core
