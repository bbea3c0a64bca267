// SPDX-License-Identifier: MIT
// The fuzzer's every_format seed is a committed file written by
// tests/fuzz/make_gguf_seeds; it went stale once (the grid formats were added
// to the format table after it was written, so the fuzzer started without a
// single valid tensor of theirs). This keeps it in step with the table.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "formats/format.hpp"
#include "gguf/reader.hpp"

namespace skn_core::gguf {
namespace {

TEST(FuzzSeeds, EveryFormatSeedHoldsOneValidTensorOfEveryFormat) {
    const auto f = File::open(std::string(SKN_FUZZ_CORPUS_DIR) + "/every_format.gguf");
    EXPECT_EQ(f->unsupported_count(), 0u);
    for (const FormatTraits& fmt : all_formats()) {
        // One I2_S layout per file: the seed holds I2_S (its key says "x86").
        if (fmt.id == FormatId::I2_S_G64) continue;
        SCOPED_TRACE(fmt.name);
        const std::optional<size_t> i = f->find_tensor(fmt.name);
        ASSERT_TRUE(i.has_value()) << "no tensor " << fmt.name << ": rewrite the seeds (tests/fuzz/run_fuzz.sh gguf "
                                   << "writes them to build/fuzz/runs/gguf/seeds; copy every_format.gguf here)";
        const Tensor& t = f->tensor(int64_t(*i));
        ASSERT_NE(t.type.format, nullptr);
        EXPECT_EQ(t.type.format->id, fmt.id);
        EXPECT_TRUE(t.supported);
    }
}

}  // namespace
}  // namespace skn_core::gguf
