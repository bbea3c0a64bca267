// SPDX-License-Identifier: MIT
#include "support/contract_cases.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "fixtures/sample_weight.hpp"

namespace skn_core::test {

int check_contract_cases(const Kernel& k, const ContractCases& cases, const ContractY& contract) {
    const FormatTraits& f = *find_format(k.key.weight);
    int case_index = 0;
    int checked = 0;
    for (bool random_blocks : {false, true})
        for (int64_t out : cases.outs)
            for (int64_t bpr : cases.blocks_per_row) {
                const TestWeight w(f, out, bpr, k.key.layout, cases.weight_seed + uint64_t(case_index), random_blocks);
                if (w.view.layout.layout_class() != k.key.layout) {
                    case_index += int(cases.max_n);
                    continue;
                }
                for (int64_t n = 1; n <= cases.max_n; ++n) {
                    ++case_index;
                    std::vector<float> x(size_t(n * w.in)), bias(static_cast<size_t>(out));
                    sample_weight(x.data(), n, w.in, cases.x_seed + uint64_t(case_index));
                    for (int64_t o = 0; o < out; ++o) bias[size_t(o)] = 0.125f * float(o % 7) - 0.375f;
                    const float* b = case_index % 2 ? bias.data() : nullptr;
                    const std::vector<float> want = contract(w, x, n, b);
                    for (int threads : {1, 3}) {
                        std::vector<float> y(want.size(), -7.0f);
                        run_with_kernel(k, w.view, x.data(), n, w.in, b, y.data(), out, threads);
                        ++checked;
                        for (size_t e = 0; e < y.size(); ++e)
                            if (std::memcmp(&y[e], &want[e], sizeof(float)) != 0) {
                                ADD_FAILURE() << k.name << (random_blocks ? " random blocks" : " quantized")
                                              << " out=" << out << " bpr=" << bpr << " n=" << n
                                              << " threads=" << threads << " at [" << e / size_t(out) << ", "
                                              << e % size_t(out) << "]: " << y[e] << " vs " << want[e];
                                return checked;
                            }
                    }
                }
            }
    return checked;
}

}  // namespace skn_core::test
