// SPDX-License-Identifier: MIT
// Test weights in any layout class, and running one registered kernel on
// them: shared by the differential suite and the tier-agreement tests.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/matmul.hpp"
#include "layout/scope.hpp"
#include "layout/view.hpp"

namespace skn_core::test {

// A weight [out, bpr blocks] of format `fmt` in layout class `cls` (a
// row-interleaved format: out a multiple of its R, see support/rows_for.hpp).
// Quantized from sample_weight(seed) (I2_S: ternary-valued rows), or, with
// random_blocks, every block replaced by random bytes (redrawn until the
// block decodes to finite values of magnitude <= 1e6): codes anywhere in their range, -128
// included, and scales no quantizer would pick. The bytes and their decoded
// floats are made once per process for each (format, shape, seed, random
// blocks) and shared by every TestWeight of that key: `decoded` lives as long
// as the process, so its address names the weight (the differential suite
// keys its memoized references by it).
struct TestWeight {
    const FormatTraits* f = nullptr;
    int64_t out = 0, in = 0;
    std::vector<uint8_t> rm;             // ROW_MAJOR bytes (the strided case: the stored transpose)
    const std::vector<float>& decoded;   // [out, in]
    Scope scope;
    View view;                   // in the requested layout class

    TestWeight(const FormatTraits& fmt, int64_t out, int64_t bpr, LayoutClass cls, uint64_t seed,
               bool random_blocks = false);
};

// One weight in both block orders, with max_n sample activation rows and a
// sample bias: the inputs of tests that run two kernels and compare bits.
struct BothOrders {
    TestWeight rm, ibm;
    int64_t in = 0;
    std::vector<float> x, bias;  // [max_n, in], [out]

    BothOrders(const FormatTraits& fmt, int64_t out, int64_t bpr, uint64_t weight_seed, int64_t max_n,
               uint64_t x_seed, uint64_t bias_seed);
};

// The 32-element block formats that have a SIMD kernel with quantized
// activations (the q32 kernel family, on either architecture; not the
// row-interleaved ones, whose tests are their own), in format table order:
// its tests' format parameter. Read from the registry, so a
// format the family registers is tested by being registered; empty where
// the provider has no SIMD kernels.
std::vector<FormatId> q32_formats();

// A parameterised test's name: the format's name, then "_<label><value>"
// per field, e.g. Q4_0_out37_bpr3.
std::string case_name(FormatId f, std::initializer_list<std::pair<const char*, int64_t>> fields);

// Every kernel of the default registry, as test parameters.
std::vector<const Kernel*> registered_kernels();

// The registered kernel with exactly this key, or null.
const Kernel* find_kernel(FormatId weight, LayoutClass layout, FormatId activation, skn_isa isa);

// y = x * W^T through the dispatcher with a registry holding only `k`,
// capped at k's ISA, in the precision k's key implies.
void run_with_kernel(const Kernel& k, const View& w, const float* x, int64_t n, int64_t xs, const float* bias,
                     float* y, int64_t ys, int threads = 1);

}  // namespace skn_core::test
