// SPDX-License-Identifier: MIT
// skn.hpp, the header-only C++17 wrapper, compiled as C++17 against libskn
// alone (no internal headers): RAII, errors, spans, and the same contract
// checks the downstream consumers run.
#include "skn/skn.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

static_assert(__cplusplus >= 201703L && __cplusplus < 202002L, "this test is meant to be compiled as C++17");
static_assert(!std::is_copy_constructible<skn::Scope>::value, "Scope is move-only");
static_assert(!std::is_copy_constructible<skn::Context>::value, "Context is move-only");
static_assert(std::is_copy_constructible<skn::View>::value, "View copies retain");
static_assert(std::is_nothrow_move_constructible<skn::View>::value, "View moves do not throw");

namespace {

std::vector<float> ramp(std::size_t n, float scale) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = scale * std::sin(0.37f * static_cast<float>(i) + 0.11f);
    return v;
}

TEST(SknHpp, VersionMatchesHeader) {
    EXPECT_EQ(skn::version(), static_cast<unsigned>(SKN_VERSION_NUMBER));
    EXPECT_EQ(skn::version_string(), std::to_string(SKN_VERSION_MAJOR) + "." + std::to_string(SKN_VERSION_MINOR) +
                                         "." + std::to_string(SKN_VERSION_PATCH));
}

TEST(SknHpp, ErrorCarriesStatusAndMessage) {
    try {
        skn::format_info(static_cast<skn_format>(4));  // id 4 is not a format skn implements
        FAIL() << "no exception";
    } catch (const skn::Error& e) {
        EXPECT_EQ(e.status(), SKN_E_UNKNOWN_FORMAT);
        EXPECT_FALSE(e.message().empty());
        EXPECT_NE(std::string(e.what()).find("SKN_E_UNKNOWN_FORMAT"), std::string::npos) << e.what();
    }
    EXPECT_THROW(skn::format_from_name("not-a-format"), skn::Error);
    EXPECT_THROW(skn::require_out_in(256, 100, SKN_FORMAT_Q4_K), skn::Error);
    EXPECT_NO_THROW(skn::require_out_in(4, 768, SKN_FORMAT_Q4_K));
}

TEST(SknHpp, Formats) {
    const std::vector<skn_format> all = skn::formats();
    ASSERT_EQ(static_cast<std::int32_t>(all.size()), skn_format_count());
    const skn::FormatInfo q4k = skn::format_info(SKN_FORMAT_Q4_K);
    EXPECT_EQ(q4k.name, "Q4_K");
    EXPECT_EQ(q4k.block_elems, 256);
    EXPECT_EQ(q4k.block_bytes, 144);
    EXPECT_TRUE(q4k.is_block_quantized);
    EXPECT_EQ(skn::format_from_name("q4_k"), SKN_FORMAT_Q4_K);
    EXPECT_FALSE(skn::format_info(SKN_FORMAT_F32).is_block_quantized);
}

TEST(SknHpp, QuantizeDequantizeRoundTripAndSpans) {
    const std::int64_t rows = 3, cols = 256;
    const std::vector<float> w = ramp(static_cast<std::size_t>(rows * cols), 0.5f);
    const skn::bytes q = skn::quantize(SKN_FORMAT_Q8_0, w, rows, cols);
    EXPECT_EQ(q.size(), skn::quantized_size(SKN_FORMAT_Q8_0, rows, cols));
    const std::vector<float> d = skn::dequantize(SKN_FORMAT_Q8_0, q, rows, cols);
    ASSERT_EQ(d.size(), w.size());
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(d[i], w[i], 0.01f) << i;

    // The same through caller-owned buffers: a std::array and a C array.
    std::array<std::uint8_t, 34> one_block{};
    float block[32];
    for (int i = 0; i < 32; ++i) block[i] = static_cast<float>(i) / 8.0f;
    skn::quantize(SKN_FORMAT_Q8_0, block, 1, 32, one_block);
    std::vector<float> back(32);
    skn::dequantize(SKN_FORMAT_Q8_0, one_block, 1, 32, skn::span<float>(back));
    EXPECT_NEAR(back[31], 31.0f / 8.0f, 0.05f);

    // A destination too small is an skn::Error with the C status.
    std::array<std::uint8_t, 10> small{};
    try {
        skn::quantize(SKN_FORMAT_Q8_0, block, 1, 32, small);
        FAIL() << "no exception";
    } catch (const skn::Error& e) {
        EXPECT_EQ(e.status(), SKN_E_BUFFER_TOO_SMALL);
    }
    // A source smaller than rows * cols is refused before the C call.
    EXPECT_THROW(skn::quantize(SKN_FORMAT_Q8_0, skn::span<const float>(block, 16), 1, 32), skn::Error);
}

