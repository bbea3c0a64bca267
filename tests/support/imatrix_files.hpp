// SPDX-License-Identifier: MIT
// Builders of llama.cpp imatrix files for tests and fuzz seeds: the GGUF form
// through skn's own GGUF writer, the legacy form byte by byte as
// llama-imatrix's save_imatrix_legacy lays it out. A spec is plain data, so a
// test can corrupt one field and write the file again.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "gguf/writer.hpp"

namespace skn_core::test {

struct ImatrixSpecEntry {
    std::string name;
    int64_t per_row = 0;
    std::vector<float> counts;  // one per matrix (GGUF); legacy uses ncall
    std::vector<float> sums;    // per_row * counts.size(), matrix after matrix
    int32_t ncall = 0;          // legacy only
    bool with_activation_sums = false;  // GGUF: also write NAME.in_sum
};

struct ImatrixSpec {
    std::vector<ImatrixSpecEntry> entries;
    std::vector<std::string> datasets{"wiki.train.raw", "c4-en-sample.txt"};
    uint32_t chunk_count = 100;
    uint32_t chunk_size = 512;
    bool write_datasets = true, write_chunk_count = true, write_chunk_size = true;
};

// Three entries of at least three 32-column blocks: a dense weight, a 3-D
// expert weight (4 experts, one never routed to: count 0) and a second dense
// one. Sums are exact small multiples so a few quotients are known by hand.
inline ImatrixSpec sample_imatrix_spec() {
    ImatrixSpec s;
    ImatrixSpecEntry q{"blk.0.attn_q.weight", 96, {512.0f}, {}, 10, true};
    for (int i = 0; i < 96; ++i) q.sums.push_back(float(i % 7) * 512.0f + float(i) * 0.75f);
    ImatrixSpecEntry x{"blk.0.ffn_up_exps.weight", 64, {300.0f, 0.0f, 3.0f, 1024.0f}, {}, 4, false};
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 64; ++i) x.sums.push_back(j == 1 ? 0.0f : float((i * 37 + j * 11) % 101) + 1.0f);
    ImatrixSpecEntry d{"blk.1.ffn_down.weight", 128, {77.0f}, {}, 3, false};
    for (int i = 0; i < 128; ++i) d.sums.push_back(float(i) / 8.0f);
    s.entries = {q, x, d};
    return s;
}

inline std::vector<uint8_t> f32_bytes(const std::vector<float>& v) {
    std::vector<uint8_t> b(v.size() * 4);
    if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

inline std::vector<uint8_t> imatrix_gguf_bytes(const ImatrixSpec& s) {
    gguf::Writer w;
    w.add_string("general.type", "imatrix");
    if (s.write_datasets) w.add_array("imatrix.datasets", gguf::ArrayValue::of_strings(s.datasets));
    if (s.write_chunk_count) w.add_scalar("imatrix.chunk_count", gguf::ValueType::U32, s.chunk_count);
    if (s.write_chunk_size) w.add_scalar("imatrix.chunk_size", gguf::ValueType::U32, s.chunk_size);
    for (const ImatrixSpecEntry& e : s.entries) {
        const auto m = int64_t(e.counts.size());
        const int64_t sums_ne[2] = {e.per_row, m};
        const int64_t counts_ne[2] = {1, m};
        w.add_raw_tensor(e.name + ".in_sum2", 0, sums_ne, f32_bytes(e.sums));
        w.add_raw_tensor(e.name + ".counts", 0, counts_ne, f32_bytes(e.counts));
        if (e.with_activation_sums) {
            std::vector<float> act(e.sums.size());
            for (size_t i = 0; i < act.size(); ++i) act[i] = float(i % 5) - 2.0f;
            w.add_raw_tensor(e.name + ".in_sum", 0, sums_ne, f32_bytes(act));
        }
    }
    return w.to_bytes();
}

// Little-endian fields in file order.
class LegacyBytes {
public:
    LegacyBytes& i32(int32_t v) { return put(&v, 4); }
    LegacyBytes& f32(float v) { return put(&v, 4); }
    LegacyBytes& raw(const std::string& s) { return put(s.data(), s.size()); }
    LegacyBytes& name(const std::string& s) {
        i32(int32_t(s.size()));
        return raw(s);
    }
    std::vector<uint8_t> bytes;

private:
    LegacyBytes& put(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        bytes.insert(bytes.end(), b, b + n);
        return *this;
    }
};

// As save_imatrix_legacy writes: entry count, then per entry name length,
// name, ncall, nval, values; then the chunk count and the dataset name.
// The values are stored as given (the writer's (sum / count) * ncall
// scaling is the caller's business).
inline std::vector<uint8_t> imatrix_legacy_bytes(const ImatrixSpec& s, bool trailer = true) {
    LegacyBytes b;
    b.i32(int32_t(s.entries.size()));
    for (const ImatrixSpecEntry& e : s.entries) {
        b.name(e.name).i32(e.ncall).i32(int32_t(e.sums.size()));
        for (float v : e.sums) b.f32(v);
    }
    if (trailer) b.i32(int32_t(s.chunk_count)).name(s.datasets.empty() ? std::string() : s.datasets[0]);
    return b.bytes;
}

}  // namespace skn_core::test
