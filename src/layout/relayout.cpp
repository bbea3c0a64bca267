// SPDX-License-Identifier: MIT
#include "layout/relayout.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/checked.hpp"
#include "runtime/error.hpp"

namespace skn_core {
namespace {

size_t checked_size(const char* what, const void* src, size_t src_size, const void* dst, size_t dst_size,
                    int64_t rows, int64_t bpr, size_t bpb) {
    if (src == nullptr || dst == nullptr) fail(SKN_E_INVALID_ARGUMENT, "{}: src and dst must not be NULL", what);
    if (rows <= 0 || bpr <= 0 || bpb == 0)
        fail(SKN_E_INVALID_ARGUMENT, "{}: rows ({}), blocks per row ({}) and bytes per block ({}) must be positive",
             what, rows, bpr, bpb);
    constexpr std::string_view grid = "the byte size of the grid (rows * blocks_per_row * block bytes)";
    const uint64_t bytes = checked_mul(checked_mul(uint64_t(rows), uint64_t(bpr), grid), uint64_t(bpb), grid);
    if (src_size < bytes)
        fail(SKN_E_BUFFER_TOO_SMALL, "{}: a {} x {} grid of {}-byte blocks needs {} source bytes but {} were given",
             what, rows, bpr, bpb, bytes, src_size);
    if (dst_size < bytes)
        fail(SKN_E_BUFFER_TOO_SMALL,
             "{}: a {} x {} grid of {}-byte blocks needs {} destination bytes but {} were given", what, rows, bpr, bpb,
             bytes, dst_size);
    const auto* s = static_cast<const uint8_t*>(src);
    const auto* d = static_cast<const uint8_t*>(dst);
    if (s < d + bytes && d < s + bytes)
        fail(SKN_E_INVALID_ARGUMENT, "{}: src and dst overlap; the permutation cannot run in place", what);
    return size_t(bytes);
}

// Copy block (o, b) from index o*bpr+b to b*rows+o (forward) or back. Rows
// are taken in tiles so that each pass writes runs of kTile consecutive
// blocks on the INPUT_BLOCK_MAJOR side while reading kTile sequential streams
// on the ROW_MAJOR side: both sides stay cache- and prefetcher-friendly.
// kBytes > 0 is the block size known at compile time, so each copy becomes a
// few moves instead of a memcpy call (blocks are 17 to 292 bytes).
template <bool kForward, size_t kBytes>
void permute(const uint8_t* src, uint8_t* dst, int64_t rows, int64_t bpr, size_t bpb_runtime) {
    constexpr int64_t kTile = 64;
    const size_t bpb = kBytes > 0 ? kBytes : bpb_runtime;
    for (int64_t o0 = 0; o0 < rows; o0 += kTile) {
        const int64_t o1 = std::min(rows, o0 + kTile);
        for (int64_t b = 0; b < bpr; ++b) {
            for (int64_t o = o0; o < o1; ++o) {
                const size_t rm = size_t(o * bpr + b) * bpb;
                const size_t ibm = size_t(b * rows + o) * bpb;
                uint8_t* to = kForward ? dst + ibm : dst + rm;
                const uint8_t* from = kForward ? src + rm : src + ibm;
                if constexpr (kBytes > 0) std::memcpy(to, from, kBytes);
                else std::memcpy(to, from, bpb);
            }
        }
    }
}

template <bool kForward>
void permute_any(const uint8_t* src, uint8_t* dst, int64_t rows, int64_t bpr, size_t bpb) {
    switch (bpb) {  // every block size in the format table
#define SKN_BLOCK_SIZE(n) \
    case n: return permute<kForward, n>(src, dst, rows, bpr, bpb);
        SKN_BLOCK_SIZE(17) SKN_BLOCK_SIZE(18) SKN_BLOCK_SIZE(20) SKN_BLOCK_SIZE(22) SKN_BLOCK_SIZE(24)
        SKN_BLOCK_SIZE(32) SKN_BLOCK_SIZE(34) SKN_BLOCK_SIZE(36) SKN_BLOCK_SIZE(54) SKN_BLOCK_SIZE(66)
        SKN_BLOCK_SIZE(84) SKN_BLOCK_SIZE(110) SKN_BLOCK_SIZE(136) SKN_BLOCK_SIZE(144) SKN_BLOCK_SIZE(176)
        SKN_BLOCK_SIZE(210) SKN_BLOCK_SIZE(292)
#undef SKN_BLOCK_SIZE
        default: return permute<kForward, 0>(src, dst, rows, bpr, bpb);
    }
}

}  // namespace

void to_kernel_order(const void* src, size_t src_size, void* dst, size_t dst_size, int64_t rows,
                     int64_t blocks_per_row, size_t bytes_per_block) {
    checked_size("to_kernel_order", src, src_size, dst, dst_size, rows, blocks_per_row, bytes_per_block);
    permute_any<true>(static_cast<const uint8_t*>(src), static_cast<uint8_t*>(dst), rows, blocks_per_row, bytes_per_block);
}

void to_canonical_order(const void* src, size_t src_size, void* dst, size_t dst_size, int64_t rows,
                        int64_t blocks_per_row, size_t bytes_per_block) {
    checked_size("to_canonical_order", src, src_size, dst, dst_size, rows, blocks_per_row, bytes_per_block);
    permute_any<false>(static_cast<const uint8_t*>(src), static_cast<uint8_t*>(dst), rows, blocks_per_row,
                       bytes_per_block);
}

}  // namespace skn_core