TEST(SknHpp, QuantizeWithOptions) {
    const std::int64_t rows = 5, cols = 768;
    std::vector<float> w = ramp(static_cast<std::size_t>(rows * cols), 0.5f);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] *= (i % 3 == 0) ? -1.0f : 1.0f;
    std::vector<float> importance(static_cast<std::size_t>(cols));
    for (std::size_t c = 0; c < importance.size(); ++c) importance[c] = 0.5f + static_cast<float>(c % 7);

    // Defaults are skn_quantize; threads change nothing in the bytes.
    const skn::bytes plain = skn::quantize(SKN_FORMAT_Q4_K, w, rows, cols);
    EXPECT_EQ(skn::quantize(SKN_FORMAT_Q4_K, w, rows, cols, skn::QuantizeOptions{}), plain);
    const skn::bytes weighted = skn::quantize(SKN_FORMAT_Q4_K, w, rows, cols, skn::QuantizeOptions{importance, 1});
    EXPECT_EQ(skn::quantize(SKN_FORMAT_Q4_K, w, rows, cols, skn::QuantizeOptions{importance, 3}), weighted);
    EXPECT_NE(weighted, plain) << "Q4_K reads importance weights";
    // Q8_0 ignores them.
    EXPECT_EQ(skn::quantize(SKN_FORMAT_Q8_0, w, rows, cols, skn::QuantizeOptions{importance, 2}),
              skn::quantize(SKN_FORMAT_Q8_0, w, rows, cols));

    // One weight short is the C call's SKN_E_INVALID_ARGUMENT.
    try {
        skn::quantize(SKN_FORMAT_Q4_K, w, rows, cols,
                      skn::QuantizeOptions{skn::span<const float>(importance.data(), importance.size() - 1), 1});
        FAIL() << "no exception";
    } catch (const skn::Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
    }
}

TEST(SknHpp, FixtureContract) {
    const skn::bytes kernel = skn::fixture_bytes(SKN_FORMAT_Q4_K, SKN_ORDER_INPUT_BLOCK_MAJOR, 4, 3);
    EXPECT_FALSE(skn::fixture_disagreement(kernel, SKN_FORMAT_Q4_K, SKN_ORDER_INPUT_BLOCK_MAJOR, 4, 3).has_value());
    const skn::bytes canonical = skn::fixture_bytes(SKN_FORMAT_Q4_K, SKN_ORDER_ROW_MAJOR, 4, 3);
    const auto problem = skn::fixture_disagreement(canonical, SKN_FORMAT_Q4_K, SKN_ORDER_INPUT_BLOCK_MAJOR, 4, 3);
    ASSERT_TRUE(problem.has_value());
    EXPECT_FALSE(problem->empty());
    // The byte-level permutation maps one to the other and back.
    EXPECT_EQ(skn::packed_to_kernel_order(SKN_FORMAT_Q4_K, canonical, 4, 3), kernel);
    EXPECT_EQ(skn::packed_to_canonical_order(SKN_FORMAT_Q4_K, kernel, 4, 3), canonical);
}

TEST(SknHpp, GoldenDecodedMatchesDequantize) {
    for (skn_format f : {SKN_FORMAT_Q4_K, SKN_FORMAT_Q8_0, SKN_FORMAT_IQ4_NL, SKN_FORMAT_TQ2_0}) {
        const skn::GoldenInfo gi = skn::golden_info(f);
        const skn::bytes packed = skn::golden_bytes(f, SKN_GOLDEN_PACKED);
        const std::vector<float> decoded = skn::golden_floats(f, SKN_GOLDEN_DECODED);
        const std::vector<float> mine = skn::dequantize(f, packed, gi.rows, gi.cols);
        ASSERT_EQ(mine.size(), decoded.size());
        EXPECT_EQ(std::memcmp(mine.data(), decoded.data(), mine.size() * sizeof(float)), 0)
            << skn::format_info(f).name;
    }
}

