// SPDX-License-Identifier: MIT
// Malformed GGUF files: truncations, flipped bytes and hostile counts,
// lengths, dimensions and offsets. Every case must end in an error with a
// message or (for a harmless change) a file that opens and can be walked
// end to end; never a crash or a read out of bounds (run under ASan/UBSan).
// Each mutated file is a fresh heap buffer of exactly its size, so a read
// past the end is caught by AddressSanitizer.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "fixtures/sample_weight.hpp"
#include "formats/format.hpp"
#include "formats/tensor_codec.hpp"
#include "gguf/reader.hpp"
#include "gguf/writer.hpp"
#include "gguf_test_util.hpp"

namespace skn_core::gguf {
namespace {

using test::contains;
using test::poke_u32;
using test::poke_u64;

std::vector<uint8_t> quantized(FormatId id, int64_t rows, int64_t cols) {
    const FormatTraits& f = *find_format(id);
    std::vector<float> src(size_t(rows * cols));
    sample_weight(src.data(), rows, cols, 3);
    std::vector<uint8_t> q(quantized_size(f, rows, cols));
    quantize_tensor(f, src.data(), rows, cols, q.data(), q.size());
    return q;
}

// The valid file every case starts from: several value types and tensors.
const std::vector<uint8_t>& base_file() {
    static const std::vector<uint8_t> bytes = [] {
        Writer w;
        w.add_string("general.architecture", "llama");
        w.add_scalar<uint32_t>("llama.context_length", ValueType::U32, 4096);
        w.add_scalar<float>("llama.rope.freq_base", ValueType::F32, 10000.0f);
        w.add_bool("general.flag", true);
        w.add_array("tokenizer.ggml.tokens", ArrayValue::of_strings({"<s>", "</s>", "hello", "world"}));
        const uint8_t types[] = {1, 1, 2, 3};
        w.add_array("tokenizer.ggml.token_type", ArrayValue::numbers(ValueType::U8, types, 4));
        const int32_t ids[] = {5, 6};
        w.add_array("a.nested", ArrayValue::of_arrays({ArrayValue::numbers(ValueType::I32, ids, 2),
                                                       ArrayValue::of_strings({"x"})}));
        const int64_t ne_q8[] = {64, 3};
        const int64_t ne_f32[] = {16};
        const int64_t ne_q4k[] = {256, 2};
        w.add_tensor("blk.0.attn_q.weight", *find_format(FormatId::Q8_0), ne_q8, quantized(FormatId::Q8_0, 3, 64));
        const auto f32 = quantized(FormatId::F32, 1, 16);
        w.add_tensor("blk.0.attn_norm.weight", *find_format(FormatId::F32), ne_f32, f32);
        w.add_tensor("blk.0.ffn_down.weight", *find_format(FormatId::Q4_K), ne_q4k, quantized(FormatId::Q4_K, 2, 256));
        return w.to_bytes();
    }();
    return bytes;
}

const File& base() {
    static const auto f = File::open_memory(base_file().data(), base_file().size());
    return *f;
}

uint64_t end_of_infos() {
    const File& f = base();
    const Tensor& last = f.tensors().back();
    return last.info_offset + 8 + last.name.size() + 4 + 8 * uint64_t(last.rank) + 4 + 8;
}

// Touch every byte a successfully opened file hands out.
uint64_t walk(const File& f) {
    uint64_t sum = 0;
    for (size_t i = 0; i < f.tensors().size(); ++i) {
        const Tensor& t = f.tensors()[i];
        sum += t.name.size() + uint64_t(f.shape(t)[0]);
        if (t.type.block_elems == 0) continue;
        for (uint8_t b : f.tensor_data(int64_t(i))) sum += b;
    }
    for (size_t k = 0; k < f.kvs().size(); ++k) {
        const KeyValue& kv = f.kvs()[k];
        if (kv.type == ValueType::String) {
            for (char c : f.string(int64_t(k))) sum += uint8_t(c);
        } else if (kv.type == ValueType::Array) {
            std::vector<uint64_t> pending{k};
            while (!pending.empty()) {
                const uint64_t id = pending.back();
                pending.pop_back();
                const ArrayNode& a = f.array(id);
                if (is_fixed_size(a.element_type)) {
                    for (uint8_t b : f.array_bytes(id)) sum += b;
                } else {
                    for (uint64_t i = 0; i < a.count; ++i) {
                        if (a.element_type == ValueType::String)
                            for (char c : f.array_string(id, i)) sum += uint8_t(c);
                        else
                            pending.push_back(f.array_nested(id, i));
                    }
                }
            }
        } else {
            sum += f.bytes()[kv.value_offset];
        }
    }
    return sum;
}

enum class Outcome { Opened, Refused };

// Open a private copy of `bytes`; an error must carry a message.
Outcome try_open(const std::vector<uint8_t>& bytes, std::string* message = nullptr) {
    const std::vector<uint8_t> copy(bytes);  // exactly sized: ASan sees any overread
    try {
        const auto f = File::open_memory(copy.data(), copy.size());
        walk(*f);
        return Outcome::Opened;
    } catch (const Error& e) {
        EXPECT_STRNE(e.what(), "");
        EXPECT_TRUE(e.status() == SKN_E_FORMAT || e.status() == SKN_E_UNSUPPORTED) << e.what();
        if (message) *message = e.what();
        return Outcome::Refused;
    }
}

TEST(GgufCorruption, BaseFileIsValid) {
    EXPECT_EQ(base().tensors().size(), 3u);
    EXPECT_EQ(base().kvs().size(), 7u);
    EXPECT_EQ(try_open(base_file()), Outcome::Opened);
}

TEST(GgufCorruption, EveryTruncationOfTheHeaderIsRefused) {
    const auto& full = base_file();
    for (uint64_t n = 0; n <= end_of_infos(); ++n) {
        std::string msg;
        const std::vector<uint8_t> cut(full.begin(), full.begin() + std::ptrdiff_t(n));
        ASSERT_EQ(try_open(cut, &msg), Outcome::Refused) << "truncated at " << n;
        ASSERT_FALSE(msg.empty());
    }
}

TEST(GgufCorruption, TruncationsInsideTensorDataAreRefused) {
    const auto& full = base_file();
    for (const Tensor& t : base().tensors()) {
        for (uint64_t n : {t.offset, t.offset + 1, t.offset + t.size / 2, t.offset + t.size - 1}) {
            std::string msg;
            const std::vector<uint8_t> cut(full.begin(), full.begin() + std::ptrdiff_t(n));
            ASSERT_EQ(try_open(cut, &msg), Outcome::Refused) << t.name << " cut at " << n;
            EXPECT_TRUE(contains(msg, "byte")) << msg;
        }
    }
}

TEST(GgufCorruption, FlippedHeaderBytesNeverCrash) {
    const auto& full = base_file();
    int refused = 0, opened = 0;
    for (uint64_t at = 0; at < end_of_infos(); ++at) {
        for (uint8_t mask : {uint8_t(0xFF), uint8_t(0x01)}) {
            std::vector<uint8_t> bad(full);
            bad[at] ^= mask;
            (try_open(bad) == Outcome::Refused ? refused : opened)++;
        }
    }
    // Most flips break the structure; some (a name or text byte) are harmless.
    EXPECT_GT(refused, 0);
    EXPECT_GT(opened, 0);
}

// Set one field and require a refusal whose message contains `needle`.
void expect_refused(uint64_t at, uint64_t value, int width, const char* needle, const char* what) {
    std::vector<uint8_t> bad(base_file());
    if (width == 8)
        poke_u64(bad, at, value);
    else
        poke_u32(bad, at, uint32_t(value));
    std::string msg;
    ASSERT_EQ(try_open(bad, &msg), Outcome::Refused) << what << " = " << value;
    EXPECT_TRUE(needle == nullptr || contains(msg, needle)) << what << " = " << value << ": " << msg;
}

constexpr uint64_t kAllOnes = 0xFFFFFFFFFFFFFFFFull;
constexpr uint64_t k2Pow63 = uint64_t(1) << 63;

TEST(GgufCorruption, HostileCountsFailFast) {
    for (uint64_t v : {kAllOnes, k2Pow63, uint64_t(1) << 40, uint64_t(base_file().size())}) {
        expect_refused(8, v, 8, "tensor count", "tensor count");
        expect_refused(16, v, 8, "metadata count", "kv count");
    }
    // Fewer pairs than written: the rest is misread as tensor infos.
    expect_refused(16, 0, 8, nullptr, "kv count");
    expect_refused(16, 3, 8, nullptr, "kv count");
    // More tensors than written: the data section is read as infos.
    expect_refused(8, 4, 8, nullptr, "tensor count");
}

TEST(GgufCorruption, TensorCountZeroIsAValidMetadataOnlyFile) {
    std::vector<uint8_t> bad(base_file());
    poke_u64(bad, 8, 0);
    // The tensor infos are then trailing bytes after the metadata, which a
    // metadata-only file may have.
    const auto f = File::open_memory(bad.data(), bad.size());
    EXPECT_EQ(f->tensors().size(), 0u);
    EXPECT_EQ(f->kvs().size(), 7u);
}

TEST(GgufCorruption, HostileLengthsFailFast) {
    const File& f = base();
    const KeyValue& arch = f.kvs()[0];
    const KeyValue& tokens = f.kvs()[*f.find_key("tokenizer.ggml.tokens")];
    const KeyValue& types = f.kvs()[*f.find_key("tokenizer.ggml.token_type")];
    const KeyValue& nested = f.kvs()[*f.find_key("a.nested")];
    const ArrayNode& tok = f.array(*f.find_key("tokenizer.ggml.tokens"));
    const ArrayNode& typ = f.array(*f.find_key("tokenizer.ggml.token_type"));
    const ArrayNode& nest = f.array(*f.find_key("a.nested"));
    const uint64_t rest = base_file().size();
    for (uint64_t v : {kAllOnes, k2Pow63, rest, uint64_t(1) << 61, (uint64_t(1) << 61) + 1}) {
        expect_refused(arch.offset, v, 8, "key #0", "key length");
        expect_refused(arch.value_offset - 8, v, 8, "general.architecture", "string value length");
        expect_refused(tok.offset - 8, v, 8, "tokenizer.ggml.tokens", "string array count");
        expect_refused(tok.items[2], v, 8, "tokenizer.ggml.tokens", "string array element length");
        expect_refused(typ.offset - 8, v, 8, "tokenizer.ggml.token_type", "u8 array count");
        expect_refused(nest.offset - 8, v, 8, "a.nested", "array-of-arrays count");
        expect_refused(f.tensors()[1].info_offset, v, 8, nullptr, "tensor name length");
    }
    // Zero: an empty key is refused; zero-length arrays and strings shift the
    // parse so that later fields are misread.
    expect_refused(arch.offset, 0, 8, "empty", "key length");
    expect_refused(arch.value_offset - 8, 0, 8, nullptr, "string value length");
    expect_refused(tok.offset - 8, 0, 8, nullptr, "string array count");
    expect_refused(typ.offset - 8, 0, 8, nullptr, "u8 array count");
    expect_refused(nest.offset - 8, 0, 8, nullptr, "array-of-arrays count");
    // Types: not a value type, and arrays of an invalid element type.
    expect_refused(tokens.offset + 8 + tokens.key.size(), 13, 4, "not a GGUF value type", "value type");
    expect_refused(types.offset + 8 + types.key.size(), 0xFFFFFFFF, 4, "not a GGUF value type", "value type");
    expect_refused(typ.offset - 12, 99, 4, "not a GGUF value type", "array element type");
    expect_refused(nested.offset + 8 + nested.key.size() + 4, 77, 4, "not a GGUF value type", "element type");
    // A bool that is not 0 or 1.
    const KeyValue& flag = f.kvs()[*f.find_key("general.flag")];
    std::vector<uint8_t> bad(base_file());
    bad[flag.value_offset] = 2;
    std::string msg;
    ASSERT_EQ(try_open(bad, &msg), Outcome::Refused);
    EXPECT_TRUE(contains(msg, "0 or 1")) << msg;
}

TEST(GgufCorruption, HostileDimensionsFailFast) {
    const File& f = base();
    for (size_t i = 0; i < f.tensors().size(); ++i) {
        const Tensor& t = f.tensors()[i];
        const uint64_t rank_at = t.info_offset + 8 + t.name.size();
        const uint64_t ne_at = rank_at + 4;
        const uint64_t type_at = ne_at + 8 * uint64_t(t.rank);
        const uint64_t offset_at = type_at + 4;
        const std::string name = "\"" + t.name + "\"";
        for (uint64_t v : {uint64_t(0), uint64_t(5), uint64_t(0xFFFFFFFF)})
            expect_refused(rank_at, v, 4, name.c_str(), "rank");
        for (uint64_t v : {uint64_t(0), kAllOnes, k2Pow63, uint64_t(1) << 62})
            expect_refused(ne_at, v, 8, name.c_str(), "ne[0]");
        if (t.rank >= 2) {
            // Each dimension fits but the product overflows.
            std::vector<uint8_t> bad(base_file());
            poke_u64(bad, ne_at, uint64_t(1) << 32);
            poke_u64(bad, ne_at + 8, uint64_t(1) << 32);
            std::string msg;
            ASSERT_EQ(try_open(bad, &msg), Outcome::Refused);
            EXPECT_TRUE(contains(msg, "overflows")) << msg;
            // The element count fits in 63 bits but not in the file.
            poke_u64(bad, ne_at, 256);
            poke_u64(bad, ne_at + 8, uint64_t(1) << 54);
            ASSERT_EQ(try_open(bad, &msg), Outcome::Refused);
            EXPECT_TRUE(contains(msg, name)) << msg;
        }
        // Types: unknown ids are unsupported; known ones of the wrong size do
        // not fit where the tensor is.
        for (uint64_t v : {uint64_t(1234), uint64_t(0xFFFFFFFF), uint64_t(4)})
            expect_refused(type_at, v, 4, name.c_str(), "type");
        for (uint64_t v : {kAllOnes, k2Pow63, uint64_t(base_file().size()), t.relative_offset + 1,
                           t.relative_offset + 32 * 1024})
            expect_refused(offset_at, v, 8, name.c_str(), "offset");
    }
    // Two tensors at the same place.
    const Tensor& second = f.tensors()[1];
    const uint64_t offset_at = second.info_offset + 8 + second.name.size() + 4 + 8 * uint64_t(second.rank) + 4;
    expect_refused(offset_at, 0, 8, "overlaps", "offset");
}

TEST(GgufCorruption, HostileAlignment) {
    // general.alignment as written by a hostile file: inserted at the front.
    for (uint32_t v : {0u, 1u, 7u, 0x80000001u}) {
        test::RawGguf r;
        r.header(3, 1, 1).kv_u32("general.alignment", v).tensor("t", {4}, 0, 0).zeros(64);
        std::string msg;
        ASSERT_EQ(try_open(r.bytes, &msg), Outcome::Refused) << v;
        EXPECT_TRUE(contains(msg, "general.alignment")) << msg;
    }
    // A huge but valid alignment puts the data section past the end.
    test::RawGguf r;
    r.header(3, 1, 1).kv_u32("general.alignment", 0x80000000u).tensor("t", {4}, 0, 0).zeros(64);
    std::string msg;
    ASSERT_EQ(try_open(r.bytes, &msg), Outcome::Refused);
    EXPECT_TRUE(contains(msg, "data section")) << msg;
}

}  // namespace
}  // namespace skn_core::gguf
