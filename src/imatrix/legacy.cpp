// SPDX-License-Identifier: MIT
// The legacy binary imatrix form (llama-imatrix --output-format dat).
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "imatrix/imatrix.hpp"
#include "runtime/error.hpp"

namespace skn_core::imatrix {

namespace {

// The smallest entry: a 1-byte name and one value (4 + 1 + 4 + 4 + 4 bytes).
// Bounds the entry count by the bytes present before anything is allocated.
constexpr uint64_t kMinEntryBytes = 17;

class LegacyParser {
public:
    LegacyParser(const uint8_t* data, size_t size, const std::string& source)
        : data_(data), size_(size), source_(source) {}

    Builder run() {
        Builder b;
        b.form = Form::Legacy;
        const int32_t n = read_i32("the entry count");
        if (n < 1)
            fail_at(0, "the entry count is {}: a legacy imatrix holds at least one entry (is this an imatrix file?)",
                    n);
        if (uint64_t(n) > (size_ - pos_) / kMinEntryBytes)
            fail_at(0, "the entry count {} is absurd for the file's size: {} entries need at least {} bytes but only "
                    "{} follow (a truncated file, or not an imatrix file)", n, n, uint64_t(n) * kMinEntryBytes,
                    size_ - pos_);
        b.entries.reserve(size_t(n));
        std::unordered_map<std::string, int32_t> seen;
        for (int32_t i = 0; i < n; ++i) b.entries.push_back(read_entry(i, seen));
        read_trailer(b);
        return b;
    }

private:
    template <typename... Args>
    [[noreturn]] void fail_at(uint64_t at, fmt::format_string<Args...> msg, Args&&... args) const {
        fail(SKN_E_FORMAT, "{}: byte {}: {}", source_, at, fmt::format(msg, std::forward<Args>(args)...));
    }

    void need(uint64_t n, const std::string& what) const {
        if (n > size_ - pos_)
            fail(SKN_E_FORMAT, "{}: truncated at byte {}: {} needs {} bytes but only {} remain", source_, pos_, what, n,
                 size_ - pos_);
    }

    int32_t read_i32(const std::string& what) {
        need(4, what);
        int32_t v;
        std::memcpy(&v, data_ + pos_, 4);
        pos_ += 4;
        return v;
    }

    Entry read_entry(int32_t i, std::unordered_map<std::string, int32_t>& seen) {
        const uint64_t start = pos_;
        const std::string label = fmt::format("entry #{}", i);
        const int32_t len = read_i32(label + "'s name length");
        if (len < 1 || uint64_t(len) > kMaxNameBytes)
            fail_at(start, "{}'s name length is {}: a name is 1 to {} bytes", label, len, kMaxNameBytes);
        need(uint64_t(len), label + "'s name");
        Entry e;
        e.name.assign(reinterpret_cast<const char*>(data_ + pos_), size_t(len));
        check_text(e.name, kMaxNameBytes, fmt::format("{}: byte {}", source_, pos_), label + "'s name");
        pos_ += uint64_t(len);
        const std::string who = fmt::format("{} \"{}\"", label, e.name);
        if (const auto [it, fresh] = seen.emplace(e.name, i); !fresh)
            fail_at(start, "{} repeats the name of entry #{}: every tensor has one entry (llama-quantize would keep "
                    "only the last)", who, it->second);
        const uint64_t ncall_at = pos_;
        const int32_t ncall = read_i32(who + "'s call count");
        if (ncall < 0) fail_at(ncall_at, "{} has a negative call count ({})", who, ncall);
        const uint64_t nval_at = pos_;
        const int32_t nval = read_i32(who + "'s value count");
        if (nval < 1) fail_at(nval_at, "{} has {} values: an entry holds at least one", who, nval);
        need(uint64_t(nval) * 4, fmt::format("{}'s {} values", who, nval));
        e.values.resize(size_t(nval));
        // llama-quantize divides each stored value by ncall (a float division
        // by ncall converted to float) and keeps them as stored when ncall is 0.
        const float divisor = static_cast<float>(ncall);
        for (int32_t k = 0; k < nval; ++k) {
            float v;
            std::memcpy(&v, data_ + pos_, 4);
            if (!std::isfinite(v) || v < 0.0f)
                fail_at(pos_, "{} value {} is {}: importance values are finite and not negative (means of squared "
                        "activations)", who, k, v);
            e.values[size_t(k)] = ncall > 0 ? v / divisor : v;
            pos_ += 4;
        }
        e.values_per_row = nval;
        e.matrices = 1;
        e.count = ncall;
        e.matrix_counts = {ncall};
        return e;
    }

    // Optional: older writers stop after the entries, or after the chunk count.
    void read_trailer(Builder& b) {
        if (pos_ == size_) return;
        const uint64_t at = pos_;
        const int32_t chunks = read_i32("the trailer's chunk count");
        if (chunks < 0) fail_at(at, "the trailer's chunk count is negative ({})", chunks);
        b.chunk_count = chunks;
        if (pos_ == size_) return;
        const uint64_t len_at = pos_;
        const int32_t len = read_i32("the trailer's dataset name length");
        if (len < 0 || uint64_t(len) > kMaxDatasetBytes)
            fail_at(len_at, "the dataset name length is {}: 0 to {} bytes are accepted", len, kMaxDatasetBytes);
        need(uint64_t(len), "the dataset name");
        std::string name(reinterpret_cast<const char*>(data_ + pos_), size_t(len));
        check_text(name, kMaxDatasetBytes, fmt::format("{}: byte {}", source_, pos_), "the dataset name");
        pos_ += uint64_t(len);
        if (!name.empty()) b.datasets.push_back(std::move(name));
        if (pos_ != size_)
            fail_at(pos_, "{} bytes follow the dataset name, which ends a legacy imatrix file", size_ - pos_);
    }

    const uint8_t* data_;
    uint64_t size_;
    const std::string& source_;
    uint64_t pos_ = 0;
};

}  // namespace

Builder read_legacy(const uint8_t* data, size_t size, const std::string& source) {
    return LegacyParser(data, size, source).run();
}

}  // namespace skn_core::imatrix