TEST(SknHpp, ViewsRetainReleaseAndPrepack) {
    const skn::GoldenInfo gi = skn::golden_info(SKN_FORMAT_Q4_K);
    const skn::bytes packed = skn::golden_bytes(SKN_FORMAT_Q4_K, SKN_GOLDEN_PACKED);
    const std::vector<float> decoded = skn::golden_floats(SKN_FORMAT_Q4_K, SKN_GOLDEN_DECODED);

    skn::Scope scope;
    skn::View kernel_view;
    {
        skn::View w = skn::View::from_bytes(packed, SKN_FORMAT_Q4_K, {gi.rows, gi.cols}, SKN_ORDER_ROW_MAJOR);
        EXPECT_EQ(w.shape(), (std::vector<std::int64_t>{gi.rows, gi.cols}));
        EXPECT_EQ(w.layout_class(), SKN_LAYOUT_BLOCKED_ROW_MAJOR);
        skn::View copy = w;  // retain
        EXPECT_EQ(copy.get(), w.get());
        int adapters = 0;
        std::uint64_t moved = 0;
        kernel_view = w.prepack(SKN_ORDER_INPUT_BLOCK_MAJOR, scope, [&](const skn_trace_event& e) {
            if (e.kind == SKN_TRACE_ADAPTER) {
                ++adapters;
                moved = e.bytes;
            }
        });
        EXPECT_EQ(adapters, 1);
        EXPECT_EQ(moved, packed.size());
        // Same order: the very same view, nothing copied.
        skn::View again = kernel_view.prepack(SKN_ORDER_INPUT_BLOCK_MAJOR, scope);
        EXPECT_EQ(again.get(), kernel_view.get());
    }
    // The scope copy outlives the borrowed view it came from, and decodes the same.
    EXPECT_EQ(kernel_view.order(), SKN_ORDER_INPUT_BLOCK_MAJOR);
    EXPECT_EQ(kernel_view.to_float(), decoded);
    EXPECT_EQ(kernel_view.get({1, 300}), decoded[static_cast<std::size_t>(gi.cols + 300)]);
    EXPECT_GE(scope.allocated(), packed.size());
    EXPECT_NE(kernel_view.describe().find("INPUT_BLOCK_MAJOR"), std::string::npos);

    // A packed weight cannot be transposed: the C status comes through.
    try {
        kernel_view.transpose(0, 1);
        FAIL() << "no exception";
    } catch (const skn::Error& e) {
        EXPECT_EQ(e.status(), SKN_E_UNSUPPORTED);
        EXPECT_NE(e.message().find("skn_matmul_wt"), std::string::npos);
    }
    const skn::View rows = kernel_view.narrow(0, 1, 2);
    EXPECT_EQ(rows.shape(), (std::vector<std::int64_t>{2, gi.cols}));

    // Move leaves the source empty; release() hands the reference out.
    skn::View moved_to = std::move(kernel_view);
    EXPECT_FALSE(kernel_view);
    skn_view* raw = moved_to.release();
    skn::View adopted = skn::View::adopt(raw);
    EXPECT_TRUE(adopted);
}

TEST(SknHpp, MatmulWtMatchesGoldenY) {
    const skn_format f = SKN_FORMAT_Q4_K;
    const skn::GoldenInfo gi = skn::golden_info(f);
    const skn::bytes packed = skn::golden_bytes(f, SKN_GOLDEN_PACKED);
    const std::vector<float> x = skn::golden_floats(f, SKN_GOLDEN_X);
    const std::vector<float> y_golden = skn::golden_floats(f, SKN_GOLDEN_Y);

    skn::Context ctx;
    int kernels = 0;
    ctx.set_trace([&](const skn_trace_event& e) {
        if (e.kind == SKN_TRACE_KERNEL || e.kind == SKN_TRACE_FALLBACK) ++kernels;
    });
    skn::Scope scope;
    const skn::View w = skn::View::from_bytes(packed, f, {gi.rows, gi.cols}, SKN_ORDER_ROW_MAJOR);
    const skn::View ready = ctx.prepack_for_matmul(w, scope);

    skn::MatmulOptions exact;
    exact.precision = SKN_PRECISION_EXACT;
    const std::vector<float> y = ctx.matmul_wt(x, gi.x_rows, ready, {}, exact);
    ASSERT_EQ(y.size(), y_golden.size());
    for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], y_golden[i], 1e-3f * (1.0f + std::fabs(y_golden[i])));
    EXPECT_GE(kernels, 1);

    // Either order gives bit-identical results, with a bias too.
    std::vector<float> bias(static_cast<std::size_t>(gi.rows), 0.5f);
    const std::vector<float> y_rm = ctx.matmul_wt(x, gi.x_rows, w, bias);
    const std::vector<float> y_ready = ctx.matmul_wt(x, gi.x_rows, ready, bias);
    EXPECT_EQ(y_rm, y_ready);

    // x too short is refused before the C call.
    EXPECT_THROW(ctx.matmul_wt(skn::span<const float>(x.data(), 10), gi.x_rows, w), skn::Error);
    ctx.set_trace(skn::TraceFn());
    EXPECT_FALSE(skn::kernel_names().empty());

    skn::Context moved = std::move(ctx);
    EXPECT_NO_THROW(moved.set_threads(2));
    EXPECT_THROW(moved.set_threads(0), skn::Error);
}

