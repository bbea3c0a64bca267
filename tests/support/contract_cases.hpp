// SPDX-License-Identifier: MIT
// The loop the kernel-contract tests share: run one kernel on every contract
// shape and require exactly the bits its family's written-out contract gives.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "support/matmul_harness.hpp"

namespace skn_core::test {

struct ContractCases {
    std::vector<int64_t> outs = {1, 7, 33};
    std::vector<int64_t> blocks_per_row = {1, 3, 5};
    int64_t max_n = 5;          // activation rows 1 .. max_n for every weight
    uint64_t weight_seed = 90;  // seeds of case c: weight_seed + c, x_seed + c
    uint64_t x_seed = 700;
};

// y the contract gives for weight w (w.rm: its ROW_MAJOR bytes), x [n, w.in]
// and bias (null or w.out floats).
using ContractY =
    std::function<std::vector<float>(const TestWeight& w, const std::vector<float>& x, int64_t n, const float* bias)>;

// For quantized and random-byte weights of every (out, blocks per row) in the
// kernel's layout class (shapes whose view is contiguous, one row or one
// block, are left out), one weight for every n = 1 .. max_n (quantizing is
// most of the cost under qemu), a bias on every other case: runs k on 1 and 3
// threads and requires y to equal contract(...) bit for bit. Reports the
// first difference as a test failure naming the case. Returns the number of
// runs checked.
int check_contract_cases(const Kernel& k, const ContractCases& cases, const ContractY& contract);

}  // namespace skn_core::test
