// SPDX-License-Identifier: MIT
// The GGUF imatrix form (llama-imatrix's default output).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "gguf/reader.hpp"
#include "imatrix/imatrix.hpp"
#include "runtime/error.hpp"

namespace skn_core::imatrix {

namespace {

constexpr std::string_view kSums = ".in_sum2";
constexpr std::string_view kCounts = ".counts";
constexpr std::string_view kActivationSums = ".in_sum";  // newer writers; not used for importance
constexpr const char* kDatasetsKey = "imatrix.datasets";
constexpr const char* kChunkCountKey = "imatrix.chunk_count";
constexpr const char* kChunkSizeKey = "imatrix.chunk_size";
constexpr int32_t kF32 = 0;
// Counts are whole numbers of activation rows; one past 2^53 can no longer be
// told from its neighbours in a float and is no real calibration run.
constexpr double kMaxCount = 9007199254740992.0;

struct Parts {
    std::optional<size_t> sums, counts, activation_sums;
};

bool strip_suffix(std::string& name, std::string_view suffix) {
    if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return false;
    name.resize(name.size() - suffix.size());
    return true;
}

class GgufFormReader {
public:
    GgufFormReader(const gguf::File& f, const std::string& source) : f_(f), source_(source) {}

    Builder run() {
        Builder b;
        b.form = Form::Gguf;
        read_metadata(b);
        std::map<std::string, Parts> parts;  // ordered: entries come out sorted by name, as llama.cpp walks them
        for (size_t i = 0; i < f_.tensors().size(); ++i) {
            std::string base = f_.tensors()[i].name;
            // The suffixes are tried in the order llama.cpp tries them; none is
            // a suffix of another, so the order only documents the match.
            if (strip_suffix(base, kSums))
                parts[base].sums = i;
            else if (strip_suffix(base, kCounts))
                parts[base].counts = i;
            else if (strip_suffix(base, kActivationSums))
                parts[base].activation_sums = i;
            // Any other tensor is ignored, as llama.cpp ignores it.
        }
        if (parts.empty())
            fail(SKN_E_FORMAT, "{}: no tensor is named <weight>.in_sum2 or <weight>.counts: this GGUF file holds no "
                 "importance matrix", source_);
        b.entries.reserve(parts.size());
        for (const auto& [name, p] : parts) b.entries.push_back(read_entry(name, p));
        return b;
    }

private:
    const gguf::Tensor& tensor(size_t i) const { return f_.tensors()[i]; }

    void read_metadata(Builder& b) {
        const auto datasets = f_.find_key(kDatasetsKey);
        const auto chunk_count = f_.find_key(kChunkCountKey);
        const auto chunk_size = f_.find_key(kChunkSizeKey);
        if (!datasets || !chunk_count || !chunk_size) {
            std::string what;
            for (auto [key, found] : {std::pair{kDatasetsKey, datasets.has_value()},
                                      std::pair{kChunkCountKey, chunk_count.has_value()},
                                      std::pair{kChunkSizeKey, chunk_size.has_value()}})
                if (!found) what += fmt::format("{}{}", what.empty() ? "" : ", ", key);
            std::string hint;
            if (const auto t = f_.find_key("general.type"); t && f_.kv(int64_t(*t)).type == gguf::ValueType::String &&
                                                             f_.string(int64_t(*t)) != "imatrix")
                hint = fmt::format(" (its general.type is \"{}\", not \"imatrix\")", f_.string(int64_t(*t)));
            fail(SKN_E_FORMAT, "{}: missing imatrix metadata {}: llama-quantize refuses a GGUF imatrix without "
                 "imatrix.datasets, imatrix.chunk_count and imatrix.chunk_size{}", source_, what, hint);
        }
        const gguf::KeyValue& d = f_.kv(int64_t(*datasets));
        if (d.type != gguf::ValueType::Array || f_.array(*datasets).element_type != gguf::ValueType::String)
            fail(SKN_E_FORMAT, "{}: byte {}: {} must be an array of strings", source_, d.offset, kDatasetsKey);
        const gguf::ArrayNode& a = f_.array(*datasets);
        for (uint64_t i = 0; i < a.count; ++i) {
            const std::string_view s = f_.array_string(*datasets, i);
            check_text(s, kMaxDatasetBytes, fmt::format("{}: byte {}", source_, a.items[i]),
                       fmt::format("{}[{}]", kDatasetsKey, i));
            b.datasets.emplace_back(s);
        }
        b.chunk_count = read_u32(*chunk_count, kChunkCountKey);
        b.chunk_size = read_u32(*chunk_size, kChunkSizeKey);
    }

    int64_t read_u32(size_t key, const char* name) const {
        const gguf::KeyValue& kv = f_.kv(int64_t(key));
        if (kv.type != gguf::ValueType::U32)
            fail(SKN_E_FORMAT, "{}: byte {}: {} is a {}, but llama.cpp writes and reads it as a u32", source_,
                 kv.offset, name, gguf::value_type_name(kv.type));
        return f_.scalar<uint32_t>(int64_t(key), gguf::ValueType::U32);
    }