TEST(SknHpp, ExpertSelectAndMatmulWtId) {
    const skn_format f = SKN_FORMAT_Q4_K;
    const skn::GoldenInfo gi = skn::golden_info(f);
    const skn::bytes one = skn::golden_bytes(f, SKN_GOLDEN_PACKED);
    const std::vector<float> x = skn::golden_floats(f, SKN_GOLDEN_X);
    // Two experts: the golden weight, and the same bytes again.
    skn::bytes two(one);
    two.insert(two.end(), one.begin(), one.end());
    const skn::View stacked = skn::View::from_bytes(two, f, {2, gi.rows, gi.cols}, SKN_ORDER_ROW_MAJOR);
    const skn::View expert1 = stacked.select(0, 1);
    EXPECT_EQ(expert1.shape(), (std::vector<std::int64_t>{gi.rows, gi.cols}));
    EXPECT_THROW(stacked.select(2, 0), skn::Error);  // the block axis

    skn::Context ctx;
    const std::vector<float> y1 = ctx.matmul_wt(x, gi.x_rows, expert1);
    std::vector<std::int32_t> ids;
    std::vector<float> gates;
    for (std::int64_t i = 0; i < gi.x_rows; ++i) {
        ids.insert(ids.end(), {1, 0});
        gates.insert(gates.end(), {2.0f, 0.5f});
    }
    const std::vector<float> y = ctx.matmul_wt_id(x, gi.x_rows, ids, 2, stacked, gates);
    ASSERT_EQ(y.size(), static_cast<std::size_t>(gi.x_rows * 2 * gi.rows));
    for (std::int64_t i = 0; i < gi.x_rows; ++i)
        for (std::int64_t o = 0; o < gi.rows; ++o) {
            const float want = y1[static_cast<std::size_t>(i * gi.rows + o)];
            EXPECT_EQ(y[static_cast<std::size_t>((i * 2 + 0) * gi.rows + o)], 2.0f * want);
            EXPECT_EQ(y[static_cast<std::size_t>((i * 2 + 1) * gi.rows + o)], 0.5f * want);
        }
    // The same through the struct form: byte strides, every slot reading its
    // row (x_slots 1), y slot-major ([k, x_rows, out]).
    skn_routed_matmul args{};
    std::vector<float> y_slot_major(y.size());
    args.w = stacked.get();
    args.x = x.data();
    args.x_rows = gi.x_rows;
    args.x_slots = 1;
    args.x_row_stride = gi.cols * 4;
    args.ids = ids.data();
    args.k = 2;
    args.ids_row_stride = 2 * 4;
    args.gates = gates.data();
    args.gates_row_stride = 2 * 4;
    args.y = y_slot_major.data();
    args.y_row_stride = gi.rows * 4;
    args.y_slot_stride = gi.x_rows * gi.rows * 4;
    ctx.matmul_wt_id(args);
    for (std::int64_t i = 0; i < gi.x_rows; ++i)
        for (std::int64_t s = 0; s < 2; ++s)
            for (std::int64_t o = 0; o < gi.rows; ++o)
                EXPECT_EQ(y_slot_major[static_cast<std::size_t>((s * gi.x_rows + i) * gi.rows + o)],
                          y[static_cast<std::size_t>((i * 2 + s) * gi.rows + o)]);
    args.x_slots = 3;
    EXPECT_THROW(ctx.matmul_wt_id(args), skn::Error);
    ids[1] = 2;  // expert 2 of 2
    try {
        ctx.matmul_wt_id(x, gi.x_rows, ids, 2, stacked);
        FAIL() << "no exception";
    } catch (const skn::Error& e) {
        EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
        EXPECT_NE(e.message().find("row 0, slot 1"), std::string::npos) << e.message();
    }
    EXPECT_THROW(ctx.matmul_wt_id(x, gi.x_rows, skn::span<const std::int32_t>(ids.data(), 1), 2, stacked), skn::Error);
}

