// SPDX-License-Identifier: MIT
#include "formats/tensor_codec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "formats/orientation.hpp"
#include "runtime/checked.hpp"
#include "runtime/error.hpp"
#include "runtime/pool_cache.hpp"
#include "runtime/row_ranges.hpp"

namespace skn_core {
namespace {

void check_shape(const FormatTraits& f, int64_t rows, int64_t n_per_row) {
    if (rows <= 0 || n_per_row <= 0)
        fail(SKN_E_INVALID_ARGUMENT, "shape [{}, {}] is empty or negative: both dimensions must be positive", rows,
             n_per_row);
    // [in, out] labelled as [rows, n_per_row]: name the orientation fix
    // rather than asking to pad rows (the guard throws only in that case).
    if (f.block_quantized && n_per_row % f.block_elems != 0 && rows % f.block_elems == 0)
        require_out_in(rows, n_per_row, f);
    if (n_per_row % f.block_elems != 0)
        fail(SKN_E_INVALID_ARGUMENT,
             "{} packs {} elements per block but a row has {} elements ({} blocks and {} left over); pad each row to "
             "a multiple of {}",
             f.name, f.block_elems, n_per_row, n_per_row / f.block_elems, n_per_row % f.block_elems, f.block_elems);
    if (rows % f.block_rows != 0)
        fail(SKN_E_INVALID_ARGUMENT,
             "{} interleaves {} rows per block, so the row count must be a multiple of {}; this tensor has {} rows "
             "(quantize it to {}, which takes any number of rows)",
             f.name, f.block_rows, f.block_rows, rows, find_format(f.interleaves)->name);
}

// Quantizes a row-interleaved tensor as the canonical format, R rows at a
// time, and interleaves each group: the bytes are the canonical quantizer's
// (the GGUF ecosystem's reference) moved, whatever the thread count.
void quantize_interleaved(const FormatTraits& f, const float* src, int64_t n_per_row, uint8_t* out,
                          const float* importance, const RowRanges& groups) {
    const FormatTraits& canon = *find_format(f.interleaves);
    const int64_t R = f.block_rows;
    const int64_t bpr = n_per_row / f.block_elems;
    const size_t share = size_t(f.block_bytes);                        // one row's bytes per block
    const size_t canon_row = size_t(n_per_row / canon.block_elems) * size_t(canon.block_bytes);
    const bool weighted = importance != nullptr && canon.quantize_row_weighted != nullptr;
    groups.run([&](int64_t, int64_t first, int64_t end) {
        std::vector<uint8_t> canonical(size_t(R) * canon_row);
        std::vector<const uint8_t*> parts(static_cast<size_t>(R));
        for (int64_t g = first; g < end; ++g) {
            for (int64_t k = 0; k < R; ++k) {
                const float* x = src + (g * R + k) * n_per_row;
                uint8_t* q = canonical.data() + size_t(k) * canon_row;
                if (weighted)
                    canon.quantize_row_weighted(x, n_per_row, q, importance);
                else
                    canon.quantize_row(x, n_per_row, q);
            }
            uint8_t* dst = out + size_t(g) * size_t(bpr) * f.tile_bytes();
            for (int64_t b = 0; b < bpr; ++b) {
                for (int64_t k = 0; k < R; ++k) parts[size_t(k)] = canonical.data() + size_t(k) * canon_row + size_t(b) * share;
                f.interleaved_codec->interleave(parts.data(), dst + size_t(b) * f.tile_bytes());
            }
        }
    });
}

// An importance weight scales how much an element's error counts: it must be
// a finite, non-negative number (an imatrix holds mean squared activations).
void check_importance(const float* importance, int64_t n) {
    for (int64_t c = 0; c < n; ++c)
        if (!std::isfinite(importance[c]) || importance[c] < 0.0f)
            fail(SKN_E_INVALID_ARGUMENT,
                 "importance[{}] is {}: importance weights must be finite and non-negative (an imatrix holds mean "
                 "squared activations); fix or drop that entry",
                 c, importance[c]);
}

}  // namespace

size_t quantized_size(const FormatTraits& f, int64_t rows, int64_t n_per_row) {
    check_shape(f, rows, n_per_row);
    const uint64_t blocks_per_row = uint64_t(n_per_row / f.block_elems);
    constexpr std::string_view what = "the byte size of n_rows * n_per_row elements";
    const uint64_t bytes = checked_add(
        checked_mul(checked_mul(uint64_t(rows), blocks_per_row, what), uint64_t(f.block_bytes), what),
        uint64_t(f.tensor_trailer_bytes), what);
    if (bytes > std::numeric_limits<size_t>::max())
        fail(SKN_E_INVALID_ARGUMENT, "a [{}, {}] {} tensor does not fit in memory", rows, n_per_row, f.name);
    return size_t(bytes);
}

void quantize_tensor(const FormatTraits& f, const float* src, int64_t rows, int64_t n_per_row, void* dst,
                     size_t dst_size, const float* importance, int threads) {
    if (src == nullptr || dst == nullptr) fail(SKN_E_INVALID_ARGUMENT, "src and dst must not be NULL");
    if (threads < 1 || threads > kMaxQuantizeThreads)
        fail(SKN_E_INVALID_ARGUMENT, "thread count {} is outside 1..{}", threads, kMaxQuantizeThreads);
    const FormatTraits& canonical = f.interleaved() ? *find_format(f.interleaves) : f;
    if (importance == nullptr && canonical.requires_importance())
        fail(SKN_E_INVALID_ARGUMENT,
             "{} needs importance weights (an imatrix) to quantize, as the reference quantizer does; pass one entry "
             "per column, or choose a format that does not need them",
             f.name);
    const size_t need = quantized_size(f, rows, n_per_row);
    if (dst_size < need)
        fail(SKN_E_BUFFER_TOO_SMALL, "a [{}, {}] {} tensor needs {} bytes but dst has {}", rows, n_per_row, f.name,
             need, dst_size);
    if (importance != nullptr) check_importance(importance, n_per_row);

    // A pool only when there is more than one row to share out; the calling
    // thread is one of the pool's threads. Leased from the process's idle
    // pools: a converter quantizes tensor after tensor, and starting and
    // joining threads for each small one would cost more than the work.
    // A row-interleaved format is quantized in groups of its R rows.
    const int64_t units = rows / f.block_rows;
    std::optional<PoolCache::Lease> pool;
    if (threads > 1 && units > 1) pool.emplace(PoolCache::shared().lease(int(std::min<int64_t>(threads, units))));
    const RowRanges ranges(rows, pool ? pool->get() : nullptr);

    // No block format can represent NaN or infinity; the reference
    // quantizers turn them into garbage, so refuse them by position before
    // anything is written. Each range finds its first; the first range that
    // found one holds the first in row-major order, whatever the split.
    if (f.block_quantized) {
        std::vector<int64_t> first_bad(size_t(ranges.count()), -1);
        ranges.run([&](int64_t range, int64_t first, int64_t end) {
            const float* x = src + first * n_per_row;
            const int64_t n = (end - first) * n_per_row;
            for (int64_t i = 0; i < n; ++i)
                if (!std::isfinite(x[i])) {
                    first_bad[size_t(range)] = first * n_per_row + i;
                    return;
                }
        });
        for (const int64_t at : first_bad)
            if (at >= 0)
                fail(SKN_E_INVALID_ARGUMENT,
                     "element [{}, {}] is {}: {} cannot represent non-finite values; clean the input first",
                     at / n_per_row, at % n_per_row, src[at], f.name);
    }

    auto* out = static_cast<uint8_t*>(dst);
    if (f.interleaved()) {
        quantize_interleaved(f, src, n_per_row, out, importance, RowRanges(units, pool ? pool->get() : nullptr));
        return;
    }
    if (f.quantize_tensor != nullptr) {
        f.quantize_tensor(src, rows, n_per_row, out, ranges);
        return;
    }
    const size_t row_bytes = size_t(n_per_row / f.block_elems) * size_t(f.block_bytes);
    // Formats whose reference ignores importance weights quantize as without.
    const bool weighted = importance != nullptr && f.quantize_row_weighted != nullptr;
    ranges.run([&](int64_t, int64_t first, int64_t end) {
        for (int64_t r = first; r < end; ++r) {
            if (weighted)
                f.quantize_row_weighted(src + r * n_per_row, n_per_row, out + size_t(r) * row_bytes, importance);
            else
                f.quantize_row(src + r * n_per_row, n_per_row, out + size_t(r) * row_bytes);
        }
    });
}

void dequantize_tensor(const FormatTraits& f, const void* src, size_t src_size, int64_t rows, int64_t n_per_row,
                       float* dst, size_t dst_count) {
    if (src == nullptr || dst == nullptr) fail(SKN_E_INVALID_ARGUMENT, "src and dst must not be NULL");
    const size_t need = quantized_size(f, rows, n_per_row);
    if (src_size < need)
        fail(SKN_E_BUFFER_TOO_SMALL, "a [{}, {}] {} tensor is {} bytes but src has only {}", rows, n_per_row, f.name,
             need, src_size);
    const uint64_t elems = uint64_t(rows) * uint64_t(n_per_row);  // cannot overflow: need did not
    if (dst_count < elems)
        fail(SKN_E_BUFFER_TOO_SMALL, "a [{}, {}] tensor decodes to {} floats but dst has room for {}", rows, n_per_row,
             elems, dst_count);
    const auto* in = static_cast<const uint8_t*>(src);
    const int64_t blocks_per_row = n_per_row / f.block_elems;
    const size_t row_bytes = size_t(blocks_per_row) * size_t(f.block_bytes);
    const float scale = f.read_tensor_scale != nullptr ? f.read_tensor_scale(in + need - f.tensor_trailer_bytes) : 1.0f;
    if (f.interleaved()) {
        // Each group of R rows is one row of blocks, each decoding to [R][block_elems].
        const int64_t R = f.block_rows, be = f.block_elems;
        std::vector<float> tile(size_t(R * be));
        for (int64_t g = 0; g < rows / R; ++g)
            for (int64_t b = 0; b < blocks_per_row; ++b) {
                f.decode(in + (size_t(g) * size_t(blocks_per_row) + size_t(b)) * f.tile_bytes(), 1, scale, tile.data());
                for (int64_t k = 0; k < R; ++k)
                    std::copy(tile.data() + k * be, tile.data() + (k + 1) * be, dst + (g * R + k) * n_per_row + b * be);
            }
        return;
    }
    for (int64_t r = 0; r < rows; ++r) f.decode(in + size_t(r) * row_bytes, blocks_per_row, scale, dst + r * n_per_row);
}

}  // namespace skn_core