    void require_f32(const std::string& entry, size_t i) const {
        const gguf::Tensor& t = tensor(i);
        if (t.type.id != kF32)
            fail(SKN_E_FORMAT, "{}: byte {}: entry \"{}\": tensor \"{}\" is {}, but imatrix tensors are F32", source_,
                 t.info_offset, entry, t.name, t.type.name);
    }

    Entry read_entry(const std::string& name, const Parts& p) {
        const auto any = p.sums ? *p.sums : p.counts ? *p.counts : *p.activation_sums;
        const std::string at = fmt::format("{}: byte {}", source_, tensor(any).info_offset);
        if (name.empty())
            fail(SKN_E_FORMAT, "{}: tensor \"{}\" names no weight (nothing precedes the suffix)", at,
                 tensor(any).name);
        check_text(name, kMaxNameBytes, at, fmt::format("entry \"{}\"'s name", name));
        if (!p.sums || !p.counts)
            fail(SKN_E_FORMAT, "{}: entry \"{}\" has {} but no {}{}: sums and counts come in pairs", at, name,
                 p.sums ? name + std::string(kSums) : p.counts ? name + std::string(kCounts) : name + ".in_sum",
                 p.sums ? name + std::string(kCounts) : name + std::string(kSums),
                 !p.sums && !p.counts ? " nor " + name + std::string(kCounts) : "");
        require_f32(name, *p.sums);
        require_f32(name, *p.counts);
        const gguf::Tensor& sums = tensor(*p.sums);
        const gguf::Tensor& counts = tensor(*p.counts);
        if (sums.ne[2] != 1 || sums.ne[3] != 1)
            fail(SKN_E_FORMAT, "{}: byte {}: entry \"{}\": {} has shape [{}, {}, {}, {}]; llama-imatrix writes it "
                 "as [values per row, matrices]", source_, sums.info_offset, name, sums.name, sums.ne[0], sums.ne[1],
                 sums.ne[2], sums.ne[3]);
        const int64_t per_row = sums.ne[0];
        const int64_t matrices = sums.ne[1];
        if (counts.elements() != matrices)
            fail(SKN_E_FORMAT, "{}: byte {}: entry \"{}\": {} holds {} counts but {} has {} matrices (rows); one "
                 "count per matrix is needed", source_, counts.info_offset, name, counts.name, counts.elements(),
                 sums.name, matrices);
        if (p.activation_sums) {
            require_f32(name, *p.activation_sums);
            const gguf::Tensor& act = tensor(*p.activation_sums);
            if (act.elements() != sums.elements())
                fail(SKN_E_FORMAT, "{}: byte {}: entry \"{}\": {} holds {} values but {} holds {}; llama.cpp refuses "
                     "the mismatch", source_, act.info_offset, name, act.name, act.elements(), sums.name,
                     sums.elements());
        }
        Entry e;
        e.name = name;
        e.values_per_row = per_row;
        e.matrices = matrices;
        e.matrix_counts.resize(size_t(matrices));
        const uint8_t* cbytes = f_.tensor_data(int64_t(*p.counts)).data();
        const uint8_t* sbytes = f_.tensor_data(int64_t(*p.sums)).data();
        e.values.resize(size_t(per_row * matrices));
        for (int64_t j = 0; j < matrices; ++j) {
            float count;
            std::memcpy(&count, cbytes + 4 * j, 4);
            if (!std::isfinite(count) || count < 0.0f || count != std::floor(count) || count > kMaxCount)
                fail(SKN_E_FORMAT, "{}: byte {}: entry \"{}\": count {} (matrix {}) is not a whole number of "
                     "activation rows between 0 and 2^53", source_, counts.offset + 4 * uint64_t(j), name, count, j);
            e.matrix_counts[size_t(j)] = int64_t(count);
            e.count = std::max(e.count, int64_t(count));
            if (count == 0.0f) ++e.unused_matrices;
            for (int64_t i = 0; i < per_row; ++i) {
                const uint64_t k = uint64_t(j * per_row + i);
                float v;
                std::memcpy(&v, sbytes + 4 * k, 4);
                if (!std::isfinite(v) || v < 0.0f)
                    fail(SKN_E_FORMAT, "{}: byte {}: entry \"{}\": sum {} (matrix {}, column {}) is {}: sums of "
                         "squared activations are finite and not negative", source_, sums.offset + 4 * k, name, v, j,
                         i, v);
                // llama-quantize: the sum over the float count; a matrix that
                // never saw input (count 0, an expert calibration never routed
                // to) gets 1 everywhere, i.e. no preference between columns.
                e.values[size_t(k)] = count > 0.0f ? v / count : 1.0f;
            }
        }
        return e;
    }

    const gguf::File& f_;
    const std::string& source_;
};

}  // namespace

Builder read_gguf_form(const uint8_t* data, size_t size, const std::string& source) {
    gguf::OpenOptions opts;
    opts.orientation = gguf::Orientation::AsStored;
    // Tensors other than the sums and counts are ignored whatever their type;
    // the entries' own tensors are checked to be F32 above.
    opts.allow_unsupported = true;
    std::unique_ptr<gguf::File> f;
    try {
        f = gguf::File::open_memory(data, size, opts);
    } catch (const Error& e) {
        throw Error(e.status(), fmt::format("{}: imatrix in GGUF form: {}", source, e.what()));
    }
    return GgufFormReader(*f, source).run();
}

}  // namespace skn_core::imatrix
