// SPDX-License-Identifier: MIT
// F32, F16, BF16: dense formats, one element per "block".
#include <cstring>

#include "formats/codecs.hpp"
#include "formats/half.hpp"

namespace skn_core::codec {

void decode_f32(const uint8_t* src, int64_t n, float, float* dst) {
    for (int64_t i = 0; i < n; ++i) dst[i] = load_f32le(src + 4 * i);
}
void quantize_row_f32(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t i = 0; i < n; ++i) store_f32le(dst + 4 * i, src[i]);
}

void decode_f16(const uint8_t* src, int64_t n, float, float* dst) {
    for (int64_t i = 0; i < n; ++i) dst[i] = load_fp16(src + 2 * i);
}
void quantize_row_f16(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t i = 0; i < n; ++i) store_fp16(dst + 2 * i, src[i]);
}

void decode_bf16(const uint8_t* src, int64_t n, float, float* dst) {
    for (int64_t i = 0; i < n; ++i) dst[i] = bf16_to_f32(load_u16le(src + 2 * i));
}
void quantize_row_bf16(const float* src, int64_t n, uint8_t* dst) {
    for (int64_t i = 0; i < n; ++i) store_u16le(dst + 2 * i, f32_to_bf16(src[i]));
}

}  // namespace skn_core::codec
