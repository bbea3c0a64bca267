// SPDX-License-Identifier: MIT
// CPU detection, the dense backend link, logging and the last-error slot.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "runtime/cpu.hpp"
#if defined(__x86_64__)
#endif
#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace skn_core {
namespace {

TEST(Cpu, TierIsConsistentWithFeatures) {
    const CpuFeatures& f = cpu_features();
    const skn_isa isa = detected_isa();
    const bool x86_tier = isa >= SKN_ISA_AVX2 && isa <= SKN_ISA_AVX512_VNNI;
    EXPECT_TRUE(!x86_tier || (f.avx2 && f.fma && f.f16c));
    EXPECT_TRUE(!(x86_tier && isa >= SKN_ISA_AVX512) || (f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq));
    EXPECT_TRUE(isa != SKN_ISA_AVX512_VNNI || f.avx512vnni);
    EXPECT_TRUE(isa != SKN_ISA_AVX_VNNI || f.avx_vnni);
#if defined(__x86_64__)
    EXPECT_FALSE(f.neon);
    // Every x86-64 CPU this library targets has SSE4.2 (the scalar floor).
    EXPECT_TRUE(f.sse42);
#endif
}

TEST(LastError, IsPerThread) {
    set_last_error(SKN_E_FORMAT, "main thread message");
    std::string other;
    std::thread t([&] {
        other = last_error_message();
        set_last_error(SKN_E_INVALID_ARGUMENT, "worker message");
    });
    t.join();
    EXPECT_EQ(other, "");
    EXPECT_STREQ(last_error_message(), "main thread message");
    clear_last_error();
    EXPECT_STREQ(last_error_message(), "");
}

struct Captured {
    std::vector<std::pair<skn_log_level, std::string>> messages;
};

TEST(Logging, CallbackReceivesMessagesAtOrAboveItsLevel) {
    Captured c;
    ASSERT_TRUE(set_log_callback(
        SKN_LOG_INFO,
        [](skn_log_level l, const char* m, void* u) { static_cast<Captured*>(u)->messages.emplace_back(l, m); }, &c));
    log_debug("not shown {}", 1);
    log_info("shown {}", 2);
    log_warn("warned {}", 3);
    ASSERT_TRUE(set_log_callback(SKN_LOG_OFF, nullptr, nullptr));
    log_warn("after removal");
    ASSERT_EQ(c.messages.size(), 2u);
    EXPECT_EQ(c.messages[0].first, SKN_LOG_INFO);
    EXPECT_EQ(c.messages[0].second, "shown 2");
    EXPECT_EQ(c.messages[1].first, SKN_LOG_WARN);
    EXPECT_FALSE(set_log_callback(static_cast<skn_log_level>(42), nullptr, nullptr));
}

}  // namespace
}  // namespace skn_core
