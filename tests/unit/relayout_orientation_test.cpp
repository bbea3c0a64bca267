// SPDX-License-Identifier: MIT
// The byte-level permutation and the orientation guard.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "formats/orientation.hpp"
#include "layout/relayout.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

std::string error_of(auto&& fn, skn_status expected) {
    try {
        fn();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), expected) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return {};
}

TEST(Relayout, ExactInversesOnManyGrids) {
    for (int64_t rows : {1, 2, 3, 7, 16, 17, 33}) {
        for (int64_t bpr : {1, 3, 5, 8}) {
            for (size_t bpb : {size_t(17), size_t(34), size_t(210)}) {
                const size_t n = size_t(rows * bpr) * bpb;
                std::vector<uint8_t> src(n), ibm(n), back(n);
                for (size_t i = 0; i < n; ++i) src[i] = uint8_t(i * 131 + i / 7);
                to_kernel_order(src.data(), n, ibm.data(), n, rows, bpr, bpb);
                for (int64_t o = 0; o < rows; ++o)
                    for (int64_t b = 0; b < bpr; ++b)
                        ASSERT_EQ(std::memcmp(&ibm[size_t(b * rows + o) * bpb], &src[size_t(o * bpr + b) * bpb], bpb), 0);
                to_canonical_order(ibm.data(), n, back.data(), n, rows, bpr, bpb);
                ASSERT_EQ(back, src) << rows << "x" << bpr << "x" << bpb;
            }
        }
    }
}

TEST(Relayout, SizeErrorsStateNeededAndGivenBytes) {
    std::vector<uint8_t> a(100), b(100);
    auto msg = error_of([&] { to_kernel_order(a.data(), 98, b.data(), 100, 3, 3, 11); }, SKN_E_BUFFER_TOO_SMALL);
    EXPECT_NE(msg.find("needs 99 source bytes but 98"), std::string::npos) << msg;
    msg = error_of([&] { to_kernel_order(a.data(), 100, b.data(), 98, 3, 3, 11); }, SKN_E_BUFFER_TOO_SMALL);
    EXPECT_NE(msg.find("needs 99 destination bytes but 98"), std::string::npos) << msg;
    msg = error_of([&] { to_canonical_order(a.data(), 100, a.data() + 1, 99, 3, 3, 11); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_NE(msg.find("overlap"), std::string::npos) << msg;
    error_of([&] { to_kernel_order(nullptr, 100, b.data(), 100, 3, 3, 11); }, SKN_E_INVALID_ARGUMENT);
    error_of([&] { to_kernel_order(a.data(), 100, b.data(), 100, 0, 3, 11); }, SKN_E_INVALID_ARGUMENT);
    error_of([&] { to_kernel_order(a.data(), 100, b.data(), 100, int64_t(1) << 40, int64_t(1) << 40, 11); },
             SKN_E_INVALID_ARGUMENT);
}

TEST(Orientation, CasesFromTheContract) {
    const FormatTraits& q8 = *find_format(FormatId::Q8_0);
    auto msg = error_of([&] { require_out_in(128, 3, q8); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_NE(msg.find("looks like [in, out]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[3, 128]"), std::string::npos) << "the message names the fix: " << msg;
    EXPECT_NO_THROW(require_out_in(3, 128, q8));
    EXPECT_NO_THROW(require_out_in(64, 128, q8));
    EXPECT_NO_THROW(require_out_in(128, 128, q8));
    msg = error_of([&] { require_out_in(5, 7, q8); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_EQ(msg.find("looks like [in, out]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("multiple of the block size 32"), std::string::npos) << msg;
    EXPECT_NO_THROW(require_out_in(5, 7, *find_format(FormatId::F32)));
    EXPECT_NO_THROW(require_out_in(5, 7, *find_format(FormatId::BF16)));
    // K-quants: 256-element blocks.
    const FormatTraits& q4k = *find_format(FormatId::Q4_K);
    EXPECT_THROW(require_out_in(4096, 11008 / 2 + 1, q4k), Error);
    EXPECT_NO_THROW(require_out_in(11008, 4096, q4k));
    msg = error_of([&] { require_out_in(4096, 11000, q4k); }, SKN_E_INVALID_ARGUMENT);
    EXPECT_NE(msg.find("looks like [in, out]"), std::string::npos) << msg;
}

}  // namespace
}  // namespace skn_core