TEST(SknHpp, GgufWriteAndRead) {
    const skn::bytes q = skn::quantize(SKN_FORMAT_Q4_0, ramp(2 * 64, 1.0f), 2, 64);
    skn::GgufWriter writer;
    writer.add_string("general.name", "wrapper");
    writer.add_u32("test.answer", 42);
    writer.add_string_array("test.words", {"a", "bc"});
    writer.add_tensor("w", SKN_FORMAT_Q4_0, {64, 2}, q);
    EXPECT_THROW(writer.add_u32("test.answer", 1), skn::Error);  // repeated key
    const skn::bytes file = writer.write_memory();
    ASSERT_EQ(file.size(), writer.size());

    const skn::Gguf g = skn::Gguf::open_memory(file);
    EXPECT_EQ(g.version(), 3u);
    EXPECT_EQ(g.tensor_count(), 1);
    const auto key = g.find_key("test.answer");
    ASSERT_TRUE(key.has_value());
    EXPECT_EQ(g.get_u32(*key), 42u);
    EXPECT_THROW(g.get_i32(*key), skn::Error);  // no conversion
    EXPECT_EQ(g.get_string(*g.find_key("general.name")), "wrapper");
    const auto words = g.find_key("test.words");
    ASSERT_TRUE(words.has_value());
    EXPECT_EQ(g.array_info(static_cast<std::uint64_t>(*words)).second, 2u);
    EXPECT_EQ(g.array_string(static_cast<std::uint64_t>(*words), 1), "bc");
    EXPECT_FALSE(g.find_tensor("nope").has_value());
    const skn::GgufTensorInfo t = g.tensor_info(*g.find_tensor("w"));
    EXPECT_EQ(t.format, SKN_FORMAT_Q4_0);
    EXPECT_EQ(t.shape, (std::vector<std::int64_t>{2, 64}));
    const skn::const_byte_span data = g.tensor_data(0);
    ASSERT_EQ(data.size(), q.size());
    EXPECT_EQ(std::memcmp(data.data(), q.data(), q.size()), 0);
    const skn::View tv = g.tensor_view(0);
    EXPECT_EQ(tv.shape(), (std::vector<std::int64_t>{2, 64}));
    EXPECT_EQ(tv.order(), SKN_ORDER_ROW_MAJOR);
    EXPECT_EQ(tv.to_float(), skn::dequantize(SKN_FORMAT_Q4_0, q, 2, 64));
}

TEST(SknHpp, ImatrixGgufFormWithExperts) {
    // A GGUF-form imatrix: one 3-D expert entry (3 experts of 64 columns,
    // expert 1 never routed to) written with the wrapper's GGUF writer.
    std::vector<float> sums(64 * 3);
    for (std::size_t i = 0; i < sums.size(); ++i) sums[i] = static_cast<float>(i % 9) + 0.5f;
    const float counts[3] = {5.0f, 0.0f, 2.0f};
    skn::GgufWriter w;
    w.add_string_array("imatrix.datasets", {"calib.txt"});
    w.add_u32("imatrix.chunk_count", 3);
    w.add_u32("imatrix.chunk_size", 256);
    const auto as_bytes = [](const float* f, std::size_t n) {
        return skn::const_byte_span(reinterpret_cast<const std::uint8_t*>(f), n * sizeof(float));
    };
    w.add_tensor("blk.2.ffn_down_exps.weight.in_sum2", SKN_FORMAT_F32, {64, 3}, as_bytes(sums.data(), sums.size()));
    w.add_tensor("blk.2.ffn_down_exps.weight.counts", SKN_FORMAT_F32, {1, 3}, as_bytes(counts, 3));
    const skn::Imatrix m = skn::Imatrix::open_memory(w.write_memory());  // nothing borrowed
    const skn::ImatrixInfo info = m.info();
    EXPECT_EQ(info.form, SKN_IMATRIX_GGUF);
    EXPECT_EQ(info.entry_count, 1);
    EXPECT_EQ(info.chunk_count, 3);
    EXPECT_EQ(info.chunk_size, 256);
    EXPECT_EQ(m.dataset(0), "calib.txt");
    const auto i = m.find("blk.2.ffn_down_exps.weight");
    ASSERT_TRUE(i.has_value());
    EXPECT_FALSE(m.find("blk.2.ffn_down_exps").has_value());
    const skn::ImatrixEntry e = m.entry(*i);
    EXPECT_EQ(e.values_per_row, 64);
    EXPECT_EQ(e.matrices, 3);
    EXPECT_EQ(e.count, 5);
    EXPECT_EQ(e.unused_matrices, 1);
    for (std::int64_t x = 0; x < 3; ++x) {
        EXPECT_EQ(m.matrix_count(*i, x), static_cast<std::int64_t>(counts[x]));
        const skn::span<const float> v = m.values(*i, x);
        ASSERT_EQ(v.size(), 64u);
        for (std::size_t c = 0; c < 64; ++c) {
            const float want = counts[x] > 0.0f ? sums[static_cast<std::size_t>(x) * 64 + c] / counts[x] : 1.0f;
            EXPECT_EQ(std::memcmp(&v[c], &want, sizeof want), 0) << "expert " << x << " column " << c;
        }
    }
    EXPECT_EQ(m.values(*i).size(), 192u);
    EXPECT_THROW(m.values(*i, 3), skn::Error);
    EXPECT_THROW(m.entry(1), skn::Error);
    EXPECT_THROW(m.dataset(1), skn::Error);
    EXPECT_THROW(skn::Imatrix::open_memory(skn::bytes{'G', 'G', 'U', 'F'}), skn::Error);
}

}  // namespace

