// SPDX-License-Identifier: MIT
#include "imatrix/imatrix.hpp"

#include <cstring>

#include "gguf/mapping.hpp"
#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace skn_core::imatrix {

namespace {

// The length of the UTF-8 sequence starting at s[i], or 0 when it is not a
// well-formed one (overlong forms, surrogates and code points past U+10FFFF
// included: a name that is not text would be printed and compared as junk).
size_t utf8_sequence(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    const uint8_t c = b(i);
    if (c < 0x80) return 1;
    size_t n = 0;
    uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

}  // namespace

void check_text(std::string_view text, size_t max_bytes, const std::string& source, const std::string& what) {
    if (text.size() > max_bytes)
        fail(SKN_E_FORMAT, "{}: {} is {} bytes long; at most {} are accepted (a longer one names no ggml tensor "
             "and points to a corrupt file)", source, what, text.size(), max_bytes);
    for (size_t i = 0; i < text.size();) {
        if (text[i] == '\0')
            fail(SKN_E_FORMAT, "{}: {} holds a NUL byte at byte {} of the name: names are text", source, what, i);
        const size_t n = utf8_sequence(text, i);
        if (n == 0)
            fail(SKN_E_FORMAT, "{}: {} is not valid UTF-8 (byte {} of the name, 0x{:02x}): the file is corrupt",
                 source, what, i, static_cast<uint8_t>(text[i]));
        i += n;
    }
}

std::unique_ptr<Imatrix> Imatrix::open(const std::string& path) {
    // Read into memory: everything is copied out while parsing, and a file
    // rewritten meanwhile must not SIGBUS the reader.
    const gguf::FileMapping mapping(path, /*read_into_memory=*/true);
    return read(mapping.data(), size_t(mapping.size()), path);
}

std::unique_ptr<Imatrix> Imatrix::read(const uint8_t* data, size_t size, const std::string& source) {
    if (data == nullptr && size != 0) fail(SKN_E_INVALID_ARGUMENT, "data must not be NULL");
    if (size == 0)
        fail(SKN_E_FORMAT, "{}: the input is empty: an imatrix file starts with the GGUF magic or a legacy entry count",
             source);
    // llama.cpp tries GGUF first and falls back to the legacy reader. The
    // magic decides here instead: a legacy file starting with "GGUF" would
    // claim over a billion entries, so a file with the magic that fails to
    // parse as GGUF is reported with the GGUF reason, not a legacy one.
    const bool gguf_magic = size >= 4 && std::memcmp(data, "GGUF", 4) == 0;
    Builder b = gguf_magic ? read_gguf_form(data, size, source) : read_legacy(data, size, source);
    std::unique_ptr<Imatrix> m(new Imatrix());
    m->form_ = b.form;
    m->entries_ = std::move(b.entries);
    m->datasets_ = std::move(b.datasets);
    m->chunk_count_ = b.chunk_count;
    m->chunk_size_ = b.chunk_size;
    m->index();
    log_debug("{}: imatrix ({} form), {} entries, {} datasets", source, gguf_magic ? "GGUF" : "legacy",
              m->entries_.size(), m->datasets_.size());
    return m;
}

void Imatrix::index() {
    by_name_.reserve(entries_.size());
    for (size_t i = 0; i < entries_.size(); ++i) by_name_.emplace(entries_[i].name, i);
}

std::optional<size_t> Imatrix::find(std::string_view name) const {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
}

}  // namespace skn_core::imatrix
