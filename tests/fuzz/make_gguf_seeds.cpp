// SPDX-License-Identifier: MIT
// Writes a few small, valid GGUF files into a directory: the seed corpus of
// fuzz_gguf. Each covers different parts of the format.
//   usage: make_gguf_seeds DIR
#include <cstdio>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "gguf/writer.hpp"
#include "runtime/error.hpp"
#include "support/rows_for.hpp"

namespace {

using namespace skn_core;
using namespace skn_core::gguf;

std::vector<uint8_t> quantized(const FormatTraits& f, int64_t rows, int64_t cols, uint64_t seed) {
    std::vector<float> src(size_t(rows * cols));
    sample_weight(src.data(), rows, cols, seed);
    std::vector<uint8_t> q(quantized_size(f, rows, cols));
    // IQ2_XXS, IQ2_XS and IQ1_S quantize only with importance weights.
    const std::vector<float> importance(f.requires_importance() ? size_t(cols) : 0, 1.0f);
    quantize_tensor(f, src.data(), rows, cols, q.data(), q.size(), importance.empty() ? nullptr : importance.data());
    return q;
}

void add(Writer& w, const std::string& name, FormatId id, std::vector<int64_t> ne, uint64_t seed) {
    const FormatTraits& f = *find_format(id);
    int64_t rows = 1;
    for (size_t d = 1; d < ne.size(); ++d) rows *= ne[d];
    w.add_tensor(name, f, ne, quantized(f, rows, ne[0], seed));
}

// A small model-like file: typical metadata, a vocabulary, a few weights.
Writer model() {
    Writer w;
    w.add_string("general.architecture", "llama");
    w.add_scalar<uint32_t>("llama.block_count", ValueType::U32, 1);
    w.add_scalar<float>("llama.attention.layer_norm_rms_epsilon", ValueType::F32, 1e-5f);
    w.add_bool("tokenizer.ggml.add_bos_token", true);
    w.add_array("tokenizer.ggml.tokens", ArrayValue::of_strings({"<unk>", "<s>", "</s>", "a", "b"}));
    const float scores[] = {0, 0, 0, -1, -2};
    w.add_array("tokenizer.ggml.scores", ArrayValue::numbers(ValueType::F32, scores, 5));
    add(w, "token_embd.weight", FormatId::Q4_0, {64, 5}, 1);
    add(w, "blk.0.attn_q.weight", FormatId::Q8_0, {64, 4}, 2);
    add(w, "blk.0.attn_norm.weight", FormatId::F32, {64}, 3);
    add(w, "output.weight", FormatId::Q4_K, {256, 2}, 4);
    return w;
}

// Metadata only: every value type, nested arrays.
Writer metadata() {
    Writer w;
    w.add_scalar<uint8_t>("u8", ValueType::U8, 1);
    w.add_scalar<int8_t>("i8", ValueType::I8, -1);
    w.add_scalar<uint16_t>("u16", ValueType::U16, 2);
    w.add_scalar<int16_t>("i16", ValueType::I16, -2);
    w.add_scalar<uint32_t>("u32", ValueType::U32, 3);
    w.add_scalar<int32_t>("i32", ValueType::I32, -3);
    w.add_scalar<uint64_t>("u64", ValueType::U64, 4);
    w.add_scalar<int64_t>("i64", ValueType::I64, -4);
    w.add_scalar<float>("f32", ValueType::F32, 0.5f);
    w.add_scalar<double>("f64", ValueType::F64, 0.25);
    w.add_bool("bool", false);
    w.add_string("str", "text");
    const uint8_t bools[] = {1, 0};
    w.add_array("bools", ArrayValue::numbers(ValueType::Bool, bools, 2));
    const uint16_t shorts[] = {1, 2, 3};
    w.add_array("nested", ArrayValue::of_arrays({ArrayValue::numbers(ValueType::U16, shorts, 3),
                                                 ArrayValue::of_strings({"x", ""}),
                                                 ArrayValue::of_arrays({ArrayValue::of_strings({"deep"})})}));
    return w;
}

// One small tensor of every format skn implements, but one I2_S layout: a
// file records one (I2_S_G64 is GGUF type 36 too, under another key value).
// Two rows (a row-interleaved format: two groups of its R rows).
Writer every_format() {
    Writer w;
    for (const FormatTraits& f : all_formats())
        if (f.id != FormatId::I2_S_G64)
            add(w, f.name, f.id, {int64_t(f.block_elems), test::rows_for(f, 2)}, uint64_t(f.id));
    return w;
}

Writer aligned64_ternary() {
    Writer w;
    w.set_alignment(64);
    add(w, "ternary.weight", FormatId::I2_S, {128, 3}, 9);
    add(w, "tq.weight", FormatId::TQ2_0, {256, 1, 1, 2}, 10);
    return w;
}

void save(const std::string& dir, const std::string& name, const Writer& w) {
    w.write_file(dir + "/" + name);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    try {
        save(dir, "model.gguf", model());
        save(dir, "metadata.gguf", metadata());
        save(dir, "every_format.gguf", every_format());
        save(dir, "aligned64_ternary.gguf", aligned64_ternary());
        // The same model as GGUF v2.
        std::vector<uint8_t> v2 = model().to_bytes();
        v2[4] = 2;
        std::FILE* f = std::fopen((dir + "/model_v2.gguf").c_str(), "wb");
        if (f == nullptr || std::fwrite(v2.data(), 1, v2.size(), f) != v2.size()) throw std::runtime_error("write");
        std::fclose(f);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_gguf_seeds: %s\n", e.what());
        return 1;
    }
    std::printf("wrote 5 seed files to %s\n", dir.c_str());
    return 0;
}
