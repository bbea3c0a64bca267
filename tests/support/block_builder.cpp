// SPDX-License-Identifier: MIT
#include "support/block_builder.hpp"

#include <stdexcept>

#include "formats/half.hpp"

namespace skn_core::test {

std::vector<float> decode_blocks(FormatId id, const std::vector<uint8_t>& bytes, float tensor_scale) {
    const FormatTraits* f = find_format(id);
    if (f == nullptr || bytes.size() % size_t(f->block_bytes) != 0)
        throw std::invalid_argument("decode_blocks: not a whole number of blocks");
    const int64_t n = int64_t(bytes.size() / size_t(f->block_bytes));
    std::vector<float> out(size_t(n * f->block_elems));
    f->decode(bytes.data(), n, tensor_scale, out.data());
    return out;
}

void put_u16(std::vector<uint8_t>& b, size_t at, uint16_t v) { store_u16le(b.data() + at, v); }

void put_fp16(std::vector<uint8_t>& b, size_t at, float v) {
    const uint16_t h = f32_to_fp16(v);
    if (fp16_to_f32(h) != v) throw std::invalid_argument("put_fp16: value not exact in fp16");
    store_u16le(b.data() + at, h);
}

void put_f32(std::vector<uint8_t>& b, size_t at, float v) { store_f32le(b.data() + at, v); }

}  // namespace skn_core::test
