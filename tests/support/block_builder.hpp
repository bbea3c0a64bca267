// SPDX-License-Identifier: MIT
// Helpers for hand-built blocks in decode tests: write scales and codes at
// known byte offsets, then decode and compare against hand-computed floats.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/format.hpp"

namespace skn_core::test {

// Decode `nblocks` blocks of `f` with the table's decoder.
std::vector<float> decode_blocks(FormatId f, const std::vector<uint8_t>& bytes, float tensor_scale = 1.0f);

void put_u16(std::vector<uint8_t>& b, size_t at, uint16_t v);
void put_fp16(std::vector<uint8_t>& b, size_t at, float v);  // v must be exactly representable
void put_f32(std::vector<uint8_t>& b, size_t at, float v);

}  // namespace skn_core::test