namespace {

std::string temp_path(const char* name) {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr && *dir ? dir : "/tmp") + "/skn_hpp_" + std::to_string(::getpid()) + "_" + name;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

TEST(SknHpp, GgufStreamWritesTensorByTensor) {
    // Two Q8_0 tensors of 3 blocks per row, the second streamed in chunks
    // that split blocks; the result must equal the in-memory writer's file.
    const skn::bytes a = skn::quantize(SKN_FORMAT_Q8_0, ramp(4 * 96, 0.5f), 4, 96);
    const skn::bytes b = skn::quantize(SKN_FORMAT_Q8_0, ramp(2 * 96, -0.25f), 2, 96);
    skn::GgufWriter whole;
    whole.add_string("general.name", "stream");
    whole.add_tensor("a", SKN_FORMAT_Q8_0, {96, 4}, a);
    whole.add_tensor("b", SKN_FORMAT_Q8_0, {96, 2}, b);
    const skn::bytes want = whole.write_memory();

    const std::string path = temp_path("stream.gguf");
    std::remove(path.c_str());
    {
        skn::GgufWriter w;
        w.add_string("general.name", "stream");
        w.declare_tensor("a", SKN_FORMAT_Q8_0, {96, 4});
        w.declare_tensor("b", SKN_FORMAT_Q8_0, {96, 2});
        EXPECT_EQ(w.size(), want.size());
        skn::GgufStream s(w, path);
        EXPECT_THROW(s.write("b", b), skn::Error);  // out of order: "a" comes first
        s.write("a", a);
        EXPECT_EQ(s.position().tensor, 1);
        s.write("b", skn::const_byte_span(b.data(), 50));
        const skn::GgufStream::Position p = s.position();
        EXPECT_EQ(p.tensor, 1);
        EXPECT_EQ(p.written, 50u);
        try {
            s.finish();  // "b" is incomplete: refused, the stream stays usable
            FAIL() << "finish of an incomplete stream did not throw";
        } catch (const skn::Error& e) {
            EXPECT_EQ(e.status(), SKN_E_INVALID_ARGUMENT);
            EXPECT_NE(e.message().find("\"b\""), std::string::npos) << e.message();
        }
        EXPECT_FALSE(exists(path));
        skn::GgufStream moved = std::move(s);
        moved.write("b", skn::const_byte_span(b.data() + 50, b.size() - 50));
        EXPECT_EQ(moved.position().tensor, 2);
        moved.finish();
    }
    std::ifstream in(path, std::ios::binary);
    const skn::bytes got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(got, want);
    std::remove(path.c_str());

    // Abandoned: the destructor removes the temporary file, `path` never appears.
    const std::string gone = temp_path("abandoned.gguf");
    {
        skn::GgufWriter w;
        w.declare_tensor("a", SKN_FORMAT_Q8_0, {96, 4});
        skn::GgufStream s(w, gone);
        s.write("a", skn::const_byte_span(a.data(), 10));
    }
    EXPECT_FALSE(exists(gone));
    const std::string prefix = "skn_hpp_" + std::to_string(::getpid()) + "_abandoned.gguf.skn-partial";
    const char* dir = std::getenv("TMPDIR");
    for (const auto& e : std::filesystem::directory_iterator(dir != nullptr && *dir ? dir : "/tmp"))
        EXPECT_NE(e.path().filename().string().rfind(prefix, 0), 0u) << "left behind: " << e.path();
}

}  // namespace
